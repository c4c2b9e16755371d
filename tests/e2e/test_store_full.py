"""A store nearly out of memory (``noeviction``): a new match is refused with ``store_full``
while Redis can still say so, instead of waiting unanswered, and is accepted once memory is
freed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import redis.asyncio
from redis.exceptions import OutOfMemoryError

from siege.contracts.messages import CommandRefused, CreateMatch, SeatGranted, bus_decoder
from siege.contracts.rejections import RejectionCode
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import commands_key, inbox_key
from siegeworks.headroom import FULL_AT
from siegeworks.serve import read_health
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.redis_bus import announce

Run = Callable[[Awaitable[Any]], Any]
MAXMEMORY = 24 * 2**20


async def answers(r: redis.asyncio.Redis, client: str, wanted: int, timeout_s: float = 20
                  ) -> list[Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        found = [bus_decoder.decode(f[b"m"]) for _, f in await r.xrange(inbox_key(client))]
        if len(found) >= wanted:
            return found
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.05)


def test_new_matches_wait_with_a_clear_refusal_while_the_store_is_nearly_full(
        tmp_path: Path, run: Run) -> None:
    async def scenario(server: EmbeddedRedis) -> tuple[list[Any], list[Any], list[str]]:
        admin = redis.asyncio.Redis.from_url(server.url)
        procs = ServiceProcesses(server.url, tmp_path / "logs", {})
        try:
            async with procs.running(admin):
                await announce(admin, "ann")
                # Fill to between FULL_AT and the limit: Redis still takes small writes.
                n = 0
                while (await admin.info("memory"))["used_memory"] < (FULL_AT + 0.04) * MAXMEMORY:
                    try:
                        await admin.set(f"filler:{n}", b"x" * 256 * 1024)
                    except OutOfMemoryError:
                        break
                    n += 1
                deadline = time.monotonic() + 10  # the match service measures every second
                while not any(h.warnings for h in await read_health(admin)):
                    assert time.monotonic() < deadline, "the match service did not notice"
                    await asyncio.sleep(0.05)
                warnings = [w for h in await read_health(admin) for w in h.warnings]
                create = CreateMatch(match_id="when-full", game="castle-dash",
                                     seat_names=["a", "b", "c"])
                await admin.xadd(commands_key("ann"), {"m": msgspec.msgpack.encode(create)})
                refused = await answers(admin, "ann", 1)
                await admin.delete(*(f"filler:{i}" for i in range(n)))
                deadline = time.monotonic() + 10
                while any(h.warnings for h in await read_health(admin)):
                    assert time.monotonic() < deadline, "still full after freeing memory"
                    await asyncio.sleep(0.05)
                await admin.xadd(commands_key("ann"), {"m": msgspec.msgpack.encode(create)})
                granted = (await answers(admin, "ann", 4))[1:]
                return refused, granted, warnings
        finally:
            await admin.aclose()

    with EmbeddedRedis(extra_args=("--maxmemory", str(MAXMEMORY),
                                   "--maxmemory-policy", "noeviction")) as server:
        refused, granted, warnings = run(scenario(server))
    assert [(type(m), m.code) for m in refused] == [(CommandRefused, RejectionCode.STORE_FULL)]
    assert "new matches wait" in refused[0].detail and any("MB" in w for w in warnings)
    assert [type(m) for m in granted] == [SeatGranted] * 3
