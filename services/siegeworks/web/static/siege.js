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
    board.src = `/matches/${encodeURIComponent(match)}/board.svg?seq=${seq}`;
    board.alt = `the board after seq ${seq}`;
    board.dataset.seq = seq;
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
  source.addEventListener("board", (e) => {
    board.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(e.data);
  });
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
    shown.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left on your clock`;
    shown.classList.toggle("late", left <= 30);
  }
  async function post(path, body) {
    const answer = await fetch(`/play/${match}/${path}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body ?? {}) });
    if (!answer.ok) {
      const said = (await answer.json().catch(() => ({}))).error ?? answer.statusText;
      turn.insertAdjacentHTML("afterbegin", `<p class="verdict" data-state="bad"></p>`);
      turn.firstElementChild.textContent = said;
    }
  }
  function wire() {
    clearInterval(clockTimer);
    clock();
    clockTimer = setInterval(clock, 1000);
    const decision = turn.querySelector(".turn")?.dataset.decision;
    turn.querySelectorAll("button.action").forEach((b) => b.addEventListener("click", () => {
      turn.querySelectorAll("button.action").forEach((other) => { other.disabled = true; });
      post("act", { decision: Number(decision), index: Number(b.dataset.index) });
    }));
  }
  document.getElementById("resign").addEventListener("click", () => {
    if (confirm("Resign this match? Your seat ranks last.")) post("resign");
  });
  const source = new EventSource(`/play/${match}/events`);
  source.addEventListener("turn", (e) => { turn.innerHTML = e.data; wire(); });
  source.addEventListener("said", (e) => {
    lines.insertAdjacentHTML("beforeend", e.data);
    lines.scrollTop = lines.scrollHeight;
  });
  source.addEventListener("over", () => { clearInterval(clockTimer); source.close(); });
  source.addEventListener("refused", (e) => {
    turn.innerHTML = '<p class="verdict" data-state="bad"></p>';
    turn.firstElementChild.textContent = e.data;
    source.close();
  });
  wire();
}

const viewer = document.getElementById("viewer");
if (viewer) replayViewer(viewer);
const watching = document.getElementById("spectator");
if (watching) spectator(watching);
const tournament = document.getElementById("tournament");
if (tournament) liveTournament(tournament);
const table = document.getElementById("table");
if (table) playTable(table);
