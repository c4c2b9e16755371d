"""Archives: what a finished match costs Redis before and after archiving, the archives' size,
and Redis' memory over a long run with the archiver on, measured side by side in one run.

1. 200 Castle Dash matches (4 players) through the four services on a private redis-server:
   Redis' used_memory per match once they finished (their logs, seeds, seats' prompt
   streams, results), then after archiving them (in this process, to a folder): what a match
   keeps (tombstone and index entry). The archive rate, the archives' size and compression,
   and the restore rate (fetched, checked and decoded back to entries) beside a bare read of
   the same logs from Redis.
2. ``MATCHES`` (5,000) matches in waves of 100 through the four services and the archiver
   (``siege serve archiver``, no delay), used_memory sampled every half second: from the end
   of the first wave (when the running matches' working set is built) to the end, the median
   of the last tenth of the samples against the first tenth.

    python tests/bench/archive.py [MATCHES]
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from redis.asyncio import Redis

from siege.archive.archiving import Archiver
from siege.archive.reading import ArchivingLog
from siege.archive.stores import FolderStore
from siege.archive.tombstones import TOMBSTONE_BUDGET
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import SHARDS, archived_key, matches_key
from siege.eventlog.log import RedisEventLog
from siegeworks.keys import read_keyring
from siegeworks.remote_run import play_remote
from siegeworks.runner import RunConfig
from siegeworks.serve import PROCESSES
from siegeworks.supervisor import ServiceProcesses

GAME, PLAYERS, BOTS = "castle-dash", 4, ["greedy", "random"]
FIRST = 200
WAVE = 100


async def used(redis: Redis) -> int:
    return int((await redis.info("memory"))["used_memory"])


async def settled(redis: Redis, apart_s: float = 0.25) -> int:
    """used_memory once the services' last writes (and trims) are in: three readings
    ``apart_s`` apart within 16 KB of one another (the services' heartbeats move it a
    little every second)."""
    seen: list[int] = []
    for _ in range(60):
        seen.append(await used(redis))
        if len(seen) >= 3 and max(seen[-3:]) - min(seen[-3:]) < 16_384:
            break
        await asyncio.sleep(apart_s)
    return seen[-1]


async def part_one(url: str, folder: Path) -> None:
    redis = Redis.from_url(url)
    # The services trim what their consumer groups have read every second here (30 s by
    # default), so what is left once they settle is what the matches themselves keep.
    procs = ServiceProcesses(url, folder / "logs", {"SIEGE_TRIM_EVERY_S": "1"})
    async with procs.running(redis):
        base = await settled(redis, 1.0)
        run = await play_remote(RunConfig(game=GAME, matches=FIRST, players=PLAYERS, bots=BOTS,
                                          seed=1), redis, stall_timeout_s=120)
        full = await settled(redis, 1.0)
        ids = run.match_ids
        log = RedisEventLog(redis)
        started = time.perf_counter()
        live = [await log.read(m) for m in ids]
        bare_s = time.perf_counter() - started
        store = FolderStore(folder / "archive")
        archiver = Archiver(redis, log, store, lambda: read_keyring(redis), owner="bench",
                            now_ms=lambda: int(time.time() * 1000))
        started = time.perf_counter()
        outcomes = await archiver.archive_all(ids)
        archive_s = time.perf_counter() - started
        assert all(o.done for o in outcomes), {o.state for o in outcomes}
        after = await settled(redis, 1.0)
    kept = sum([await redis.memory_usage(archived_key(s)) or 0 for s in range(SHARDS)]
               + [await redis.memory_usage(matches_key(s)) or 0 for s in range(SHARDS)])
    times = []
    for _ in range(3):
        reader = ArchivingLog(redis, store)  # a new reader each time: nothing cached
        started = time.perf_counter()
        restored = [await reader.read(m) for m in ids]
        times.append(time.perf_counter() - started)
    assert restored == live
    restore_s = statistics.median(times)
    sizes = [o.size for o in outcomes]
    raw = sum(o.raw for o in outcomes)
    n = len(ids)
    print(f"{n} finished {GAME} matches, {PLAYERS} players, {sum(map(len, live)) / n:.0f} "
          "events each")
    print(f"  Redis bytes per match, finished:  {(full - base) / n:>9,.0f}  (used_memory, the "
          "buses trimmed)")
    print(f"  Redis bytes per match, archived:  {(after - base) / n:>9,.0f}  (used_memory); "
          f"tombstones and index {kept / n:,.0f} (MEMORY USAGE; budget {TOMBSTONE_BUDGET})")
    print(f"  archive per match: median {statistics.median(sizes):,.0f} B; "
          f"{raw / sum(sizes):.1f}:1 against the stored entries ({raw / n:,.0f} B)")
    print(f"  archived {n / archive_s:,.0f} matches/s (audit, write, read back, drop); "
          f"restored {n / restore_s:,.0f} matches/s against {n / bare_s:,.0f} read live "
          f"({bare_s / restore_s:.2f} of a live read)")
    if os.environ.get("BENCH_PAUSE"):
        print("paused: redis at", url, flush=True)
        await asyncio.sleep(float(os.environ["BENCH_PAUSE"]))
    await redis.flushdb()
    await redis.aclose()


async def part_two(url: str, folder: Path, total: int) -> None:
    redis = Redis.from_url(url)
    env = {"SIEGE_ARCHIVE": str(folder / "archive2"), "SIEGE_ARCHIVE_DELAY_S": "0",
           "SIEGE_ARCHIVE_EVERY_S": "0.5", "SIEGE_HOME": str(folder)}
    procs = ServiceProcesses(url, folder / "logs2", env, services=PROCESSES)
    samples: list[tuple[int, int]] = []  # (matches finished, used_memory)
    finished = 0
    stop = asyncio.Event()

    async def sample() -> None:
        while not stop.is_set():
            samples.append((finished, await used(redis)))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)

    def one_more(_result: object) -> None:
        nonlocal finished
        finished += 1

    started = time.perf_counter()
    async with procs.running(redis):
        sampler = asyncio.create_task(sample())
        for wave in range(0, total, WAVE):
            await play_remote(RunConfig(game=GAME, matches=min(WAVE, total - wave),
                                        players=PLAYERS, bots=BOTS, seed=100 + wave // WAVE),
                              redis, on_finished=one_more, stall_timeout_s=120)
        stop.set()
        await sampler
    seconds = time.perf_counter() - started
    # From the end of the first wave (the working set of running matches built up) to the end
    # of the run, in time order: its first tenth against its last.
    steady = [m for done, m in samples if done >= WAVE] or [m for _, m in samples]
    tenth = max(1, len(steady) // 10)
    a, b = statistics.median(steady[:tenth]), statistics.median(steady[-tenth:])
    print(f"{total} matches in waves of {WAVE}, archiver on (no delay): {seconds:.0f} s, "
          f"{len(samples)} samples of used_memory")
    print(f"  used_memory, first tenth of the samples: median {a / 2**20:.1f} MiB; last tenth: "
          f"{b / 2**20:.1f} MiB ({b / a:.2f} of the first: {'flat' if b <= 1.1 * a else 'GREW'}"
          " within 10%)")
    print(f"  peak {max(m for _, m in samples) / 2**20:.1f} MiB; after the run "
          f"{await used(redis) / 2**20:.1f} MiB")
    await redis.aclose()


async def main(total: int) -> None:
    with EmbeddedRedis() as server, tempfile.TemporaryDirectory() as tmp:
        os.environ["SIEGE_HOME"] = tmp  # the services' signing key, not the checkout's
        await part_one(server.url, Path(tmp))
        await part_two(server.url, Path(tmp), total)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000))
