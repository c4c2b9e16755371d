"""A batch's clock changes reach each shard's sorted set in one command per shard, with the
effect of applying them one by one, also after the server lost its scripts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio

from siege.eventlog.keys import deadlines_key, shard_of
from siege.eventlog.pipelined_cluster import pipelined_like
from siege.hosting.clocks import deadline_member
from siegeworks.transport.redis_bus import RedisBus

pytestmark = [pytest.mark.integration, pytest.mark.both_stores]

Run = Callable[[Awaitable[Any]], Any]


def test_clock_changes_land_per_shard_in_one_command_each(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    first = "m-1"
    other = next(f"m-{n}" for n in range(2, 99) if shard_of(f"m-{n}") != shard_of(first))
    answered, asked = deadline_member(first, 0, 1), deadline_member(first, 1, 2)
    elsewhere = deadline_member(other, 0, 5)

    async def scenario() -> tuple[dict[str, list[tuple[bytes, float]]], int]:
        pipelined = pipelined_like(redis_client)
        bus = RedisBus(redis_client, buffered=True, pipelined=pipelined)
        try:
            await bus.set_deadline(answered, 1_000)  # an earlier batch's prompt
            await bus.flush()
            await redis_client.script_flush()  # as after a restart: the script is loaded again
            before = pipelined.commands_sent
            await bus.clear_deadline(answered)
            await bus.set_deadline(asked, 2_000)
            await bus.set_deadline(asked, 3_000)  # a repeated prompt keeps the first clock
            await bus.set_deadline(elsewhere, 4_000)
            await bus.flush()
            sent = pipelined.commands_sent - before
            keys = {deadlines_key(shard_of(first)), deadlines_key(shard_of(other))}
            return {k: await redis_client.zrange(k, 0, -1, withscores=True) for k in keys}, sent
        finally:
            await pipelined.aclose()

    sets, sent = run(scenario())
    assert sets[deadlines_key(shard_of("m-1"))] == [(asked.encode(), 2_000.0)]
    assert sets[deadlines_key(shard_of(other))] == [(elsewhere.encode(), 4_000.0)]
    # one script call (refused once, NOSCRIPT, then sent with its body) and one ZADD
    assert sent == 3
