"""Where lobbies are kept: in memory for one process, in Redis for match service replicas.

Both apply the same pure :func:`siege.hosting.lobby.claim`; on Redis a WATCH on the lobby's key
makes a claim atomic across replicas (a lost race re-reads and tries again). Each change also
updates the public listing (:mod:`siege.contracts.lobby`), after the lobby itself: the lobby is
the truth, the listing a view of it that a client reads to find a seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import WatchError

from siege.contracts.lobby import OpenSeats, open_seats_decoder, open_seats_encoder
from siege.eventlog.keys import LOBBY_HASH, lobby_key
from siege.hosting.lobby import OPEN, Lobby, Refusal, lobby_decoder, lobby_encoder

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
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def open(self, match_id: str, lobby: Lobby) -> Lobby:
        key = lobby_key(match_id)
        if await self.redis.set(key, lobby_encoder.encode(lobby), nx=True):
            await self._list(match_id, lobby)
            return lobby
        stored = await self.redis.get(key)
        return lobby if stored is None else lobby_decoder.decode(stored)

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
                    pipe.set(key, lobby_encoder.encode(outcome[0]))
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


async def read_listing(redis: Redis) -> list[OpenSeats]:
    """The public lobby as a client reads it (HSCAN: it may be long), by match id."""
    found = [open_seats_decoder.decode(value)
             async for _, value in redis.hscan_iter(LOBBY_HASH)]
    return sorted(found, key=lambda listing: listing.match_id)
