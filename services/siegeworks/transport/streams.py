"""Bus messages over Redis Streams: publishing, consumer groups, and our own consumer loop.

Wire format. Every bus entry has one field, ``m``, holding the plain msgpack of a
:mod:`siege.contracts.messages` message (tagged by its ``t`` field). There is no FastStream
frame around it, so a client in any language reads and writes the bus with a Redis client and
a msgpack library.

Delivery is at-least-once (see "Delivery rules" in DESIGN.md). :class:`StreamConsumer` acks an
entry only after its handler returned; an entry whose handler raised stays pending and comes back
through the claimer, at most ``max_deliveries`` times, and then goes to the dead-letter stream
with the reason. Handlers must therefore be idempotent: a duplicate changes nothing.

Redis refusing writes (out of memory, a read-only replica, a failed save: see
:func:`is_transient`) is not the entry's fault: the consumer holds such entries and runs them
again in place, backing off, until Redis accepts; those attempts never count toward the cap.

Why our own loop rather than a FastStream subscriber: docs/decisions/0002-own-stream-consumer.md.

The client must return bytes (``decode_responses=False``): bodies are binary msgpack.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import (
    Awaitable,
    Callable,
    Collection,
    Hashable,
    Iterable,
    Mapping,
    Sequence,
)
from typing import Any, Generic, TypeVar

import structlog
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from siege.contracts.messages import Message, bus_decoder, bus_encoder
from siege.eventlog.pipelined import PipelinedRedis
from siege.eventlog.pipelined_cluster import ClusterPipelinedRedis
from siegeworks.transport.activity import Activity
from siegeworks.transport.bounds import DEAD_LETTER_MAXLEN

MESSAGE_FIELD = b"m"
"""The field of a bus entry that holds the msgpack of one message."""

DEAD_LETTER_STREAM = "siege:dead"
CONSUMER_ENV = "SIEGE_CONSUMER"
"""Environment variable that names this process's consumer (see :func:`resolve_consumer_name`)."""

Fields = dict[bytes, bytes]
T = TypeVar("T")
Handler = Callable[[str, str, T], Awaitable[None]]
"""``handler(stream, entry_id, decoded)``; returning acks the entry, raising leaves it pending."""
Decode = Callable[[Fields], T]
"""Turns an entry's raw fields into the handler's argument (None: ack it, no handler runs);
raises on bad input (poison)."""

BACKOFF_FIRST_S = 0.1
BACKOFF_MAX_S = 2.0
"""While Redis refuses, retries wait 0.1 s, then twice as long each time, at most 2 s."""
IDLE_CONSUMER_MS = 3_600_000
"""Consumers of the group idle this long, with nothing pending, are deleted (see
:meth:`StreamConsumer.prune_idle_consumers`)."""
PRUNE_EVERY_MS = 60_000
DEAD_LETTER_FIELD_BYTES = 16_384
"""What a dead letter keeps of the fields of the entry it copies, all of them together (a bus
message is a few KB): with ``siegeworks.transport.bounds.DEAD_LETTER_MAXLEN`` letters, the dead
letters hold at most about 160 MB however a client fills them."""
DEAD_LETTER_FIELDS = 16


class OutputsLostError(RuntimeError):
    """Outputs of a batch may have gone with a flush that failed (see ``flush_failures``)."""


class MalformedEntryError(ValueError):
    """A bus entry without the fields a message needs."""


# --------------------------------------------------------------------------------------------
# Redis refusing, not the message failing

REFUSAL_CODES = frozenset({"OOM", "READONLY", "MISCONF", "NOREPLICAS", "BUSY", "LOADING",
                           "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN"})
"""Error codes with which Redis refuses a command for its own state, whatever the command."""
_REFUSALS = (OutOfMemoryError, ReadOnlyError, BusyLoadingError, TryAgainError, ClusterDownError,
             RedisConnectionError, RedisTimeoutError)


def is_transient(exc: BaseException) -> bool:
    """True if ``exc`` (or what caused it, or one of a group) is Redis refusing or unreachable:
    an error reply with a code of :data:`REFUSAL_CODES`, or a lost connection. Such a failure
    says nothing about the message, so it never makes an entry poison.

    redis-py strips the code of the replies it maps to a class (``OutOfMemoryError``); the
    auto-pipelined connection and scripts keep it in the message (``OOM command not allowed
    ... script: ...``). Other error replies (WRONGTYPE, a script's own error) are not transient:
    the same message would fail the same way again.
    """
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo:
        error = todo.pop()
        if id(error) in seen:
            continue
        seen.add(id(error))
        if isinstance(error, _REFUSALS):
            return True
        if isinstance(error, ResponseError) and str(error).split(" ", 1)[0] in REFUSAL_CODES:
            return True
        if isinstance(error, BaseExceptionGroup):
            todo.extend(error.exceptions)
        todo.extend(e for e in (error.__cause__, error.__context__) if e is not None)
    return False


class _Backoff:
    """Delays that double from ``first`` up to ``cap``; ``reset`` once Redis accepts again."""

    def __init__(self, first: float = BACKOFF_FIRST_S, cap: float = BACKOFF_MAX_S) -> None:
        self.first, self.cap, self._next = first, cap, first

    def delay(self) -> float:
        delay, self._next = self._next, min(self.cap, self._next * 2)
        return delay

    def reset(self) -> None:
        self._next = self.first


# Deletes the group's consumers idle over ARGV[3] ms with nothing pending, except ARGV[2]; in
# one script, so a consumer cannot take an entry between the check and the delete (deleting a
# consumer drops its pending entries: they would never be delivered again).
_PRUNE_SCRIPT = """
local removed = {}
for _, row in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local info = {}
  for i = 1, #row, 2 do info[row[i]] = row[i + 1] end
  if info['name'] ~= ARGV[2] and info['pending'] == 0 and info['idle'] > tonumber(ARGV[3]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], info['name'])
    removed[#removed + 1] = info['name']
  end
end
return removed
"""


# --------------------------------------------------------------------------------------------
# Encoding and publishing


def encode_fields(message: Message) -> Fields:
    return {MESSAGE_FIELD: bus_encoder.encode(message)}


def decode_message(fields: Mapping[bytes, bytes]) -> Message:
    """The default ``decode``: field ``m`` as a bus message. msgspec raises on anything else."""
    try:
        body = fields[MESSAGE_FIELD]
    except KeyError:
        raise MalformedEntryError(f"no {MESSAGE_FIELD.decode()!r} field") from None
    return bus_decoder.decode(body)


async def publish(redis: Redis, stream: str, message: Message, maxlen: int | None = None) -> str:
    """Appends one message (XADD with a server-made ``*`` id) and returns its entry id.

    ``maxlen`` is an approximate safety cap only: it drops the oldest entries whether or not every
    group has read them. Prefer ``siegeworks.transport.trimming``, which never loses one.
    """
    entry_id = await redis.xadd(stream, encode_fields(message), maxlen=maxlen, approximate=True)
    return _text(entry_id)


async def publish_many(
    redis: Redis, items: Sequence[tuple[str, Message]], maxlen: int | None = None
) -> list[str]:
    """Appends several (stream, message) pairs in one round trip; returns their ids in order.

    A plain pipeline, not MULTI: the streams may live on different cluster slots, and each XADD
    stands alone anyway (a reader never needs two of them to appear together).
    """
    if not items:
        return []
    pipe = redis.pipeline(transaction=False)
    for stream, message in items:
        pipe.xadd(stream, encode_fields(message), maxlen=maxlen, approximate=True)
    return [_text(entry_id) for entry_id in await pipe.execute()]


DEAD_LETTER_META = (b"stream", b"id", b"group", b"consumer", b"reason")
"""A dead letter's own fields; the entry's fields follow (``orig:<name>`` if one clashes)."""
ORIG_PREFIX = b"orig:"


