// The replay page's verifier: re-checks an exported match log (docs/export-format.md) in the
// browser with WebCrypto alone, independently of the server's Python: the hash chain, the seed
// commitment and every die and shuffle from the revealed seed (docs/dice.md), and the server's
// Ed25519 seal against its published key. The same module runs under Node (its test).
//
// `decode` is a msgpack decoder (the vendored @msgpack/msgpack on the page): the stored bytes
// are decoded here, never taken from the server's reading of them.

const subtle = globalThis.crypto.subtle;
const utf8 = new TextEncoder();
const SEAL_PREFIX = "siegeworks match seal v1\n";

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

export function unhex(text) {
  if (typeof text !== "string" || !/^(?:[0-9a-f]{2})*$/.test(text)) {
    throw new Error(`not lowercase hex: ${String(text).slice(0, 40)}`);
  }
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

export async function sha256(bytes) {
  return new Uint8Array(await subtle.digest("SHA-256", bytes));
}

const hmacKeys = new Map();  // one imported key per draw key: a match draws hundreds of times

async function hmac(key, message) {
  const id = hex(key);
  let imported = hmacKeys.get(id);
  if (!imported) {
    imported = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false,
                                      ["sign"]);
    hmacKeys.set(id, imported);
  }
  return new Uint8Array(await subtle.sign("HMAC", imported, message));
}

// --- the derivation (docs/dice.md, sections 1 to 5) ------------------------------------------

export const commitment = async (seed) => hex(await sha256(seed));

export async function mixKey(seed, playerSeeds) {
  if (playerSeeds.length === 0) return seed;
  const hashed = await Promise.all(playerSeeds.map(sha256));
  return sha256(concat(seed, ...hashed));
}

export async function uniform(key, matchId, index, n) {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (let j = 0; ; j++) {
    const message = j === 0 ? `${matchId}:${index}` : `${matchId}:${index}:${j}`;
    const block = new DataView((await hmac(key, utf8.encode(message))).buffer);
    for (let w = 0; w < 8; w++) {
      const word = block.getUint32(4 * w, false);
      if (word < limit) return word % n;
    }
  }
}

export async function rolls(key, matchId, firstIndex, count, sides) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(1 + await uniform(key, matchId, firstIndex + i, sides));
  return out;
}

