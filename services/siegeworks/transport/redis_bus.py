"""The bus between processes: topics mapped onto Redis streams.

Entries carry plain msgpack of a bus message in field ``m`` (no framework frame), so a client in
any language can read and write them. Two topics are special:

- ``log``: the append script already puts a pointer on the match's shard bus in the same atomic
  step as the events, so publishing an ordinary pointer again would double the work of every
  reader; only a re-announcement (a repeated create) is written here.
- a seat's topic: the entry id is ``<decision>-1``, so a prompt repeated after a redelivery is
  refused by Redis itself and every seat sees each decision exactly once.

Every entry is written with its stream's bound (:func:`siegeworks.transport.bounds.write_bound`):
a MAXLEN on the XADD itself, and for the streams that go when idle (inboxes, public streams) an
EXPIRE, sent again at most every ``IDLE_REFRESH_S`` per stream.

A decision's clock runs from when its prompt reaches Redis, not from when the handler wrote it
into the buffer: a flush that comes late (the process stalled in between) moves its batch's
deadlines, in the clocks and in the prompts alike, by the delay (decision 0008).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import NoPermissionError, ResponseError

from siege.contracts.messages import LogAppended, Message, SeatPrompted, bus_encoder
from siege.eventlog.keys import (
    AUDIENCES,
    CLIENTS_CHANGED_STREAM,
    CLIENTS_KEY,
    bus_key,
    client_of_commands_key,
    shard_of,
)
from siege.eventlog.pipelined import PipelinedRedis
from siege.hosting.clocks import member_key
from siegeworks import bus as topics
from siegeworks.transport.bounds import (
    DOORBELL_MAXLEN,
    IDLE_REFRESH_S,
    INBOX_MAXLEN,
    write_bound,
)
from siegeworks.transport.streams import is_transient

NOTICE_CAP = INBOX_MAXLEN
"""Entries kept (about) on a client's inbox (the numbers and why: :mod:`.bounds`)."""

LATE_MS = 250
"""A flush this long after its first clock was buffered was stalled: its deadlines move."""

IDLE_MEMO = 1 << 16
"""Streams whose idle expiry a bus remembers having set (see ``RedisBus._idle_due``); past this,
those set longer than ``IDLE_REFRESH_S`` ago are forgotten (they are due again anyway)."""


async def announce(redis: Redis, client: str) -> bool:
    """Registers ``client``, so the services read its commands stream, where the server lets a
    client do so itself (no ACLs: a trusted deployment); True if it could. Under ACLs a client
    may not, and need not: ``siege acl issue`` registered it when it was admitted."""
    try:
        async with redis.pipeline(transaction=False) as pipe:
            pipe.sadd(CLIENTS_KEY, client)
            pipe.xadd(CLIENTS_CHANGED_STREAM, {"c": client}, maxlen=DOORBELL_MAXLEN,
                      approximate=True)
            await pipe.execute()
    except NoPermissionError:
        return False
    return True


def pointer_fields(note: LogAppended) -> dict[str, str]:
    """The fields the append script writes on a shard bus (m, f, l)."""
    return {"m": note.match_id, "f": str(note.first), "l": str(note.last)}


def net_deadlines(changes: list[tuple[str, int | None]]) -> tuple[list[str], dict[str, int]]:
    """A batch's clock changes, in order, as one ZREM and one ZADD NX: the members whose last
    change clears them, and the others with their earliest due time (as NX would keep it).

    So a batch costs two commands for its deadlines however many decisions it answered and
    prompted, instead of two per decision.
    """
    last: dict[str, int | None] = {}
    for member, due in changes:
        if due is None:
            last[member] = None
        else:
            previous = last.get(member)
            last[member] = due if previous is None else min(previous, due)
    cleared = [member for member, due in last.items() if due is None]
    return cleared, {member: due for member, due in last.items() if due is not None}


def net_deadlines_by_key(changes: list[tuple[str, int | None]]
                         ) -> dict[str, tuple[list[str], dict[str, int]]]:
    """:func:`net_deadlines` per sorted set: each clock lives in its match's shard's."""
    by_key: dict[str, list[tuple[str, int | None]]] = {}
    for member, due in changes:
        by_key.setdefault(member_key(member), []).append((member, due))
    return {key: net_deadlines(changed) for key, changed in by_key.items()}


