"""Scoring service: results projected from finished match logs; rebuildable from zero."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import msgspec
from redis.asyncio import Redis

from siege.contracts.messages import LogAppended, MatchFinished
from siege.eventlog.keys import RESULTS_HASH, view_key
from siege.eventlog.log import EventLog
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState
from siegeworks.bus import RESULTS, tell
from siegeworks.context import ServiceContext
from siegeworks.transport.bounds import SEAT_RETIRED_S

SEAT_STREAM_TTL_S = SEAT_RETIRED_S
"""How long a finished match's prompt streams stay readable (why: :mod:`.bounds`)."""


class Results(Protocol):
    def known(self, match_id: str) -> bool:
        """Recorded already, as far as this process knows (no I/O)."""

    async def has(self, match_id: str) -> bool: ...

    async def record(self, result: MatchFinished) -> bool:
        """Stores a result; False when it was there already (a redelivery or another replica)."""

    def announced(self, match_id: str) -> None:
        """The match's end went out on the bus: this process need not announce it again."""


@dataclass
class ResultsProjection:
    """In-process results (the single-process main job and tests)."""

    finished: dict[str, MatchFinished] = field(default_factory=dict)

    def known(self, match_id: str) -> bool:
        return match_id in self.finished

    async def has(self, match_id: str) -> bool:
        return match_id in self.finished

    async def record(self, result: MatchFinished) -> bool:
        if result.match_id in self.finished:
            return False
        self.finished[result.match_id] = result
        return True

    def announced(self, match_id: str) -> None:
        pass  # ``known`` already says so once recorded


class RedisResults:
    """Results kept in Redis, shared by every scoring replica; HSETNX makes recording
    idempotent across redeliveries and replicas."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder = msgspec.msgpack.Decoder(MatchFinished)
        self._known: set[str] = set()

    def known(self, match_id: str) -> bool:
        return match_id in self._known

    async def has(self, match_id: str) -> bool:
        return bool(await self.redis.hexists(RESULTS_HASH, match_id))

    async def record(self, result: MatchFinished) -> bool:
        encoded = self._encoder.encode(result)
        return bool(await self.redis.hsetnx(RESULTS_HASH, result.match_id, encoded))

    def announced(self, match_id: str) -> None:
        self._known.add(match_id)

    async def all(self) -> dict[str, MatchFinished]:
        raw = await self.redis.hgetall(RESULTS_HASH)
        return {k.decode(): self._decoder.decode(v) for k, v in raw.items()}


def result_of(ms: MatchState) -> MatchFinished | None:
    """The result of an ended, revealed match; a damaged one is recorded too (reason
    ``"damaged"``, no ranks), so whoever waits for the match hears that it is over."""
    if ms.ended is None or ms.revealed is None or ms.created is None:
        return None
    return MatchFinished(match_id=ms.match_id, game=ms.created.game,
                         seat_names=list(ms.created.seat_names), ranks=list(ms.ended.ranks),
                         creator=ms.created.creator, reason=ms.ended.reason,
                         head=ms.head_hash.hex(), timed_out=list(ms.timed_out),
                         resigned=list(ms.resigned))


async def on_log_appended(ctx: ServiceContext, results: Results, note: LogAppended) -> None:
    if results.known(note.match_id):
        return
    # No existence check against the store: recording is idempotent, so a redelivered end is
    # simply refused there, and unfinished matches cost no extra round trip.
    ms = await ctx.loader.load(note.match_id)
    result = result_of(ms)
    if result is None or ms.created is None:
        return
    ctx.loader.forget(note.match_id)  # a finished match needs no cached state here
    # Recorded or not before, the end is announced unless this process knows it went out: a
    # handler whose announcements were refused (Redis out of memory, a crash before the flush)
    # runs again after the result is recorded, and must not stay silent then. Readers take a
    # repeated notice for the same match as one.
    await results.record(result)
    await ctx.bus.publish(RESULTS, result)
    # Each holder hears of the end on its own inbox, the one stream it can surely read.
    for client in dict.fromkeys(ms.created.clients):
        await tell(ctx.bus, client, result)
    # The seats' prompt streams are done with; their holders get a while to read the last
    # (each holds one prompt, its newest: siegeworks.transport.bounds.SEAT_PROMPTS_KEPT).
    for seat, client in enumerate(ms.created.clients):
        await ctx.bus.retire(view_key(client, ms.match_id, seat), SEAT_STREAM_TTL_S)
    await ctx.bus.after_flush(lambda: results.announced(note.match_id))


async def rebuild(log: EventLog, results: Results) -> int:
    """Projects every finished match in the logs from zero; returns how many were recorded."""
    recorded = 0
    for match_id in await log.match_ids():
        ms = MatchState(match_id)
        decode_entries(ms, await log.read(match_id))
        result = result_of(ms)
        if result is not None and await results.record(result):
            recorded += 1
    return recorded