def dead_letter_record(stream: str, entry_id: str, group: str, consumer: str, reason: str,
                       fields: Mapping[bytes, bytes]) -> dict[bytes, bytes]:
    """The fields of the dead letter of ``stream``'s entry ``entry_id``: where it came from and
    why, then its own fields (``siegeworks.transport.dead_letters`` reads them back)."""
    record: dict[bytes, bytes] = dict(zip(DEAD_LETTER_META, (
        stream.encode(), entry_id.encode(), group.encode(), consumer.encode(), reason.encode(),
    ), strict=True))
    # The original fields follow under their own names (so ``m`` stays ``m``); a name that
    # clashes with the metadata above is kept as ``orig:<name>``.
    # All of them kept to DEAD_LETTER_FIELD_BYTES together: an oversized command must not
    # cost its size again here (the reason says how long it was).
    left = DEAD_LETTER_FIELD_BYTES
    for name, value in list(fields.items())[:DEAD_LETTER_FIELDS]:
        key = (ORIG_PREFIX + name if name in record else name)[:256]
        record[key] = value[:left]
        if len(value) > left:
            record[b"reason"] += b"; field %s cut from %d bytes" % (key[:64], len(value))
        left = max(0, left - len(record[key]))
    return record


async def ensure_group(redis: Redis, stream: str, group: str) -> bool:
    """Creates ``group`` on ``stream`` at id ``0`` (and the stream if missing); True if created.

    At ``0``, not ``$``: with ``$`` a group only sees entries written after it was created, so
    whatever a client wrote before the service first started would never be delivered.
    """
    made = (await ensure_groups(redis, [stream], group))[stream]
    if isinstance(made, Exception):
        raise made
    return made


# Group creations sent in one pipeline: a service that starts with 40,000 clients' streams to
# follow makes its groups in 80 round trips rather than 40,000.
GROUPS_PER_PIPELINE = 500


async def ensure_groups(redis: Redis, streams: Sequence[str], group: str,
                        ) -> dict[str, bool | ResponseError]:
    """:func:`ensure_group` on each of ``streams``, GROUPS_PER_PIPELINE to a round trip: for
    each stream, True if the group was created, False if it was there, or Redis's refusal (a
    key that is no stream). A connection failure raises."""
    outcome: dict[str, bool | ResponseError] = {}
    for start in range(0, len(streams), GROUPS_PER_PIPELINE):
        part = streams[start:start + GROUPS_PER_PIPELINE]
        async with redis.pipeline(transaction=False) as pipe:
            for stream in part:
                pipe.xgroup_create(stream, group, id="0", mkstream=True)
            replies = await pipe.execute(raise_on_error=False)
        for stream, reply in zip(part, replies, strict=True):
            if not isinstance(reply, BaseException):
                outcome[stream] = True
            elif not isinstance(reply, ResponseError):
                raise reply
            # There already; or refused (XGROUP CREATE is a write Redis denies when out of
            # memory, even for a group that exists), and a consumer restarted then can still
            # read, if its group is there.
            elif (str(reply).startswith("BUSYGROUP")
                  or is_transient(reply) and await _has_group(redis, stream, group)):
                outcome[stream] = False
            else:
                outcome[stream] = reply
    return outcome


async def _has_group(redis: Redis, stream: str, group: str) -> bool:
    try:
        groups = await redis.xinfo_groups(stream)
    except ResponseError:
        return False  # no such key, or no stream
    return any(_text(g["name"]) == group for g in groups)


# --------------------------------------------------------------------------------------------
# Consumer names


def default_consumer_name(service: str, instance: int = 0) -> str:
    """``<service>-<hostname>-<instance>``: stable across restarts of the same slot.

    Not the pid: a restarted process must come back under the same name, because only the owner
    re-reads its pending entries at start (others get them only after ``claim_idle_ms``). Two
    processes on one host need different ``instance`` numbers; if they shared a name, each would
    re-read the other's in-flight entries at start (duplicates, harmless but wasteful).
    """
    return f"{service}-{socket.gethostname()}-{instance}"


