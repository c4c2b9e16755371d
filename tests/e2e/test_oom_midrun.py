"""Redis out of memory in the middle of a run (``noeviction``): writes are refused for a few
seconds, then memory is freed. Every honest command and pointer is retried, not dead-lettered:
every match finishes, audited, and nobody forfeits (docs/durability.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import redis.asyncio
from redis.exceptions import OutOfMemoryError

from siege.contracts.events import SeatTimedOut
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import DEAD_LETTER_STREAM
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.match_state import codec_for
from siegeworks.remote_run import play_remote
from siegeworks.runner import RunConfig
from siegeworks.supervisor import ServiceProcesses

Run = Callable[[Awaitable[Any]], Any]
MAXMEMORY = 24 * 2**20
FULL_FOR_S = 3.0
MATCHES = 10


async def fill_until_refused(admin: redis.asyncio.Redis, start: int) -> tuple[int, int]:
    """Adds keys until Redis refuses even a small one (a big value's own bytes in the query
    buffer are counted against the limit, so big keys alone leave room for small writes);
    returns the next key number and how many of its writes were refused."""
    n, refused = start, 0
    for size in (2**20, 2**14, 2**8):
        while True:
            try:
                await admin.set(f"filler:{n}", b"x" * size)
            except OutOfMemoryError:
                refused += 1
                break
            n += 1
    return n, refused


async def out_of_memory_for(admin: redis.asyncio.Redis, seconds: float) -> int:
    """Keeps Redis at its limit for ``seconds`` (topping up what the services' own frees
    leave), then frees everything; returns how many of the services' writes were refused
    meanwhile."""
    before = (await admin.info("errorstats")).get("errorstat_OOM", {}).get("count", 0)
    n, own = await fill_until_refused(admin, 0)
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while loop.time() < until:
        n, more = await fill_until_refused(admin, n)
        own += more
        await asyncio.sleep(0.05)
    after = (await admin.info("errorstats")).get("errorstat_OOM", {}).get("count", 0)
    await admin.delete(*(f"filler:{i}" for i in range(n)))
    return after - before - own


def test_a_few_seconds_out_of_memory_loses_no_command_and_forfeits_nobody(
        tmp_path: Path, run: Run) -> None:
    cfg = RunConfig(game="castle-dash", matches=MATCHES, players=3, bots=["greedy", "random"],
                    seed=61, options={"decision_timeout_ms": "60000"})

    async def scenario(server: EmbeddedRedis) -> tuple[int, list[tuple[str, bool, int]], int]:
        admin = redis.asyncio.Redis.from_url(server.url)
        procs = ServiceProcesses(server.url, tmp_path / "logs", {"SIEGE_CLAIM_IDLE_MS": "500"})
        try:
            async with procs.running(admin):
                playing = asyncio.create_task(play_remote(cfg, admin, stall_timeout_s=60))
                log = RedisEventLog(admin)
                while not playing.done():  # the matches are under way
                    ids = await log.match_ids()
                    heads = [(await log.head(i))[0] for i in ids]
                    if len(ids) == MATCHES and min(heads) >= 20:
                        break
                    await asyncio.sleep(0.01)
                refused = await out_of_memory_for(admin, FULL_FOR_S)
                assert not playing.done()  # the matches were under way all along
                result = await playing
                outcomes = []
                for match_id in result.match_ids:
                    entries = await log.read(match_id)
                    events = [codec_for(cfg.game).decode(s).event for _, s, _ in entries]
                    outcomes.append((match_id, audit(entries).ok,
                                     sum(isinstance(e, SeatTimedOut) for e in events)))
                dead = await admin.xlen(DEAD_LETTER_STREAM)
                return refused, outcomes, dead
        finally:
            await admin.aclose()

    with EmbeddedRedis(extra_args=("--maxmemory", str(MAXMEMORY),
                                   "--maxmemory-policy", "noeviction")) as server:
        refused, outcomes, dead = run(scenario(server))
    assert refused > 0  # the services did meet a store that refused their writes
    assert len(outcomes) == MATCHES
    assert all(ok for _, ok, _ in outcomes), outcomes
    assert sum(t for _, _, t in outcomes) == 0, outcomes
    assert dead == 0
