"""The match service's clock: seats that let a decision's deadline pass get ``SeatTimedOut``.

Time is Redis' (the services' ``RedisClock``), the clock that also stamps command entry ids. A
deadline is judged by when the seat's answer reached Redis, not by when the rules service got
to it: if an answer that arrived in time is still waiting on the seat's commands stream (the
rules group has not read it, or has not acked it), the deadline is held until it is handled
(docs/decisions/0008-one-clock.md).

Each shard keeps its own clocks (``{sN}:deadlines``, written by the rules service as it
prompts), and a match replica watches those of the shards it holds (siegeworks.transport.leases).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable

from redis.asyncio import Redis

from siege.contracts.messages import SubmitAction
from siege.eventlog.keys import SHARDS, commands_key, deadlines_key
from siege.eventlog.pipelined import PipelinedRedis
from siege.eventlog.pipelined_cluster import ClusterPipelinedRedis
from siege.hosting.clocks import (
    ARRIVAL_TOLERANCE_MS,
    believed_arrival_ms,
    check_timeout,
    held_member,
    member_key,
    parse_held,
    parse_member,
    timed_out,
)
from siege.hosting.loader import MatchLoader
from siege.hosting.match_state import MatchState
from siegeworks.context import ServiceContext
from siegeworks.transport.streams import decode_message

Pipelined = PipelinedRedis | ClusterPipelinedRedis

TICK_S = 0.1
BATCH = 100
RECHECK_MS = 250
"""How soon a held deadline is looked at again."""
RULES_GROUP = "rules"  # the group the rules service reads the commands streams in
SCAN = 1000
"""At most this many unhandled entries of one commands stream are looked at per check (an
honest client has a few hundred in flight at most; a flood only delays its own seats)."""


def _id(entry_id: bytes | str) -> tuple[int, int]:
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


async def unhandled_answers(redis: Redis, stream: str, match_id: str, seat: int,
                            decision: int, upto: str) -> list[str]:
    """Ids (up to ``upto``, inclusive) of entries on ``stream`` answering this decision that the
    rules group has not handled: not delivered to it yet, or delivered and not acked."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.xinfo_groups(stream)
        pipe.xpending_range(stream, RULES_GROUP, min="-", max=upto, count=SCAN)
        groups, pending = await pipe.execute(raise_on_error=False)
    if isinstance(groups, Exception):  # no such stream: nothing is waiting
        return []
    delivered = next((g["last-delivered-id"] for g in groups
                      if g["name"] in (RULES_GROUP, RULES_GROUP.encode())), b"0-0")
    waiting = {_id(p["message_id"]) for p in pending} if isinstance(pending, list) else set()
    last = _id(delivered)
    low = min(waiting) if waiting else None
    start = f"{low[0]}-{low[1]}" if low is not None and low <= last else f"({last[0]}-{last[1]}"
    entries = await redis.xrange(stream, min=start, max=upto, count=SCAN)
    found = []
    for raw_id, fields in entries:
        at = _id(raw_id)
        if at <= last and at not in waiting:
            continue  # the rules service has handled it (accepted or refused)
        try:
            message = decode_message(fields)
        except Exception:  # noqa: BLE001 - a malformed entry answers nothing
            continue
        if (isinstance(message, SubmitAction) and message.match_id == match_id
                and message.seat == seat and message.decision == decision):
            found.append(f"{at[0]}-{at[1]}")
    return found


async def answer_in_time(redis: Redis, ms: MatchState, seat: int, decision: int, due_ms: int,
                         cutoff: str | None, now_ms: int) -> str | None:
    """The id of the last unhandled answer judged to have reached Redis by ``due_ms``, or None.

    On a first look (``cutoff`` None) an entry counts if its believed arrival is by the
    deadline; a held deadline counts only the entries up to the ``cutoff`` judged then, so
    entries added later (whatever ids their client gave them) never extend it."""
    if ms.created is None or seat >= len(ms.created.clients):
        return None
    stream = commands_key(ms.created.clients[seat])
    if cutoff is None:
        if now_ms - ARRIVAL_TOLERANCE_MS > due_ms:
            return None  # read too late to believe any id: nothing can be shown in time
        found = await unhandled_answers(redis, stream, ms.match_id, seat, decision,
                                        str(due_ms))
        found = [i for i in found if believed_arrival_ms(i, now_ms) <= due_ms]
    else:
        found = await unhandled_answers(redis, stream, ms.match_id, seat, decision, cutoff)
    return found[-1] if found else None


