"""Which clients' commands streams a match or rules replica reads: those of the clients in the
registry ``siege:clients``, learned from its doorbell ``siege:clients:changed``.

Every replica reads the doorbell itself, with a plain blocking XREAD from the last ring it saw,
so each learns of a new client at the ring, whichever replica holds the new client's shard.
(Read through the services' consumer groups, a ring went to one replica of each service, and
the replica holding the client's shard learned of it only at its next look at the registry,
up to two seconds later: a new client's first command waited that long.)

A ring names one client, looked up with one SISMEMBER; the whole registry (every client ever
registered) is read at start, when its size changed with no ring to say why (a client added
without ringing), and once every ``full_every_s`` seconds as a safety net.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from siege.eventlog.keys import (
    CLIENTS_CHANGED_STREAM,
    CLIENTS_KEY,
    commands_key,
    valid_client_id,
)

REFRESH_EVERY_S = 2.0
"""How long one blocking read of the doorbell waits for a ring; between two, the registry's
size is looked at (a client added without ringing changes it)."""
FULL_READ_EVERY_S = 60.0
"""How often the registry is read whatever its size says: a safety net (a client revoked and
another added without ringing, between two looks, leave the size as it was)."""
RINGS_PER_READ = 100
"""Rings taken in one read; a full page means a burst (or rings trimmed away while this replica
was not reading), read as one full read of the registry instead of a SISMEMBER each."""

Follow = Callable[[Collection[str]], Awaitable[list[str]]]


class ClientsChanged(msgspec.Struct, frozen=True):
    """A doorbell entry: ``client`` was added to or removed from the registry."""

    client: str


async def after_ring(redis: Redis, followed: Collection[str], client: str) -> list[str]:
    """The commands streams to follow after a ring of the doorbell naming ``client``: those
    followed, with the client's if it is registered, without it if not (a revoke rings too).
    One SISMEMBER, where reading the whole registry on every ring would cost each ring in
    proportion to the clients registered."""
    streams = set(followed)
    if valid_client_id(client):
        stream = commands_key(client)
        if await redis.sismember(CLIENTS_KEY, client):
            streams.add(stream)
        else:
            streams.discard(stream)
    return sorted(streams)


async def registered_streams(redis: Redis) -> list[str]:
    """The commands streams of every registered client (invalid ids are skipped)."""
    members = await redis.smembers(CLIENTS_KEY)
    names = (m.decode(errors="replace") if isinstance(m, bytes) else str(m) for m in members)
    return sorted(commands_key(c) for c in names if valid_client_id(c))


async def registry_size(redis: Redis) -> int:
    """The registry's size, read in O(1)."""
    return int(await redis.scard(CLIENTS_KEY))


async def last_ring(redis: Redis) -> bytes:
    """The id of the doorbell's last entry (``0-0`` when it has none)."""
    last = await redis.xrevrange(CLIENTS_CHANGED_STREAM, count=1)
    return _bytes(last[0][0]) if last else b"0-0"


async def rings_after(redis: Redis, after: bytes, block_ms: int,
                      stop: asyncio.Event) -> tuple[list[str], bytes]:
    """The clients rung for after the entry ``after`` (waiting up to ``block_ms`` for one, or
    until ``stop``), and the id of the last ring read (``after`` when none came)."""
    read = asyncio.ensure_future(redis.xread({CLIENTS_CHANGED_STREAM: after}, count=RINGS_PER_READ,
                                             block=block_ms))
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((read, stopped), return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        if not read.done():  # stopping: the blocked read is given up (redis-py drops its
            read.cancel()  # connection rather than reuse it with a reply still to come)
            with contextlib.suppress(asyncio.CancelledError):
                await read
    if read.cancelled():
        return [], after
    clients, last = [], after
    for entry_id, fields in _entries(read.result()):
        value = fields.get(b"c", fields.get("c"))
        if value is not None:
            clients.append(value.decode(errors="replace") if isinstance(value, bytes)
                           else str(value))
        last = _bytes(entry_id)
    return clients, last


class RegistryFollower:
    """Hands ``follow`` (``StreamConsumer.follow``: the streams to read from now on) every
    registered client's commands stream (:meth:`start`), then each change the doorbell rings for
    as it rings (:meth:`run`). ``followed`` gives the streams followed now."""

    def __init__(self, redis: Redis, follow: Follow, followed: Callable[[], Collection[str]],
                 every_s: float = REFRESH_EVERY_S,
                 full_every_s: float = FULL_READ_EVERY_S) -> None:
        self.redis, self.follow, self.followed = redis, follow, followed
        self.every_s, self.full_every_s = every_s, full_every_s
        self.log = structlog.get_logger("siegeworks.following")
        self._after: bytes | None = None  # the last ring seen; None while the doorbell is unread
        self._size: int | None = None
        self._read_at = -math.inf

    async def start(self) -> None:
        """Reads the whole registry, after the doorbell's last ring: a client rung for between
        the two is read twice rather than missed."""
        await self._find_last_ring()
        await self._read_all(await registry_size(self.redis))

    async def run(self, stop: asyncio.Event) -> None:
        """Follows the doorbell until ``stop`` (after :meth:`start`)."""
        while not stop.is_set():
            try:
                rings = await self._wait_for_rings(stop)
                if stop.is_set():
                    break
                size = await registry_size(self.redis)  # before the reads: later shows next
                loop = asyncio.get_running_loop()
                if (len(rings) >= RINGS_PER_READ or (not rings and size != self._size)
                        or loop.time() - self._read_at >= self.full_every_s):
                    await self._read_all(size)
                elif rings:
                    streams: Collection[str] = self.followed()
                    for client in rings:
                        streams = await after_ring(self.redis, streams, client)
                    self._followed(await self.follow(streams))
                    self._size = size
            except Exception as exc:  # noqa: BLE001 - the next pass may get through (a closed
                # connection during a cluster failover is no RedisError in redis-py's client)
                self.log.warning("registry read failed", error=repr(exc))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.every_s)

    async def _find_last_ring(self) -> None:
        with contextlib.suppress(ResponseError):  # the doorbell is no stream (a bad write):
            self._after = await last_ring(self.redis)  # the size alone tells of changes

    async def _wait_for_rings(self, stop: asyncio.Event) -> list[str]:
        if self._after is None:
            await self._find_last_ring()
        if self._after is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.every_s)
            return []
        try:
            rings, self._after = await rings_after(self.redis, self._after,
                                                   int(self.every_s * 1000), stop)
        except ResponseError:
            self._after = None
            return []
        return rings

    async def _read_all(self, size: int) -> None:
        self._followed(await self.follow(await registered_streams(self.redis)))
        self._size, self._read_at = size, asyncio.get_running_loop().time()

    def _followed(self, added: list[str]) -> None:
        if added:
            self.log.info("clients_followed", streams=len(added))


def _entries(reply: Any) -> list[tuple[Any, Mapping[Any, Any]]]:
    """XREAD's entries of its one stream: a list under RESP2, a dict under RESP3."""
    if not reply:
        return []
    pairs = reply.items() if isinstance(reply, dict) else reply
    out: list[tuple[Any, Mapping[Any, Any]]] = []
    for _, entries in pairs:
        if entries and isinstance(entries[0], list):  # RESP3 nests one level deeper
            entries = entries[0]
        out.extend((entry_id, fields) for entry_id, fields in entries)
    return out


def _bytes(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()
