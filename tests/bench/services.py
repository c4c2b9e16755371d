"""End-to-end figures through the four service processes: accepted actions/s and the latency
from a SubmitAction to the resulting prompt reaching the client, at several offered loads
(concurrent matches), so the knee shows."""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from redis.asyncio import Redis

from siege.eventlog.embedded import EmbeddedRedis
from siegeworks.remote_run import LatencyProbe, play_remote
from siegeworks.runner import RunConfig
from siegeworks.supervisor import ServiceProcesses


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def one_load(redis: Redis, concurrent: int, seed: int) -> tuple[float, float, float, int]:
    probe = LatencyProbe()
    cfg = RunConfig(game="castle-dash", matches=concurrent, players=4, bots=["random"], seed=seed)
    start = time.perf_counter()
    await play_remote(cfg, redis, probe=probe, stall_timeout_s=120)
    seconds = time.perf_counter() - start
    actions = len(probe.samples)
    return actions / seconds, pct(probe.samples, 0.5), pct(probe.samples, 0.99), actions


async def main(loads: list[int]) -> None:
    with EmbeddedRedis() as server, tempfile.TemporaryDirectory() as logs:
        redis = Redis.from_url(server.url)
        try:
            async with ServiceProcesses(server.url, Path(logs)).running(redis):
                await one_load(redis, 5, seed=999)  # warm-up: imports, scripts, caches
                print("concurrent matches | accepted actions/s | p50 ms | p99 ms | actions")
                for i, concurrent in enumerate(loads):
                    rate, p50, p99, actions = await one_load(redis, concurrent, seed=i)
                    print(f"{concurrent:>18} | {rate:>18,.0f} | {p50:>6.1f} | {p99:>6.1f} | "
                          f"{actions}")
        finally:
            await redis.aclose()


if __name__ == "__main__":
    levels = [int(x) for x in sys.argv[1:]] or [1, 10, 50, 100]
    asyncio.run(main(levels))
