"""Clients on the Redis bus: seats read their own streams with XREAD (never a consumer group:
a seat's stream is private to it), commands go to the command stream.

One ``SeatReader`` multiplexes many seats over one connection, so a process can play hundreds
of bot seats at once; it also follows the results stream to know when matches end.

On a Redis Cluster one XREAD may not span slots: a client's own streams share its slot, and
the results stream has another. There each poll reads every slot at once, blocking only in the
slot that holds the most streams (the client's own, where the prompts come): on redis-py's
pooled connections, or, given ``slot_reads``, on two auto-pipelined cluster connections, one
for the blocking read and one for the others (a read queued behind a blocked one would wait
for it), which cost less than half as much per read.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from siege.contracts.messages import Message, SeatPrompted, bus_decoder
from siege.eventlog.pipelined import PipelinedRedis, bulk
from siege.eventlog.pipelined_cluster import ClusterPipelinedRedis
from siegeworks.transport.streams import is_transient, node_of

PromptHandler = Callable[[SeatPrompted], Awaitable[None]]
RECONNECT_S = 0.2


class SeatReader:
    def __init__(self, redis: Redis, block_ms: int = 500,
                 on_prompt: Callable[[str], None] | None = None,
                 pipelined: PipelinedRedis | None = None,
                 slot_reads: tuple[ClusterPipelinedRedis, ClusterPipelinedRedis] | None = None
                 ) -> None:
        self.redis = redis
        self.slot_reads = slot_reads  # on a cluster: (blocking, the others); the caller's
        # A connection of its own for the blocking XREAD, when given: raw replies, so hundreds
        # of seats' entries are not first turned into dicts by redis-py.
        self.pipelined = pipelined
        self.on_prompt = on_prompt  # sees the match id of every prompt (latency probes)
        self.block_ms = block_ms
        self._handlers: dict[str, PromptHandler] = {}
        self._cursor: dict[str, str] = {}
        self.handled = 0  # prompts handed to seats, for progress and stall detection
        self._followed: dict[str, str] = {}
        self._packed: dict[str, tuple[str, bytes, bytes]] = {}  # key -> (cursor, key, cursor)
        self._resets: dict[str, Callable[[], None]] = {}
        self.recoveries = 0  # times the connection was lost and the seats were read afresh
        self._lost = False
        # The connections' count of links (of slot map reads, on a cluster) at the last poll.
        self._links: int | None = None

    def subscribe_seat(self, stream: str, handler: PromptHandler,
                       reset: Callable[[], None] | None = None) -> None:
        """Reads a seat's prompts from ``stream`` (``view_key``, or a grant's ``stream``);
        ``reset`` makes the seat forget which decisions it answered (see :meth:`recover`)."""
        self._handlers[stream] = handler
        self._cursor[stream] = "0-0"
        if reset is not None:
            self._resets[stream] = reset

    def drop_seat(self, stream: str) -> None:
        self._handlers.pop(stream, None)
        self._resets.pop(stream, None)
        self._cursor.pop(stream, None)
        self._packed.pop(stream, None)

    def _packed_read(self, streams: dict[str, str]) -> bytes:
        """XREAD over ``streams`` in RESP, from packed pieces kept per key and per cursor: a
        client with hundreds of seats would otherwise spend most of a poll packing it."""
        head = [b"*%d\r\n" % (6 + 2 * len(streams)),
                *(bulk(a) for a in ("XREAD", "COUNT", 200, "BLOCK", self.block_ms, "STREAMS"))]
        keys, ids = [], []
        for key, cursor in streams.items():
            packed = self._packed.get(key)
            if packed is None or packed[0] != cursor:
                packed = self._packed[key] = (cursor, bulk(key), bulk(cursor))
            keys.append(packed[1])
            ids.append(packed[2])
        return b"".join(head + keys + ids)

    async def cursor_of(self, stream: str) -> str:
        """The id after which entries written from now on will appear."""
        last = await self.redis.xrevrange(stream, count=1)
        return last[0][0].decode() if last else "0-0"

    def follow(self, stream: str, after: str) -> None:
        """Also read ``stream`` (results, replies): its messages come back from :meth:`poll`."""
        self._followed[stream] = after

    def read_to(self, stream: str) -> str | None:
        """The id of the last entry read of followed ``stream`` (where :meth:`follow` began,
        until an entry came)."""
        return self._followed.get(stream)

    async def poll(self) -> list[Message]:
        """One XREAD over every seat and followed stream; runs the prompt handlers and returns
        the messages of the followed streams. A lost connection is survived (see
        :meth:`recover`): nothing comes back from that poll."""
        try:
            if self._lost:
                await self.recover()
                self._lost = False
            messages = await self._poll()
            # A cluster connection reads its slot map again after a lost link or a MOVED.
            links = ((self.pipelined.connections if self.pipelined is not None else 0)
                     + sum(link.refreshes for link in self.slot_reads or ()))
            if self._links is not None and links != self._links:
                self._lost = True  # made again since the last poll: Redis may be another now
            self._links = links
            return messages
        except Exception as exc:
            # Down, or a link of the pool that died with the old server, or a cluster whose
            # master of a slot is gone and not yet replaced (CLUSTERDOWN: a read sent to its
            # slot's node is not retried by redis-py): recovered on a later poll (the first
            # command on a dead pooled link fails once).
            if not (isinstance(exc, OSError) or is_transient(exc) or closed_under_us(exc)):
                raise
            self._lost = True
            await asyncio.sleep(RECONNECT_S)
            return []

    async def recover(self, streams: list[str] | None = None) -> None:
        """After a lost connection Redis may have come back older than it was (a restart from
        a snapshot, a failover to a replica that lagged): a seat's stream may then hold fewer
        prompts than were read, and the next ones would reuse ids already passed. So each seat
        starts again from its newest prompt, which it answers anew, having forgotten what it
        answered. ``streams``: only these seats (after an answer refused in the meantime)."""
        for stream in list(self._handlers) if streams is None else streams:
            if stream not in self._handlers:
                continue
            last = await self.redis.xrevrange(stream, count=1)
            reset = self._resets.get(stream)
            if reset is not None:
                reset()
            self._cursor[stream] = last[0][0].decode() if last else "0-0"
            handler = self._handlers.get(stream)
            if last and handler is not None:
                message = bus_decoder.decode(last[0][1][b"m"])
                if isinstance(message, SeatPrompted):
                    await handler(message)
        if streams is None:
            self.recoveries += 1

    async def _poll(self) -> list[Message]:
        streams = {**self._cursor, **self._followed}
        if self.pipelined is not None:
            reply = _raw_pairs(await self.pipelined.send_packed(self._packed_read(streams)))
        elif isinstance(self.redis, RedisCluster):
            reply = await self._read_per_slot(streams)
        else:
            reply = [(key, [(eid, fields[b"m"]) for eid, fields in entries])
                     for key, entries in await self.redis.xread(
                         streams, count=200, block=self.block_ms) or ()]  # type: ignore[arg-type]
        others: list[Message] = []
        for raw_key, entries in reply:
            key = raw_key.decode()
            for entry_id, body in entries:
                try:
                    message = bus_decoder.decode(body)
                except msgspec.ValidationError:
                    # A message of a newer minor version of the contract (a type this client
                    # does not know): passed by, as docs/clients.md asks of every client.
                    self._advance(key, entry_id)
                    continue
                if key in self._followed:
                    self._followed[key] = entry_id.decode()
                    others.append(message)
                    continue
                self._cursor[key] = entry_id.decode()
                handler = self._handlers.get(key)
                if handler is not None and isinstance(message, SeatPrompted):
                    self.handled += 1
                    if self.on_prompt is not None:
                        self.on_prompt(message.match_id)
                    await handler(message)
        return others

    async def _read_per_slot(self, streams: dict[str, str]) -> list[tuple[bytes, list[Any]]]:
        """One XREAD per slot, concurrently; only the slot with the most streams blocks."""
        slots: dict[int, dict[str, str]] = {}
        for key, cursor in streams.items():
            slots.setdefault(key_slot(key.encode()), {})[key] = cursor
        main = max(slots, key=lambda slot: len(slots[slot]), default=None)
        if self.slot_reads is not None:
            blocking, others = self.slot_reads
            raw = await asyncio.gather(*(
                (blocking if slot == main else others).send([
                    "XREAD", "COUNT", 200,
                    *(("BLOCK", self.block_ms) if slot == main else ()),
                    "STREAMS", *group, *group.values()])
                for slot, group in slots.items()))
            return [pair for reply in raw for pair in _raw_pairs(reply)]
        replies = await asyncio.gather(*(
            self._xread(group, self.block_ms if slot == main else None)
            for slot, group in slots.items()))
        return [(key if isinstance(key, bytes) else str(key).encode(),
                 [(eid, fields[b"m"]) for eid, fields in entries])
                for reply in replies for key, entries in _pairs(reply)]

    async def _xread(self, streams: dict[str, str], block_ms: int | None) -> Any:
        """XREAD of one slot's streams, straight to its node (see ``read_group``)."""
        node = node_of(self.redis, next(iter(streams)))
        if node is None:
            return await self.redis.xread(streams, count=200,  # type: ignore[arg-type]
                                          block=block_ms)
        block = [] if block_ms is None else ["BLOCK", block_ms]
        return await self.redis.execute_command(
            "XREAD", "COUNT", 200, *block, "STREAMS", *streams, *streams.values(),
            target_nodes=node)

    def _advance(self, key: str, entry_id: bytes) -> None:
        if key in self._followed:
            self._followed[key] = entry_id.decode()
        else:
            self._cursor[key] = entry_id.decode()


