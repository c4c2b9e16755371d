// Siegeworks pages: the replay viewer's stepping, and the live pages' server-sent events.
"use strict";

function replayViewer(root) {
  const match = root.dataset.match, last = Number(root.dataset.last);
  const seqInput = document.getElementById("seq"), board = document.getElementById("board");
  const told = document.getElementById("told"), link = document.getElementById("link");
  const moves = Array.from(root.querySelectorAll("#moves li"));
  const moveSeqs = moves.map((li) => Number(li.dataset.seq));
  let seq = last;

  function show(target) {
    seq = Math.max(1, Math.min(last, target | 0));
    seqInput.value = seq;
    const asked = seq;
    fetch(`/matches/${encodeURIComponent(match)}/board.html?seq=${seq}`).then((r) => r.text()).then((html) => {
      if (asked !== seq) return;  // a later step overtook this one
      board.innerHTML = html;
      board.dataset.seq = asked;
    });
    link.href = `#seq=${seq}`;
    let current = null;
    for (const li of moves) {
      const at = Number(li.dataset.seq) === seq;
      li.classList.toggle("current", at);
      if (at) current = li;
    }
    told.textContent = current ? `${seq}: ${current.textContent}` : `${seq}: (no words: bookkeeping)`;
    if (current) current.scrollIntoView({ block: "nearest" });
    history.replaceState(null, "", `#seq=${seq}`);
  }
  const nextMove = () => moveSeqs.find((s) => s > seq) ?? last;
  const prevMove = () => [...moveSeqs].reverse().find((s) => s < seq) ?? 1;
  const steps = {
    first: () => show(1), last: () => show(last), next: () => show(seq + 1),
    prev: () => show(seq - 1), "next-move": () => show(nextMove()), "prev-move": () => show(prevMove()),
  };
  root.querySelectorAll("button[data-step]").forEach((b) =>
    b.addEventListener("click", () => steps[b.dataset.step]()));
  seqInput.addEventListener("change", () => show(Number(seqInput.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target === seqInput) return;
    const key = { ArrowRight: "next", ArrowLeft: "prev", PageDown: "next-move", PageUp: "prev-move",
                  Home: "first", End: "last" }[e.key];
    if (key) { e.preventDefault(); steps[key](); }
  });
  const fromHash = () => {
    const m = /seq=(\d+)/.exec(location.hash);
    show(m ? Number(m[1]) : last);
  };
  window.addEventListener("hashchange", fromHash);
  fromHash();
}

function spectator(root) {
  const match = root.dataset.match, status = document.getElementById("status");
  const lines = document.getElementById("lines"), board = document.getElementById("board");
  const source = new EventSource(`/matches/${encodeURIComponent(match)}/watch/events`);
  source.addEventListener("said", (e) => {
    lines.insertAdjacentHTML("beforeend", e.data);
    lines.scrollTop = lines.scrollHeight;
    status.textContent = "live";
  });
  source.addEventListener("board", (e) => { board.innerHTML = e.data; });
  source.addEventListener("over", (e) => { status.textContent = `the match is over (seq ${e.data})`; source.close(); });
  source.addEventListener("refused", (e) => { status.textContent = e.data; source.close(); });
}

function liveTournament(root) {
  if (root.dataset.live !== "yes") return;
  const source = new EventSource(`/tournaments/${encodeURIComponent(root.dataset.tournament)}/events`);
  source.addEventListener("standings", (e) => {
    root.innerHTML = e.data;
    if (document.getElementById("progress").textContent === "final") source.close();
  });
}

