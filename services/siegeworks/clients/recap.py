"""What happened at a person's table since their last turn: the others' moves, the dice, the
shuffles, in words, each told once.

The words are the match's public story (``MatchWatched`` lines, the same a spectator reads), so
a recap never tells more than everyone may know; what only this seat knows is on its own board.
The rules service writes a match's story before the prompts that follow it, so whatever led to
a prompt has been written by the time the prompt is read.
"""

from __future__ import annotations

import asyncio
import time

import msgspec
from redis.asyncio import Redis

from siege.contracts.messages import MatchWatched, Said, WatchMatch, bus_decoder
from siege.eventlog.keys import commands_key, watch_key
from siegeworks.clients.watcher import RENEW_S
from siegeworks.transport.redis_bus import RedisBus

FIRST_WAIT_MS = 2000  # how long the first recap waits for the services' snapshot


class Recap:
    """Lines heard and not yet told. Fed by :meth:`hear` (in one process the bus hands each
    ``MatchWatched`` over as it is published); :meth:`fresh` returns what is new."""

    def __init__(self) -> None:
        self.names: list[str] | None = None  # the seats' names, once the story has been heard
        self._told = 0  # the last seq told
        self._pending: list[Said] = []

    def hear(self, message: MatchWatched) -> None:
        self.names = list(message.seat_names)
        last = self._pending[-1].seq if self._pending else self._told
        # A snapshot repeats lines already heard (a watch renewed after its lease ran out).
        self._pending += [said for said in message.lines if said.seq > last]

    async def refresh(self) -> None:
        """Fetches what the services have written since the last refresh."""

    async def keep(self) -> None:
        """Keeps the story coming while the person thinks (the caller cancels it)."""

    async def fresh(self) -> list[Said]:
        await self.refresh()
        new, self._pending = self._pending, []
        if new:
            self._told = new[-1].seq
        return new

    async def on_message(self, message: object) -> None:
        if isinstance(message, MatchWatched):
            self.hear(message)


class StreamRecap(Recap):
    """The recap of a match over Redis: asks to watch it, reads its public stream from a cursor
    at each refresh (no reader left blocking while the person thinks) and renews the watch."""

    def __init__(self, redis: Redis, client: str, match_id: str) -> None:
        super().__init__()
        self.redis, self.client, self.match_id = redis, client, match_id
        self.bus = RedisBus(redis)
        self._cursor: str | None = None
        self._renew_at = 0.0

    async def _watch(self, snapshot: bool) -> None:
        await self.bus.publish(commands_key(self.client), WatchMatch(
            match_id=self.match_id, snapshot=snapshot, client=self.client))
        self._renew_at = time.monotonic() + RENEW_S

    async def refresh(self) -> None:
        stream = watch_key(self.match_id)
        if self._cursor is None:
            last = await self.redis.xrevrange(stream, count=1)
            self._cursor = last[0][0].decode() if last else "0-0"
            await self._watch(snapshot=True)
            # The first recap waits for the snapshot (the story so far), passing by what was
            # written for another watcher before it.
            until = time.monotonic() + FIRST_WAIT_MS / 1000
            while self.names is None and (left := until - time.monotonic()) > 0:
                await self._read(stream, block_ms=max(1, int(left * 1000)), first=True)
            return
        if time.monotonic() >= self._renew_at:
            await self._watch(snapshot=False)
        await self._read(stream, block_ms=None)

    async def _read(self, stream: str, block_ms: int | None, first: bool = False) -> None:
        assert self._cursor is not None
        reply = await self.redis.xread({stream: self._cursor}, count=1000, block=block_ms)
        for _key, entries in reply or ():
            for entry_id, fields in entries:
                self._cursor = entry_id.decode()
                try:
                    message = bus_decoder.decode(fields[b"m"])
                except msgspec.ValidationError:
                    continue  # a newer minor version's message: passed by
                if isinstance(message, MatchWatched) and (message.snapshot or not first
                                                           or self.names is not None):
                    self.hear(message)

    async def keep(self) -> None:
        while True:
            await asyncio.sleep(max(0.0, self._renew_at - time.monotonic()))
            await self._watch(snapshot=False)
