"""Redis refusing writes is not poison: a StreamConsumer on a real redis-server whose memory is
full (``maxmemory`` with ``noeviction``: every write answered ``OOM command not allowed``) holds
its entries, dead-letters none of them however long the refusal lasts, and handles every one
exactly as it would have, in order per key, once the memory is freed. Also: idle consumers
without pending entries are deleted from the group, those with pending entries kept.

No sleeps as synchronisation, except to let the refusal last (longer than many claim cycles).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import redis.asyncio
import structlog
from redis.exceptions import OutOfMemoryError, ResponseError

from siege.contracts.messages import LogAppended, Message
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.pipelined import PipelinedRedis
from siege.testing import waiting
from siegeworks.transport.streams import (
    StreamConsumer,
    ensure_group,
    is_transient,
    publish_many,
)

pytestmark = pytest.mark.integration

Redis = redis.asyncio.Redis
DEADLINE_S = 20.0
wait_until = functools.partial(waiting.wait_until, timeout=DEADLINE_S)
STREAM = "bus:test"
GROUP = "svc"
DEAD = "test:dead"
OUT = "bus:out"
CLAIM_IDLE_MS = 200  # a claim pass every 100 ms: the refusal below lasts dozens of them
REFUSAL_S = 3.0
MATCHES = ("m1", "m2", "m3")
PER_MATCH = 8


def note(n: int, match_id: str) -> LogAppended:
    return LogAppended(match_id=match_id, first=n, last=n)


@contextlib.asynccontextmanager
async def running(consumer: StreamConsumer[Any]) -> AsyncIterator[StreamConsumer[Any]]:
    """Runs the consumer in a task until the block exits; stop() must make run() return."""
    task = asyncio.create_task(consumer.run())
    await wait_until(lambda: consumer.ready.is_set() or task.done(), "consumer ready")
    if task.done():
        task.result()  # re-raises what went wrong
    try:
        yield consumer
    finally:
        consumer.stop()
        await asyncio.wait_for(task, DEADLINE_S)


async def pending_count(r: Redis) -> int:
    return int((await r.xpending(STREAM, GROUP))["pending"])


async def no_pending(r: Redis) -> bool:
    return await pending_count(r) == 0


@pytest.fixture
def small_redis() -> Iterator[EmbeddedRedis]:
    """A redis-server of its own with 4 MB of memory that refuses writes when full."""
    with EmbeddedRedis(extra_args=("--maxmemory", "4mb",
                                   "--maxmemory-policy", "noeviction")) as server:
        yield server


@contextlib.asynccontextmanager
async def client(server: EmbeddedRedis) -> AsyncIterator[Redis]:
    r = redis.asyncio.Redis.from_url(server.url)
    try:
        yield r
    finally:
        await r.aclose()


async def fill_memory(r: Redis) -> None:
    """Appends to a filler key until Redis refuses writes."""
    with contextlib.suppress(OutOfMemoryError):
        for _ in range(1000):
            await r.append("filler", b"x" * 65_536)
    with pytest.raises(OutOfMemoryError):
        await r.set("probe", b"1")


class Writer:
    """A handler that writes for every entry, as the services do: one write of its own (refused
    while memory is full) and one output buffered until ``flush`` (the consumer's before_ack,
    which drops the buffer when it fails, as RedisBus does). A match in ``fail`` raises a plain
    error (real poison)."""

    def __init__(self, r: Redis, pipelined: PipelinedRedis | None,
                 fail: frozenset[str] = frozenset()) -> None:
        self.r, self.pipelined, self.fail = r, pipelined, fail
        self.handled: list[tuple[str, int]] = []  # (match id, n) of each handler that returned
        self.attempts = 0
        self.poisoned = 0  # times a handler raised its own error
        self._buffer: list[str] = []

    async def __call__(self, stream: str, entry_id: str, message: Message) -> None:
        assert hasattr(message, "match_id") and hasattr(message, "first")
        self.attempts += 1
        if message.match_id in self.fail:
            self.poisoned += 1
            raise RuntimeError("this message breaks the handler")
        if self.pipelined is not None:  # raw replies: the OOM code is in the message
            await self.pipelined.execute("HSET", "handled", entry_id, message.first)
        else:
            await self.r.hset("handled", entry_id, message.first)
        self.handled.append((message.match_id, message.first))
        self._buffer.append(entry_id)

    async def flush(self) -> None:
        out, self._buffer = self._buffer, []
        if out:
            async with self.r.pipeline(transaction=False) as pipe:
                for entry_id in out:
                    pipe.xadd(OUT, {"in": entry_id})
                await pipe.execute()


class Records:
    """A logger's records as (level, event, fields), rendered no further."""

    def __init__(self) -> None:
        self.records: list[tuple[str, str, dict[str, Any]]] = []
        self.logger = structlog.wrap_logger(structlog.ReturnLogger(), processors=[self._keep])

    def _keep(self, logger: Any, level: str, event: dict[str, Any]) -> str:
        self.records.append((level, event["event"], event))
        return ""

    def events(self, name: str) -> list[dict[str, Any]]:
        return [fields for _, event, fields in self.records if event == name]


