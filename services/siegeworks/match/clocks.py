"""The match service's clock: seats that let a decision's deadline pass get ``SeatTimedOut``."""

from __future__ import annotations

import asyncio
import contextlib

from redis.asyncio import Redis

from siege.eventlog.keys import DEADLINES_KEY
from siege.hosting.clocks import parse_member, timed_out
from siege.hosting.loader import MatchLoader
from siegeworks.context import ServiceContext

TICK_S = 0.1
BATCH = 100


async def enforce_once(ctx: ServiceContext, loader: MatchLoader, redis: Redis) -> int:
    """Handles the deadlines that are due; returns how many seats timed out."""
    now = ctx.clock.now_ms()
    due = await redis.zrangebyscore(DEADLINES_KEY, "-inf", now, start=0, num=BATCH)
    count = 0
    for raw in due:
        member = raw.decode()
        match_id, seat, decision = parse_member(member)
        _, appended = await loader.append_owed(
            match_id, lambda ms, s=seat, d=decision: timed_out(ms, s, d))
        count += appended
        if appended:
            ctx.logger.info("seat_timed_out", match_id=match_id, seat=seat, decision=decision)
        # Answered, already ended, or just timed out: either way this clock is done.
        await redis.zrem(DEADLINES_KEY, member)
    return count


async def run_clock(ctx: ServiceContext, redis: Redis, stop: asyncio.Event) -> None:
    # Checking a timeout needs the game (who is being asked), which the light loader skips.
    loader = MatchLoader(ctx.log, ctx.clock, light=False)
    while not stop.is_set():
        try:
            await enforce_once(ctx, loader, redis)
        except Exception:  # the clock must outlive Redis hiccups and bad entries
            ctx.logger.exception("clock_pass_failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), TICK_S)