def resolve_consumer_name(
    service: str,
    explicit: str | None = None,
    instance: int = 0,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The consumer name: ``explicit`` (a command-line option), else ``$SIEGE_CONSUMER``, else
    :func:`default_consumer_name`. Orchestrators with stable slot names (a StatefulSet pod, a
    systemd instance ``svc@3``) should pass that slot name."""
    if explicit:
        return explicit
    from_env = (os.environ if environ is None else environ).get(CONSUMER_ENV)
    return from_env or default_consumer_name(service, instance)


# --------------------------------------------------------------------------------------------
# The consumer loop


class StreamConsumer(Generic[T]):
    """Reads ``streams`` as ``consumer`` of ``group`` and calls ``handler`` for every entry.

    - At start, groups are ensured (at ``0``) and this consumer's own pending entries are re-read
      (XREADGROUP id ``0``): a restarted process owns the entries it read and never acked.
    - Then new entries (``>``), ``batch`` at a time, blocking at most ``block_ms``.
    - A claimer task, every ``claim_idle_ms / 2``, takes over entries any consumer of the group
      (a dead one, or this one after a failed handler) left pending for ``claim_idle_ms``.
    - Redeliveries are capped: an entry delivered more than ``max_deliveries`` times (XPENDING's
      count, which every read and claim increments) goes to ``dead_letter_stream`` and is acked.
      So a handler that always raises runs exactly ``max_deliveries`` times for that entry.
    - ``decode`` failing is poison: dead-lettered at once with the reason, and acked.
    - Redis refusing or unreachable (:func:`is_transient`) is no delivery: a handler, the
      ``before_ack`` flush, an ack or a dead letter failing so is run again in place, after
      0.1 s doubling to 2 s, until Redis accepts, with one log record per attempt and batch.
      A batch whose flush succeeded runs again too when another batch's flush failed while it
      ran (``flush_failures`` changed): the output buffer is shared, so that flush may have
      taken this batch's outputs.
      Meanwhile the batch's entries are held (their idle time kept at zero, so no claimer takes
      them and their delivery count stays), the entries of a held key after the refused one
      wait behind it (order per key), and nothing new is read. Stopped while held, the entries
      stay pending with their delivery count put back.
    - Nothing a message does stops the loop, and nothing Redis does: connection errors and
      refused commands (out of memory, read-only, wrong type) are logged and retried, and so is
      an unexpected error outside a handler. Entries read and not acked stay pending.
    - With the claimer, at most every ``prune_every_ms``, consumers of the group idle over
      ``idle_consumer_ms`` with nothing pending are deleted (never this one).

    - On a Redis Cluster (``redis`` a ``RedisCluster``), which refuses one command across
      slots, the streams are read per slot (the keys' hash tags put a shard's buses and its
      clients' commands streams in one slot, so that is one read per shard), swept by one
      loop that handles what every slot returned as one batch (see :meth:`_read_slots`).
      ``reads`` is not used there; a blocking read waits on a connection of its slot's own.

    Counters ``processed``, ``failed`` (handler raised), ``dead_lettered`` and ``claimed`` are
    plain attributes for health reports and tests. ``ready`` is set once the start-up re-read is
    done. A consumer runs once: ``stop()`` makes ``run()`` return within about ``block_ms``.
    """

    def __init__(
        self,
        redis: Redis,
        streams: Sequence[str],
        group: str,
        consumer: str,
        handler: Handler[T],
        decode: Decode[Any] = decode_message,
        *,
        batch: int = 100,
        block_ms: int = 1000,
        claim_idle_ms: int = 5000,
        max_deliveries: int = 5,
        dead_letter_stream: str = DEAD_LETTER_STREAM,
        dead_letter_maxlen: int | None = DEAD_LETTER_MAXLEN,
        logger: structlog.typing.FilteringBoundLogger | None = None,
        key: Callable[[Any], Hashable] | None = None,
        before_ack: Callable[[], Awaitable[None]] | None = None,
        flush_failures: Callable[[], int] | None = None,
        on_undecodable: Callable[[str, Fields, BaseException], Awaitable[None]] | None = None,
        pipelined: PipelinedRedis | None = None,
        not_ours_if_undecodable: Callable[[str], bool] | None = None,
        drop_undecodable: Callable[[str], bool] | None = None,
        reads: PipelinedRedis | None = None,
        read_interval_ms: int = 0,
        skip: Callable[[str], bool] | None = None,
        skip_key: Callable[[], Hashable] | None = None,
        idle_consumer_ms: int | None = IDLE_CONSUMER_MS,
        prune_every_ms: int = PRUNE_EVERY_MS,
        on_batch: Callable[[float, int], None] | None = None,
        activity: Activity | None = None,
    ) -> None:
        if batch < 1 or block_ms < 1 or claim_idle_ms < 1 or max_deliveries < 1:
            # block_ms=0 would mean "block forever" to Redis, and stop() could never be honoured.
            raise ValueError("batch, block_ms, claim_idle_ms and max_deliveries must be >= 1")
        if redis.get_connection_kwargs().get("decode_responses"):
            raise ValueError("the Redis client must return bytes (decode_responses=False)")
        self.redis = redis
        self.cluster = isinstance(redis, RedisCluster)
        if self.cluster and reads is not None:
            raise ValueError("on a cluster each slot is read on a connection of its own: no reads")
        self.streams = list(streams)
        # The streams given here stay; those added by ``follow`` come and go after them.
        self._base_count = len(self.streams)
        self._followed: set[str] = set()
        self.group = group
        self.consumer = consumer
        self.handler = handler
        self.decode = decode
        self.batch = batch
        self.block_ms = block_ms
        self.claim_idle_ms = claim_idle_ms
        self.max_deliveries = max_deliveries
        self.dead_letter_stream = dead_letter_stream
        self.dead_letter_maxlen = dead_letter_maxlen
        # Acks on the connection the handlers publish on, when given: queued behind what they
        # published, so Redis applies the outputs before the ack on one ordered connection.
        self.pipelined = pipelined
        # A count of the handlers' output flushes that failed (RedisBus.failed_flushes): the
        # output buffer is shared with the other streams' batches, so one that changed while
        # a batch ran may have taken that batch's outputs with it; the batch then runs again.
        self.flush_failures = flush_failures
        # Told of each entry dead-lettered as undecodable (after the dead letter), with the
        # decoder's error: the match service answers the client whose stream it came on.
        self.on_undecodable = on_undecodable
        # Streams that another group also reads and dead-letters: an entry that does not decode
        # there is acked without a second dead letter.
        self.not_ours_if_undecodable = not_ours_if_undecodable or (lambda stream: False)
        # Streams whose undecodable entries leave at once once dead-lettered (XDEL): a client's
        # commands stream, so what a client cannot make a command of does not stay in memory
        # until the next trim (the dead letter keeps its first 16 KB and why).
        self.drop_undecodable = drop_undecodable or (lambda stream: False)
        # A connection of this consumer's own for its blocking reads, when given: a batch's
        # XACK then leaves in the same write as the next XREADGROUP (Redis runs it first), one
        # round trip per batch fewer. The batch's outputs are confirmed before either is sent.
        self.reads = reads
        self._deferred_acks: list[tuple[str, list[str]]] = []
        # The reads connection's CLIENT ID and the connection it was asked on (its count of
        # connections made): CLIENT UNBLOCK ends its blocking read when the streams change.
        self._reads_id: tuple[int, int] | None = None
        self._unblock_refused = False
        # At least this long between reads: for a consumer that must not wake for every entry
        # (the match service, which passes most of its stream by), so its entries come in
        # batches. Nothing waits on it but what it handles itself.
        self.read_interval_s = read_interval_ms / 1000
        # Streams to leave unread for now (a shard not held, a client over its quota); asked
        # before every read, of every stream, unless ``skip_key`` says when its answers may
        # have changed: then the streams to read are worked out again only when that value
        # or the streams change. (A replica follows every registered client's stream: at ten
        # thousand clients, asking of each before each read cost milliseconds per read.)
        self.skip = skip
        self.skip_key = skip_key
        self._reading: dict[int | None, tuple[list[str], Hashable, list[str]]] = {}
        # Entries of one batch with different keys (match ids) run concurrently, so their Redis
        # round trips overlap; entries with the same key keep their order.
        self.key = key
        self.before_ack = before_ack
        # Consumers idle this long with nothing pending are deleted (None: never).
        self.idle_consumer_ms = idle_consumer_ms
        self.prune_every_s = prune_every_ms / 1000
        # Told (seconds, entries) once per batch of new entries handled, never per entry:
        # the service's batch-time metric (siegeworks.metrics). It must not raise.
        self.on_batch = on_batch
        # Which followed streams were written lately (siegeworks.transport.activity): while
        # its notifications are live, only those are read, claimed and pruned, with a sweep
        # of every followed stream now and then; without it, every stream on every pass.
        self.activity = activity
        self._candidates: tuple[Hashable, list[str] | None, list[str]] = (None, None, [])
        self.sweeps = 0
        self._claim_everything = True  # the streams followed at start may hold a past life's
        self._prune = redis.register_script(_PRUNE_SCRIPT)
        self._backoff = _Backoff()
        base = logger if logger is not None else structlog.get_logger("siegeworks.transport")
        self.log = base.bind(group=group, consumer=consumer)

        self.processed = 0
        self.failed = 0
        self.dead_lettered = 0
        self.claimed = 0
        self.ready = asyncio.Event()
        self._stopping = asyncio.Event()
        self._streams_changed = asyncio.Event()
        if activity is not None:
            activity.on_change = self._streams_changed.set
        self._grouped: tuple[list[str] | None, dict[int, list[str]]] = (None, {})
        # On a cluster, the connections of the blocking reads, one a slot (see _read_slot), and
        # per slot the streams its outstanding read names, the node, the connection's CLIENT
        # ID there and the connections count it was asked at (see _unblock_changed_slots).
        self._blocking: dict[int, ClusterPipelinedRedis] = {}
        self._blocked: dict[int, tuple[list[str], tuple[str, int], int, int]] = {}
        self._started = False
        # (stream, id) read by this process and not yet acked or abandoned: our own claimer skips
        # them, so an entry is never run twice at once inside one process.
        self._in_flight: set[tuple[str, str]] = set()
        # Ids per stream held while Redis refuses (see _hold): kept ours at every claim pass.
        self._held: dict[str, set[str]] = {}

    @property
    def followed(self) -> frozenset[str]:
        """The streams :meth:`follow` was last given (and could make groups on)."""
        return frozenset(self._followed)

    async def follow(self, extra: Collection[str]) -> list[str]:
        """From the next read on, reads the streams it was made with plus exactly ``extra``
        (the commands streams of the clients there are now); returns the streams new to it.
        A new stream gets this group first, at its start, so nothing written before is missed.
        """
        base = self.streams[:self._base_count]
        added, refused = [], set()
        new = [stream for stream in extra if stream not in self._followed]
        for stream, made in (await ensure_groups(self.redis, new, self.group)).items():
            if isinstance(made, ResponseError):
                # A key that is no stream (only an operator can make one so): left out, so the
                # reads of every other stream go on, and tried again at the next call.
                self.log.warning("stream not followed", stream=stream, error=str(made))
                refused.add(stream)
            else:
                added.append(stream)
        self._followed = set(extra) - refused
        self.streams = base + sorted(self._followed)
        self._streams_changed.set()
        if self.activity is not None and added:
            # What waits on streams new to it: read while they are lively, or by a sweep when
            # many came at once (the start of a replica, a shard taken over).
            if len(added) > NOTICED_WHEN_FOLLOWED:
                self.activity.sweep_now()
            else:
                for stream in added:
                    self.activity.notice(stream)
        return added

    def stop(self) -> None:
        """Asks ``run()`` to return after the current batch (and the claimer after its pass)."""
        self._stopping.set()

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    async def run(self) -> None:
        if self._started:
            raise RuntimeError("a StreamConsumer runs once; create a new one to run again")
        self._started = True
        claimer: asyncio.Task[None] | None = None
        try:
            while not self._stopping.is_set():
                try:
                    await self._ensure_groups()
                    await self._reread_own_pending()
                    break
                except Exception as exc:
                    self._retrying("start-up failed", exc)
                    await self._sleep_unless_stopped(self._backoff.delay())
            self._backoff.reset()
            if self._stopping.is_set():
                return
            # The claimer starts only now: before the re-read it would race this process for its
            # own pending entries (they are usually idle long enough to be claimable).
            claimer = asyncio.create_task(self._claim_loop(), name=f"claimer:{self.consumer}")
            self.ready.set()
            if self.cluster:
                await self._read_slots()
            else:
                await self._read_forever(self._read_new)
        finally:
            self._stopping.set()
            if claimer is not None:
                await claimer
            await self._send_deferred_acks()

    async def _read_forever(self, read: Callable[[], Awaitable[None]]) -> None:
        """Runs ``read`` (a read of new entries and their handling) again and again until
        stopped, surviving whatever Redis does."""
        backoff = _Backoff()
        regroup = False
        while not self._stopping.is_set():
            try:
                if regroup:
                    await self._ensure_groups()
                    regroup = False
                await read()
                backoff.reset()
            except ResponseError as exc:
                if "NOGROUP" in str(exc):
                    # Someone deleted a stream (and its groups with it): recreate and go on.
                    self.log.warning("consumer group vanished; recreating", error=str(exc))
                    regroup = True
                    continue
                # Redis refused a command: out of memory (a flood of big entries under
                # noeviction), a replica turned read-only by a failover, a failed save, a key
                # of the wrong type. Whatever was read and not acked stays pending and comes
                # back; this loop must not end, or the process would go on reporting health
                # while it consumes nothing.
                self._retrying("redis refused a command", exc)
                await self._sleep_unless_stopped(backoff.delay())
            except Exception as exc:  # connection errors, and our own bugs outside a handler
                self._retrying("stream read failed", exc)
                await self._sleep_unless_stopped(backoff.delay())

    async def _read_slots(self) -> None:
        """Cluster: one loop for every slot that a stream read lives in, until stopped.

        A cluster refuses one XREADGROUP across slots, so a loop per slot would handle each
        slot's entries as a batch of their own: at a given load sixteen times the batches of a
        single Redis, and everything done once per batch (flush, acks, log record) sixteen times
        as often. Instead each pass sweeps every slot with a non-blocking XREADGROUP (on the
        auto-pipelined connection when given: one write per master) and handles whatever came
        back, from every slot, as one batch. Only a sweep that found nothing leaves a blocking
        read outstanding on each slot swept; the loop then waits for the first to answer, and
        every read answered by then joins the next batch. A slot with a read outstanding is
        not swept, so the entries of a stream are handled in the order Redis handed them out.
        """
        waiting: dict[int, asyncio.Future[Any]] = {}
        try:
            await self._read_forever(lambda: self._sweep(waiting))
        finally:
            self._stopping.set()
            # Reads still outstanding end within block_ms; what they took is ours to handle.
            outstanding = list(waiting.values())
            waiting.clear()
            try:
                await self._handle_read(
                    await asyncio.gather(*outstanding, return_exceptions=True))
            except Exception as exc:  # stopping anyway: unacked entries come back later
                self._retrying("last reads failed", exc)
            for connection in self._blocking.values():
                await connection.aclose()

    async def _sweep(self, waiting: dict[int, asyncio.Future[Any]]) -> None:
        """One pass of :meth:`_read_slots`: handles what the answered blocking reads and a
        sweep of the other slots brought, or waits for a blocking read."""
        if self.read_interval_s and await self._sleep_unless_stopped(self.read_interval_s):
            return
        self._streams_changed.clear()
        if self.activity is not None and self.activity.sweep_due():
            # Not the streams a blocking read names now: what it takes is handled after, in
            # order.
            await self._sweep_if_due({stream for slot in waiting
                                      for stream in self._blocked.get(slot, ((),))[0]})
        answered = self._answered(waiting)  # first, so their slots are swept now as well
        slots = {slot: streams for slot in self._by_slot()
                 if slot not in waiting and (streams := self._to_read(slot))}
        swept = await asyncio.gather(*(self._read_slot(streams, None)
                                       for streams in slots.values()), return_exceptions=True)
        if await self._handle_read([*answered, *swept]):
            return
        if not slots and not waiting:  # every stream skipped for now (over its quota)
            await self._wait_unless_changed(self.block_ms / 1000)
            return
        for slot, streams in slots.items():
            waiting[slot] = asyncio.ensure_future(self._read_slot(streams, self.block_ms, slot))
        wakers = [asyncio.ensure_future(event.wait())
                  for event in (self._stopping, self._streams_changed)]
        try:
            await asyncio.wait([*waiting.values(), *wakers],
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waker in wakers:
                waker.cancel()
        if self._streams_changed.is_set() or self._stopping.is_set():
            await self._unblock_changed_slots(waiting)

    async def _unblock_changed_slots(self, waiting: dict[int, asyncio.Future[Any]]) -> None:
        """Ends (CLIENT UNBLOCK) the outstanding blocking reads of the slots whose streams
        changed, or all of them when stopping. A client's commands stream shares its shard's
        slot with the shard's bus, which always has a read outstanding: a newly followed
        client's stream would otherwise be read only once that read timed out (``block_ms``),
        its first command waiting that long; and stop() would wait as long."""
        stopping = self._stopping.is_set()
        for slot, read in waiting.items():
            blocked = self._blocked.get(slot)
            if read.done() or blocked is None or self._unblock_refused:
                continue
            streams, (host, port), client_id, _ = blocked
            if not stopping and streams == self._to_read(slot):
                continue
            try:
                node = self.redis.get_node(host=host, port=port)
                # Again until it unblocks it or it ends: the read may not have reached its
                # node yet (see _unblock_if_changed).
                while node is not None and not read.done():
                    if await self.redis.execute_command("CLIENT", "UNBLOCK", client_id,
                                                        target_nodes=node):
                        break
                    await asyncio.wait((read,), timeout=UNBLOCK_AGAIN_S)
            except ResponseError as exc:  # a user without the right (an older ACL): said once
                self._unblock_refused = True
                self.log.warning("cannot end a blocking read early: new streams wait for its "
                                 "timeout", error=str(exc))
            except Exception as exc:  # noqa: BLE001 - the read ends at its timeout anyway
                self._retrying("ending a blocking read early failed", exc)

    async def _read_slot(self, streams: Sequence[str], block_ms: int | None = None,
                         slot: int | None = None) -> list[tuple[str, list[tuple[bytes, Fields]]]]:
        """XREADGROUP of one slot's streams from ``>``: non-blocking (``block_ms`` None) on the
        auto-pipelined connection when there is one; blocking on the slot's own connection.

        The blocking reads go on connections of their own, one a slot (a blocked connection
        carries nothing else), auto-pipelined ones rather than redis-py's pool: they are
        sent again after every batch that emptied the loop, and redis-py's cluster client
        costs more than twice as much per read. Each follows its slot through MOVED replies
        and failovers (:class:`~siege.eventlog.pipelined_cluster.ClusterPipelinedRedis`)."""
        read = ["XREADGROUP", "GROUP", self.group, self.consumer, "COUNT", self.batch]
        tail = ["STREAMS", *streams, *[">"] * len(streams)]
        if block_ms is None:
            if self.pipelined is None:
                return _stream_replies(await read_group(
                    self.redis, self.group, self.consumer, streams, self.batch, None))
            return _raw_stream_replies(await self.pipelined.execute(*read, *tail))
        assert slot is not None
        connection = self._blocking.get(slot)
        if connection is None:
            connection = self._blocking[slot] = ClusterPipelinedRedis.like(self.redis)
        known = self._blocked.get(slot)
        if known is None or known[3] != connection.connections:
            address, client_id = await connection.client_id(slot)
            known = ([], address, client_id, connection.connections)
        self._blocked[slot] = (list(streams), *known[1:])
        return _raw_stream_replies(await connection.execute(*read, "BLOCK", block_ms, *tail))

    @staticmethod
    def _answered(waiting: dict[int, asyncio.Future[Any]]) -> list[Any]:
        """The replies (or errors) of the blocking reads done, taken out of ``waiting``."""
        done = [slot for slot, read in waiting.items() if read.done()]
        return [_reply_or_error(waiting.pop(slot)) for slot in done]

    async def _handle_read(self, replies: Sequence[Any]) -> bool:
        """Handles, as one batch, the entries of ``replies`` (reads' results, or errors);
        raises the first error after. True if any entry came."""
        batches: dict[str, list[tuple[bytes, Fields]]] = {}
        errors: list[BaseException] = []
        for reply in replies:
            if isinstance(reply, BaseException):
                errors.append(reply)
                continue
            for stream, entries in reply:
                # A blocking read answered and then a sweep of its slot: in that order.
                batches.setdefault(stream, []).extend(entries)
        if batches:
            await self._handle_batches(list(batches.items()), defer_ack=False)
        if errors and not isinstance(errors[0], asyncio.CancelledError):
            raise errors[0]
        return bool(batches)

    def _retrying(self, event: str, exc: Exception) -> None:
        """Logs a failure the loop survives: Redis trouble as a warning, anything else (a bug)
        as an error with its traceback."""
        error = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, RedisConnectionError | RedisTimeoutError | ResponseError | OSError):
            self.log.warning(f"{event}; retrying", error=error)
        else:
            self.log.exception(f"{event}; retrying", error=error)

    # -- reading ------------------------------------------------------------------------------

    async def _ensure_groups(self) -> None:
        for made in (await ensure_groups(self.redis, self.streams, self.group)).values():
            if isinstance(made, ResponseError):
                raise made

    async def _read_new(self) -> None:
        if self.read_interval_s and await self._sleep_unless_stopped(self.read_interval_s):
            return
        if self.activity is not None and self.activity.sweep_due():
            await self._send_deferred_acks()  # acks first: the sweep's handlers ack at once
            await self._sweep_if_due()
        if self.reads is not None:
            batches = await self._ack_and_read()
        else:
            streams = self._to_read()
            if not streams:  # every stream skipped for now (over its quota)
                await self._sleep_unless_stopped(self.block_ms / 1000)
                return
            batches = _stream_replies(await read_group(
                self.redis, self.group, self.consumer, streams, self.batch, self.block_ms))
        await self._handle_batches(batches, defer_ack=self.reads is not None)

    async def _handle_batches(self, batches: Sequence[tuple[str, list[tuple[bytes, Fields]]]],
                              defer_ack: bool) -> None:
        """Handles newly read entries, one batch per stream, the streams concurrently."""
        if not batches:
            return
        started = time.perf_counter()  # the handling, not the wait for entries
        # First delivery of each entry (count 1), so no XPENDING lookup is needed.
        touched = await asyncio.gather(*(
            self._handle(stream, entries, delivery_counts=None, defer_ack=defer_ack)
            for stream, entries in batches
        ))
        handled_s = time.perf_counter() - started
        count = sum(len(e) for _, e in batches)
        # One record per batch, not per message: a record costs as much as handling one.
        self.log.info("batch_handled", entries=count, streams=len(batches),
                      match_ids=sorted({str(k) for keys in touched for k in keys}))
        if self.on_batch is not None:
            self.on_batch(handled_s, count)

    def considered(self) -> list[str]:
        """The streams a read may name: every one while no activity is known, else the
        streams it was made with and the followed streams written lately (worked out again
        only when those change)."""
        activity = self.activity
        if activity is None or not activity.live:
            return self.streams
        written = activity.lively()  # first: it lets streams go quiet (a new version)
        key = activity.version
        known_key, known_streams, considered = self._candidates
        if known_key != key or known_streams is not self.streams:
            lively = [stream for stream in written if stream in self._followed]
            considered = self.streams[:self._base_count] + sorted(lively)
            self._candidates = (activity.version, self.streams, considered)
        return considered

    def _to_read(self, slot: int | None = None, every: bool = False) -> list[str]:
        """The streams to read now (of ``slot``, on a cluster): those considered (all of
        them with ``every``) less those skipped."""
        if every:
            streams = self.streams if slot is None else _grouped_by_slot(self.streams).get(slot, [])
        else:
            streams = self.considered() if slot is None else self._by_slot().get(slot, [])
        if self.skip is None:
            return streams
        if self.skip_key is None:
            return [stream for stream in streams if not self.skip(stream)]
        if every:
            return [stream for stream in streams if not self.skip(stream)]
        key = self.skip_key()
        known = self._reading.get(slot)
        if known is None or known[0] is not streams or known[1] != key:
            known = (streams, key, [stream for stream in streams if not self.skip(stream)])
            self._reading[slot] = known
        return known[2]

    def _by_slot(self) -> dict[int, list[str]]:
        """The streams considered, by cluster slot (worked out again only when they change)."""
        considered = self.considered()
        if self._grouped[0] is not considered:
            self._grouped = (considered, _grouped_by_slot(considered))
        return self._grouped[1]

    # -- sweeps -------------------------------------------------------------------------------

    async def _sweep_if_due(self, busy: Collection[str] = ()) -> None:
        """Reads every followed stream once, without blocking, when the activity says a sweep
        is due (a subscription just made, or the safety net's interval), and handles what
        waited there: writes that no notification announced. Each stream found with entries
        is lively from now on. ``busy``: streams a blocking read names now (a cluster's),
        left to it."""
        activity = self.activity
        if activity is None or not activity.sweep_due():
            return
        activity.swept()
        self.sweeps += 1
        followed = [s for s in self._to_read(every=True)
                    if s in self._followed and s not in busy]
        groups = (list(_grouped_by_slot(followed).values()) if self.cluster else [followed])
        for part in groups:
            for start in range(0, len(part), SWEEP_STREAMS_PER_READ):
                if self._stopping.is_set():
                    return
                streams = part[start:start + SWEEP_STREAMS_PER_READ]
                batches = _stream_replies(await read_group(
                    self.redis, self.group, self.consumer, streams, self.batch, None))
                for stream, entries in batches:
                    if entries:
                        activity.notice(stream)
                await self._handle_batches(batches, defer_ack=False)

    async def _ack_and_read(self) -> list[tuple[str, list[tuple[bytes, Fields]]]]:
        """The last batch's acks and the next read, in one write on this consumer's own
        connection; raw replies (no redis-py parsing)."""
        assert self.reads is not None
        self._streams_changed.clear()
        streams = self._to_read()
        if not streams:  # every stream skipped for now (a shard not held, a client resting)
            await self._send_deferred_acks()
            await self._wait_unless_changed(self.block_ms / 1000)
            return []
        if self._reads_id is None or self._reads_id[1] != self.reads.connections:
            await self._learn_reads_id()
        acks, self._deferred_acks = self._deferred_acks, []
        sent = [self.reads.send(["XACK", stream, self.group, *ids]) for stream, ids in acks]
        sent.append(self.reads.send([
            "XREADGROUP", "GROUP", self.group, self.consumer, "COUNT", self.batch,
            "BLOCK", self.block_ms, "STREAMS", *streams, *[">"] * len(streams)]))
        gathered = asyncio.gather(*sent, return_exceptions=True)
        await self._unblock_if_changed(gathered)
        replies = await gathered
        # Acks Redis refused go with the next read again: the entries are handled, and left
        # pending they would come back through the claimer, a delivery more each.
        self._deferred_acks[:0] = [ack for ack, reply in zip(acks, replies, strict=False)
                                   if isinstance(reply, BaseException) and is_transient(reply)]
        for reply in replies:
            if isinstance(reply, BaseException):
                # Unacked entries stay pending: the claimer hands them out again.
                raise reply
        return _raw_stream_replies(replies[-1])

    async def _learn_reads_id(self) -> None:
        assert self.reads is not None
        try:
            reads_id = int(await self.reads.execute("CLIENT", "ID"))
        except ResponseError:  # a user without CLIENT ID: its reads end at their timeout
            return
        self._reads_id = (reads_id, self.reads.connections)

    async def _unblock_if_changed(self, read: asyncio.Future[Any]) -> None:
        """Waits for ``read`` (the blocking read's write), for the streams to change (a new
        client followed, by :meth:`follow`) or for stop(): in either of the last two its
        blocking read is ended with CLIENT UNBLOCK, so the next read names the new streams now
        rather than after ``block_ms`` (a new client's first command would wait that long on a
        quiet replica), or the consumer stops now."""
        if self._reads_id is None or self._unblock_refused:
            return
        wakers = [asyncio.ensure_future(event.wait())
                  for event in (self._streams_changed, self._stopping)]
        try:
            await asyncio.wait((read, *wakers), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waker in wakers:
                waker.cancel()
        # CLIENT UNBLOCK goes on another connection than the read: it may reach Redis before
        # the read does, and then unblocks nothing (0) while the read goes on to block for
        # block_ms without the new streams. Sent again until it unblocks it or the read ends.
        try:
            while not read.done():
                if await self.redis.execute_command("CLIENT", "UNBLOCK", self._reads_id[0]):
                    return
                await asyncio.wait((read,), timeout=UNBLOCK_AGAIN_S)
        except ResponseError as exc:  # a user without the right (an older ACL): said once
            self._unblock_refused = True
            self.log.warning("cannot end a blocking read early: new streams wait for its "
                             "timeout", error=str(exc))
        except Exception as exc:  # noqa: BLE001 - the read ends at its timeout anyway
            self._retrying("ending a blocking read early failed", exc)

    async def _wait_unless_changed(self, seconds: float) -> None:
        """Waits ``seconds``, or until stop() or the streams change."""
        wakers = [asyncio.ensure_future(event.wait())
                  for event in (self._stopping, self._streams_changed)]
        try:
            await asyncio.wait(wakers, timeout=seconds)
        finally:
            for waker in wakers:
                waker.cancel()

    async def _send_deferred_acks(self) -> None:
        if self.reads is None or not self._deferred_acks:
            return
        acks, self._deferred_acks = self._deferred_acks, []
        try:
            await asyncio.gather(*(self.reads.execute("XACK", stream, self.group, *ids)
                                   for stream, ids in acks))
        except Exception as exc:  # stopping anyway: they stay pending and come back
            self._retrying("final acks failed", exc)

    async def _reread_own_pending(self) -> None:
        """Entries this consumer name read before and never acked (a previous life's work)."""
        for stream in self.streams:
            after = "0"
            while not self._stopping.is_set():
                reply = await self.redis.xreadgroup(
                    self.group, self.consumer, {stream: after}, count=self.batch
                )
                entries = [entry for _, page in _stream_replies(reply) for entry in page]
                if not entries:
                    break
                counts = await self._delivery_counts(stream, (_text(i) for i, f in entries if f))
                await self._handle(stream, entries, counts)
                # Entries that fail again stay pending behind us; the claimer retries them.
                after = _text(entries[-1][0])

    # -- claiming -----------------------------------------------------------------------------

    async def _claim_loop(self) -> None:
        """Claims every ``claim_idle_ms / 2``; prunes idle consumers every ``prune_every_ms``
        (the first time after one claim interval at most)."""
        loop = asyncio.get_running_loop()
        claim_every = self.claim_idle_ms / 2000
        pruning = self.idle_consumer_ms is not None
        next_claim = loop.time() + claim_every
        next_prune = loop.time() + min(claim_every, self.prune_every_s)
        # The streams gone quiet too, now and then: entries a dead consumer left there.
        next_full = loop.time() + claim_every
        while not await self._sleep_unless_stopped(
                max(0.0, min(next_claim, next_prune if pruning else next_claim) - loop.time())):
            if loop.time() >= next_claim:
                every = self.activity is not None and (loop.time() >= next_full
                                                       or self._claim_everything)
                try:
                    await self.claim_once(every=every)
                    if every:
                        assert self.activity is not None
                        next_full = loop.time() + FULL_CLAIM_SWEEPS * self.activity.sweep_every_s
                except Exception as exc:  # the claimer must outlive Redis hiccups and our bugs
                    self._retrying("claim pass failed", exc)
                next_claim = loop.time() + claim_every
            if pruning and loop.time() >= next_prune:
                try:
                    await self.prune_idle_consumers()
                except Exception as exc:
                    self._retrying("pruning idle consumers failed", exc)
                next_prune = loop.time() + self.prune_every_s

    async def prune_idle_consumers(self, idle_ms: int | None = None) -> list[tuple[str, str]]:
        """Deletes the consumers of this group, on each stream it reads now, idle over ``idle_ms``
        (default ``idle_consumer_ms``) that hold no pending entry, never this consumer; returns
        the (stream, consumer) pairs deleted.

        Consumers of processes long gone (pid-named ones of old versions, scaled-down slots)
        otherwise pile up in XINFO for ever. One holding entries is kept: deleting it would drop
        them from the group's pending list, and nobody would deliver them again.
        """
        threshold = self.idle_consumer_ms if idle_ms is None else idle_ms
        if threshold is None:
            return []
        removed: list[tuple[str, str]] = []
        # The streams it reads now, as the claimer: one it skips is another replica's (a
        # shard it does not hold), and every replica going over every client's stream would
        # make this pass grow with the replicas.
        for stream in self._to_read():
            try:
                names = await self._prune(keys=[stream], args=[self.group, self.consumer,
                                                               threshold])
            except ResponseError as exc:
                if "NOGROUP" in str(exc) or "no such key" in str(exc):
                    continue  # nothing to prune there; the read loop recreates the group
                raise
            removed.extend((stream, _text(name)) for name in names)
        if removed:
            self.log.info("idle consumers deleted", count=len(removed),
                          consumers=sorted({name for _, name in removed}))
        return removed

    async def claim_once(self, every: bool = False) -> int:
        """One pass of XAUTOCLAIM over every stream read now (``every``: every stream it
        follows, quiet ones too); returns how many entries were taken over.

        The first page of every stream is asked for in one pipeline (a service reads up to 17
        streams, and mostly none has anything to claim); only streams with more pages go on
        one round trip at a time.
        """
        # The streams it reads now (``follow`` may change the list while we wait): not those it
        # skips, whose entries are another replica's to claim (a shard it does not hold).
        streams = list(self._to_read(every=every))
        if every:
            self._claim_everything = False
        taken = 0
        for start in range(0, max(1, len(streams)), SWEEP_STREAMS_PER_READ):
            taken += await self._claim_pass(streams[start:start + SWEEP_STREAMS_PER_READ],
                                            held_too=start == 0)
        return taken

    def claim_everything_soon(self) -> None:
        """The next claim pass goes over every followed stream, quiet ones too (a shard just
        taken over: entries its last holder left pending on streams nobody writes now)."""
        self._claim_everything = True

    async def _claim_pass(self, streams: list[str], held_too: bool) -> int:
        async with self.redis.pipeline(transaction=False) as pipe:
            held = ([(stream, sorted(ids)) for stream, ids in self._held.items() if ids]
                    if held_too else [])
            for stream, ids in held:  # idle no more, so not taken below (see _hold)
                pipe.xclaim(stream, self.group, self.consumer, 0, ids, justid=True)
            for stream in streams:
                pipe.xautoclaim(stream, self.group, self.consumer,
                                min_idle_time=self.claim_idle_ms, start_id="0-0",
                                count=self.batch)
            first_pages = (await pipe.execute())[len(held):]
        taken = 0
        for stream, reply in zip(streams, first_pages, strict=True):
            cursor = "0-0"
            while not self._stopping.is_set():
                next_cursor, count = await self._claimed_page(stream, cursor, reply)
                taken += count
                if next_cursor == "0-0" or self._stopping.is_set():
                    break  # (stopping: a page claimed now would count a delivery for nothing)
                cursor = next_cursor
                reply = await self.redis.xautoclaim(
                    stream,
                    self.group,
                    self.consumer,
                    min_idle_time=self.claim_idle_ms,
                    start_id=cursor,
                    count=self.batch,
                )
        return taken

    async def _claimed_page(self, stream: str, cursor: str, reply: Any) -> tuple[str, int]:
        """Handles one XAUTOCLAIM page (taken from ``cursor``); returns the next cursor and how
        many entries it took over."""
        next_cursor = _text(reply[0])
        entries: list[tuple[bytes, Fields]] = []
        vanished_seen = False
        for entry_id, fields in reply[1]:
            if entry_id is None:
                vanished_seen = True  # Redis 6.2: a deleted entry, id not given
            elif (stream, _text(entry_id)) not in self._in_flight:
                entries.append((entry_id, fields))
        # Redis >= 7 lists deleted entries' ids (already dropped from the PEL): ack anyway,
        # so the rule holds on every server version.
        deleted = [_text(i) for i in reply[2]] if len(reply) > 2 else []
        if deleted:
            await self.redis.xack(stream, self.group, *deleted)
        if vanished_seen:
            claimed_ids = {_text(i) for i, _ in entries}
            await self._ack_vanished(stream, cursor, next_cursor, claimed_ids)
        if entries:
            self.claimed += len(entries)
            self.log.info("claimed idle entries", stream=stream, count=len(entries))
            counts = await self._delivery_counts(stream, (_text(i) for i, _ in entries))
            await self._handle(stream, entries, counts)
        return next_cursor, len(entries)

    async def _ack_vanished(self, stream: str, start: str, end: str, claimed: set[str]) -> None:
        """Acks our pending ids in [start, end) whose entries no longer exist (Redis 6.2 only).

        Redis 6.2's XAUTOCLAIM returns a deleted entry as nil without its id and keeps it pending
        for ever. Acking an id that is gone from the stream is always safe: nobody can process it.
        """
        upper = "+" if end == "0-0" else f"({end}"
        pending = await self.redis.xpending_range(
            stream, self.group, min=start, max=upper, count=self.batch * 10,
            consumername=self.consumer,
        )
        candidates = [_text(p["message_id"]) for p in pending]
        candidates = [i for i in candidates if i not in claimed]
        if not candidates:
            return
        pipe = self.redis.pipeline(transaction=False)
        for entry_id in candidates:
            pipe.xrange(stream, min=entry_id, max=entry_id, count=1)
        found = await pipe.execute()
        gone = [i for i, rows in zip(candidates, found, strict=True) if not rows]
        if gone:
            await self.redis.xack(stream, self.group, *gone)

    async def _delivery_counts(self, stream: str, ids: Iterable[str]) -> dict[str, int]:
        """Times delivered per id, for the ids still pending for this consumer.

        One exact XPENDING per id (pipelined, one round trip): a range query over the batch
        would also return our other pending entries and need paging.
        """
        wanted = list(ids)
        if not wanted:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for entry_id in wanted:
            pipe.xpending_range(
                stream, self.group, min=entry_id, max=entry_id, count=1,
                consumername=self.consumer,
            )
        counts: dict[str, int] = {}
        for rows in await pipe.execute():
            for row in rows:
                counts[_text(row["message_id"])] = int(row["times_delivered"])
        return counts

    # -- handling -----------------------------------------------------------------------------

    async def _handle(
        self,
        stream: str,
        entries: Sequence[tuple[bytes, Fields]],
        delivery_counts: Mapping[str, int] | None,
        defer_ack: bool = False,
    ) -> list[Hashable]:
        """Runs the handler over one batch of one stream, then acks the successes in one XACK;
        returns the keys (match ids) of what it handled.

        ``delivery_counts`` is None for first deliveries; for redeliveries it maps the ids still
        ours to their count, and an id missing from it was taken or acked by someone else since.
        """
        ids = [(stream, _text(raw_id)) for raw_id, _ in entries]
        self._in_flight.update(ids)
        done: list[str] = []
        todo: list[tuple[str, Any]] = []
        try:
            for (_, entry_id), (_, fields) in zip(ids, entries, strict=True):
                if not fields:
                    # A pending entry that was deleted (XDEL, or trimmed by MAXLEN) comes back
                    # with no fields: nothing to process, but it must leave the PEL.
                    done.append(entry_id)
                    continue
                if delivery_counts is not None:
                    count = delivery_counts.get(entry_id)
                    if count is None:
                        continue
                    if count > self.max_deliveries:
                        reason = f"delivered {count} times"
                        await self._dead_letter(stream, entry_id, fields, reason)
                        continue
                try:
                    decoded = self.decode(fields)
                except Exception as exc:
                    if self.not_ours_if_undecodable(stream):
                        done.append(entry_id)
                        continue
                    # Poison: retrying cannot help a body that does not parse.
                    reason = f"undecodable: {type(exc).__name__}: {exc}"
                    await self._dead_letter(stream, entry_id, fields, reason)
                    if self.drop_undecodable(stream):
                        await self.redis.xdel(stream, entry_id)
                    if self.on_undecodable is not None:
                        await self.on_undecodable(stream, fields, exc)
                    continue
                if decoded is None:  # an entry this consumer passes by
                    done.append(entry_id)
                    continue
                todo.append((entry_id, decoded))
            keys = {None if self.key is None else self.key(decoded) for _, decoded in todo}
            left = await self._run_until_accepted(stream, todo, done)
            if left:  # stopping while Redis refused: this delivery did not count
                await self._undo_deliveries(stream, left, delivery_counts)
            if done and defer_ack:
                self._deferred_acks.append((stream, done))  # sent with the next read
            elif done:
                # One XACK per batch; a crash before it only means redeliveries (at-least-once).
                await self._ack(stream, done)
        finally:
            self._in_flight.difference_update(ids)
        return [key for key in keys if key is not None]

    async def _run_until_accepted(self, stream: str, todo: list[tuple[str, Any]],
                                  done: list[str]) -> list[str]:
        """Runs the handler over ``todo`` (in stream order), then ``before_ack``; adds what is
        handled to ``done``. What Redis refused runs again, with the rest of its key's entries
        after it, until Redis accepts; if ``before_ack`` is refused, every entry of the attempt
        runs again (its outputs may be lost). Returns the ids left when stopping meanwhile."""
        backoff: _Backoff | None = None
        loop = asyncio.get_running_loop()
        held_since = loop.time()
        every_id = [entry_id for entry_id, _ in todo]
        try:
            while True:
                lanes: dict[Hashable, list[tuple[str, Any]]] = {}
                for entry_id, decoded in todo:
                    lane = None if self.key is None else self.key(decoded)
                    lanes.setdefault(lane, []).append((entry_id, decoded))
                handled: list[str] = []
                refusals: list[BaseException] = []
                again: set[str] = set()
                failures = self.flush_failures() if self.flush_failures is not None else 0
                await asyncio.gather(*(self._run_lane(stream, key, lane, handled, again,
                                                      refusals)
                                       for key, lane in lanes.items()))
                if self.before_ack is not None:
                    try:
                        # What the handlers published must be out before their inputs are acked.
                        await self.before_ack()
                    except Exception as exc:
                        if not is_transient(exc):
                            raise
                        refusals.append(exc)
                        again.update(handled)
                        handled = []
                if (handled and self.flush_failures is not None
                        and self.flush_failures() != failures):
                    refusals.append(OutputsLostError("another batch's flush failed meanwhile"))
                    again.update(handled)
                    handled = []
                done.extend(handled)
                todo = [(entry_id, decoded) for entry_id, decoded in todo if entry_id in again]
                if not todo:
                    if backoff is not None:
                        self.log.info("redis accepts writes again", stream=stream,
                                      held_s=round(loop.time() - held_since, 3))
                    return []
                backoff = backoff or _Backoff()
                delay = backoff.delay()
                self._refused("handlers", stream, len(todo), refusals[0], delay)
                if await self._hold(stream, [*done, *(i for i, _ in todo)], delay):
                    return [entry_id for entry_id, _ in todo]
        finally:
            self._let_go(stream, [*every_id, *done])

    async def _run_lane(self, stream: str, key: Hashable, lane: list[tuple[str, Any]],
                        done: list[str], again: set[str], refusals: list[BaseException]) -> None:
        for n, (entry_id, decoded) in enumerate(lane):
            try:
                await self.handler(stream, entry_id, decoded)
            except Exception as exc:
                if is_transient(exc):
                    # Redis refused, not the message: this entry and those of its key after it
                    # run again, in order, once Redis accepts (logged per batch, not here).
                    refusals.append(exc)
                    again.update(i for i, _ in lane[n:])
                    return
                # No ack: the entry stays pending and the claimer redelivers it later (from now
                # on: left in flight while the batch is held, a claim would skip it and still
                # count a delivery).
                self.failed += 1
                self._in_flight.discard((stream, entry_id))
                self.log.exception("handler failed", stream=stream, entry_id=entry_id,
                                   match_id=key)
                continue
            self.processed += 1
            done.append(entry_id)

    def _refused(self, what: str, stream: str, entries: int, exc: BaseException,
                 delay: float) -> None:
        self.log.warning("redis refuses; holding entries", stream=stream, entries=entries,
                         step=what, error=f"{type(exc).__name__}: {exc}", retry_in_s=delay)

    async def _hold(self, stream: str, ids: Sequence[str], seconds: float) -> bool:
        """Waits ``seconds`` keeping ``ids`` ours (idle time reset, delivery count unchanged:
        XCLAIM JUSTID), so no claimer, of this process or another, delivers them again
        meanwhile; True if stopping."""
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        every = max(0.005, self.claim_idle_ms / 4000)
        self._held.setdefault(stream, set()).update(ids)  # the caller lets them go
        while True:
            if ids:
                with contextlib.suppress(RedisError):  # then no claimer gets through either
                    await self.redis.xclaim(stream, self.group, self.consumer, 0, list(ids),
                                            justid=True)
            left = end - loop.time()
            if left <= 0:
                return self.stopping
            if await self._sleep_unless_stopped(min(left, every)):
                return True

    def _let_go(self, stream: str, ids: Iterable[str]) -> None:
        held = self._held.get(stream)
        if held is not None:
            held.difference_update(ids)

    async def _undo_deliveries(self, stream: str, ids: Sequence[str],
                               delivery_counts: Mapping[str, int] | None) -> None:
        """Puts back the delivery count of entries handed back unhandled while Redis refused:
        a restart during a long refusal must not turn them into poison."""
        counts = delivery_counts or {}
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for entry_id in ids:
                    pipe.xclaim(stream, self.group, self.consumer, 0, [entry_id],
                                retrycount=max(0, counts.get(entry_id, 1) - 1), justid=True)
                await pipe.execute()
        except RedisError as exc:
            self._retrying("putting back delivery counts failed", exc)

    async def _until_accepted(self, what: str, stream: str, ids: Sequence[str],
                              call: Callable[[], Awaitable[Any]]) -> Any:
        """``call()``, again after a backoff while Redis refuses (holding ``ids``)."""
        backoff = _Backoff()
        try:
            while True:
                try:
                    return await call()
                except Exception as exc:
                    if not is_transient(exc) or self.stopping:
                        raise
                    delay = backoff.delay()
                    self._refused(what, stream, len(ids), exc, delay)
                    if await self._hold(stream, ids, delay):
                        raise
        finally:
            self._let_go(stream, ids)

    async def _ack(self, stream: str, ids: Sequence[str]) -> None:
        async def ack() -> None:
            if self.pipelined is not None:
                await self.pipelined.execute("XACK", stream, self.group, *ids)
            else:
                await self.redis.xack(stream, self.group, *ids)

        await self._until_accepted("ack", stream, ids, ack)

    async def _dead_letter(self, stream: str, entry_id: str, fields: Fields, reason: str) -> None:
        """Copies the entry to the dead-letter stream with where it came from and why, then acks.

        XADD before XACK, as two steps (the streams may sit on different cluster slots): a crash
        in between leaves the entry pending, so it is dead-lettered twice rather than lost.
        Either refused (the dead-letter stream is as full as the rest), it waits for Redis.
        """
        record = dead_letter_record(stream, entry_id, self.group, self.consumer, reason, fields)
        await self._until_accepted("dead letter", stream, [entry_id], lambda: self.redis.xadd(
            self.dead_letter_stream, record, maxlen=self.dead_letter_maxlen, approximate=True))
        await self._until_accepted("dead letter ack", stream, [entry_id],
                                   lambda: self.redis.xack(stream, self.group, entry_id))
        self.dead_lettered += 1
        self.log.warning("dead-lettered", stream=stream, entry_id=entry_id, reason=reason)

    async def _sleep_unless_stopped(self, seconds: float) -> bool:
        """Waits ``seconds`` or until stop(); True if stopping."""
        try:
            await asyncio.wait_for(self._stopping.wait(), seconds)
        except TimeoutError:
            return False
        return True


# --------------------------------------------------------------------------------------------
# Trimming


# --------------------------------------------------------------------------------------------
# Helpers


def node_of(redis: Any, key: str) -> Any:
    """The cluster node serving ``key``'s slot, or None (not a cluster client, or one that has
    not read the slot map yet)."""
    if not isinstance(redis, RedisCluster):
        return None
    try:
        return redis.get_node_from_key(key)
    except Exception:  # noqa: BLE001 - no map yet: redis-py routes the call itself
        return None


async def read_group(redis: Any, group: str, consumer: str, streams: Sequence[str],
                     count: int, block_ms: int | None) -> Any:
    """XREADGROUP of ``streams`` (one slot's, on a cluster) from ``>``; ``block_ms`` None does
    not block.

    On a cluster it goes straight to the node of the streams' slot: redis-py cannot find the
    keys of XREADGROUP by itself and would ask the server (COMMAND GETKEYS, twice) before every
    read. A MOVED reply still sends it where the slot went."""
    node = node_of(redis, streams[0])
    if node is None:
        return await redis.xreadgroup(group, consumer, dict.fromkeys(streams, ">"),
                                      count=count, block=block_ms)
    block = () if block_ms is None else ("BLOCK", block_ms)
    return await redis.execute_command(
        "XREADGROUP", "GROUP", group, consumer, "COUNT", count, *block,
        "STREAMS", *streams, *[">"] * len(streams), target_nodes=node)


def parse_id(entry_id: str | bytes) -> tuple[int, int]:
    """A stream id as (milliseconds, sequence), which orders like Redis orders ids."""
    ms, _, seq = _text(entry_id).partition("-")
    return int(ms), int(seq or 0)


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _fields(flat: Any) -> Fields:
    """An entry's raw [field, value, ...] list as a dict; a deleted entry's nil as empty."""
    if not flat:
        return {}
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _reply_or_error(read: asyncio.Future[Any]) -> Any:
    """A finished read's result, or the exception it raised."""
    if read.cancelled():
        return asyncio.CancelledError()
    return read.exception() or read.result()


def _raw_stream_replies(reply: Any) -> list[tuple[str, list[tuple[bytes, Fields]]]]:
    """A raw (RESP2, unparsed) XREADGROUP reply as (stream, entries) pairs."""
    return [(_text(stream), [(entry_id, _fields(flat)) for entry_id, flat in entries])
            for stream, entries in reply or ()]


UNBLOCK_AGAIN_S = 0.002
"""How long a replica waits before it asks again to end a read that was not blocking yet."""
NOTICED_WHEN_FOLLOWED = 100
"""Up to this many streams followed at once are read as lively; more wait for a sweep."""
FULL_CLAIM_SWEEPS = 10
"""Every how many sweep intervals the claimer goes over the quiet streams too (besides when a
shard moves and when new streams are followed)."""
SWEEP_STREAMS_PER_READ = 2_000
"""Streams named in one read of a sweep: at a hundred thousand followed streams, one read of
them all would be a command of megabytes that Redis runs as one long step."""


def _grouped_by_slot(streams: Iterable[str]) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = {}
    for stream in streams:
        groups.setdefault(key_slot(stream.encode()), []).append(stream)
    return groups


def _stream_replies(reply: Any) -> list[tuple[str, list[tuple[bytes, Fields]]]]:
    """XREADGROUP's reply as (stream, entries) pairs: a list under RESP2, a dict under RESP3."""
    if not reply:
        return []
    pairs = reply.items() if isinstance(reply, dict) else reply
    out: list[tuple[str, list[tuple[bytes, Fields]]]] = []
    for stream, entries in pairs:
        # RESP3 nests the entries one level deeper ([[(id, fields), ...]]); RESP2 entries are
        # (id, fields) tuples.
        if entries and isinstance(entries[0], list):
            entries = entries[0]
        out.append((_text(stream), list(entries)))
    return out
