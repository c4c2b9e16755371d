"""Where lobbies are kept: in memory for one process, in Redis for match service replicas.

Both apply the same pure :func:`siege.hosting.lobby.claim`; on Redis a WATCH on the lobby's key
makes a claim atomic across replicas (a lost race re-reads and tries again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import WatchError

from siege.eventlog.keys import lobby_key
from siege.hosting.lobby import Lobby, Refusal, lobby_decoder, lobby_encoder

Change = Callable[[Lobby], "tuple[Lobby, int] | Refusal"]


class LobbyStore(Protocol):
    async def open(self, match_id: str, lobby: Lobby) -> Lobby:
        """Stores ``lobby`` unless one is there already; returns the one stored."""

    async def get(self, match_id: str) -> Lobby | None: ...

    async def change(self, match_id: str, change: Change) -> tuple[Lobby, int] | Refusal | None:
        """Applies ``change`` atomically; None when the match has no lobby."""

    async def close(self, match_id: str) -> None: ...


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


class RedisLobbies:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def open(self, match_id: str, lobby: Lobby) -> Lobby:
        key = lobby_key(match_id)
        if await self.redis.set(key, lobby_encoder.encode(lobby), nx=True):
            return lobby
        stored = await self.redis.get(key)
        return lobby if stored is None else lobby_decoder.decode(stored)

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
                    return outcome
                except WatchError:
                    continue  # another replica changed the lobby first: decide again

    async def close(self, match_id: str) -> None:
        await self.redis.delete(lobby_key(match_id))
