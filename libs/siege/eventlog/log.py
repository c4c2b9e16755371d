"""The match log interface and its two implementations.

A match log is an append-only sequence of ``(seq, stored bytes, sha256 of stored)`` with seq
from 1 and no gaps. The only way to write one is :meth:`EventLog.append`, a compare-and-set on
the head ``(seq, hash)``: a writer that lost a race gets an :class:`AppendConflict` carrying the
current head, re-reads, re-derives and tries again. Every append also leaves a pointer
``(match_id, first seq, last seq)`` on its shard's bus and records the match id in the shard's
match index, in the same atomic step.

:class:`RedisEventLog` runs ``append.lua`` on Redis; :class:`MemoryEventLog` has the same
semantics in plain Python for pure tests. The hashes are computed by the caller
(:func:`siege.contracts.envelope.seal`): Redis Lua has no sha256, so the script can check the
chain link (expected head hash) but not that a hash matches its bytes; auditors re-hash.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any, Protocol

import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from siege.eventlog.keys import NO_POINTER, SHARDS, bus_key, log_key, matches_key, shard_of
from siege.eventlog.pipelined import PipelinedRedis

ZERO_HASH = bytes(32)
"""The expected hash of an empty log (the same value as ``siege.contracts.envelope.GENESIS``)."""

READ_PAGE = 1000
"""Entries per XRANGE round trip when reading a log: big enough to amortise the round trip,
small enough that one huge match does not block the server for long."""


class AppendConflict(msgspec.Struct, frozen=True):
    """The log's head was not the expected one; nothing was written. This is the current head."""

    head_seq: int
    head_hash: bytes


class EventLogError(Exception):
    """Base of the event log's errors."""


class SideKeyTakenError(EventLogError):
    """The side key already holds a different value; the append was refused and nothing written.

    Overwriting it would break the seed commitment, and appending without storing the value
    would commit the log to a seed nobody holds, so neither happens.
    """


class MatchArchivedError(EventLogError):
    """The match was archived (``siege.archive``): its log left Redis, and no append may start a
    new one under its id."""


class CorruptLogError(EventLogError):
    """A log read back with ids that are not ``1..n`` without gaps (written around the script)."""


class EventLog(Protocol):
    """Append-only match logs with compare-and-set appends."""

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        expected_hash: bytes,
        entries: Sequence[tuple[bytes, bytes]],
        side: tuple[str, bytes] | None = None,
        audience: str | None = None,
        guard: bytes | None = None,
    ) -> int | AppendConflict:
        """Appends ``entries`` (stored bytes, sha256) after the expected head.

        Returns the new head seq, or :class:`AppendConflict` (and writes nothing) when the head
        is not ``(expected_seq, expected_hash)``; an empty log's head is ``(0, ZERO_HASH)``.
        ``side`` = (key, value) is stored NX together with the events (the dice seed with
        ``SeedCommitted``); the key must be one of this match's keys (same hash tag).
        ``guard`` travels with the pointer's copy of the last entry (see
        :meth:`siege.hosting.loader.MatchLoader.jump`); the log never stores it.
        Raises ``ValueError`` for a malformed call and :class:`SideKeyTakenError` if the side
        key holds another value.
        """
        ...

    async def read(self, match_id: str, after_seq: int = 0) -> list[tuple[int, bytes, bytes]]:
        """All entries with seq > ``after_seq`` as ``(seq, stored, hash)``, in order."""
        ...

    async def head(self, match_id: str) -> tuple[int, bytes]:
        """``(seq, hash)`` of the last entry, or ``(0, ZERO_HASH)`` for an empty log."""
        ...

    async def match_ids(self) -> list[str]:
        """Every match id with at least one event, over all shards, sorted."""
        ...

    async def archived(self, match_id: str) -> bool:
        """Whether the match was archived (siege.archive): no log may start under its id."""
        ...

    async def get_side(self, key: str) -> bytes | None:
        """The value of a side key (e.g. ``seed_key(match_id)``), or None."""
        ...

    async def read_bus(
        self, shard: int, after_id: str = "0-0", count: int = 1000, audience: str | None = None
    ) -> list[tuple[str, str, int, int]]:
        """Up to ``count`` pointers after ``after_id``: ``(entry id, match_id, first, last)``."""
        ...


