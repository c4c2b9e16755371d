"""Where lobbies are kept: in memory for one process, in Redis for match service replicas.

Both apply the same pure :func:`siege.hosting.lobby.claim`; on Redis a WATCH on the lobby's key
makes a claim atomic across replicas (a lost race re-reads and tries again). Each change also
updates the public listing (:mod:`siege.contracts.lobby`), after the lobby itself: the lobby is
the truth, the listing a view of it that a client reads to find a seat.

A match waiting for players has no clock (clocks start with its log), so on Redis a lobby
nobody joins expires: its key is written with ``LOBBY_IDLE_S`` (a day) as its expiry, set again
by each join. A hash field cannot expire, so the listing is swept (:func:`sweep_listing`) of the
lobbies whose key went, at most every ``LOBBY_SWEEP_EVERY_S`` by each replica, as it opens lobbies
and handles joins (``siegeworks.transport.bounds``). In memory (one process) nothing expires.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError, WatchError

from siege.contracts.lobby import OpenSeats, open_seats_decoder, open_seats_encoder
from siege.eventlog.keys import LOBBY_HASH, lobby_key
from siege.hosting.lobby import OPEN, Lobby, Refusal, lobby_decoder, lobby_encoder
from siegeworks.transport.bounds import LOBBY_IDLE_S, LOBBY_SWEEP_EVERY_S

Change = Callable[[Lobby], "tuple[Lobby, int] | Refusal"]


class LobbyStore(Protocol):
    async def open(self, match_id: str, lobby: Lobby) -> Lobby:
        """Stores ``lobby`` unless one is there already; returns the one stored."""

    async def get(self, match_id: str) -> Lobby | None: ...

    async def change(self, match_id: str, change: Change) -> tuple[Lobby, int] | Refusal | None:
        """Applies ``change`` atomically; None when the match has no lobby."""

    async def close(self, match_id: str) -> None: ...

    async def listing(self) -> list[OpenSeats]:
        """The public listing: every open lobby, by match id."""


def listed(match_id: str, lobby: Lobby) -> OpenSeats:
    """A lobby as the public listing shows it (no holder's id: only which seats are free)."""
    create = lobby.create
    return OpenSeats(match_id=match_id, game=create.game, seats=len(lobby.clients),
                     open=[seat for seat, client in enumerate(lobby.clients) if client == OPEN],
                     seat_names=list(lobby.seat_names), creator=create.client,
                     options=dict(create.options))


class MemoryLobbies:
    def __init__(self) -> None:
        self._lobbies: dict[str, Lobby] = {}

    async def open(self, match_id: str, lobby: Lobby) -> Lobby:
        return self._lobbies.setdefault(match_id, lobby)

    async def get(self, match_id: str) -> Lobby | None:
        return self._lobbies.get(match_id)

    async def change(self, match_id: str, change: Change) -> tuple[Lobby, int] | Refusal | None:
        lobby = self._lobbies.get(match_id)
        if lobby is None:
            return None
        outcome = change(lobby)
        if not isinstance(outcome, Refusal):
            self._lobbies[match_id] = outcome[0]
        return outcome

    async def close(self, match_id: str) -> None:
        self._lobbies.pop(match_id, None)

    async def listing(self) -> list[OpenSeats]:
        return [listed(match_id, lobby) for match_id, lobby in sorted(self._lobbies.items())
                if not lobby.full]


class RedisLobbies:
    def __init__(self, redis: Redis, idle_s: int = LOBBY_IDLE_S,
                 sweep_every_s: float = LOBBY_SWEEP_EVERY_S) -> None:
        self.redis = redis
        self.idle_s = idle_s  # a lobby nobody joined for this long goes
        self.sweep_every_s = sweep_every_s
        self._swept_at: float | None = None  # time.monotonic() of this replica's last sweep

    async def open(self, match_id: str, lobby: Lobby) -> Lobby:
        await self._sweep_now_and_then()
        key = lobby_key(match_id)
        if await self.redis.set(key, lobby_encoder.encode(lobby), nx=True, ex=self.idle_s):
            await self._list(match_id, lobby)
            return lobby
        stored = await self.redis.get(key)
        return lobby if stored is None else lobby_decoder.decode(stored)

    async def _sweep_now_and_then(self) -> None:
        """Sweeps the listing if this replica has not for ``sweep_every_s``. Best effort: a
        sweep Redis refuses is tried again next time, and never fails the create or join."""
        now = time.monotonic()
        if self._swept_at is not None and now - self._swept_at < self.sweep_every_s:
            return
        self._swept_at = now
        with contextlib.suppress(RedisError):
            await sweep_listing(self.redis, self.idle_s)

    async def _list(self, match_id: str, lobby: Lobby) -> None:
        if lobby.full:
            await self.redis.hdel(LOBBY_HASH, match_id)
        else:
            await self.redis.hset(LOBBY_HASH, match_id,
                                  open_seats_encoder.encode(listed(match_id, lobby)))

    async def get(self, match_id: str) -> Lobby | None:
        stored = await self.redis.get(lobby_key(match_id))
        return None if stored is None else lobby_decoder.decode(stored)

    async def change(self, match_id: str, change: Change) -> tuple[Lobby, int] | Refusal | None:
        await self._sweep_now_and_then()
        key = lobby_key(match_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    stored = await pipe.get(key)
                    if stored is None:
                        return None
                    outcome = change(lobby_decoder.decode(stored))
                    if isinstance(outcome, Refusal):
                        return outcome
                    pipe.multi()
                    # A join keeps the lobby a day longer: it goes a day after the last.
                    pipe.set(key, lobby_encoder.encode(outcome[0]), ex=self.idle_s)
                    await pipe.execute()
                    break
                except WatchError:
                    continue  # another replica changed the lobby first: decide again
        # Not in the transaction: the listing is one key for all shards (another cluster
        # slot), and a view that trails the lobby by a moment costs a refused join at most.
        await self._list(match_id, outcome[0])
        return outcome

    async def close(self, match_id: str) -> None:
        await self.redis.delete(lobby_key(match_id))
        await self.redis.hdel(LOBBY_HASH, match_id)

    async def listing(self) -> list[OpenSeats]:
        return await read_listing(self.redis)


SWEEP_BATCH = 500
"""Listed lobbies looked at in one pipelined round trip of a sweep."""


async def sweep_listing(redis: Redis, idle_s: int = LOBBY_IDLE_S) -> int:
    """Drops from the listing every lobby whose key is gone (it expired, or its match started
    and its ``close`` was cut short); returns how many went. A lobby key without an expiry (one
    written before lobbies expired) is given ``idle_s``.

    Not atomic with the lobbies (the listing is another cluster slot): a lobby opened again
    under its id between the look and the HDEL is looked at once more and listed again."""
    names = [_text(name) async for name, _ in redis.hscan_iter(LOBBY_HASH)]
    dropped = 0
    for start in range(0, len(names), SWEEP_BATCH):
        batch = names[start:start + SWEEP_BATCH]
        async with redis.pipeline(transaction=False) as pipe:
            for match_id in batch:
                pipe.ttl(lobby_key(match_id))
            ttls = await pipe.execute()
        gone = [m for m, ttl in zip(batch, ttls, strict=True) if ttl == -2]
        ageless = [m for m, ttl in zip(batch, ttls, strict=True) if ttl == -1]
        if ageless:
            async with redis.pipeline(transaction=False) as pipe:
                for match_id in ageless:
                    pipe.expire(lobby_key(match_id), idle_s)
                await pipe.execute()
        if gone:
            dropped += int(await redis.hdel(LOBBY_HASH, *gone))
            await _list_again(redis, gone)
    return dropped


async def _list_again(redis: Redis, match_ids: Sequence[str]) -> None:
    """Lists again those of ``match_ids`` whose lobby is there after all (opened again)."""
    async with redis.pipeline(transaction=False) as pipe:
        for match_id in match_ids:
            pipe.get(lobby_key(match_id))
        stored = await pipe.execute()
    for match_id, raw in zip(match_ids, stored, strict=True):
        if raw is not None:
            lobby = lobby_decoder.decode(raw)
            if not lobby.full:
                await redis.hset(LOBBY_HASH, match_id,
                                 open_seats_encoder.encode(listed(match_id, lobby)))


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def read_listing(redis: Redis) -> list[OpenSeats]:
    """The public lobby as a client reads it (HSCAN: it may be long), by match id."""
    found = [open_seats_decoder.decode(value)
             async for _, value in redis.hscan_iter(LOBBY_HASH)]
    return sorted(found, key=lambda listing: listing.match_id)
