"""Redis at its memory limit under ``noeviction`` refuses writes for a while in the middle of a
run: the four services hold what they were handling and go on once memory is freed, so every
match finishes with nothing dead-lettered and no seat forfeited for the outage (before, five
refused deliveries dead-lettered honest commands and pointers for ever; and an end whose notice
Redis refused after its result was recorded was never announced, so its runner waited)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import redis.asyncio
from redis.exceptions import OutOfMemoryError

from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import DEAD_LETTER_STREAM
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.match_state import codec_for
from siegeworks.remote_run import play_remote
from siegeworks.runner import RunConfig
from siegeworks.supervisor import ServiceProcesses

Run = Callable[[Awaitable[Any]], Any]
LIMIT = ("--maxmemory", "24mb", "--maxmemory-policy", "noeviction")


async def fill(admin: redis.asyncio.Redis) -> int:
    """Fills memory until Redis refuses a write; returns how many filler keys it took."""
    n = 0
    while True:
        try:
            await admin.set(f"filler:{n}", b"x" * 512 * 1024)
        except OutOfMemoryError:
            return n
        n += 1


def test_the_services_ride_out_redis_refusing_writes(tmp_path: Path, run: Run) -> None:
    cfg = RunConfig(game="castle-dash", matches=4, players=3, bots=["random"], seed=91,
                    options={"decision_timeout_ms": "60000"})

    async def scenario(server: EmbeddedRedis) -> tuple[int, list[Any], int, str]:
        admin = redis.asyncio.Redis.from_url(server.url)
        players = redis.asyncio.Redis.from_url(server.url)
        procs = ServiceProcesses(server.url, tmp_path / "logs", {"SIEGE_CLAIM_IDLE_MS": "300"})
        try:
            async with procs.running(admin):
                playing = asyncio.create_task(play_remote(cfg, players, stall_timeout_s=90))
                log = RedisEventLog(admin)
                while sum([len(await log.read(m)) for m in
                           (cfg.match_id(i) for i in range(cfg.matches))]) < 60:
                    await asyncio.sleep(0.02)
                fillers = await fill(admin)
                # Memory stays full for 3 s (ten claim periods: before, five refused deliveries
                # made poison) and until a service has met the refusal.
                deadline = time.monotonic() + 30
                service_logs = ""
                while ("redis refuses" not in service_logs
                       or time.monotonic() < deadline - 27):
                    assert time.monotonic() < deadline, "no service met the refusal"
                    service_logs = "".join(p.read_text() for p in (tmp_path / "logs").glob("*.log"))
                    await asyncio.sleep(0.1)
                await admin.delete(*(f"filler:{n}" for n in range(fillers)))
                result = await asyncio.wait_for(playing, 120)
                logs = [await log.read(m) for m in result.match_ids]
                return len(result.finished), logs, await admin.xlen(DEAD_LETTER_STREAM), \
                    service_logs
        finally:
            await players.aclose()
            await admin.aclose()

    with EmbeddedRedis(extra_args=LIMIT) as server:
        finished, logs, dead, service_logs = run(scenario(server))
    assert finished == cfg.matches and dead == 0
    assert "maxmemory" in service_logs  # the services did meet the refusal
    for entries in logs:
        assert audit(entries).ok, audit(entries).line()
    kinds = {type(codec_for("castle-dash").decode(stored).event).__name__
             for entries in logs for _, stored, _ in entries}
    assert "MatchEnded" in kinds and "SeatTimedOut" not in kinds