def _check_append(
    match_id: str,
    expected_seq: int,
    expected_hash: bytes,
    entries: Sequence[tuple[bytes, bytes]],
    side: tuple[str, bytes] | None,
) -> None:
    """Refuses malformed calls the same way in both implementations, before any I/O.

    The script repeats these checks for callers in other languages; checking here as well gives
    Python callers a ``ValueError`` instead of a server error string.
    """
    if not match_id:
        raise ValueError("match_id is empty")
    if expected_seq < 0:
        raise ValueError(f"expected_seq must be >= 0, got {expected_seq}")
    if len(expected_hash) != 32:
        raise ValueError(f"expected_hash must be 32 bytes, got {len(expected_hash)}")
    if not entries:
        raise ValueError("refusing an empty batch")
    for i, (_, digest) in enumerate(entries):
        if len(digest) != 32:
            raise ValueError(f"hash of entry {i} must be 32 bytes, got {len(digest)}")
    if side is not None:
        # Checked here because a single Redis would happily touch a key in another slot; only
        # a Cluster would refuse it (CROSSSLOT), i.e. the bug would surface in production.
        tag = log_key(match_id).split(":", 1)[0]
        if not side[0].startswith(tag + ":"):
            raise ValueError(f"side key {side[0]!r} does not share the hash tag {tag} of the match")


def _next_id(stream_id: str) -> str:
    """The smallest stream id after ``stream_id`` (inclusive XRANGE start, works on any Redis)."""
    ms, _, seq = stream_id.partition("-")
    return f"{int(ms)}-{int(seq or 0) + 1}"


def _raw_reply(response: Any, **options: Any) -> Any:
    return response


_APPEND_LUA = resources.files("siege.eventlog").joinpath("append.lua").read_text("utf-8")


