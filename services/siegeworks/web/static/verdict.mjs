// Wires the verifier (verify.mjs) to the pages: the replay page checks its match's export as
// soon as it opens; the verify page checks a file the reader chooses. The verdict is written
// into the element and its data attributes (what the browser tests read).
import { verifyExport } from "/static/verify.mjs";

const keysOnce = (() => {
  let keys = null;
  return async () => (keys ??= await (await fetch("/keys.json")).json());
})();

async function show(element, text) {
  element.textContent = "checking in your browser…";
  element.dataset.state = "checking";
  try {
    const result = await verifyExport(text, { decode: MessagePack.decode, keys: await keysOnce() });
    element.textContent = `Checked in your browser: ${result.summary}`;
    element.dataset.state = result.bad ? "bad" : "good";
    element.dataset.chain = result.chain;
    element.dataset.dice = result.dice;
    element.dataset.seal = result.seal;
    element.dataset.badSeq = result.bad ? String(result.bad.seq) : "";
  } catch (error) {
    element.textContent = `The check could not run: ${error}`;
    element.dataset.state = "error";
  }
}

const onReplay = document.getElementById("verdict");
if (onReplay?.dataset.export) {
  fetch(onReplay.dataset.export).then((r) => r.text()).then((text) => show(onReplay, text));
}
const picker = document.getElementById("export-file");
if (picker) {
  const out = document.getElementById("file-verdict");
  picker.addEventListener("change", async () => {
    const file = picker.files[0];
    if (file) await show(out, await file.text());
  });
}
