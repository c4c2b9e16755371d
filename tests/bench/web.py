"""The web pages' figures (not a test; it prints them):

    .venv/bin/python tests/bench/web.py [spectators]

On a private redis-server with ``siege web`` as its own process: the time to first render, in
Chromium, of a 200-entrant tournament's standings (three rounds of tables of 4 recorded) and of
a 300-event replay (Storm the Castle!, four seats), each the median of 5 page loads, measured by
the page's own clock from navigation start to the rows or the board drawn; then server-sent
events fanned out to N spectators of one match (default 200): a scripted story of 60 entries on
the match's public stream at 20 a second, each carrying its write time, and the delay to every
spectator (p50, p99) with the gateway's CPU per entry delivered.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import psutil
from playwright.sync_api import sync_playwright
from redis.asyncio import Redis

from siege.contracts.envelope import GENESIS, EventCodec, seal
from siege.contracts.events import MatchCreated
from siege.contracts.messages import MatchWatched, Said
from siege.engine.protocol import SPECTATOR
from siege.engine.registry import get_engine
from siege.eventlog.acl import GATEWAY_CLIENT
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import commands_key, watch_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.clock import FixedClock
from siege.testing.playout import seeded_playout
from siege.tournament.events import (
    EntrantRegistered,
    MatchRecorded,
    RoundPaired,
    TournamentCreated,
    match_id_for,
)
from siege.tournament.store import TournamentStore
from siegeworks.transport.redis_bus import RedisBus

ROOT = Path(__file__).resolve().parents[2]
TID = "t-000000000200"
REPLAY = "storm-bench-1"
WATCHED = "watched-bench-1"
LOADS = 5
ENTRIES, RATE = 60, 20.0


async def fill(redis: Redis) -> None:
    """A 200-entrant tournament with three rounds recorded, a 300-event match log."""
    log = RedisEventLog(redis)
    entrants = [f"e{i:04d}" for i in range(200)]
    events: list = [TournamentCreated(tournament_id=TID, game="castle-dash", format="swiss",
                                      rounds=3, table_size=4, seed=1)]
    events += [EntrantRegistered(entrant=e, bot="random") for e in entrants]
    for rnd in range(1, 4):
        order = entrants[rnd:] + entrants[:rnd]
        tables = [order[i:i + 4] for i in range(0, 200, 4)]
        events.append(RoundPaired(round=rnd, tables=tables, byes=[]))
        events += [MatchRecorded(round=rnd, match_id=match_id_for(TID, rnd, t), entrants=seats,
                                 ranks=[1 + (t + k + rnd) % 4 for k in range(4)])
                   for t, seats in enumerate(tables)]
    await TournamentStore(log, FixedClock(0)).append_owed(TID, lambda s: events)
    engine = get_engine("storm-the-castle")
    _, story = seeded_playout(engine, ["random"] * 4, 1)
    codec = EventCodec(engine.event_types)
    sealed = seal(codec, REPLAY, 0, GENESIS, story[:300], 0)
    await log.append(REPLAY, 0, GENESIS, [(s, h) for _, s, h in sealed])


def first_renders(base: str) -> tuple[float, float]:
    """Median ms from navigation start to the standings' 200 rows, and to the replay's board."""
    standings, replay = [], []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=_chromium(), headless=True)
        for _ in range(LOADS):
            page = browser.new_page()
            page.goto(f"{base}/tournaments/{TID}", wait_until="commit")
            page.wait_for_function("document.querySelectorAll('#standings tbody tr').length"
                                   " == 200")
            standings.append(page.evaluate("performance.now()"))
            page.close()
            page = browser.new_page()
            page.goto(f"{base}/matches/{REPLAY}", wait_until="commit")
            page.wait_for_function("document.getElementById('board') &&"
                                   " document.getElementById('board').naturalWidth > 0")
            replay.append(page.evaluate("performance.now()"))
            page.close()
        browser.close()
    return statistics.median(standings), statistics.median(replay)


async def fan_out(redis: Redis, port: int, spectators: int,
                  gateway: psutil.Process) -> tuple[float, float, float, int]:
    """(p50 ms, p99 ms, gateway CPU µs per entry delivered, deliveries)."""
    engine = get_engine("castle-dash")
    created = MatchCreated(game="castle-dash", players=4, seat_names=["a", "b", "c", "d"])
    view = msgspec.Raw(msgspec.msgpack.encode(engine.view(engine.initial_state(created),
                                                          SPECTATOR)))
    bus = RedisBus(redis)
    delays: list[float] = []
    ready = asyncio.Event()
    connected = 0

    def entry(seq: int, snapshot: bool) -> MatchWatched:
        return MatchWatched(match_id=WATCHED, game="castle-dash", seat_names=["a", "b", "c", "d"],
                            seq=seq, snapshot=snapshot, view=view, over=seq >= ENTRIES,
                            lines=[Said(seq=seq, text=f"sent {time.time_ns()}")])

    async def spectator() -> None:
        nonlocal connected
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /matches/{WATCHED}/watch/events HTTP/1.1\r\nHost: x\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        connected += 1
        if connected == spectators:
            ready.set()
        while line := await reader.readline():
            text = line.decode(errors="replace")
            if "sent " in text:
                sent = int(text.split("sent ", 1)[1].split("<", 1)[0])
                delays.append((time.time_ns() - sent) / 1e6)
            if text.startswith("event: over"):
                break
        writer.close()

    tasks = [asyncio.create_task(spectator()) for _ in range(spectators)]
    await ready.wait()
    # Every spectator's watch has its cursor once its WatchMatch is out: then the story starts
    # (the rules service would answer each with a snapshot; here one snapshot serves all).
    while not await redis.xlen(commands_key(GATEWAY_CLIENT)):
        await asyncio.sleep(0.05)  # one watch for the match, whatever the number of pages
    await asyncio.sleep(1.0)  # the pages that connected meanwhile have joined its feed
    before = gateway.cpu_times()
    await bus.publish(watch_key(WATCHED), entry(1, snapshot=True))
    for seq in range(2, ENTRIES + 1):
        await asyncio.sleep(1 / RATE)
        await bus.publish(watch_key(WATCHED), entry(seq, snapshot=False))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    after = gateway.cpu_times()
    cpu = (after.user + after.system - before.user - before.system) * 1e6
    delays.sort()
    return (statistics.median(delays), delays[int(len(delays) * 0.99) - 1],
            cpu / max(1, len(delays)), len(delays))


def _chromium() -> str:
    for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(path):
            return path
    sys.exit("no Chromium: install Debian's chromium package (make test does, as root)")


def main(spectators: int) -> None:
    with EmbeddedRedis() as server:
        async def setup() -> None:
            redis = Redis.from_url(server.url)
            await fill(redis)
            await redis.aclose()
        asyncio.run(setup())
        web = subprocess.Popen([sys.executable, "-m", "siegeworks.cli", "web", "--port", "0",
                                "--redis-url", server.url], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        try:
            assert web.stdout is not None
            base = web.stdout.readline().split()[1].rstrip("/")
            standings, replay = first_renders(base)
            print(f"first render, median of {LOADS}: 200-entrant standings {standings:.0f} ms, "
                  f"300-event replay (board drawn) {replay:.0f} ms")

            async def spread() -> tuple[float, float, float, int]:
                redis = Redis.from_url(server.url)
                try:
                    return await fan_out(redis, int(base.rsplit(":", 1)[1]), spectators,
                                         psutil.Process(web.pid))
                finally:
                    await redis.aclose()
            p50, p99, cpu, count = asyncio.run(spread())
            print(f"server-sent events to {spectators} spectators of one match, {ENTRIES} "
                  f"entries at {RATE:g}/s: {count} deliveries, delay p50 {p50:.1f} ms, "
                  f"p99 {p99:.1f} ms, gateway CPU {cpu:.0f} µs per delivery")
        finally:
            web.terminate()
            web.wait(timeout=30)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