class RedisEventLog(EventLog):
    """Match logs in Redis streams, written only through ``append.lua``.

    ``redis`` must return bytes (``decode_responses=False``): stored events are msgpack.
    """

    def __init__(self, redis: Redis | RedisCluster, *, page_size: int = READ_PAGE,
                 pipelined: PipelinedRedis | None = None) -> None:
        if redis.get_connection_kwargs().get("decode_responses"):
            raise ValueError("RedisEventLog needs a client with decode_responses=False")
        self._redis = redis
        self.redis = redis  # the client, for callers that share the connection
        # register_script sends EVALSHA and falls back to loading the script on NOSCRIPT, so a
        # server restart or failover does not break appends. On a cluster the script's first
        # key picks the node, and every key of one append shares the match's slot.
        self._append = redis.register_script(_APPEND_LUA)
        # The read path is the replay hot path. redis-py turns every XRANGE entry into a dict
        # (parse_stream_list); we only need the raw [id, [b"e", stored, b"h", hash]] arrays
        # that hiredis already built. A second client on the same pool with its own callback
        # table gets them without touching the caller's client. A cluster client has no pool
        # to share: it parses, and the rows are put back in that shape (``_rows``).
        self._parsed = isinstance(redis, RedisCluster)
        self._raw: Redis | RedisCluster = (
            redis if self._parsed else Redis(connection_pool=redis.connection_pool))
        if not self._parsed:
            for command in ("XRANGE", "XREVRANGE"):
                self._raw.set_response_callback(command, _raw_reply)
        self._page = page_size
        # The services' hot path: appends and reads of many matches at once share one write
        # and one wake-up (see siege.eventlog.pipelined) instead of a round trip each.
        self._pipelined = pipelined

    async def _command(self, *args: bytes | str | int) -> Any:
        if self._pipelined is not None:
            return await self._pipelined.execute(*args)
        return await self._raw.execute_command(*args)

    async def _rows(self, *args: bytes | str | int, pipelined: bool = True) -> Any:
        """XRANGE or XREVRANGE as raw ``[id, [field, value, ...]]`` rows, whichever client."""
        if pipelined and self._pipelined is not None:
            return await self._pipelined.execute(*args)
        rows = await self._raw.execute_command(*args)
        if self._parsed:
            return [(eid, [part for pair in fields.items() for part in pair])
                    for eid, fields in rows]
        return rows

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        expected_hash: bytes,
        entries: Sequence[tuple[bytes, bytes]],
        side: tuple[str, bytes] | None = None,
        audience: str | None = None,
        guard: bytes | None = None,
    ) -> int | AppendConflict:
        _check_append(match_id, expected_seq, expected_hash, entries, side)
        shard = shard_of(match_id)
        keys = [log_key(match_id), bus_key(shard, audience), matches_key(shard)]
        args: list[bytes | str | int] = [match_id, expected_seq, expected_hash, len(entries)]
        for stored, digest in entries:
            args.append(stored)
            args.append(digest)
        if side is not None:
            keys.append(side[0])
            args.append(side[1])
        if guard is not None:  # carried by the pointer (field g), when it carries a copy
            args.append(guard)
        if self._pipelined is not None:
            reply = await self._pipelined.run_script(_APPEND_LUA, keys, args)
        else:
            reply = await self._append(keys=keys, args=args)
        code = reply[0]
        if code == 1:
            return int(reply[1])
        if code == 0:
            return AppendConflict(head_seq=int(reply[1]), head_hash=bytes(reply[2]))
        if code == 2:
            raise SideKeyTakenError(f"side key {side[0] if side else None!r} holds another value")
        if code == 3:
            raise MatchArchivedError(f"{match_id} was archived")
        raise EventLogError(f"unexpected reply from append.lua: {reply!r}")

    async def read(self, match_id: str, after_seq: int = 0) -> list[tuple[int, bytes, bytes]]:
        key = log_key(match_id)
        after_seq = max(after_seq, 0)
        out: list[tuple[int, bytes, bytes]] = []
        start = after_seq + 1
        while True:
            page = await self._rows("XRANGE", key, f"0-{start}", "+", "COUNT", self._page)
            # Fields are always written as e, h in that order by append.lua, so positional
            # access is safe; ids are b"0-<seq>", and int() accepts the bytes digits directly.
            out.extend([(int(eid[2:]), f[1], f[3]) for eid, f in page])
            if len(page) < self._page:
                break
            start = out[-1][0] + 1
        # Ids only grow, so first == after+1 and last == after+len together prove "no gaps" in
        # O(1). A gap can only come from a write around the script; fail loudly, never fold it.
        if out and (out[0][0] != after_seq + 1 or out[-1][0] != after_seq + len(out)):
            raise CorruptLogError(
                f"{key}: {len(out)} entries after {after_seq} span seq {out[0][0]}..{out[-1][0]}"
            )
        return out

    async def head(self, match_id: str) -> tuple[int, bytes]:
        last = await self._rows("XREVRANGE", log_key(match_id), "+", "-", "COUNT", 1)
        if not last:
            return 0, ZERO_HASH
        eid, fields = last[0]
        return int(eid[2:]), fields[3]

    async def match_ids(self, archived: bool = False) -> list[str]:
        """Every match with a log in Redis; with ``archived``, also those archived (listed in
        the index with score 1 once their log left: siege.archive)."""
        # One round trip for all shards. Not transactional: on a Cluster the shards live in
        # different slots, and a listing needs no atomicity.
        async with self._redis.pipeline(transaction=False) as pipe:
            for shard in range(SHARDS):
                pipe.zrangebyscore(matches_key(shard), 0, 1 if archived else 0)
            pages = await pipe.execute()
        return sorted(m.decode("utf-8") for page in pages for m in page)

    async def archived(self, match_id: str) -> bool:
        """Whether the match was archived: its log left Redis, and no new one may start."""
        score = await self._redis.zscore(matches_key(shard_of(match_id)), match_id)
        return score is not None and float(score) == 1

    async def get_side(self, key: str) -> bytes | None:
        value = await self._command("GET", key)
        return None if value is None else bytes(value)

    async def read_bus(
        self, shard: int, after_id: str = "0-0", count: int = 1000, audience: str | None = None
    ) -> list[tuple[str, str, int, int]]:
        entries = await self._rows(
            "XRANGE", bus_key(shard, audience), _next_id(after_id), "+", "COUNT", count,
            pipelined=False)
        out: list[tuple[str, str, int, int]] = []
        for eid, flat in entries:
            fields = dict(zip(flat[::2], flat[1::2], strict=True))
            out.append(
                (eid.decode(), fields[b"m"].decode("utf-8"), int(fields[b"f"]), int(fields[b"l"]))
            )
        return out