function playTable(root) {
  const match = encodeURIComponent(root.dataset.match);
  const turn = document.getElementById("turn"), lines = document.getElementById("lines");
  let clockTimer = null;

  function clock() {
    const shown = document.getElementById("clock");
    if (!shown) return;
    const left = Math.max(0, Math.round((Number(shown.dataset.deadline) - Date.now()) / 1000));
    const whole = Number(shown.dataset.clock) / 1000 || left;
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = String(left % 60).padStart(2, "0");
    const text = h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
    // A warning before the clock runs out: the last fifth of it, or the last 30 s of a long one.
    const late = left <= Math.min(30, Math.max(10, whole / 5));
    shown.textContent = late ? `${text} left on your clock: choose now, or you forfeit the match`
                             : `${text} left on your clock`;
    shown.classList.toggle("late", late);
    shown.setAttribute("role", late ? "alert" : "status");
  }
  function say(text) {
    turn.insertAdjacentHTML("afterbegin", '<p class="verdict" data-state="bad"></p>');
    turn.firstElementChild.textContent = text;
  }
  async function post(path, body) {
    const answer = await fetch(`/play/${match}/${path}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body ?? {}) });
    if (!answer.ok) say((await answer.json().catch(() => ({}))).error ?? answer.statusText);
    return answer.ok;
  }
  function line(text, kind) {
    const li = document.createElement("li");
    li.textContent = text;
    if (kind) li.className = kind;
    lines.append(li);
    lines.scrollTop = lines.scrollHeight;
  }
  function choose(decision, button) {
    turn.querySelectorAll("button.action, button.piece.pick").forEach((other) => { other.disabled = true; });
    line(`you chose: ${button.textContent}`, "mine");
    post("act", { decision: Number(decision), index: Number(button.dataset.index) });
  }
  function narrow(piece) {
    // Clicking a piece offers the actions that pick it: one is taken at once, several listed.
    const decision = turn.querySelector(".turn")?.dataset.decision;
    const id = piece.dataset.piece;
    const offered = Array.from(turn.querySelectorAll("button.action")).filter((b) => b.dataset.target === id);
    if (offered.length === 1) { choose(decision, offered[0]); return; }
    turn.querySelectorAll("button.piece.pick").forEach((p) => p.classList.toggle("chosen", p === piece));
    turn.querySelectorAll("#choices .actions li").forEach((li) => {
      li.hidden = li.querySelector("button").dataset.target !== id; });
    turn.querySelectorAll("#choices .group").forEach((g) => {
      g.hidden = !g.querySelector("li:not([hidden])"); });
    const picking = turn.querySelector(".picking");
    picking.hidden = false;
    turn.querySelector("#picked").textContent = `${piece.querySelector(".label").textContent}: ${offered.length} choices`;
    turn.querySelector("#choices").scrollIntoView({ block: "nearest" });
  }
  function everyChoice() {
    turn.querySelectorAll("#choices [hidden]").forEach((e) => { if (!e.classList.contains("picking")) e.hidden = false; });
    turn.querySelector(".picking").hidden = true;
    turn.querySelectorAll("button.piece.pick").forEach((p) => p.classList.remove("chosen"));
  }
  function ended() {
    // The end screen's "since your last turn": the lines after the person's last choice.
    const since = document.getElementById("since");
    if (!since) return;
    const all = Array.from(lines.children);
    const mine = all.map((li) => li.classList.contains("mine")).lastIndexOf(true);
    since.replaceChildren(...all.slice(mine + 1).filter((li) => !li.classList.contains("mine"))
      .map((li) => li.cloneNode(true)));
    if (!since.children.length) since.insertAdjacentHTML("beforeend", "<li>nothing: the match ended on your move</li>");
  }
  function wire() {
    clearInterval(clockTimer);
    clock();
    clockTimer = setInterval(clock, 1000);
    const decision = turn.querySelector(".turn")?.dataset.decision;
    turn.querySelectorAll("button.action").forEach((b) => b.addEventListener("click", () => choose(decision, b)));
    turn.querySelectorAll("button.piece.pick").forEach((p) => p.addEventListener("click", () => narrow(p)));
    turn.querySelector("#every-choice")?.addEventListener("click", everyChoice);
    if (turn.querySelector(".turn")?.dataset.over === "yes") ended();
  }
  document.getElementById("resign").addEventListener("click", () => {
    if (confirm("Resign this match? Your seat ranks last.")) post("resign");
  });
  const auto = document.getElementById("auto");
  auto.addEventListener("change", () => post("auto", { on: auto.checked }));
  const source = new EventSource(`/play/${match}/events`);
  source.addEventListener("turn", (e) => { turn.innerHTML = e.data; wire(); });
  source.addEventListener("taken", (e) => line(`taken by itself (the only choice): ${e.data}`, "mine auto"));
  source.addEventListener("missing", (e) => {
    turn.innerHTML = e.data ? '<p class="verdict" data-state="bad" id="missing"></p>'
                            : '<p class="status">waiting for your seat…</p>';
    if (e.data) turn.firstElementChild.textContent = e.data;
  });
  source.addEventListener("said", (e) => {
    lines.insertAdjacentHTML("beforeend", e.data);
    lines.scrollTop = lines.scrollHeight;
  });
  source.addEventListener("over", () => { clearInterval(clockTimer); source.close(); ended(); });
  source.addEventListener("refused", (e) => {
    turn.innerHTML = '<p class="verdict" data-state="bad"></p>';
    turn.firstElementChild.textContent = e.data;
    source.close();
  });
  wire();
}

function newMatchForm(form) {
  // The players field follows the chosen game's range, and starts at its usual count.
  const game = form.querySelector("select[name=game]"), players = form.querySelector("input[name=players]");
  const people = form.querySelector("input[name=people]");
  function follow() {
    const o = game.selectedOptions[0];
    players.min = o.dataset.min; players.max = o.dataset.max; players.value = o.dataset.usual;
    people.max = Math.max(0, Number(o.dataset.max) - 1);
    if (Number(people.value) > Number(players.value) - 1) people.value = 0;
  }
  game.addEventListener("change", follow);
  players.addEventListener("change", () => { people.max = Math.max(0, Number(players.value) - 1); });
}

const viewer = document.getElementById("viewer");
if (viewer) replayViewer(viewer);
const watching = document.getElementById("spectator");
if (watching) spectator(watching);
const tournament = document.getElementById("tournament");
if (tournament) liveTournament(tournament);
const table = document.getElementById("table");
if (table) playTable(table);
const newMatch = document.getElementById("new-match");
if (newMatch) newMatchForm(newMatch);