export async function shuffle(key, matchId, firstIndex, count) {
  const a = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i >= 1; i--) {
    const j = await uniform(key, matchId, firstIndex + (count - 1 - i), i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

// --- the log ---------------------------------------------------------------------------------

class Bad extends Error {
  constructor(seq, reason) { super(`seq ${seq}: ${reason}`); this.seq = seq; this.reason = reason; }
}

function base64(text) {
  const raw = atob(text);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function parseLines(text) {
  if (!text) throw new Bad(1, "the export is empty");
  const lines = text.split("\n");
  if (lines.pop() !== "") throw new Bad(lines.length, "the last line has no newline");
  return lines.map((line, i) => {
    let parsed;
    try { parsed = JSON.parse(line); } catch { throw new Bad(i + 1, "the line is not JSON"); }
    if (parsed === null || typeof parsed.hash !== "string" || typeof parsed.event !== "string"
        || parsed.seq !== i + 1) {
      throw new Bad(i + 1, "the line is not {seq, hash, event} with seq " + (i + 1));
    }
    try { return { seq: parsed.seq, hash: unhex(parsed.hash), stored: base64(parsed.event) }; }
    catch { throw new Bad(i + 1, "the line's hash or event is not hex or base64"); }
  });
}

// Walks the chain and collects what the dice check needs; throws Bad at the first break.
async function walk(lines, decode) {
  const found = { matchId: null, commitment: null, seeds: [], draws: [], revealed: null,
                  sealed: null, ended: false, entries: lines.length };
  let prev = new Uint8Array(32), open = null, nextRoll = 0;
  for (const { seq, hash, stored } of lines) {
    if (!same(await sha256(stored), hash)) throw new Bad(seq, "the stored bytes do not hash to the line's hash");
    let env;
    try { env = decode(stored); } catch { throw new Bad(seq, "the stored bytes are not a msgpack envelope"); }
    if (env === null || typeof env !== "object" || env.seq !== seq) throw new Bad(seq, "the envelope names another seq");
    if (!(env.prev instanceof Uint8Array) || !same(env.prev, prev)) {
      throw new Bad(seq, `the entry does not chain onto entry ${seq - 1}`);
    }
    found.matchId ??= env.match_id;
    if (env.match_id !== found.matchId) throw new Bad(seq, "the entry names another match");
    const ev = env.event ?? {};
    switch (ev.t) {
      case "dice.seed_committed":
        if (found.commitment !== null) throw new Bad(seq, "a second seed commitment");
        found.commitment = ev.commitment; break;
      case "dice.player_seed_added":
        if (found.commitment === null) throw new Bad(seq, "a player seed before the commitment");
        found.seeds.push(unhex(ev.seed)); break;
      case "chance.requested": open = { seq, kind: ev.kind, count: ev.count, sides: ev.sides }; break;
      case "chance.dice_rolled":
      case "chance.deck_shuffled": {
        if (found.commitment === null) throw new Bad(seq, "chance answered before the seed was committed");
        if (open === null || open.seq !== ev.request) throw new Bad(seq, "chance outcome answers no open request");
        if (ev.first_index !== nextRoll) throw new Bad(seq, `the draw starts at index ${ev.first_index}, not ${nextRoll}`);
        const dice = ev.t === "chance.dice_rolled";
        const got = dice ? ev.values : ev.order;
        if (!Array.isArray(got) || got.length !== open.count || (dice !== (open.kind === "dice"))) {
          throw new Bad(seq, "the outcome is not of the kind and size the request asked for");
        }
        found.draws.push({ seq, dice, first: ev.first_index, count: open.count, sides: open.sides,
                           got, seeds: found.seeds.length });
        nextRoll = ev.first_index + (dice ? got.length : Math.max(got.length - 1, 0));
        open = null; break;
      }
      case "match.ended": case "match.damaged": found.ended = true; break;
      case "dice.seed_revealed":
        if (!found.ended) throw new Bad(seq, "seed revealed before the match ended");
        found.revealed = { seq, seed: unhex(ev.seed) }; break;
      case "match.sealed":
        found.sealed = { seq, key: ev.key, signature: ev.signature, prev, at: env.at }; break;
      default: break;
    }
    prev = hash;
  }
  return found;
}

async function checkDice(found) {
  if (found.revealed === null) return found.draws.length ? "unrevealed" : "none";
  const { seq, seed } = found.revealed;
  if (found.commitment === null || await commitment(seed) !== found.commitment) {
    throw new Bad(seq, "the revealed seed does not match the commitment");
  }
  for (const draw of found.draws) {
    const key = await mixKey(seed, found.seeds.slice(0, draw.seeds));
    const want = draw.dice
      ? await rolls(key, found.matchId, draw.first, draw.count, draw.sides)
      : await shuffle(key, found.matchId, draw.first, draw.count);
    if (!same(want, draw.got)) throw new Bad(draw.seq, "the outcome differs from what the committed seed gives");
  }
  return "verified";
}

async function checkSeal(found, keys) {
  const sealed = found.sealed;
  if (sealed === null) return "unsigned";
  const record = keys?.[sealed.key];
  if (!record) return "unknown key";
  const publicKey = unhex(record.public);
  if (hex(await sha256(publicKey)).slice(0, 16) !== sealed.key) {
    throw new Bad(sealed.seq, "the published key does not have the seal's key id");
  }
  if (record.retired_ms && sealed.at > record.retired_ms) {
    throw new Bad(sealed.seq, "sealed after its key was retired");
  }
  const message = concat(utf8.encode(`${SEAL_PREFIX}${found.matchId}\n${sealed.seq - 1}\n`), sealed.prev);
  const key = await subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  if (!await subtle.verify({ name: "Ed25519" }, key, unhex(sealed.signature), message)) {
    throw new Bad(sealed.seq, "the seal's signature does not verify");
  }
  return "verified";
}

// The whole check of an export's text. Returns what was proved and, when something fails, the
// first bad sequence and why (a break in the chain stops there; the dice and the seal are
// checked on a whole chain).
export async function verifyExport(text, { decode, keys = {} }) {
  const result = { chain: "unchecked", dice: "unchecked", seal: "unchecked", dice_count: 0,
                   shuffles: 0, entries: 0, bad: null };
  let found;
  try {
    found = await walk(parseLines(text), decode);
    result.chain = "verified";
    result.entries = found.entries;
    result.dice_count = found.draws.filter((d) => d.dice).reduce((n, d) => n + d.count, 0);
    result.shuffles = found.draws.filter((d) => !d.dice).length;
    result.dice = await checkDice(found);
    result.seal = await checkSeal(found, keys);
  } catch (error) {
    if (!(error instanceof Bad)) throw error;
    result.bad = { seq: error.seq, reason: error.reason };
    if (result.chain !== "verified") result.chain = "broken";
    else if (result.dice !== "verified" && result.dice !== "none" && result.dice !== "unrevealed") {
      result.dice = "wrong";
    } else result.seal = "wrong";
  }
  result.summary = summary(result);
  return result;
}

const MARK = { verified: "✓", broken: "✗", wrong: "✗" };

export function summary(r) {
  const parts = [`chain ${MARK[r.chain] ?? r.chain}`];
  if (r.chain === "verified") {
    const draws = `${r.dice_count} dice, ${r.shuffles} shuffles`;
    parts.push(r.dice === "none" ? "no draws" : `dice ${MARK[r.dice] ?? r.dice} (${draws})`);
    if (r.dice === "verified" || r.dice === "none" || r.dice === "unrevealed") {
      parts.push(r.seal === "verified" ? "seal ✓" : `seal ${MARK[r.seal] ?? r.seal}`);
    }
  }
  const head = parts.join(", ");
  return r.bad ? `${head}: first bad entry seq ${r.bad.seq}: ${r.bad.reason}` : head;
}