class MemoryEventLog(EventLog):
    """The same semantics as :class:`RedisEventLog` in plain dicts, for tests without Redis.

    No method awaits before it has finished its work, so on one event loop every call is atomic,
    like the script.
    """

    def __init__(self) -> None:
        self._logs: dict[str, list[tuple[bytes, bytes]]] = {}
        self._bus: dict[int, list[tuple[str, str, int, int]]] = {s: [] for s in range(SHARDS)}
        self._matches: dict[int, set[str]] = {s: set() for s in range(SHARDS)}
        self._side: dict[str, bytes] = {}
        self._bus_counter = 0
        self._bus_audience: dict[int, list[str | None]] = {s: [] for s in range(SHARDS)}

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        expected_hash: bytes,
        entries: Sequence[tuple[bytes, bytes]],
        side: tuple[str, bytes] | None = None,
        audience: str | None = None,
        guard: bytes | None = None,
    ) -> int | AppendConflict:
        _check_append(match_id, expected_seq, expected_hash, entries, side)
        log = self._logs.get(match_id, [])
        head_seq, head_hash = (len(log), log[-1][1]) if log else (0, ZERO_HASH)
        if head_seq != expected_seq or head_hash != expected_hash:
            return AppendConflict(head_seq=head_seq, head_hash=head_hash)
        if side is not None and self._side.get(side[0], side[1]) != side[1]:
            raise SideKeyTakenError(f"side key {side[0]!r} holds another value")
        log.extend((bytes(stored), bytes(digest)) for stored, digest in entries)
        self._logs[match_id] = log
        shard = shard_of(match_id)
        # Redis ids are "<ms>-<n>"; a counter in the ms part keeps them ordered and parseable.
        if audience != NO_POINTER:
            self._bus_counter += 1
            self._bus[shard].append(
                (f"{self._bus_counter}-0", match_id, expected_seq + 1, len(log)))
            self._bus_audience[shard].append(audience)
        self._matches[shard].add(match_id)
        if side is not None:
            self._side.setdefault(side[0], bytes(side[1]))
        return len(log)

    async def read(self, match_id: str, after_seq: int = 0) -> list[tuple[int, bytes, bytes]]:
        log = self._logs.get(match_id, [])
        start = max(after_seq, 0)
        return [(seq, e, h) for seq, (e, h) in enumerate(log[start:], start + 1)]

    async def head(self, match_id: str) -> tuple[int, bytes]:
        log = self._logs.get(match_id)
        return (len(log), log[-1][1]) if log else (0, ZERO_HASH)

    async def match_ids(self) -> list[str]:
        return sorted(m for ids in self._matches.values() for m in ids)

    async def archived(self, match_id: str) -> bool:
        return False  # nothing is archived from memory

    async def get_side(self, key: str) -> bytes | None:
        return self._side.get(key)

    async def read_bus(
        self, shard: int, after_id: str = "0-0", count: int = 1000, audience: str | None = None
    ) -> list[tuple[str, str, int, int]]:
        bus_key(shard, audience)  # the same ValueError as Redis for a bad shard or audience
        after = _id_tuple(after_id)
        return [p for p, a in zip(self._bus[shard], self._bus_audience[shard], strict=True)
                if a == audience and _id_tuple(p[0]) > after][:count]


def _id_tuple(stream_id: str) -> tuple[int, int]:
    ms, _, seq = stream_id.partition("-")
    return int(ms), int(seq or 0)