def closed_under_us(exc: BaseException) -> bool:
    """True for what redis-py 8.1's asyncio connections raise, instead of a ConnectionError,
    when a command is written on a connection closed under it (redis/redis-py#4287, #3546):
    its cluster client closes every connection it holds, in use or not, when any command meets
    CLUSTERDOWN, so the other reads of a poll (one per slot, at once) may meet a closed one."""
    if not isinstance(exc, (AttributeError, TypeError, RuntimeError)):
        return False
    frames = traceback.extract_tb(exc.__traceback__)
    return any(f.filename.replace("\\", "/").endswith("redis/asyncio/connection.py")
               for f in frames)


def _field_m(flat: list[bytes]) -> bytes:
    """Field ``m`` of an entry's flat [field, value, ...] list (raw XREAD reply)."""
    for i in range(0, len(flat) - 1, 2):
        if flat[i] == b"m":
            return flat[i + 1]
    raise KeyError("m")


def _raw_pairs(reply: Any) -> list[tuple[bytes, list[tuple[bytes, bytes]]]]:
    """A raw (unparsed) XREAD reply as (key, [(id, body of field m)]) pairs."""
    return [(key, [(eid, _field_m(flat)) for eid, flat in entries]) for key, entries in reply or ()]


def _pairs(reply: Any) -> list[tuple[Any, Any]]:
    """XREAD's reply as (key, entries) pairs: a list under RESP2, a dict under RESP3."""
    if not reply:
        return []
    return list(reply.items()) if isinstance(reply, dict) else list(reply)
