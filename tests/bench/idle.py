"""What idle clients cost: the four services and redis-server with nothing playing, at 0,
10,000 and 100,000 registered clients that each wrote one command long ago; then one active
client among them, its latency from a SubmitAction to the next prompt.

For each count, on a fresh redis-server: the clients are registered (``siege:clients``) and
each writes one command (a JoinMatch of a match that does not exist, which the match service
refuses); the services start, take every stream on (its groups), read and answer those
commands, and the benchmark waits until every client's stream has gone quiet
(``SIEGE_QUIET_AFTER_S``, 5 s here). Then, over IDLE_S seconds with nothing written, the CPU
time of each service process and of redis-server (psutil), as a share of one core. The window
is as long as the safety net's sweep interval (60 s), so it holds one sweep of every followed
stream by each of the match and rules services. (The claimer's pass over every stream, every
ten sweeps, is not in it: about one sweep's cost, once in ten minutes.)
Then one client plays ACTIVE_MATCHES matches of 4-player Castle Dash between random bots; p50
and p99 of SubmitAction to next prompt, and the difference from the 0-client figure.

Prints a table and, for scripts, ``idle clients N services % X redis % Y p99 ms Z`` lines.

Usage: ``python tests/bench/idle.py [COUNTS...]`` (default 0 10000 100000; about 4 minutes).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import psutil
from redis.asyncio import Redis

from services import BOTS, GAME, PLAYERS, cpu_seconds, pct
from siege.contracts.messages import JoinMatch
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import CLIENTS_KEY, commands_key
from siegeworks.cli.common import run_loop
from siegeworks.errors import ServiceStartError
from siegeworks.remote_run import LatencyProbe, play_remote
from siegeworks.runner import RunConfig
from siegeworks.serve import read_health
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.streams import encode_fields

IDLE_S = 60.0
QUIET_S = 5.0
ACTIVE_MATCHES = 12
PIPELINE = 2_000


async def register(redis: Redis, count: int) -> None:
    """``count`` clients, each registered with one command on its stream."""
    for start in range(0, count, PIPELINE):
        async with redis.pipeline(transaction=False) as pipe:
            for n in range(start, min(count, start + PIPELINE)):
                client = f"idle-{n}"
                pipe.sadd(CLIENTS_KEY, client)
                pipe.xadd(commands_key(client), encode_fields(JoinMatch(
                    match_id=f"gone-{n}", client=client, seat=-1, name=client)))
            await pipe.execute()


async def processed(redis: Redis) -> dict[str, int]:
    return {h.service: h.processed for h in await read_health(redis)}


async def settle(redis: Redis, count: int) -> float:
    """Waits until the match and rules services have handled every client's command and their
    figures stopped moving (streams quiet); returns the seconds it took."""
    started = time.monotonic()
    while True:
        done = await processed(redis)
        if done.get("match", 0) >= count and done.get("rules", 0) >= count:
            break
        if time.monotonic() - started > 900:
            raise RuntimeError(f"services did not take the {count} commands: {done}")
        await asyncio.sleep(2.0)  # a look is a SCAN of the whole store: seldom
    took = time.monotonic() - started
    await asyncio.sleep(QUIET_S + 2.0)  # every stream quiet: out of the reads
    return took


@asynccontextmanager
async def services_running(services: ServiceProcesses, redis: Redis,
                           logs: Path) -> AsyncIterator[None]:
    """The services for the block; a service that fails to start shows its log's end."""
    try:
        async with services.running(redis, timeout_s=600.0):
            yield
    except ServiceStartError:
        for log in sorted(logs.glob("*.log")):
            print(f"--- {log.name}", *log.read_text().splitlines()[-15:], sep="\n")
        raise


async def one_count(count: int) -> dict[str, float]:
    with EmbeddedRedis() as server, tempfile.TemporaryDirectory() as logs:
        redis = Redis.from_url(server.url)
        try:
            await register(redis, count)
            services = ServiceProcesses(server.url, Path(logs), env={
                "SIEGE_QUIET_AFTER_S": str(QUIET_S)})
            async with services_running(services, redis, Path(logs)):
                took = await settle(redis, count)
                procs = {name: psutil.Process(p.pid) for name, p in services.procs.items()}
                redis_proc = psutil.Process(server.process.pid)  # type: ignore[union-attr]
                before = {name: cpu_seconds(p) for name, p in procs.items()}
                redis_before = cpu_seconds(redis_proc)
                wall = time.monotonic()
                await asyncio.sleep(IDLE_S)  # the measured window: nothing is written
                wall = time.monotonic() - wall
                shares = {name: (cpu_seconds(p) - before[name]) / wall * 100
                          for name, p in procs.items()}
                redis_share = (cpu_seconds(redis_proc) - redis_before) / wall * 100
                probe = LatencyProbe()
                await play_remote(RunConfig(game=GAME, matches=ACTIVE_MATCHES, players=PLAYERS,
                                            bots=BOTS, seed=7), redis, probe=probe,
                                  stall_timeout_s=120)
        finally:
            await redis.aclose()
    row = {f"{name} %": share for name, share in shares.items()}
    row.update({"services %": sum(shares.values()), "redis %": redis_share,
                "p50 ms": pct(probe.samples, 0.5), "p99 ms": pct(probe.samples, 0.99),
                "samples": len(probe.samples), "take-on s": took})
    return row


async def main(counts: list[int]) -> None:
    rows = {}
    for count in counts:
        rows[count] = await one_count(count)
        row = rows[count]
        print(f"idle clients {count} services % {row['services %']:.1f} redis % "
              f"{row['redis %']:.1f} p99 ms {row['p99 ms']:.2f}", flush=True)
    names = [name for name in rows[counts[0]] if name.endswith(" %")]
    print(f"\nidle {IDLE_S:.0f} s (one sweep of every stream), then {ACTIVE_MATCHES} "
          "matches of one active client; CPU as % of one core")
    print("clients | " + " | ".join(names) + " | p50 ms | p99 ms | Δp99 ms | take-on s")
    base = rows[counts[0]]["p99 ms"]
    for count, row in rows.items():
        print(f"{count:>7,} | " + " | ".join(f"{row[n]:.1f}" for n in names)
              + f" | {row['p50 ms']:.2f} | {row['p99 ms']:.2f} | {row['p99 ms'] - base:+.2f}"
              f" | {row['take-on s']:.0f}")


if __name__ == "__main__":
    run_loop(main([int(x) for x in sys.argv[1:]] or [0, 10_000, 100_000]))