# A shard's clock changes of one batch in one call: the answered clocks cleared, the new ones
# scheduled with NX (a repeated prompt never pushes a clock further out). ARGV: how many to
# clear, those members, then (due, member) pairs.
_CLOCKS_LUA = """
local n = tonumber(ARGV[1])
if n > 0 then redis.call('ZREM', KEYS[1], unpack(ARGV, 2, n + 1)) end
if #ARGV > n + 1 then redis.call('ZADD', KEYS[1], 'NX', unpack(ARGV, n + 2, #ARGV)) end
return 1
"""
_CLOCKS_SHA = hashlib.sha1(_CLOCKS_LUA.encode()).hexdigest()


def send_clocks(send: Callable[[list[Any]], Awaitable[Any]], key: str, cleared: list[str],
                scheduled: dict[str, int]) -> Awaitable[Any]:
    """Sends a shard's clock changes at once (queued now, with the rest of the flush) as one
    command: a ZREM, a ZADD NX, or both in one script call, so a batch costs one command per
    shard it prompted or answered in."""
    pairs = [part for member, due in scheduled.items() for part in (due, member)]
    if not pairs:
        return send(["ZREM", key, *cleared])
    if not cleared:
        return send(["ZADD", key, "NX", *pairs])
    args = [len(cleared), *cleared, *pairs]
    first = send(["EVALSHA", _CLOCKS_SHA, 1, key, *args])

    async def settled() -> Any:
        try:
            return await first
        except ResponseError as exc:  # a server that lost its scripts (restart, failover)
            if not str(exc).startswith("NOSCRIPT"):
                raise
        return await send(["EVAL", _CLOCKS_LUA, 1, key, *args])
    return settled()


