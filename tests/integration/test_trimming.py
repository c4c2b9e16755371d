"""Trimming bus streams below every consumer group's needs, against a real redis-server.

Each case states exactly which ids must remain, so trimming one entry too many or too few fails.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio

from siege.eventlog.keys import commands_key
from siege.testing.waiting import wait_until
from siegeworks.transport.trimming import safe_trim_id, trim_consumed, trim_forever

pytestmark = pytest.mark.integration

Run = Callable[[Awaitable[Any]], Any]
Redis = redis.asyncio.Redis

STREAM = "{s0}:bus:rules"
DEADLINE_S = 10.0


async def add(r: Redis, stream: str, count: int) -> list[str]:
    pipe = r.pipeline(transaction=False)
    for n in range(count):
        pipe.xadd(stream, {b"m": b"%d" % n})
    return [entry_id.decode() for entry_id in await pipe.execute()]


async def read(r: Redis, group: str, consumer: str, count: int, stream: str = STREAM) -> list[str]:
    """Delivers the next ``count`` entries to ``consumer`` (pending until acked)."""
    reply = await r.xreadgroup(group, consumer, {stream: ">"}, count=count)
    return [entry_id.decode() for entry_id, _ in reply[0][1]] if reply else []


async def remaining(r: Redis, stream: str = STREAM) -> list[str]:
    return [entry_id.decode() for entry_id, _ in await r.xrange(stream)]


class Log:
    def __init__(self) -> None:
        self.records: list[tuple[str, str, dict[str, Any]]] = []

    def info(self, event: str, **fields: Any) -> None:
        self.records.append(("info", event, fields))

    def warning(self, event: str, **fields: Any) -> None:
        self.records.append(("warning", event, fields))

    def events(self, level: str) -> list[str]:
        return [event for lvl, event, _ in self.records if lvl == level]


def test_the_slower_group_keeps_what_it_has_not_acked(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        ids = await add(r, STREAM, 10)
        for group in ("fast", "slow"):
            await r.xgroup_create(STREAM, group, "0")
        await r.xack(STREAM, "fast", *await read(r, "fast", "c", 8))
        slow = await read(r, "slow", "c", 6)
        await r.xack(STREAM, "slow", *slow[:3])  # ids[3..5] pending, ids[6..] undelivered

        assert await safe_trim_id(r, STREAM) == ids[3]
        assert await trim_consumed(r, [STREAM]) == 3
        assert await remaining(r) == ids[3:]

        await r.xack(STREAM, "slow", *slow[3:])
        # Now slow has everything up to ids[5] acked: its first undelivered entry is the floor.
        assert await safe_trim_id(r, STREAM) == ids[6]
        assert await trim_consumed(r, [STREAM]) == 3
        assert await remaining(r) == ids[6:]

    run(scenario())


def test_a_crashed_consumers_pending_entries_survive_and_can_be_claimed(
        redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        ids = await add(r, STREAM, 10)
        await r.xgroup_create(STREAM, "svc", "0")
        await r.xack(STREAM, "svc", *await read(r, "svc", "alive", 2))
        assert await read(r, "svc", "crashed", 3) == ids[2:5]  # then it dies, acking nothing
        await r.xack(STREAM, "svc", *await read(r, "svc", "alive", 5))

        assert await trim_consumed(r, [STREAM]) == 2
        assert await remaining(r) == ids[2:]

        _, claimed, deleted = await r.xautoclaim(STREAM, "svc", "rescuer", min_idle_time=0)
        assert [entry_id.decode() for entry_id, _ in claimed] == ids[2:5]
        assert [fields for _, fields in claimed] == [{b"m": b"2"}, {b"m": b"3"}, {b"m": b"4"}]
        assert deleted == []

        await r.xack(STREAM, "svc", *ids[2:5])
        assert await trim_consumed(r, [STREAM]) == 8
        assert await remaining(r) == []

    run(scenario())


def test_a_stream_without_groups_is_left_alone(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        ids = await add(r, commands_key("bob"), 5)
        assert await safe_trim_id(r, commands_key("bob")) is None
        assert await safe_trim_id(r, commands_key("nobody")) is None  # no such key
        assert await trim_consumed(
            r, [commands_key("bob"), commands_key("nobody")]) == 0
        assert await remaining(r, commands_key("bob")) == ids

    run(scenario())


def test_streams_every_group_acked_are_trimmed_to_empty(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        streams = [f"{{s{shard}}}:bus" for shard in range(3)] + ["siege:rules"]
        for stream in streams:
            await add(r, stream, 7)
            for group in ("rules", "match"):
                await r.xgroup_create(stream, group, "0")
                await r.xack(stream, group, *await read(r, group, "c", 7, stream))

        assert await trim_consumed(r, streams) == 7 * len(streams)
        for stream in streams:
            assert await r.xlen(stream) == 0
        assert await trim_consumed(r, streams) == 0  # and again: nothing left to remove

    run(scenario())


def test_undelivered_entries_survive(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        ids = await add(r, STREAM, 10)
        await r.xgroup_create(STREAM, "reader", "0")
        await r.xack(STREAM, "reader", *await read(r, "reader", "c", 10))
        await r.xgroup_create(STREAM, "idle", "0")  # a group that has read nothing yet
        assert await safe_trim_id(r, STREAM) == "0-1"
        assert await trim_consumed(r, [STREAM]) == 0
        assert await remaining(r) == ids

        # A group made at "$" needs nothing before it, only what comes after.
        await r.xgroup_destroy(STREAM, "idle")
        await r.xgroup_create(STREAM, "late", "$")
        later = await add(r, STREAM, 4)
        assert await trim_consumed(r, [STREAM]) == 10
        assert await remaining(r) == later
        await r.xack(STREAM, "late", *await read(r, "late", "c", 1))
        await r.xack(STREAM, "reader", *await read(r, "reader", "c", 4))
        assert await trim_consumed(r, [STREAM]) == 1
        assert await remaining(r) == later[1:]

    run(scenario())


def test_match_logs_are_refused(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        await add(redis_client, STREAM, 1)
        with pytest.raises(ValueError, match="match log"):
            await trim_consumed(redis_client, [STREAM, "{s3}:log:some-match"])
        assert await redis_client.xlen(STREAM) == 1

    run(scenario())


def test_the_loop_survives_errors_and_picks_up_new_streams(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        await r.set("not-a-stream", b"x")  # XINFO GROUPS on it: WRONGTYPE, a Redis error
        streams = ["not-a-stream", STREAM]
        await add(r, STREAM, 3)
        await r.xgroup_create(STREAM, "svc", "0")
        await r.xack(STREAM, "svc", *await read(r, "svc", "c", 3))
        stop = asyncio.Event()
        log = Log()
        task = asyncio.create_task(trim_forever(r, lambda: list(streams), 0.01, stop, log))

        async def trimmed(stream: str) -> bool:
            return await r.xlen(stream) == 0

        await wait_until(lambda: trimmed(STREAM), "the good stream trimmed despite the bad one")
        await wait_until(lambda: _true(len(log.events("warning")) >= 2), "a warning each pass")
        assert set(log.events("warning")) == {"bus_trim_failed"}

        streams.remove("not-a-stream")
        newcomer = commands_key("newcomer")
        await add(r, newcomer, 2)
        await r.xgroup_create(newcomer, "match", "0")
        await r.xack(newcomer, "match", *await read(r, "match", "c", 2, newcomer))
        streams.append(newcomer)
        await wait_until(lambda: trimmed(newcomer), "a stream added after the start trimmed")
        # The pass logs what it trimmed after the trim itself: the record may come a moment
        # after the stream is seen empty.
        await wait_until(lambda: _true("bus_trimmed" in log.events("info")), "the trim logged")

        stop.set()
        await asyncio.wait_for(task, DEADLINE_S)

    run(scenario())


async def _true(value: bool) -> bool:
    return value


def test_trim_matches_the_floor_on_random_group_states(redis_client: Redis, run: Run) -> None:
    """Exact expectation on random states: entries below the first one some group has not been
    delivered or has not acked go, the rest stay."""

    async def scenario() -> None:
        r = redis_client
        rng = random.Random(20240611)
        for case in range(25):
            stream = f"{{s1}}:bus:rand:{case}"
            ids = await add(r, stream, rng.randint(1, 30))
            floor = len(ids)
            for g in range(rng.randint(1, 3)):
                await r.xgroup_create(stream, f"g{g}", id="0")
                wanted = rng.randint(0, len(ids))
                delivered = await read(r, f"g{g}", "c", wanted, stream) if wanted else []
                acked = [i for i in delivered if rng.random() < 0.6]
                if acked:
                    await r.xack(stream, f"g{g}", *acked)
                unacked = [ids.index(i) for i in delivered if i not in acked]
                floor = min(floor, len(delivered), *unacked)
            assert await trim_consumed(r, [stream]) == floor, case
            assert await remaining(r, stream) == ids[floor:], case

    run(scenario())
