"""Ratings that persist across tournaments, kept by the scoring side in Redis.

A finished tournament's results are applied once, in the order its stream recorded them, and
tournaments in the order they were applied (a list in Redis); every change is kept with the
model and library version that computed it. Rebuilding replays the same order from zero.
"""

from __future__ import annotations

import msgspec
from redis.asyncio import Redis

from siege.eventlog.keys import RATINGS_APPLIED, ratings_applied_key
from siege.tournament.ratings import RatingChange, Ratings
from siege.tournament.results import TableResult
from siege.tournament.state import TournamentState
from siege.tournament.store import TournamentStore
from siegeworks.context import ServiceContext

# One hash tag for the three, so the transaction that applies a tournament touches one slot of
# a Redis Cluster.
STATE_KEY = "siege:ratings:{all}"  # hash: entrant -> msgpack [mu, sigma]
ORDER_KEY = RATINGS_APPLIED  # list: tournament ids in the order applied
CHANGES_KEY = "siege:ratings:{all}:changes"  # stream: one RatingChange per entry (field m)
_encoder = msgspec.msgpack.Encoder()


class RatingBook:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def current(self, entrants: list[str]) -> Ratings:
        raw = await self.redis.hmget(STATE_KEY, entrants) if entrants else []
        known = {e: tuple(msgspec.msgpack.decode(v)) for e, v in zip(entrants, raw, strict=True)
                 if v is not None}
        return Ratings(known)  # type: ignore[arg-type]

    async def apply(self, state: TournamentState) -> list[RatingChange] | None:
        """Applies a finished tournament once; None if it was applied already."""
        tid = state.tid
        # The first writer of this key applies; a second run or a replica finds it taken.
        if not await self.redis.set(ratings_applied_key(tid), 1, nx=True):
            return None
        ratings = await self.current(state.entrants)
        changes = [c for r in state.order if isinstance(r, TableResult) for c in ratings.apply(r)]
        async with self.redis.pipeline(transaction=True) as pipe:
            snapshot = ratings.snapshot()
            if snapshot:
                pipe.hset(STATE_KEY, mapping={e: _encoder.encode(list(v))
                                              for e, v in snapshot.items()})
            for change in changes:
                pipe.xadd(CHANGES_KEY, {"m": _encoder.encode(change)})
            pipe.rpush(ORDER_KEY, tid)
            await pipe.execute()
        return changes

    async def applied(self) -> list[str]:
        return [t.decode() for t in await self.redis.lrange(ORDER_KEY, 0, -1)]


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def change_by_entrant(changes: list[RatingChange]) -> dict[str, float]:
    """Each entrant's conservative rating (mu - 3 sigma) after these changes minus before."""
    total: dict[str, float] = {}
    for c in changes:
        delta = ordinal(c.mu_after, c.sigma_after) - ordinal(c.mu_before, c.sigma_before)
        total[c.entrant] = total.get(c.entrant, 0.0) + delta
    return total


async def tournament_changes(redis: Redis, state: TournamentState) -> list[RatingChange]:
    """The changes a tournament made (or, unfinished, would make from the current ratings)."""
    prefix = state.tid + "-"
    if await redis.exists(ratings_applied_key(state.tid)):
        decoder = msgspec.msgpack.Decoder(RatingChange)
        entries = await redis.xrange(CHANGES_KEY)
        return [c for c in (decoder.decode(f[b"m"]) for _, f in entries)
                if c.match_id.startswith(prefix)]
    ratings = await RatingBook(redis).current(state.entrants)
    return [c for r in state.order if isinstance(r, TableResult) for c in ratings.apply(r)]


async def apply_finished_tournament(ctx: ServiceContext, book: RatingBook,
                                    tournament_id: str) -> None:
    """The scoring service's handler for a tournament's end: its ratings, applied once."""
    state, _, _ = await TournamentStore(ctx.log, ctx.clock).load(tournament_id)
    if state.finished:
        changes = await book.apply(state)
        if changes is not None:
            ctx.logger.info("ratings_applied", tournament_id=tournament_id, changes=len(changes))
