"""The auto-pipelined connection of the hot path, against a real redis-server."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from siege.eventlog.pipelined import PipelinedRedis, pack

Run = Callable[[Awaitable[Any]], Any]


class CountingWrites(PipelinedRedis):
    """Counts the socket writes, to see commands of one pass leave together."""

    writes = 0

    def _write(self, chunks: list[bytes]) -> None:
        self.writes += 1
        super()._write(chunks)


def test_pack_is_resp() -> None:
    assert pack(["SET", b"k\r\n", 12]) == b"*3\r\n$3\r\nSET\r\n$3\r\nk\r\n\r\n$2\r\n12\r\n"


def test_concurrent_commands_share_one_write_and_get_their_own_replies(
    redis_client: redis.asyncio.Redis, run: Run
) -> None:
    async def scenario() -> tuple[list[Any], int]:
        fast = CountingWrites.like(redis_client)
        await fast.execute("PING")  # connected
        fast.writes = 0

        async def one(i: int) -> Any:
            await fast.execute("SET", f"k{i}", i)
            return await fast.execute("GET", f"k{i}")

        try:
            return await asyncio.gather(*(one(i) for i in range(200))), fast.writes
        finally:
            await fast.aclose()

    replies, writes = run(scenario())
    assert replies == [str(i).encode() for i in range(200)]
    assert writes == 2  # the 200 SETs together, then the 200 GETs together


def test_an_error_reply_raises_for_its_command_only(
    redis_client: redis.asyncio.Redis, run: Run
) -> None:
    async def scenario() -> list[Any]:
        fast = PipelinedRedis.like(redis_client)
        try:
            await fast.execute("SET", "s", "text")
            return await asyncio.gather(fast.execute("INCR", "s"), fast.execute("GET", "s"),
                                        return_exceptions=True)
        finally:
            await fast.aclose()

    failed, value = run(scenario())
    assert isinstance(failed, ResponseError) and "not an integer" in str(failed)
    assert value == b"text"


def test_a_script_the_server_forgot_is_loaded_again(
    redis_client: redis.asyncio.Redis, run: Run
) -> None:
    async def scenario() -> tuple[Any, Any]:
        fast = PipelinedRedis.like(redis_client)
        try:
            first = await fast.run_script("return ARGV[1]", [], ["one"])
            await redis_client.script_flush()  # as a restart or a failover would
            return first, await fast.run_script("return ARGV[1]", [], ["two"])
        finally:
            await fast.aclose()

    assert run(scenario()) == (b"one", b"two")


def test_a_lost_connection_fails_what_was_in_flight_and_the_next_command_reconnects(
    redis_client: redis.asyncio.Redis, run: Run
) -> None:
    async def scenario() -> tuple[BaseException | None, Any]:
        fast = PipelinedRedis.like(redis_client)
        try:
            own_id = await fast.execute("CLIENT", "ID")
            # BLPOP holds the reply back while another client kills the connection.
            waiting = asyncio.ensure_future(fast.execute("BLPOP", "never", 5))
            await asyncio.sleep(0)  # let it be written
            while not await redis_client.execute_command("CLIENT", "LIST", "ID", own_id):
                await asyncio.sleep(0.01)
            await redis_client.execute_command("CLIENT", "KILL", "ID", own_id)
            with pytest.raises(RedisConnectionError):
                await waiting
            return None, await fast.execute("PING")
        finally:
            await fast.aclose()

    _, pong = run(scenario())
    assert pong == b"PONG"


def test_commands_queued_when_the_connection_drops_fail_and_never_reach_the_next_one(
    redis_client: redis.asyncio.Redis, run: Run
) -> None:
    """A drop between queueing and writing: those commands fail with it; written on the new
    connection, their replies would have been handed to later commands."""
    async def scenario() -> tuple[BaseException | None, Any, Any]:
        fast = PipelinedRedis.like(redis_client)
        try:
            await fast.execute("SET", "a", "1")
            queued = fast.send(["GET", "a"])  # in the buffer, not written yet
            protocol = fast._protocol
            assert protocol is not None and protocol.transport is not None
            protocol.transport.abort()
            fast._lost(protocol, None)  # the loss arrives before the write
            failed = (await asyncio.gather(queued, return_exceptions=True))[0]
            await fast.execute("SET", "b", "2")
            return failed, await fast.execute("GET", "b"), await fast.execute("GET", "a")
        finally:
            await fast.aclose()

    failed, b, a = run(scenario())
    assert isinstance(failed, RedisConnectionError)
    assert (b, a) == (b"2", b"1")
