"""A service's batches share one output buffer: a flush may send what another batch buffered.
If that flush fails (Redis out of memory), the other batch must not be told its outputs are
out. Its own flush waits for the flushes under way, and ``failed_flushes`` moves before it
returns, so the consumer runs that batch again instead of acking it (a lost prompt stalled
matches for ever after a short OOM)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

from redis.asyncio import Redis
from redis.exceptions import ResponseError

from siege.contracts.messages import ActionRejected
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import inbox_key
from siege.eventlog.pipelined import PipelinedRedis
from siegeworks.transport.redis_bus import RedisBus

OOM = "OOM command not allowed when used memory > 'maxmemory'."


class HeldPipeline:
    """Stands in for the auto-pipelined connection: every reply waits until released."""

    def __init__(self) -> None:
        self.sent: list[tuple[Sequence[Any], asyncio.Future[Any]]] = []

    def send(self, args: Sequence[Any]) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.sent.append((args, future))
        return future


def rejection(n: int) -> ActionRejected:
    return ActionRejected(match_id="m", seat=0, command_id=f"c{n}",
                          code=RejectionCode.ILLEGAL_ACTION)


async def settle() -> None:
    for _ in range(20):  # lets every ready task run (a yield to the loop, not a timed wait)
        await asyncio.sleep(0)


def test_a_flush_returns_only_after_the_flush_holding_its_outputs_failed_or_succeeded() -> None:
    async def scenario() -> None:
        pipe = HeldPipeline()
        bus = RedisBus(cast(Redis, None), buffered=True,
                       pipelined=cast(PipelinedRedis, pipe))
        await bus.publish(inbox_key("a"), rejection(1))  # batch A's output
        other = asyncio.create_task(bus.flush())  # batch B's flush takes it
        await settle()
        assert [args[0] for args, _ in pipe.sent] == ["XADD", "EXPIRE"]  # the inbox's idle expiry
        before = bus.failed_flushes
        own = asyncio.create_task(bus.flush())  # batch A: nothing left in the buffer
        await settle()
        assert not own.done()  # it waits for B's flush, which holds A's output
        pipe.sent[0][1].set_exception(ResponseError(OOM))
        pipe.sent[1][1].set_result(0)  # no inbox to expire: its XADD was refused
        await settle()
        assert own.done() and own.exception() is None
        assert isinstance(other.exception(), ResponseError)
        assert bus.failed_flushes == before + 1  # A sees the loss before it acks

    asyncio.run(scenario())


def test_a_clients_bus_keeps_what_redis_refused_for_the_next_flush() -> None:
    async def scenario() -> None:
        pipe = HeldPipeline()
        bus = RedisBus(cast(Redis, None), buffered=True,
                       pipelined=cast(PipelinedRedis, pipe), keep_refused=True)
        for n in (1, 2):
            await bus.publish(inbox_key("a"), rejection(n))
        first = asyncio.create_task(bus.flush())
        await settle()
        pipe.sent[0][1].set_result(b"1-0")
        pipe.sent[1][1].set_exception(ResponseError(OOM))
        pipe.sent[2][1].set_result(1)  # the inbox's idle expiry (siegeworks.transport.bounds)
        await settle()
        assert isinstance(first.exception(), ResponseError)
        again = asyncio.create_task(bus.flush())
        await settle()
        assert [args for args, _ in pipe.sent[3:]] == [pipe.sent[1][0]]  # only the refused one
        pipe.sent[3][1].set_result(b"2-0")
        await settle()
        assert again.done() and again.exception() is None

    asyncio.run(scenario())
