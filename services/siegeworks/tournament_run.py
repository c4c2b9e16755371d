"""Runs a tournament through the services: pair a round, play its matches concurrently with bot
clients, record the results in the tournament's stream, pair the next; resumable at any point
because every step is re-derived from that stream.

A table whose match was damaged (``siege damage``) is recorded as damaged and counts for nobody;
the tournament goes on without it. Replays are explicit: a run with ``replay_damaged``
(``siege tournament ... --replay-damaged``) first plays every damaged table of an unfinished
tournament again, once per run, under ``<table id>-replay<N>``, same seats, and records that
result for the table; rounds paired meanwhile stand. Not automatic, since a damage is an
operator's call and the cause (a service, a client) may need fixing before a replay can finish.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from redis.asyncio import Redis

from siege.archive.reading import ArchivingLog
from siege.contracts.events import Event
from siege.contracts.messages import MatchFinished, TournamentEnded
from siege.hosting.clock import Clock
from siege.hosting.lobby import OPEN
from siege.tournament.events import (
    EntrantRegistered,
    Format,
    MatchRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentFinished,
    match_id_for,
    table_id_of,
)
from siege.tournament.formats import pair_next, total_rounds
from siege.tournament.state import TournamentState, outside_entrants, tournament_id_for
from siege.tournament.store import TournamentStore
from siegeworks.bus import tell
from siegeworks.redis_target import archive_store
from siegeworks.remote_run import MatchSpec, play_specs, run_client_id
from siegeworks.transport.redis_bus import RedisBus


@dataclass
class TournamentSpec:
    game: str
    format: Format
    entrants: int
    rounds: int
    table_size: int
    bots: list[str]
    seed: int
    concurrency: int | None = None
    advance: int = 0
    outside: int = 0  # of ``entrants``, how many are outside clients registering over the bus
    registration_timeout_s: float = 300.0  # then round 1 starts with whoever has registered

    def entrant_names(self) -> list[str]:
        """The bot entrants (outside clients are named when they register)."""
        return [f"e{i:04d}-{self.bots[i % len(self.bots)]}"
                for i in range(self.entrants - self.outside)]

    def tournament_id(self) -> str:
        return tournament_id_for(self.game, self.format, self.entrant_names(), self.rounds,
                                 self.table_size, self.seed, self.advance, self.outside)

    def master_seed(self) -> bytes:
        """Dice and bots of every match derive from this, so a resume replays identically."""
        return hashlib.sha256(f"siegeworks-tournament:{self.seed}".encode()).digest()


def creation(spec: TournamentSpec, organiser: str = "") -> list[Event]:
    events: list[Event] = [TournamentCreated(
        tournament_id=spec.tournament_id(), game=spec.game, format=spec.format,
        rounds=spec.rounds, table_size=spec.table_size, seed=spec.seed, advance=spec.advance,
        outside=spec.outside, organiser=organiser)]
    names = spec.entrant_names()
    events += [EntrantRegistered(entrant=e, bot=spec.bots[i % len(spec.bots)])
               for i, e in enumerate(names)]
    return events


Progress = Callable[[str], None]


async def run_tournament(spec: TournamentSpec, redis: Redis, clock: Clock,
                         progress: Progress = lambda line: None,
                         pause_after: int | None = None,
                         on_match: Callable[[MatchFinished], None] = lambda r: None,
                         replay_damaged: bool = False,
                         ) -> TournamentState:
    """Runs (or resumes) the tournament to its end, or until round ``pause_after`` is done;
    with ``replay_damaged``, damaged tables are played again first (each once per run)."""
    # Through the archives: a finished tournament run again finds its stream there, finished.
    store = TournamentStore(ArchivingLog(redis, archive_store()), clock)
    tid = spec.tournament_id()
    bots_seed = hashlib.sha256(b"bots:" + spec.master_seed()).digest()
    organiser = run_client_id(redis, bots_seed)
    state = await store.append_owed(
        tid, lambda s: creation(spec, organiser) if s.created is None else None)
    if not state.rounds:
        state = await _await_registrations(store, state, spec, progress)
    replayed: set[str] = set()  # tables replayed by this run: a replay damaged again waits
    while not state.finished:
        again = [r for r in state.damaged_tables() if table_id_of(r.match_id) not in replayed]
        if replay_damaged and again:
            replayed.update(table_id_of(r.match_id) for r in again)
            progress(f"replaying {len(again)} damaged tables: "
                     + ", ".join(state.next_replay_id(table_id_of(r.match_id)) for r in again))
            state = await _replay(store, state, again, redis, bots_seed, on_match, spec)
            continue
        current = state.current_round
        if current == 0 or state.round_complete(current):
            if pause_after is not None and current >= pause_after:
                progress(f"paused after round {current}")
                return state
            if current >= total_rounds(state):
                state = await store.append_owed(
                    tid, lambda s: [TournamentFinished()] if not s.finished else None)
                continue
            state = await store.append_owed(tid, lambda s, r=current: [pair_next(s)]
                                            if s.current_round == r else None)
            paired = state.rounds[state.current_round]
            progress(f"round {paired.round}: {len(paired.tables)} tables"
                     + (f", byes {', '.join(paired.byes)}" if paired.byes else ""))
            for number, seats in enumerate(paired.tables, 1):
                progress(f"  table {number}: {', '.join(seats)}")
            continue
        state = await _play_round(store, state, spec, redis, bots_seed, on_match)
    bus = RedisBus(redis)
    for client in state.clients.values():  # outside entrants: no more seats will come
        await tell(bus, client, TournamentEnded(tournament_id=tid))
    progress("finished")
    return state


REGISTRATION_POLL_S = 0.2


async def _await_registrations(store: TournamentStore, state: TournamentState,
                               spec: TournamentSpec, progress: Progress) -> TournamentState:
    """Waits, before round 1, for the outside clients to register (RegisterEntrant)."""
    deadline = time.monotonic() + spec.registration_timeout_s
    shown = -1
    while True:
        joined = len(outside_entrants(state))
        if joined != shown:
            shown = joined
            if spec.outside:
                progress(f"outside entrants registered: {joined}/{spec.outside} "
                         f"(RegisterEntrant for {state.tid})")
        if joined >= spec.outside or time.monotonic() >= deadline:
            return state
        await asyncio.sleep(REGISTRATION_POLL_S)  # people, not services: a poll is enough
        state, _, _ = await store.load(state.tid)


async def _play_round(store: TournamentStore, state: TournamentState, spec: TournamentSpec,
                      redis: Redis, bots_seed: bytes,
                      on_match: Callable[[MatchFinished], None]) -> TournamentState:
    paired: RoundPaired = state.rounds[state.current_round]
    tid = state.tid
    specs = [
        MatchSpec(match_id=match_id_for(tid, paired.round, t), game=spec.game,
                  seat_names=list(table), bots=[state.bots[e] for e in table],
                  outsiders=[state.clients.get(e, OPEN) for e in table])
        for t, table in enumerate(paired.tables)
    ]
    todo = [s for s in specs if s.match_id not in state.recorded]
    results = await play_specs(todo, redis, bots_seed, on_finished=on_match,
                               concurrency=spec.concurrency, stall_timeout_s=120)

    def owe(s: TournamentState) -> list[Event] | None:
        # Recorded in table order once the round is done: the stream's order is what ratings
        # follow, so it must not depend on which match happened to finish first.
        missing = [m for m in specs if m.match_id not in s.recorded]
        return [_recorded(paired.round, m, results[m.match_id]) for m in missing] or None

    return await store.append_owed(tid, owe)


def _recorded(round_: int, spec: MatchSpec, result: MatchFinished) -> MatchRecorded:
    return MatchRecorded(round=round_, match_id=spec.match_id, entrants=list(spec.seat_names),
                         ranks=list(result.ranks), reason=result.reason, head=result.head,
                         timed_out=list(result.timed_out))


async def _replay(store: TournamentStore, state: TournamentState, damaged: list[MatchRecorded],
                  redis: Redis, bots_seed: bytes, on_match: Callable[[MatchFinished], None],
                  spec: TournamentSpec) -> TournamentState:
    """Plays each damaged table again under its next replay id and records the results, in the
    order the damaged matches were recorded."""
    rounds = {state.next_replay_id(table_id_of(r.match_id)): r.round for r in damaged}
    specs = [
        MatchSpec(match_id=replay_id, game=spec.game, seat_names=list(record.entrants),
                  bots=[state.bots[e] for e in record.entrants],
                  outsiders=[state.clients.get(e, OPEN) for e in record.entrants])
        for replay_id, record in zip(rounds, damaged, strict=True)
    ]
    results = await play_specs(specs, redis, bots_seed, on_finished=on_match,
                               concurrency=spec.concurrency, stall_timeout_s=120)

    def owe(s: TournamentState) -> list[Event] | None:
        missing = [m for m in specs if m.match_id not in s.recorded]
        return [_recorded(rounds[m.match_id], m, results[m.match_id]) for m in missing] or None

    return await store.append_owed(state.tid, owe)
