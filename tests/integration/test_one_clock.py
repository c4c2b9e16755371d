"""Redis' clock for the services, and deadlines judged by when an answer reached Redis
(docs/decisions/0008-one-clock.md), against a real redis-server."""

from __future__ import annotations

import types
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio

from siege.contracts.messages import SubmitAction
from siege.eventlog.keys import commands_key, deadlines_key
from siege.eventlog.pipelined import PipelinedRedis
from siege.hosting.clock import RedisClock, redis_time_ms
from siegeworks.match.clocks import BATCH, RULES_GROUP, answer_in_time, due_pages
from siegeworks.serve import RedisTime
from siegeworks.transport.streams import encode_fields

Run = Callable[[Awaitable[Any]], Any]
MATCH = "m-1"
STREAM = commands_key("carol")


def answer(decision: int, seat: int = 0) -> dict[bytes, bytes]:
    return encode_fields(SubmitAction(match_id=MATCH, seat=seat, decision=decision,
                                      command_id=f"c{decision}", action=b"\x90", client="carol"))


STATE: Any = types.SimpleNamespace(match_id=MATCH, created=types.SimpleNamespace(
    clients=["carol", "dave"]))


async def redis_now(client: redis.asyncio.Redis) -> int:
    return redis_time_ms(await client.time())


def test_the_redis_clock_is_redis_time_and_never_goes_back(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        clock = RedisClock(RedisTime(redis_client).now_ms, refresh_s=0.0)
        await clock.sync()
        seen = [clock.now_ms() for _ in range(1000)]
        assert seen == sorted(seen)
        assert abs(clock.now_ms() - await redis_now(redis_client)) < 50

    run(scenario())


def test_a_user_refused_time_reads_redis_time_from_an_entry_id(
        redis_client: redis.asyncio.Redis, redis_url: str, run: Run) -> None:
    async def scenario() -> None:
        await redis_client.execute_command("ACL", "SETUSER", "no-time", "on", ">pw", "~*",
                                           "+@all", "-time")
        host = redis_url.split("//", 1)[1]
        limited = redis.asyncio.Redis.from_url(f"redis://no-time:pw@{host}")
        try:
            source = RedisTime(limited)
            at = await source.now_ms()
            assert not source.allowed
            assert abs(at - await redis_now(redis_client)) < 50
        finally:
            await limited.aclose()
            await redis_client.execute_command("ACL", "DELUSER", "no-time")

    run(scenario())


def test_an_answer_waiting_for_the_rules_service_holds_the_deadline(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        await redis_client.xgroup_create(STREAM, RULES_GROUP, id="0", mkstream=True)
        await redis_client.xadd(STREAM, answer(decision=6))  # an older decision's, handled
        await redis_client.xreadgroup(RULES_GROUP, "r", {STREAM: ">"})
        await redis_client.xack(STREAM, RULES_GROUP, *[
            e for e, _ in await redis_client.xrange(STREAM)])
        in_time = (await redis_client.xadd(STREAM, answer(decision=7))).decode()
        await redis_client.xadd(STREAM, answer(decision=7, seat=1))  # not this seat's
        due = await redis_now(redis_client) + 5
        now = due + 100  # the clock looks just after the deadline

        # Not read by the rules group yet: held, naming the answer.
        assert await answer_in_time(redis_client, STATE, 0, 7, due, None, now) == in_time
        assert await answer_in_time(redis_client, STATE, 0, 8, due, None, now) is None
        # Read (the rules service stalls before acking it): still held.
        await redis_client.xreadgroup(RULES_GROUP, "r", {STREAM: ">"})
        assert await answer_in_time(redis_client, STATE, 0, 7, due, in_time, now) == in_time
        # Handled (accepted or refused): the deadline is no longer held.
        await redis_client.xack(STREAM, RULES_GROUP, in_time)
        assert await answer_in_time(redis_client, STATE, 0, 7, due, in_time, now) is None

    run(scenario())


def test_a_client_cannot_backdate_an_answer_with_explicit_ids(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        await redis_client.xgroup_create(STREAM, RULES_GROUP, id="0", mkstream=True)
        due = await redis_now(redis_client) - 10_000  # the deadline passed 10 s ago
        # Written now, with an id that claims it came well before the deadline.
        await redis_client.xadd(STREAM, answer(decision=7), id=f"{due - 5000}-1")
        now = await redis_now(redis_client)
        assert await answer_in_time(redis_client, STATE, 0, 7, due, None, now) is None
        # A held deadline counts only what was judged at the first look: once that answer is
        # handled, entries added afterwards (ids still below the deadline, but after the
        # cutoff) do not extend it.
        cutoff = f"{due - 5000}-1"
        await redis_client.xreadgroup(RULES_GROUP, "r", {STREAM: ">"})
        await redis_client.xack(STREAM, RULES_GROUP, cutoff)
        await redis_client.xadd(STREAM, answer(decision=7), id=f"{due - 4000}-1")
        assert await answer_in_time(redis_client, STATE, 0, 7, due, cutoff, now) is None

    run(scenario())


def test_due_deadlines_read_alike_on_the_auto_pipelined_connection_and_redis_py(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    """The clock's lookup of due deadlines, on the auto-pipelined connection the match service
    gives it, finds what a redis-py pipeline finds: the due ones only, oldest first, a page
    at most."""
    keys = [deadlines_key(0), deadlines_key(1), deadlines_key(2)]

    async def scenario() -> None:
        await redis_client.zadd(keys[0], {"m-a:0:1": 1_000, "m-b:1:2": 900, "m-c:0:3": 5_000})
        await redis_client.zadd(keys[1], {f"m-{n}:0:1": n for n in range(BATCH + 5)})
        fast = PipelinedRedis.like(redis_client)
        try:
            raw = await due_pages(redis_client, fast, keys, 2_000)
        finally:
            await fast.aclose()
        assert raw == await due_pages(redis_client, None, keys, 2_000)
        assert raw[0] == [(b"m-b:1:2", 900.0), (b"m-a:0:1", 1_000.0)]
        assert len(raw[1]) == BATCH and raw[1][0] == (b"m-0:0:1", 0.0)
        assert raw[2] == []

    run(scenario())