def consumer_on(r: Redis, writer: Writer, name: str = "svc-0",
                pipelined: PipelinedRedis | None = None, reads: PipelinedRedis | None = None,
                records: Records | None = None) -> StreamConsumer[Message]:
    return StreamConsumer(r, [STREAM], GROUP, name, writer, batch=10, block_ms=50,
                          claim_idle_ms=CLAIM_IDLE_MS, dead_letter_stream=DEAD,
                          key=lambda m: m.match_id, before_ack=writer.flush,
                          pipelined=pipelined, reads=reads,
                          logger=(records or Records()).logger)


async def publish_matches(r: Redis, extra: tuple[str, ...] = ()) -> dict[str, str]:
    """PER_MATCH entries of each match, interleaved; returns their ids' match ids."""
    items = [(STREAM, note(n, match)) for n in range(1, PER_MATCH + 1)
             for match in (*MATCHES, *extra)]
    ids = await publish_many(r, items)
    return {i: m.match_id for i, (_, m) in zip(ids, items, strict=True)}


async def max_delivery_count(r: Redis) -> int:
    rows = await r.xpending_range(STREAM, GROUP, min="-", max="+", count=1000)
    return max((int(row["times_delivered"]) for row in rows), default=0)


def in_order_once(writer: Writer) -> None:
    """Every entry handled exactly once, and per match in the order written."""
    for match in MATCHES:
        assert [n for m, n in writer.handled if m == match] == list(range(1, PER_MATCH + 1))
    assert len(writer.handled) == len(MATCHES) * PER_MATCH


@pytest.mark.parametrize("transport", ["redis-py", "pipelined"])
def test_entries_survive_a_full_memory_and_only_real_poison_is_dead_lettered(
    small_redis: EmbeddedRedis, transport: str
) -> None:
    async def scenario() -> None:
        async with client(small_redis) as r:
            await ensure_group(r, STREAM, GROUP)
            ids = await publish_matches(r, extra=("bad",))
            await fill_memory(r)
            fast = PipelinedRedis.like(r) if transport == "pipelined" else None
            reads = PipelinedRedis.like(r) if transport == "pipelined" else None
            writer = Writer(r, fast, fail=frozenset({"bad"}))
            records = Records()
            consumer = consumer_on(r, writer, pipelined=fast, reads=reads, records=records)
            async with running(consumer):
                await wait_until(lambda: writer.attempts > 0, "handlers tried")
                await asyncio.sleep(REFUSAL_S)  # dozens of claim passes, all refused
                # Held, not redelivered: the refused entries' counts stay at their one delivery.
                assert writer.handled == []
                assert await r.hlen("handled") == 0
                honest = {i for i, match in ids.items() if match != "bad"}
                rows = await r.xpending_range(STREAM, GROUP, min="-", max="+", count=1000)
                counts = {row["message_id"].decode(): int(row["times_delivered"])
                          for row in rows}
                assert {counts[i] for i in honest if i in counts} <= {1}
                await r.delete("filler")  # Redis accepts writes again
                await wait_until(lambda: len(writer.handled) == len(MATCHES) * PER_MATCH,
                                 "every honest entry handled")
                await wait_until(lambda: consumer.dead_lettered == PER_MATCH,
                                 "the bad match's entries dead-lettered")
                await wait_until(lambda: no_pending(r), "nothing pending")
            in_order_once(writer)
            assert consumer.failed == writer.poisoned  # refusals are no failures
            # Logged per batch and attempt, backing off: not per entry and claim pass.
            failures = records.events("handler failed")
            assert {f["match_id"] for f in failures} == {"bad"}
            refusals = records.events("redis refuses; holding entries")
            assert 0 < len(refusals) < 40
            assert 0.8 <= max(f["retry_in_s"] for f in refusals) <= 2.0
            assert await r.hlen("handled") == len(MATCHES) * PER_MATCH
            outputs = [fields[b"in"].decode() for _, fields in await r.xrange(OUT)]
            assert sorted(outputs) == sorted(honest)  # each output published exactly once
            dead = await r.xrange(DEAD)
            # Only the handler that raises a non-Redis error is poison, after its five tries.
            assert {f[b"id"].decode() for _, f in dead} == set(ids) - honest
            assert all(f[b"reason"].startswith(b"delivered 6 times") for _, f in dead)
            for conn in (fast, reads):
                if conn is not None:
                    await conn.aclose()

    asyncio.run(scenario())

