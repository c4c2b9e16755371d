"""A batch's clock changes reach each shard's sorted set in one command per shard, with the
effect of applying them one by one, also after the server lost its scripts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest
import redis.asyncio

from siege.contracts.messages import SeatPrompted
from siege.eventlog.keys import deadlines_key, shard_of, view_key
from siege.eventlog.pipelined_cluster import pipelined_like
from siege.hosting.clocks import deadline_member, member_key
from siegeworks.transport.redis_bus import RedisBus
from siegeworks.transport.streams import decode_message

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


def test_a_late_flush_moves_its_clocks_and_prompts_by_the_delay(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    """A service stalled between writing a prompt into its buffer and sending it gives the seat
    its whole time from when the prompt reaches Redis (a seat must not forfeit a decision it
    was shown after its deadline); a timely flush changes nothing."""
    now = [10_000]
    timely, stalled = deadline_member("m-1", 0, 1), deadline_member("m-1", 1, 1)

    def prompt(seat: int, due: int) -> SeatPrompted:
        return SeatPrompted(match_id="m-1", seat=seat, decision=1, view=msgspec.Raw(b"\x80"),
                            legal=[], deadline_ms=due, timeout_ms=3_000)

    async def scenario() -> tuple[list[tuple[bytes, float]], list[int]]:
        bus = RedisBus(redis_client, buffered=True, now_ms=lambda: now[0])
        for seat, member, stall in ((0, timely, 100), (1, stalled, 6_000)):
            due = now[0] + 3_000
            await bus.set_deadline(member, due)
            await bus.publish(view_key("c", "m-1", seat), prompt(seat, due))
            now[0] += stall  # the handler's batch ends this much later
            await bus.flush()
        prompts = []
        for seat in (0, 1):
            [(_, fields)] = await redis_client.xrange(view_key("c", "m-1", seat))
            message = decode_message(fields)
            assert isinstance(message, SeatPrompted)
            prompts.append(message.deadline_ms)
        return await redis_client.zrange(member_key(timely), 0, -1, withscores=True), prompts

    clocks, prompts = run(scenario())
    assert prompts == [13_000, 10_100 + 3_000 + 6_000]
    assert clocks == [(timely.encode(), 13_000.0), (stalled.encode(), 19_100.0)]
