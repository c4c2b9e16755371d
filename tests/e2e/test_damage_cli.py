"""``siege damage`` on a live match whose seat fell silent: the services treat it as an end
(no more prompts, no timeout, the seed revealed, the result recorded as damaged) and ``siege
audit`` says so; a tournament whose table was damaged counts it for nobody and, resumed with
``replay_damaged``, plays the table again and records the replay for it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio

from siege.contracts.events import MatchDamaged, MatchSealed, SeatTimedOut, SeedRevealed
from siege.contracts.messages import (
    CreateMatch,
    MatchFinished,
    RegisterEntrant,
    SeatGranted,
    SeatPrompted,
    TournamentEnded,
    bus_decoder,
)
from siege.eventlog.keys import (
    RESULTS_STREAM,
    commands_key,
    deadlines_key,
    inbox_key,
    shard_of,
    view_key,
)
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.clock import SystemClock
from siege.hosting.match_state import codec_for
from siege.tournament.events import match_id_for
from siege.tournament.standings import standings
from siege.tournament.state import entrant_for
from siege.tournament.store import TournamentStore
from siegeworks.clients.bots import hand_token, make_seats
from siegeworks.clients.joiner import OutsideClient
from siegeworks.clients.remote import SeatReader
from siegeworks.supervisor import ServiceProcesses
from siegeworks.tournament_run import TournamentSpec, run_tournament
from siegeworks.transport.redis_bus import RedisBus

pytestmark = pytest.mark.e2e

Run = Callable[[Awaitable[Any]], Any]
REASON = "seat 0 went silent"


def siege(args: list[str], redis_url: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "REDIS_URL": redis_url, "COLUMNS": "250", "SIEGE_DATA_DIR": str(cwd)}
    return subprocess.run([sys.executable, "-m", "siegeworks.cli", *args], env=env,
                          capture_output=True, text=True, timeout=60, cwd=cwd)


async def siege_async(args: list[str], redis_url: str, cwd: Path) -> subprocess.CompletedProcess:
    return await asyncio.to_thread(siege, args, redis_url, cwd)


async def prompt_count(client: redis.asyncio.Redis, match_id: str, seats: int) -> int:
    """Prompts ever sent to the match's seats (a seat's stream keeps only its newest:
    siegeworks.transport.bounds.SEAT_PROMPTS_KEPT)."""
    total = 0
    for seat in range(seats):
        key = view_key("mute", match_id, seat)
        if await client.exists(key):
            total += int((await client.xinfo_stream(key))["entries-added"])
    return total


async def prompts(client: redis.asyncio.Redis, stream: str) -> list[SeatPrompted]:
    return [m for m in (bus_decoder.decode(f[b"m"]) for _, f in await client.xrange(stream))
            if isinstance(m, SeatPrompted)]


def test_an_operator_marks_a_silent_match_damaged(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis, redis_url: str,
    tmp_path: Path,
) -> None:
    match_id = "mute-1"
    silent = view_key("mute", match_id, 0)

    async def scenario() -> tuple[MatchFinished, subprocess.CompletedProcess, int, int]:
        bus, reader = RedisBus(redis_client), SeatReader(redis_client)
        reader.follow(inbox_key("mute"), "0-0")
        reader.follow(RESULTS_STREAM, "0-0")
        seats = make_seats(bus, "mute", "castle-dash", match_id, ["random"] * 3, b"bots")
        for seat in (1, 2):  # seat 0 is granted but never answers
            reader.subscribe_seat(view_key("mute", match_id, seat), seats[seat].on_prompt)
        await bus.publish(commands_key("mute"), CreateMatch(
            match_id=match_id, game="castle-dash", seat_names=["mute", "b", "c"],
            options={"decision_timeout_ms": "6000"}, client="mute"))
        deadline = time.monotonic() + 60
        damaged: subprocess.CompletedProcess | None = None
        sent = 0
        while time.monotonic() < deadline:
            for message in await reader.poll():
                if isinstance(message, SeatGranted):
                    await hand_token({match_id: seats}, message)
                if isinstance(message, MatchFinished) and message.match_id == match_id:
                    assert damaged is not None, "the match ended before it was damaged"
                    await asyncio.sleep(7)  # past the silent seat's deadline: no timeout
                    after = await prompt_count(redis_client, match_id, 3)
                    return message, damaged, sent, after
            if damaged is None and await prompts(redis_client, silent):
                sent = await prompt_count(redis_client, match_id, 3)
                damaged = await siege_async(["damage", match_id, "--reason", REASON],
                                            redis_url, tmp_path)
                assert damaged.returncode == 0, damaged.stdout + damaged.stderr
        raise AssertionError("the match never finished")

    finished, damaged, sent, after = run(scenario())
    assert f"{match_id}: marked damaged" in damaged.stdout
    assert finished.reason == "damaged" and finished.ranks == []
    assert after == sent, "a seat was prompted after the damage"
    entries = run(RedisEventLog(redis_client).read(match_id))
    events = [codec_for("castle-dash").decode(stored).event for _, stored, _ in entries]
    assert events[-3] == MatchDamaged(reason=REASON) and isinstance(events[-2], SeedRevealed)
    assert isinstance(events[-1], MatchSealed)  # a damaged match is sealed like any other
    assert not any(isinstance(e, SeatTimedOut) for e in events)
    members = run(redis_client.zrange(deadlines_key(shard_of(match_id)), 0, -1))
    assert not [m for m in members if m.startswith(match_id.encode())], "a clock still runs"
    report = audit(entries)
    assert report.ok and report.damaged == REASON, report.line()
    shown = siege(["audit", match_id], redis_url, tmp_path)
    assert shown.returncode == 0 and f"damaged: {REASON}" in shown.stdout, shown.stdout
    again = siege(["damage", match_id, "--reason", "twice"], redis_url, tmp_path)
    assert again.returncode == 2 and "damaged already" in again.stderr, again.stderr
    missing = siege(["damage", "no-such", "--reason", "x"], redis_url, tmp_path)
    assert missing.returncode == 2 and "no such match" in missing.stderr, missing.stderr


SPEC = TournamentSpec(game="castle-dash", format="swiss", entrants=6, rounds=2, table_size=3,
                      bots=["random", "greedy"], seed=11, outside=1, registration_timeout_s=60)


class SilentAtFirst(OutsideClient):
    """An outside entrant that never answers at its round-1 table, and plays everything else
    (the replay of that table included)."""

    async def _seat(self, grant: SeatGranted) -> None:
        if "-r01-" in grant.match_id and "-replay" not in grant.match_id:
            self.mute_table = grant.match_id
            return
        await super()._seat(grant)


def test_a_damaged_table_is_replayed_on_resume_and_counts_for_nobody(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis, redis_url: str,
    tmp_path: Path,
) -> None:
    tid = SPEC.tournament_id()
    client = SilentAtFirst(redis_client, "ann", "random", b"ann")

    async def damage_when_prompted() -> subprocess.CompletedProcess:
        while not hasattr(client, "mute_table"):
            await asyncio.sleep(0.1)
        table = client.mute_table
        while True:  # the silent seat's prompt is out: the match is live and stuck
            seen = [await prompts(redis_client, view_key("ann", table, i)) for i in range(3)]
            if any(seen):
                return await siege_async(["damage", table, "--reason", REASON], redis_url,
                                         tmp_path)
            await asyncio.sleep(0.1)

    async def scenario() -> tuple[Any, Any, subprocess.CompletedProcess]:
        playing = asyncio.create_task(client.run(
            RegisterEntrant(tournament_id=tid, client="ann", name="ann"), tid,
            lambda m: isinstance(m, TournamentEnded) and m.tournament_id == tid, 150))
        paused, damaged = await asyncio.wait_for(asyncio.gather(
            run_tournament(SPEC, redis_client, SystemClock(), pause_after=1),
            damage_when_prompted()), 120)
        resumed = await asyncio.wait_for(
            run_tournament(SPEC, redis_client, SystemClock(), replay_damaged=True), 120)
        await asyncio.wait_for(playing, 30)
        return paused, resumed, damaged

    paused, resumed, damaged = run(scenario())
    assert damaged.returncode == 0, damaged.stderr
    table = client.mute_table
    ann = entrant_for("ann")
    first = paused.recorded[table]
    assert first.reason == "damaged" and first.ranks == [] and ann in first.entrants
    assert paused.damaged_tables() == [first]
    rows = {r.entrant: r for r in standings(paused.entrants, paused.order, two_player=False)}
    assert rows[ann].played == 0 and rows[ann].points == 0  # counts for nobody
    assert resumed.finished and resumed.damaged_tables() == []
    replay = resumed.recorded[f"{table}-replay1"]
    assert replay.round == 1 and replay.entrants == first.entrants and replay.reason != "damaged"
    assert resumed.table_result(table) == replay
    assert table == match_id_for(tid, 1, int(table[-4:]))
    rows = {r.entrant: r for r in standings(resumed.entrants, resumed.order, two_player=False)}
    assert rows[ann].played == 2  # the replay and round 2
    for match_id in (table, replay.match_id):
        assert audit(run(RedisEventLog(redis_client).read(match_id))).ok
    stored, _, _ = run(TournamentStore(RedisEventLog(redis_client), SystemClock()).load(tid))
    assert stored.recorded.keys() == resumed.recorded.keys()
    shown = siege(["standings", tid], redis_url, tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "round 1: 3 matches, 0 forfeited, 1 damaged (0 not replayed), 1 replays" in shown.stdout
    assert "a damaged match counts for nobody" in shown.stdout
