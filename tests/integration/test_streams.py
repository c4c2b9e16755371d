"""The Redis Streams transport against a real redis-server: groups, redelivery, claims, poison.

No sleeps as synchronisation: every wait polls a condition under a deadline (``wait_until``) or
waits on an event, so a slow machine makes the tests slower, never wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import msgspec
import pytest
import redis.asyncio

from siege.contracts.messages import CommandRefused, LogAppended, Message, bus_encoder
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import REPLIES_STREAM, RESULTS_STREAM, inbox_key
from siege.eventlog.pipelined import PipelinedRedis
from siege.testing.waiting import wait_until
from siegeworks.transport.redis_bus import NOTICE_CAP, RedisBus
from siegeworks.transport.streams import (
    CONSUMER_ENV,
    StreamConsumer,
    default_consumer_name,
    ensure_group,
    parse_id,
    publish,
    publish_many,
    resolve_consumer_name,
)

pytestmark = pytest.mark.integration

Run = Callable[[Awaitable[Any]], Any]
Redis = redis.asyncio.Redis

DEADLINE_S = 10.0
STREAM = "bus:test"
GROUP = "svc"
DEAD = "test:dead"


def note(n: int, match_id: str = "m1") -> LogAppended:
    return LogAppended(match_id=match_id, first=n, last=n)


class Recorder:
    """A handler that records (stream, id, message) and raises for the match ids in ``fail``."""

    def __init__(self, fail: frozenset[str] = frozenset()) -> None:
        self.fail = fail
        self.seen: list[tuple[str, str, Message]] = []

    async def __call__(self, stream: str, entry_id: str, message: Message) -> None:
        self.seen.append((stream, entry_id, message))
        if getattr(message, "match_id", None) in self.fail:
            raise RuntimeError("handler refuses this message")

    def ids(self) -> list[str]:
        return [entry_id for _, entry_id, _ in self.seen]


TRANSPORT = {"pipelined": False}


@pytest.fixture(autouse=True, params=["redis-py", "pipelined"])
def transport(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every consumer test runs both ways: redis-py for every command, and as the services run
    it (acks on the auto-pipelined connection, reads on one of the consumer's own that also
    carries the previous batch's acks)."""
    TRANSPORT["pipelined"] = request.param == "pipelined"
    yield request.param
    TRANSPORT["pipelined"] = False


def make_consumer(
    r: Redis, handler: Any, name: str = "svc-0", streams: list[str] | None = None, **kw: Any
) -> StreamConsumer[Message]:
    # The claimer is effectively off (60 s) unless a test asks for it, so a test that expects a
    # re-read or a first delivery cannot pass thanks to a claim.
    options: dict[str, Any] = {
        "batch": 10, "block_ms": 50, "claim_idle_ms": 60_000, "dead_letter_stream": DEAD,
    }
    if TRANSPORT["pipelined"]:
        options.update(pipelined=PipelinedRedis.like(r), reads=PipelinedRedis.like(r))
    options.update(kw)
    return StreamConsumer(r, streams or [STREAM], GROUP, name, handler, **options)


@contextlib.asynccontextmanager
async def running(consumer: StreamConsumer[Any]) -> AsyncIterator[StreamConsumer[Any]]:
    """Runs the consumer in a task until the block exits; stop() must make run() return."""
    task = asyncio.create_task(consumer.run())
    ready = asyncio.create_task(consumer.ready.wait())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=DEADLINE_S, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        if task.done():
            task.result()  # re-raises what went wrong
        task.cancel()
        raise AssertionError("consumer never became ready")
    try:
        yield consumer
    finally:
        consumer.stop()
        await asyncio.wait_for(task, DEADLINE_S)


async def pending_count(r: Redis, stream: str = STREAM, group: str = GROUP) -> int:
    return int((await r.xpending(stream, group))["pending"])


async def no_pending(r: Redis) -> bool:
    return await pending_count(r) == 0


async def dead_letters(r: Redis) -> list[dict[bytes, bytes]]:
    return [fields for _, fields in await r.xrange(DEAD)]


# --------------------------------------------------------------------------------------------
# Wire format and groups


