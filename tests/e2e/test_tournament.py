"""Tournaments through the four services: run to the end, standings for every entrant, and a
paused-and-resumed tournament equal to one run straight through."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio

from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.clock import FixedClock
from siege.tournament.ratings import replay_ratings
from siege.tournament.results import TableResult
from siege.tournament.standings import standings
from siege.tournament.state import TournamentState
from siege.tournament.store import TournamentStore
from siegeworks.scoring.ratings import RatingBook
from siegeworks.supervisor import ServiceProcesses
from siegeworks.tournament_run import TournamentSpec, run_tournament

pytestmark = pytest.mark.both_stores  # on a single Redis and on a Redis Cluster

Run = Callable[[Awaitable[Any]], Any]
SPEC = TournamentSpec(game="castle-dash", format="swiss", entrants=10, rounds=3, table_size=4,
                      bots=["random", "greedy"], seed=5, concurrency=3)


def services(redis_url: str, log_dir: Path) -> ServiceProcesses:
    procs = ServiceProcesses(redis_url, log_dir, {"SIEGE_MASTER_SEED": SPEC.master_seed().hex(),
                                                  "SIEGE_FIXED_CLOCK_MS": "0"})
    procs.start_all()
    return procs


async def run_through(client: redis.asyncio.Redis, procs: ServiceProcesses,
                      pause_after: int | None = None) -> TournamentState:
    await procs.wait_healthy(client)
    return await run_tournament(SPEC, client, FixedClock(0), pause_after=pause_after)


async def ratings_applied(client: redis.asyncio.Redis, tid: str) -> None:
    for _ in range(200):
        if tid in await RatingBook(client).applied():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the scoring service never applied the tournament's ratings")


async def stream_bytes(client: redis.asyncio.Redis) -> list[bytes]:
    return [stored for _, stored, _ in await RedisEventLog(client).read(SPEC.tournament_id())]


def test_swiss_tournament_runs_and_a_resume_equals_a_straight_run(
    redis_url: str, redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path,
    flush_store: Callable[[], None],
) -> None:
    procs = services(redis_url, tmp_path / "a")
    try:
        straight = run(run_through(redis_client, procs))
        run(ratings_applied(redis_client, straight.tid))
    finally:
        procs.stop_all()
    # Scoring applied the ratings in the stream's order: the same as a rebuild from zero.
    book = run(RatingBook(redis_client).current(straight.entrants))
    rebuilt, _ = replay_ratings(r for r in straight.order if isinstance(r, TableResult))
    assert book == rebuilt
    assert straight.finished and len(straight.rounds) == 3
    for paired in straight.rounds.values():  # 10 entrants in tables of 4: someone sits out
        seated = [e for t in paired.tables for e in t]
        assert sorted(seated + list(paired.byes)) == sorted(straight.entrants)
    rows = standings(straight.entrants, straight.order, two_player=False)
    assert sorted(r.entrant for r in rows) == sorted(straight.entrants)
    log = RedisEventLog(redis_client)
    for match_id, recorded in straight.recorded.items():
        entries = run(log.read(match_id))
        report = audit(entries)
        assert report.ok, report.line()
        # The tournament's stream anchors the match: it records the hash of the log's seal.
        assert report.sealed_by and recorded.head == entries[-1][2].hex()
    first = run(stream_bytes(redis_client))

    flush_store()
    procs = services(redis_url, tmp_path / "b")
    try:
        paused = run(run_through(redis_client, procs, pause_after=1))
        assert not paused.finished and len(paused.rounds) == 1
        resumed = run(run_through(redis_client, procs))
    finally:
        procs.stop_all()
    assert resumed.finished
    assert run(stream_bytes(redis_client)) == first  # the same stream, byte for byte
    assert standings(resumed.entrants, resumed.order, two_player=False) == rows


def test_rebuilding_a_tournament_from_its_stream_gives_the_same_state(
    redis_url: str, redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path
) -> None:
    procs = services(redis_url, tmp_path / "c")
    try:
        live = run(run_through(redis_client, procs, pause_after=2))
    finally:
        procs.stop_all()
    rebuilt, _, _ = run(TournamentStore(RedisEventLog(redis_client), FixedClock(0)).load(
        SPEC.tournament_id()))
    assert rebuilt == live