def test_restarts_while_memory_is_full_do_not_make_entries_poison(
    small_redis: EmbeddedRedis,
) -> None:
    async def scenario() -> None:
        async with client(small_redis) as r:
            await ensure_group(r, STREAM, GROUP)
            await publish_matches(r)
            await fill_memory(r)
            for life in range(7):  # more lives than max_deliveries, every one refused
                writer = Writer(r, None)
                # Alternately the same name (its own pending re-read) and another (a claim).
                records = Records()
                consumer = consumer_on(r, writer, name=f"svc-{life % 2}", records=records)
                # Not ``running``: a consumer re-reading its own entries is not ready while held.
                task = asyncio.create_task(consumer.run())
                await wait_until(lambda w=writer: w.attempts > 0, "handlers tried")
                await asyncio.sleep(4 * CLAIM_IDLE_MS / 1000)
                consumer.stop()
                await asyncio.wait_for(task, DEADLINE_S)
                assert writer.handled == []
                assert await max_delivery_count(r) <= 1  # stopping put each delivery back
            await r.delete("filler")
            writer = Writer(r, None)
            consumer = consumer_on(r, writer, name="svc-2")
            async with running(consumer):
                await wait_until(lambda: len(writer.handled) == len(MATCHES) * PER_MATCH,
                                 "every entry handled")
                await wait_until(lambda: no_pending(r), "nothing pending")
            # Each once (the order of entries taken over from other consumers is the claims').
            assert sorted(writer.handled) == sorted((m, n) for m in MATCHES
                                                    for n in range(1, PER_MATCH + 1))
            assert consumer.dead_lettered == 0 and await r.xlen(DEAD) == 0

    asyncio.run(scenario())


def test_refusals_are_told_from_failures() -> None:
    assert is_transient(OutOfMemoryError("command not allowed when used memory > 'maxmemory'."))
    assert is_transient(ResponseError("OOM command not allowed when used memory > 'maxmemory'. "
                                      "script: 1234, on @user_script:1."))
    for code in ("READONLY", "MISCONF", "NOREPLICAS", "BUSY", "LOADING", "TRYAGAIN",
                 "CLUSTERDOWN", "MASTERDOWN"):
        assert is_transient(ResponseError(f"{code} refused for now"))
    try:
        try:
            raise ResponseError("READONLY You can't write against a read only replica.")
        except ResponseError as exc:
            raise RuntimeError("append failed") from exc
    except RuntimeError as wrapped:
        assert is_transient(wrapped)
    assert is_transient(ExceptionGroup("handlers", [ValueError(), ResponseError("BUSY x")]))
    for poison in (ResponseError("WRONGTYPE Operation against a key holding the wrong kind"),
                   ResponseError("BUSYGROUP Consumer Group name already exists"),
                   ResponseError("ERR Error running script"), RuntimeError("bug"), KeyError()):
        assert not is_transient(poison)


# --------------------------------------------------------------------------------------------
# Idle consumers


def test_idle_consumers_without_pending_entries_are_deleted(redis_client: Redis,
                                                            run: Any) -> None:
    async def names(r: Redis) -> set[str]:
        return {c["name"].decode() for c in await r.xinfo_consumers(STREAM, GROUP)}

    async def pruned(r: Redis) -> bool:
        return not await names(r) & {"gone-idle-1", "gone-idle-2"}

    async def scenario() -> None:
        r = redis_client
        await ensure_group(r, STREAM, GROUP)
        await publish_many(r, [(STREAM, note(1, "m1")), (STREAM, note(2, "m1"))])
        # A consumer of a process long gone that holds an entry, and two that hold none.
        await r.xreadgroup(GROUP, "gone-with-pending", {STREAM: ">"}, count=1)
        await r.xgroup_createconsumer(STREAM, GROUP, "gone-idle-1")
        await r.xgroup_createconsumer(STREAM, GROUP, "gone-idle-2")
        await asyncio.sleep(0.3)  # all three idle over the threshold below
        seen: list[str] = []

        async def recorder(stream: str, entry_id: str, message: Message) -> None:
            seen.append(entry_id)

        consumer = StreamConsumer(r, [STREAM, "bus:other"], GROUP, "svc-0", recorder,
                                  block_ms=50, claim_idle_ms=60_000, dead_letter_stream=DEAD,
                                  idle_consumer_ms=200, prune_every_ms=100)
        async with running(consumer):
            await wait_until(lambda: consumer.processed == 1, "the free entry handled")
            await wait_until(lambda: pruned(r), "idle consumers without pending deleted")
            # Idle itself between reads of 50 ms only; never deleted, nor the one with pending.
            assert await names(r) == {"gone-with-pending", "svc-0"}
        assert await pending_count(r) == 1  # the entry of the kept consumer is still there
        # Called directly, the threshold can be given; this consumer is never deleted.
        consumer2 = StreamConsumer(r, [STREAM], GROUP, "svc-1", recorder, idle_consumer_ms=None)
        await r.xgroup_createconsumer(STREAM, GROUP, "svc-1")
        assert await consumer2.prune_idle_consumers() == []  # None: pruning off
        assert await consumer2.prune_idle_consumers(idle_ms=0) == [(STREAM, "svc-0")]
        assert await names(r) == {"gone-with-pending", "svc-1"}
        # A stream it skips (a shard another replica holds) is that replica's to prune.
        consumer3 = StreamConsumer(r, [STREAM], GROUP, "svc-2", recorder,
                                   skip=lambda stream: stream == STREAM)
        assert await consumer3.prune_idle_consumers(idle_ms=0) == []
        assert await names(r) == {"gone-with-pending", "svc-1"}

    run(scenario())