async def enforce_deadline(ctx: ServiceContext, loader: MatchLoader, redis: Redis, member: str,
                           due_ms: int, now_ms: int) -> int:
    """One due deadline: held, timed out (returns 1) or dropped (answered, ended)."""
    base, cutoff = parse_held(member)
    match_id, seat, decision = parse_member(base)
    ms = await loader.load(match_id)
    if check_timeout(ms, seat, decision):
        answered = await answer_in_time(redis, ms, seat, decision, due_ms, cutoff, now_ms)
        if answered is not None:
            held = held_member(base, answered)
            async with redis.pipeline(transaction=False) as pipe:
                pipe.zadd(member_key(held), {held: now_ms + RECHECK_MS})
                if held != member:
                    pipe.zrem(member_key(member), member)
                await pipe.execute()
            if cutoff is None:
                ctx.logger.info("deadline_held", match_id=match_id, seat=seat,
                                decision=decision, answer=answered)
            return 0
    _, appended = await loader.append_owed(
        match_id, lambda ms, s=seat, d=decision: timed_out(ms, s, d), min_seq=ms.head_seq)
    if appended:
        ctx.logger.info("seat_timed_out", match_id=match_id, seat=seat, decision=decision)
    # Answered, already ended, or just timed out: either way this clock is done.
    await redis.zrem(member_key(member), member)
    return int(appended)


async def due_pages(redis: Redis, fast: Pipelined | None, keys: list[str],
                    now: int) -> list[list[tuple[bytes, float]]]:
    """The due deadlines of each of ``keys``, at most BATCH each, as (member, due) pairs.

    Asked ten times a second of every shard held, mostly to find nothing: on the auto-pipelined
    connection when given (one write per node, raw replies), since a redis-py pipeline costs a
    resting match replica more than the rest of its idling together, most of all on a cluster.
    """
    if fast is None:
        async with redis.pipeline(transaction=False) as pipe:  # one round trip for them all
            for key in keys:
                pipe.zrangebyscore(key, "-inf", now, start=0, num=BATCH, withscores=True)
            return list(await pipe.execute())
    flat = await asyncio.gather(*(fast.send(["ZRANGEBYSCORE", key, "-inf", now, "WITHSCORES",
                                             "LIMIT", 0, BATCH]) for key in keys))
    return [[(page[i], float(page[i + 1])) for i in range(0, len(page), 2)] for page in flat]


async def enforce_once(ctx: ServiceContext, loader: MatchLoader, redis: Redis,
                       shards: Iterable[int] = range(SHARDS),
                       fast: Pipelined | None = None) -> int:
    """Handles the deadlines of ``shards`` that are due; returns how many seats timed out."""
    count = 0
    keys = [deadlines_key(shard) for shard in shards]
    while keys:  # every due deadline, a page at a time (a held one is due again later)
        now = ctx.clock.now_ms()
        pages = await due_pages(redis, fast, keys, now)
        for due in pages:
            for raw, score in due:
                count += await enforce_deadline(ctx, loader, redis, raw.decode(), int(score),
                                                now)
        keys = [key for key, due in zip(keys, pages, strict=True) if len(due) == BATCH]
    return count


async def run_clock(ctx: ServiceContext, redis: Redis, stop: asyncio.Event,
                    shards: Callable[[], Iterable[int]] = lambda: range(SHARDS),
                    fast: Pipelined | None = None) -> None:
    """Enforces the clocks of the shards this replica holds (``shards()``, asked each tick)
    until ``stop``; their due deadlines are looked up on ``fast`` when given (see
    :func:`enforce_once`)."""
    # Checking a timeout needs the game (who is being asked), which the light loader skips.
    loader = MatchLoader(ctx.log, ctx.clock, light=False)
    while not stop.is_set():
        try:
            await enforce_once(ctx, loader, redis, sorted(shards()), fast)
        except Exception:  # the clock must outlive Redis hiccups and bad entries
            ctx.logger.exception("clock_pass_failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), TICK_S)