def test_entries_written_before_the_group_existed_are_delivered(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        messages = [note(1), note(2), note(3)]
        ids = await publish_many(r, [(STREAM, m) for m in messages])
        other_id = await publish(r, "bus:other", note(4, "m2"))
        # The wire contract: one field ``m`` with the plain msgpack of the message, nothing else.
        stored = await r.xrange(STREAM)
        assert [fields for _, fields in stored] == [{b"m": bus_encoder.encode(m)} for m in messages]
        assert [i.decode() for i, _ in stored] == ids
        assert await r.xinfo_groups(STREAM) == []  # no group yet: written "before the service"

        recorder = Recorder()
        consumer = make_consumer(r, recorder, streams=[STREAM, "bus:other"])
        async with running(consumer):
            await wait_until(lambda: consumer.processed == 4, "four messages processed")
        by_stream = {
            s: [(i, m) for s2, i, m in recorder.seen if s2 == s] for s in (STREAM, "bus:other")
        }
        assert by_stream[STREAM] == list(zip(ids, messages, strict=True))  # in order, decoded
        assert by_stream["bus:other"] == [(other_id, note(4, "m2"))]
        assert await pending_count(r) == 0
        assert await pending_count(r, "bus:other") == 0
        assert (consumer.failed, consumer.dead_lettered, consumer.claimed) == (0, 0, 0)

        # ensure_group is idempotent (BUSYGROUP ignored) and creates missing streams at 0.
        assert await ensure_group(r, STREAM, GROUP) is False
        assert await ensure_group(r, "bus:new", GROUP) is True
        assert await r.xlen("bus:new") == 0

    run(scenario())


# --------------------------------------------------------------------------------------------
# Redelivery and recovery


def test_entry_handled_before_a_crash_is_processed_exactly_once_more(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        first_id = await publish(r, STREAM, note(1))
        handled = asyncio.Event()
        hang = asyncio.Event()  # never set: the first life dies inside its handler

        seen: list[str] = []

        async def handler(stream: str, entry_id: str, message: Message) -> None:
            seen.append(entry_id)
            if len(seen) == 1:
                handled.set()
                await hang.wait()

        crashed = make_consumer(r, handler)
        task = asyncio.create_task(crashed.run())
        await asyncio.wait_for(handled.wait(), DEADLINE_S)
        task.cancel()  # the process dies: side effects done, no ack
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert await pending_count(r) == 1

        restarted = make_consumer(r, handler)  # same consumer name, a new process
        async with running(restarted):
            second_id = await publish(r, STREAM, note(2))
            await wait_until(lambda: restarted.processed == 2, "redelivery and the next entry")
        # Seen again once (the redelivery), then the next entry; nothing more.
        assert seen == [first_id, first_id, second_id]
        assert await pending_count(r) == 0
        assert restarted.claimed == 0

    run(scenario())


def test_restarted_consumer_rereads_its_own_pending_entries(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        ids = await publish_many(r, [(STREAM, note(1)), (STREAM, note(2))])
        await ensure_group(r, STREAM, GROUP)
        # "svc-0" reads both and dies without acking.
        read = await r.xreadgroup(GROUP, "svc-0", {STREAM: ">"}, count=10)
        assert [i.decode() for i, _ in read[0][1]] == ids

        # Another consumer gets neither: they are not new and not idle for claim_idle_ms yet.
        other = Recorder()
        consumer = make_consumer(r, other, name="svc-1")
        async with running(consumer):
            third = await publish(r, STREAM, note(3))
            await wait_until(lambda: consumer.processed == 1, "the new entry")
        assert other.ids() == [third]
        assert await pending_count(r) == 2

        # "svc-0" comes back under the same name and re-reads what it owns.
        recorder = Recorder()
        restarted = make_consumer(r, recorder, name="svc-0")
        async with running(restarted):
            await wait_until(lambda: restarted.processed == 2, "the re-read entries")
        assert recorder.ids() == ids
        assert restarted.claimed == 0  # the re-read did it, not the claimer
        assert await pending_count(r) == 0

    run(scenario())


def test_claimer_recovers_entries_of_a_dead_consumer(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        ids = await publish_many(r, [(STREAM, note(n)) for n in (1, 2, 3)])
        await ensure_group(r, STREAM, GROUP)
        await r.xreadgroup(GROUP, "dead-a", {STREAM: ">"}, count=10)  # reads, never acks, dies
        assert await pending_count(r) == 3

        recorder = Recorder()
        survivor = make_consumer(r, recorder, name="svc-b", claim_idle_ms=100)
        async with running(survivor):
            await wait_until(lambda: survivor.processed == 3, "the claimed entries processed")
            await wait_until(lambda: no_pending(r), "all acked")
        assert sorted(recorder.ids(), key=parse_id) == ids
        assert survivor.claimed == 3
        assert survivor.failed == 0

    run(scenario())


def test_claimer_acks_pending_entries_that_were_deleted(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        gone, kept = await publish_many(r, [(STREAM, note(1)), (STREAM, note(2))])
        await ensure_group(r, STREAM, GROUP)
        await r.xreadgroup(GROUP, "dead-a", {STREAM: ">"}, count=10)
        await r.xdel(STREAM, gone)

        recorder = Recorder()
        survivor = make_consumer(r, recorder, name="svc-b", claim_idle_ms=50)
        async with running(survivor):
            await wait_until(lambda: no_pending(r), "the pending list emptied")
            await wait_until(lambda: survivor.processed == 1, "the surviving entry processed")
        assert recorder.ids() == [kept]
        assert survivor.dead_lettered == 0

    run(scenario())


# --------------------------------------------------------------------------------------------
# Poison


def test_message_whose_handler_always_fails_is_dead_lettered_after_max_deliveries(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        poison = note(1, "poison")
        bad_id, good_id = await publish_many(r, [(STREAM, poison), (STREAM, note(2))])

        recorder = Recorder(fail=frozenset({"poison"}))
        consumer = make_consumer(r, recorder, claim_idle_ms=100, max_deliveries=3)
        async with running(consumer):
            await wait_until(lambda: consumer.dead_lettered == 1, "the poison dead-lettered")
        # The failure did not hold up the next entry (same batch, right after it).
        assert recorder.ids()[:2] == [bad_id, good_id]
        assert recorder.ids().count(bad_id) == 3  # exactly max_deliveries attempts
        assert recorder.ids().count(good_id) == 1
        assert (consumer.processed, consumer.failed) == (1, 3)
        assert await dead_letters(r) == [
            {
                b"stream": STREAM.encode(),
                b"id": bad_id.encode(),
                b"group": GROUP.encode(),
                b"consumer": b"svc-0",
                b"reason": b"delivered 4 times",
                b"m": bus_encoder.encode(poison),
            }
        ]
        assert await pending_count(r) == 0

    run(scenario())


def test_unparseable_entries_are_dead_lettered_at_once_and_the_loop_goes_on(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        garbage = [
            {b"m": b"\xc1\xff not msgpack"},
            {b"x": b"no m field"},
            {b"m": msgspec.msgpack.encode({"t": "cmd.no_such_message"})},
            {b"m": msgspec.msgpack.encode({"t": "note.log_appended", "match_id": 7})},
        ]
        bad_ids = [(await r.xadd(STREAM, fields)).decode() for fields in garbage]
        good_id = await publish(r, STREAM, note(1))

        recorder = Recorder()
        consumer = make_consumer(r, recorder)  # no claimer: this must not need retries
        async with running(consumer):
            await wait_until(
                lambda: consumer.processed == 1 and consumer.dead_lettered == 4, "all handled"
            )
        assert recorder.ids() == [good_id]
        assert consumer.failed == 0
        letters = await dead_letters(r)
        assert [d[b"id"].decode() for d in letters] == bad_ids
        for letter, fields in zip(letters, garbage, strict=True):
            assert letter[b"stream"] == STREAM.encode()
            assert letter[b"reason"].startswith(b"undecodable: ")
            assert {k: letter[k] for k in fields} == fields  # the raw bytes are kept
        assert b"MalformedEntryError" in letters[1][b"reason"]
        assert await pending_count(r) == 0

    run(scenario())


def test_restart_dead_letters_own_pending_entries_over_the_cap(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        entry_id = await publish(r, STREAM, note(1))
        await ensure_group(r, STREAM, GROUP)
        # Read and re-read three times (a process crash-looping on this entry): 3 deliveries.
        await r.xreadgroup(GROUP, "svc-0", {STREAM: ">"})
        for _ in range(2):
            await r.xreadgroup(GROUP, "svc-0", {STREAM: "0"})

        recorder = Recorder()
        consumer = make_consumer(r, recorder, max_deliveries=3)
        async with running(consumer):
            pass  # ready means the start-up re-read is done
        assert recorder.seen == []  # the fourth delivery goes to the dead letters, not the handler
        assert consumer.dead_lettered == 1
        letters = await dead_letters(r)
        assert (letters[0][b"id"].decode(), letters[0][b"reason"]) == (
            entry_id,
            b"delivered 4 times",
        )
        assert await pending_count(r) == 0

    run(scenario())


# --------------------------------------------------------------------------------------------
# Names and construction


def test_consumer_names_are_explicit_then_env_then_host_and_instance() -> None:
    host = socket.gethostname()
    assert default_consumer_name("rules") == f"rules-{host}-0"
    assert default_consumer_name("rules", 3) == f"rules-{host}-3"
    assert resolve_consumer_name("rules", "rules-a", environ={CONSUMER_ENV: "x"}) == "rules-a"
    assert resolve_consumer_name("rules", environ={CONSUMER_ENV: "rules-b"}) == "rules-b"
    assert resolve_consumer_name("rules", instance=2, environ={}) == f"rules-{host}-2"


def test_a_text_decoding_client_is_refused(redis_url: str, run: Run) -> None:
    client = redis.asyncio.Redis.from_url(redis_url, decode_responses=True)
    with pytest.raises(ValueError, match="decode_responses"):
        StreamConsumer(client, [STREAM], GROUP, "c", Recorder())
    run(client.aclose())


def test_inboxes_and_shared_replies_are_capped_and_other_streams_are_not(
    redis_client: redis.asyncio.Redis, run: Run
) -> None:
    async def flood() -> dict[str, int]:
        bus = RedisBus(redis_client, buffered=True)
        note = CommandRefused(command="cmd.join_match", subject="m",
                              code=RejectionCode.UNKNOWN_MATCH)
        for _ in range(NOTICE_CAP * 2):
            for stream in (inbox_key("flooded"), REPLIES_STREAM, RESULTS_STREAM):
                await bus.publish(stream, note)
        await bus.flush()
        return {s: await redis_client.xlen(s)
                for s in (inbox_key("flooded"), REPLIES_STREAM, RESULTS_STREAM)}

    lengths = run(flood())
    assert NOTICE_CAP <= lengths[inbox_key("flooded")] < NOTICE_CAP * 2
    assert NOTICE_CAP <= lengths[REPLIES_STREAM] < NOTICE_CAP * 2
    assert lengths[RESULTS_STREAM] == NOTICE_CAP * 2  # every result is kept


def test_the_streams_to_read_are_worked_out_again_only_when_the_skip_key_changes(
        redis_client: Redis, run: Run) -> None:
    """A replica follows every registered client's stream and reads those of its shards:
    with ``skip_key``, ``skip`` is asked of each stream again only when that key (the shards
    held, the clients resting) or the streams change, not before every read."""
    a, b, c = "bus:a", "bus:b", "bus:c"
    asked: list[str] = []
    skipped, key, reads = {b}, [0], [0]

    def skip(stream: str) -> bool:
        asked.append(stream)
        return stream in skipped

    def skip_key() -> int:
        reads[0] += 1
        return key[0]

    async def scenario() -> None:
        r = redis_client
        seen = Recorder()
        consumer = make_consumer(r, seen, streams=[a, b, c], skip=skip, skip_key=skip_key)
        async with running(consumer):
            await publish_many(r, [(a, note(1)), (b, note(2)), (c, note(3))])
            await wait_until(lambda: len(seen.seen) == 2, "a's and c's entries handled")
            before = reads[0]
            await wait_until(lambda: reads[0] >= before + 10, "ten reads more")
            assert sorted(asked) == [a, b, c]  # once each, for all those reads
            skipped.clear()
            skipped.add(a)
            key[0] = 1  # b's shard taken, a's given up
            # (A read already waiting names a still; the next one does not.)
            now = reads[0]
            await wait_until(lambda: reads[0] > now, "a read with the new key")
            await publish_many(r, [(a, note(4))])
            await wait_until(lambda: any(s == b for s, _, _ in seen.seen), "b's entry handled")
            await consumer.follow(["bus:d"])  # new streams: asked of the new list
            await publish_many(r, [("bus:d", note(5))])
            await wait_until(lambda: any(s == "bus:d" for s, _, _ in seen.seen), "d's handled")
        assert [s for s, _, _ in seen.seen].count(a) == 1  # the second waits: a is skipped now
        assert sorted(asked) == sorted([a, b, c, a, b, c, a, b, c, "bus:d"])

    run(scenario())
