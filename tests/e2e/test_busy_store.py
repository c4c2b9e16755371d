"""A store nearly out of memory (``noeviction``): from ``SIEGE_STORE_BUSY_AT`` of maxmemory a new
match is refused with ``store_busy`` and a retry hint while Redis can still say so, instead of
waiting unanswered; matches under way go on and finish; a new one is accepted once memory is
freed, and a run's bots send their refused create again after the hint, never sooner."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import redis.asyncio
from redis.exceptions import OutOfMemoryError

from siege.contracts.messages import (
    CommandRefused,
    CreateMatch,
    MatchFinished,
    SeatGranted,
    bus_decoder,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import commands_key, inbox_key
from siege.eventlog.log import RedisEventLog
from siegeworks.headroom import BUSY_AT_ENV, LONGEST_RETRY_MS
from siegeworks.remote_run import MatchSpec, play_remote, play_specs
from siegeworks.runner import RunConfig
from siegeworks.serve import read_health
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.redis_bus import announce

Run = Callable[[Awaitable[Any]], Any]
MAXMEMORY = 24 * 2**20
BUSY_AT = 0.7  # not the default: the services read SIEGE_STORE_BUSY_AT
ENV = {BUSY_AT_ENV: str(BUSY_AT), "SIEGE_CLAIM_IDLE_MS": "500"}
MATCHES = 8


def embedded() -> EmbeddedRedis:
    return EmbeddedRedis(extra_args=("--maxmemory", str(MAXMEMORY),
                                     "--maxmemory-policy", "noeviction"))


async def answers(r: redis.asyncio.Redis, client: str, wanted: int, timeout_s: float = 20
                  ) -> list[Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        found = [bus_decoder.decode(f[b"m"]) for _, f in await r.xrange(inbox_key(client))]
        if len(found) >= wanted:
            return found
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.05)


async def fill_past_the_threshold(admin: redis.asyncio.Redis, by: float = 0.04) -> int:
    """Fills Redis to between the threshold and its limit (it still takes small writes);
    returns how many filler keys it wrote."""
    n = 0
    while (await admin.info("memory"))["used_memory"] < (BUSY_AT + by) * MAXMEMORY:
        try:
            await admin.set(f"filler:{n}", b"x" * 256 * 1024)
        except OutOfMemoryError:
            break
        n += 1
    return n


async def warnings(admin: redis.asyncio.Redis) -> list[str]:
    return [w for h in await read_health(admin) for w in h.warnings]


async def until_busy(admin: redis.asyncio.Redis, busy: bool) -> list[str]:
    deadline = time.monotonic() + 10  # the match service measures every second
    while any("store busy" in w for w in await warnings(admin)) != busy:
        assert time.monotonic() < deadline, f"the match service did not see busy={busy}"
        await asyncio.sleep(0.05)
    return await warnings(admin)


def test_new_matches_wait_with_a_retry_hint_while_the_store_is_busy_and_running_ones_finish(
        tmp_path: Path, run: Run) -> None:
    cfg = RunConfig(game="castle-dash", matches=MATCHES, players=3, bots=["greedy", "random"],
                    seed=67, options={"decision_timeout_ms": "60000"})

    async def scenario(server: EmbeddedRedis) -> dict[str, Any]:
        admin = redis.asyncio.Redis.from_url(server.url)
        procs = ServiceProcesses(server.url, tmp_path / "logs", ENV)
        try:
            async with procs.running(admin):
                await announce(admin, "ann")
                playing = asyncio.create_task(play_remote(cfg, admin, stall_timeout_s=60))
                log = RedisEventLog(admin)
                while not playing.done():  # every match is under way
                    ids = await log.match_ids()
                    if len(ids) == MATCHES and min([(await log.head(i))[0] for i in ids]) >= 10:
                        break
                    await asyncio.sleep(0.01)
                # The rules wait meanwhile, so the matches are still under way when the match
                # service has seen the store busy (it measures once a second).
                rules = procs.procs["rules"].pid
                os.kill(rules, signal.SIGSTOP)
                try:
                    n = await fill_past_the_threshold(admin)
                    busy = await until_busy(admin, True)
                    create = CreateMatch(match_id="when-busy", game="castle-dash",
                                         seat_names=["a", "b", "c"])
                    await admin.xadd(commands_key("ann"), {"m": msgspec.msgpack.encode(create)})
                    refused = await answers(admin, "ann", 1)
                    under_way = not playing.done()
                finally:
                    os.kill(rules, signal.SIGCONT)
                # The matches under way finish in the room left.
                result = await asyncio.wait_for(playing, 120)
                still_busy = await warnings(admin)
                await admin.delete(*(f"filler:{i}" for i in range(n)))
                await until_busy(admin, False)
                await admin.xadd(commands_key("ann"), {"m": msgspec.msgpack.encode(create)})
                granted = (await answers(admin, "ann", 4))[1:]
                return {"busy": busy, "under_way": under_way, "refused": refused,
                        "result": result, "still_busy": still_busy, "granted": granted}
        finally:
            await admin.aclose()

    with embedded() as server:
        seen = run(scenario(server))
    assert seen["under_way"], "the matches ended before the store was busy: nothing shown"
    [refused] = seen["refused"]
    assert isinstance(refused, CommandRefused) and refused.code == RejectionCode.STORE_BUSY
    assert 1_000 <= refused.retry_after_ms <= LONGEST_RETRY_MS
    assert "new matches wait" in refused.detail and f"from {100 * BUSY_AT:g}%" in refused.detail
    assert any("store busy" in w and "MB" in w for w in seen["busy"])
    result = seen["result"]
    assert len(result.finished) == MATCHES and all(
        isinstance(f, MatchFinished) and f.reason == "finished" for f in result.finished)
    assert any("store busy" in w for w in seen["still_busy"])  # busy all along
    assert [type(m) for m in seen["granted"]] == [SeatGranted] * 3


def entry_ms(entry_id: bytes) -> int:
    return int(entry_id.split(b"-")[0])


def test_a_run_sends_a_create_refused_as_busy_again_after_the_hint_never_sooner(
        tmp_path: Path, run: Run) -> None:
    client = "busy-run"
    spec = MatchSpec(match_id="busy-run-1", game="castle-dash", seat_names=["a", "b", "c"],
                     bots=["greedy", "random", "random"],
                     options={"decision_timeout_ms": "60000"})

    async def scenario(server: EmbeddedRedis) -> list[tuple[int, Any]]:
        admin = redis.asyncio.Redis.from_url(server.url)
        procs = ServiceProcesses(server.url, tmp_path / "logs", ENV)
        inbox: list[tuple[int, Any]] = []  # (Redis ms of the entry, message), as they come

        async def follow_inbox(freed: asyncio.Event) -> None:
            cursor = b"0-0"
            while True:
                for _, entries in await admin.xread({inbox_key(client): cursor}, block=50):
                    for entry_id, fields in entries:
                        cursor = entry_id
                        inbox.append((entry_ms(entry_id), bus_decoder.decode(fields[b"m"])))
                if any(isinstance(m, CommandRefused) for _, m in inbox):
                    freed.set()

        try:
            async with procs.running(admin):
                n = await fill_past_the_threshold(admin, by=0.02)
                await until_busy(admin, True)
                refused_once = asyncio.Event()
                following = asyncio.create_task(follow_inbox(refused_once))
                playing = asyncio.create_task(
                    play_specs([spec], admin, b"\x07" * 32, stall_timeout_s=60, client=client))
                await asyncio.wait_for(refused_once.wait(), 20)
                await admin.delete(*(f"filler:{i}" for i in range(n)))
                finished = await asyncio.wait_for(playing, 120)
                following.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await following
                assert list(finished) == [spec.match_id]
                return inbox
        finally:
            await admin.aclose()

    with embedded() as server:
        inbox = run(scenario(server))
    refusals = [(at, m) for at, m in inbox if isinstance(m, CommandRefused)]
    grants = [at for at, m in inbox if isinstance(m, SeatGranted)]
    assert refusals and grants, inbox
    assert all(m.code == RejectionCode.STORE_BUSY and m.retry_after_ms >= 1_000
               for _, m in refusals), refusals
    # Each create sent again came after the hint of the refusal before it (Redis' clock
    # stamped both entries; the bots wait from when they read the refusal, later still).
    answered = [at for at, _ in refusals[1:]] + [grants[0]]
    for (at, m), next_at in zip(refusals, answered, strict=True):
        assert next_at - at >= m.retry_after_ms, (at, m.retry_after_ms, next_at)