class RedisBus:
    """Publishes onto streams. With ``buffered``, messages wait for :meth:`flush`, which sends
    a whole batch's output in one pipeline (the consumer flushes before it acks its inputs)."""

    def __init__(self, redis: Redis, buffered: bool = False,
                 pipelined: PipelinedRedis | None = None, keep_refused: bool = False,
                 now_ms: Callable[[], int] | None = None) -> None:
        self.redis = redis
        self.buffered = buffered
        # A client's bus keeps what Redis refused (out of memory, read-only) for the next flush:
        # its commands are idempotent and nothing else would send them again. A service's bus
        # does not: its unacked input is redelivered and sends the same output again.
        self.keep_refused = keep_refused
        # Flushes that failed after taking the buffer. Handlers of several batches share the
        # buffer, so one batch's failed flush may take another's outputs: a consumer whose
        # batch saw this change re-runs it (StreamConsumer's ``flush_failures``).
        self.failed_flushes = 0
        self._sending: set[asyncio.Event] = set()  # flushes under way
        self._unannounced: set[str] = set()
        # When given, a flush shares the write of everything else this pass of the event loop
        # sends (the other matches' appends and flushes) instead of a round trip of its own.
        self.pipelined = pipelined
        self._out: list[tuple[str, dict[str, Any], str]] = []
        self._deadlines: list[tuple[str, int | None]] = []  # (member, due) or (member, None)
        self._retire: list[tuple[str, int]] = []  # (stream, seconds left)
        # Streams whose idle expiry this bus set, and when (time.monotonic): set again only
        # IDLE_REFRESH_S later, so an inbox costs an EXPIRE a minute, not one per entry.
        self._idle_set: dict[str, float] = {}
        self._on_flushed: list[Callable[[], None]] = []
        self._announced: set[str] = set()
        # The clock deadlines are written on (the service's), and when the oldest deadline now
        # buffered was set, with the prompts carrying one (their index in ``_out``): a late
        # flush moves them all (``_late``).
        self.now_ms = now_ms
        self._clocked_at: int | None = None
        self._prompts: list[tuple[int, SeatPrompted]] = []

    def announce_again(self) -> None:
        """Registers each sender again before its next command (the store may have lost it)."""
        self._announced.clear()

    async def publish(self, topic: str, message: Message) -> None:
        sender = client_of_commands_key(topic)
        if sender is not None and sender not in self._announced:
            self._unannounced.add(sender)  # once per client and bus, before its first command
        if topic == topics.LOG:
            assert isinstance(message, LogAppended)
            if message.reannounce:  # whoever owes something will find it
                for audience in AUDIENCES:
                    key = bus_key(shard_of(message.match_id), audience)
                    self._out.append((key, pointer_fields(message), "*"))
        elif isinstance(message, SeatPrompted):
            self._clocked()
            self._prompts.append((len(self._out), message))
            self._out.append((topic, {"m": bus_encoder.encode(message)},
                              f"{message.decision}-1"))
        else:  # every other topic is the name of its stream
            self._out.append((topic, {"m": bus_encoder.encode(message)}, "*"))
        if not self.buffered:
            await self.flush()

    async def set_deadline(self, member: str, due_ms: int) -> None:
        self._clocked()
        self._deadlines.append((member, due_ms))
        if not self.buffered:
            await self.flush()

    async def clear_deadline(self, member: str) -> None:
        self._deadlines.append((member, None))
        if not self.buffered:
            await self.flush()

    async def retire(self, topic: str, after_s: int) -> None:
        self._retire.append((topic, after_s))
        if not self.buffered:
            await self.flush()

    def _clocked(self) -> None:
        if self._clocked_at is None and self.now_ms is not None:
            self._clocked_at = self.now_ms()

    def _late(self, out: list[tuple[str, dict[str, Any], str]],
              deadlines: list[tuple[str, int | None]], prompts: list[tuple[int, SeatPrompted]],
              since: int | None) -> list[tuple[str, int | None]]:
        """Moves a stalled flush's deadlines by its delay: the prompts in ``out`` (re-encoded)
        and the clocks, returned. Every clock of the buffer moves by the delay since its oldest,
        so a prompt and its clock keep one deadline; a clock only ever moves later."""
        late = 0 if since is None or self.now_ms is None else self.now_ms() - since
        if late <= LATE_MS:
            return deadlines
        for index, message in prompts:
            moved = msgspec.structs.replace(message, deadline_ms=message.deadline_ms + late)
            topic, _, entry_id = out[index]
            out[index] = (topic, {"m": bus_encoder.encode(moved)}, entry_id)
        return [(member, None if due is None else due + late) for member, due in deadlines]

    async def after_flush(self, done: Callable[[], None]) -> None:
        if self.buffered:
            self._on_flushed.append(done)
        else:
            done()

    async def flush(self) -> None:
        """Sends what is buffered. Returns only once every flush already under way has ended
        too: one of them may hold what this caller buffered, and if it fails, the caller must
        see ``failed_flushes`` move before it acks its inputs."""
        earlier = list(self._sending)
        mine = asyncio.Event()
        self._sending.add(mine)
        try:
            await self._flush_buffer()
        finally:
            self._sending.discard(mine)
            mine.set()
        for other in earlier:
            await other.wait()

    async def _flush_buffer(self) -> None:
        for sender in sorted(self._unannounced):  # registered before its commands are written
            await announce(self.redis, sender)
            self._announced.add(sender)
            self._unannounced.discard(sender)
        if not self._out and not self._deadlines and not self._retire:
            return
        out, self._out = self._out, []
        deadlines, self._deadlines = self._deadlines, []
        prompts, self._prompts = self._prompts, []
        since, self._clocked_at = self._clocked_at, None
        deadlines = self._late(out, deadlines, prompts, since)
        # Idle expiries before the retirements: a stream retired in this flush keeps the
        # expiry it was retired with.
        idle = self._idle_due(out)
        expiries = idle + self._retire
        self._retire = []
        flushed, self._on_flushed = self._on_flushed, []
        try:
            if self.pipelined is not None:
                replies = await self._send_pipelined(out, deadlines, expiries)
            else:
                replies = await self._send_pipeline(out, deadlines, expiries)
        except BaseException:
            self.failed_flushes += 1
            raise
        self._idle_done(idle, replies[len(replies) - len(expiries):])
        if self.keep_refused:
            kept = [sent for sent, reply in zip(out, replies, strict=False)
                    if isinstance(reply, BaseException) and is_transient(reply)]
            self._out[:0] = kept
            self._prompts = [(index + len(kept), message) for index, message in self._prompts]
        for reply in replies:
            # A seat's prompt for a decision it was already sent is refused by its id: that is
            # the deduplication, not a failure.
            if isinstance(reply, ResponseError) and "equal or smaller" in str(reply):
                continue
            if isinstance(reply, BaseException):
                self.failed_flushes += 1
                raise reply
        for done in flushed:
            done()

    def _idle_due(self, out: list[tuple[str, dict[str, Any], str]]) -> list[tuple[str, int]]:
        """The streams written in ``out`` that go when idle and whose expiry this bus has not
        set for ``IDLE_REFRESH_S``, with their idle expiry in seconds."""
        now = time.monotonic()
        due: dict[str, int] = {}
        for key, _, _ in out:
            if key in due:
                continue
            bound = write_bound(key)
            if bound is None or bound.idle_s is None:
                continue
            last = self._idle_set.get(key)
            if last is None or now - last >= IDLE_REFRESH_S:
                due[key] = bound.idle_s
        return list(due.items())

    def _idle_done(self, idle: list[tuple[str, int]], replies: list[Any]) -> None:
        """Remembers the idle expiries Redis set (EXPIRE answered 1); a refused one, or one of
        a stream that is not there (its XADD was refused), is sent again with the next write."""
        now = time.monotonic()
        for (key, _), reply in zip(idle, replies, strict=False):
            if isinstance(reply, int) and reply > 0:
                self._idle_set[key] = now
        if len(self._idle_set) > IDLE_MEMO:
            self._idle_set = {key: at for key, at in self._idle_set.items()
                              if now - at < IDLE_REFRESH_S}

    async def _send_pipelined(self, out: list[tuple[str, dict[str, Any], str]],
                              deadlines: list[tuple[str, int | None]],
                              expiries: list[tuple[str, int]]) -> list[Any]:
        """Sends it all on the shared connection; the replies of ``expiries`` come last."""
        assert self.pipelined is not None
        send = self.pipelined.send
        futures = []
        for key, fields, entry_id in out:
            bound = write_bound(key)
            head: list[Any] = (["XADD", key] if bound is None
                               else ["XADD", key, "MAXLEN", "~", bound.maxlen] if bound.approximate
                               else ["XADD", key, "MAXLEN", bound.maxlen])
            flat = [part for pair in fields.items() for part in pair]
            futures.append(send([*head, entry_id, *flat]))
        for key, (cleared, scheduled) in net_deadlines_by_key(deadlines).items():
            futures.append(send_clocks(send, key, cleared, scheduled))
        for key, after_s in expiries:
            futures.append(send(["EXPIRE", key, after_s]))
        return await asyncio.gather(*futures, return_exceptions=True)

    async def _send_pipeline(self, out: list[tuple[str, dict[str, Any], str]],
                             deadlines: list[tuple[str, int | None]],
                             expiries: list[tuple[str, int]]) -> list[Any]:
        """Sends it all in one pipeline; the replies of ``expiries`` come last."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for key, fields, entry_id in out:
                bound = write_bound(key)
                pipe.xadd(key, fields, id=entry_id,  # type: ignore[arg-type]
                          maxlen=None if bound is None else bound.maxlen,
                          approximate=bound is None or bound.approximate)
            for key, (cleared, scheduled) in net_deadlines_by_key(deadlines).items():
                if cleared:
                    pipe.zrem(key, *cleared)
                if scheduled:  # NX: a repeated prompt never pushes a clock further out
                    pipe.zadd(key, scheduled, nx=True)  # type: ignore[arg-type]
            for key, after_s in expiries:
                pipe.expire(key, after_s)
            return list(await pipe.execute(raise_on_error=False))

    def subscribe(self, topic: str, handler: object) -> None:
        raise NotImplementedError("processes consume streams with a StreamConsumer")
