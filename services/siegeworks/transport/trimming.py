"""Trimming bus streams below what every consumer group still needs.

Bus streams (the per-client command streams, the shard pointer streams
``{sN}:bus``, ``{sN}:bus:<audience>``) are read through consumer groups and would otherwise grow
for ever. A group still needs every entry it has not been delivered (ids after its
last-delivered id) and every entry it holds pending (delivered, not acked: a crashed consumer's
entries come back through XAUTOCLAIM). XTRIM MINID keeps the entries at or above its id, so the
safe trim id of a stream is the smallest, over its groups, of

- the successor of the group's last-delivered id (the first id it has not been delivered), and
- the group's smallest pending id (the XPENDING summary).

Only groups count: a stream without groups is never trimmed (whoever reads it, we do not know
how far), and neither is an entry a plain XREAD reader has not seen yet. Not protected either: a
group created at ``0`` (or moved back with XGROUP SETID) after a trim finds the trimmed history
gone, as it would after any trim.

Why a snapshot is enough, without a script or MULTI: between our query and our XTRIM, groups
only move forward (deliveries go to ids after last-delivered, acks shrink the pending list), so
what is needed at trim time is never below the id computed earlier. That holds because XINFO
GROUPS (last-delivered id and pending count in one reply) is read *before* XPENDING: the other
order could miss entries delivered in between and still pending.

Exact trimming, not ``~``: measured on Redis 7.0 it costs the same per call (about 15 us for 1,000
entries), one exact call removed 500,000 entries in 3 ms, while ``~`` stops at its default limit
of 10,000 entries a call and keeps partial nodes. ``approximate=True`` stays available: it only
ever keeps more, so it is as safe.

The client must be a plain ``redis.asyncio.Redis`` (its pipelines are used to ask about many
streams in three round trips), not the auto-pipelined hot-path client.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ResponseError

from siegeworks.transport.streams import parse_id

StreamId = tuple[int, int]

_MAX_SEQ = 2**64 - 1
_FIRST_ID: StreamId = (0, 1)  # XADD refuses 0-0, so MINID 0-1 (or below) removes nothing
_BATCH = 500  # streams per pipeline: bounds one round trip's size when there are many clients
# Match logs are "{s<shard>}:log:<match_id>" (siege.eventlog.keys.log_key): the only copy of a
# match, never trimmed, whatever list of streams we are handed.
_MATCH_LOG_KEY = re.compile(r"^\{s\d+\}:log:")


class _Unknown:
    """A stream whose state could not be read this pass (an error reply): left alone."""

    def __init__(self, error: ResponseError) -> None:
        self.error = error


Floor = StreamId | None | _Unknown
"""What a stream's groups still need: keep ids >= this; None: no group, or no such stream."""


async def safe_trim_id(redis: Redis, stream: str) -> str | None:
    """The smallest id any consumer group on ``stream`` still needs ("<ms>-<seq>"), i.e. the id
    to give XTRIM MINID; None when the stream does not exist or has no groups."""
    (floor,) = await _floors(redis, [stream])
    if isinstance(floor, _Unknown):
        raise floor.error
    return None if floor is None else format_id(floor)


async def trim_consumed(redis: Redis, streams: Iterable[str], *, approximate: bool = False) -> int:
    """Trims each stream below :func:`safe_trim_id`; returns how many entries went in all.

    Streams that do not exist or have no groups are left alone. A stream whose state cannot be
    read (an error reply, e.g. WRONGTYPE) does not stop the others: they are trimmed, then the
    first such error is raised. Refuses match logs outright (ValueError, before trimming any).
    """
    names = list(dict.fromkeys(streams))
    for stream in names:
        if _MATCH_LOG_KEY.match(stream):
            raise ValueError(f"{stream!r} is a match log; match logs are never trimmed")
    removed = 0
    first_error: ResponseError | None = None
    for start in range(0, len(names), _BATCH):
        batch = names[start:start + _BATCH]
        floors = await _floors(redis, batch)
        targets: list[tuple[str, StreamId]] = []
        for stream, floor in zip(batch, floors, strict=True):
            if isinstance(floor, _Unknown):
                first_error = first_error or floor.error
            elif floor is not None and floor > _FIRST_ID:
                targets.append((stream, floor))
        if not targets:
            continue
        pipe = redis.pipeline(transaction=False)
        for stream, floor in targets:
            pipe.xtrim(stream, minid=format_id(floor), approximate=approximate)
        for reply in await pipe.execute(raise_on_error=False):
            if isinstance(reply, ResponseError):
                first_error = first_error or reply
            else:
                removed += int(reply)
    if first_error is not None:
        raise first_error
    return removed


async def trim_forever(redis: Redis, streams_of: Callable[[], Sequence[str]], every_s: float,
                       stop: asyncio.Event, log: Any) -> None:
    """Runs :func:`trim_consumed` on ``streams_of()`` now and then every ``every_s`` seconds
    until ``stop`` is set. ``streams_of`` is called each pass (new clients bring new streams).
    A Redis error costs one pass and a warning on ``log`` (a structlog logger), nothing more."""
    await _every(lambda streams: trim_consumed(redis, streams), streams_of, every_s, stop,
                 log.info, log.warning, "bus_trimmed", "bus_trim_failed")


async def _every(one_pass: Callable[[Sequence[str]], Awaitable[int]],
                 streams_of: Callable[[], Sequence[str]], every_s: float, stop: asyncio.Event,
                 said: Callable[..., Any], warned: Callable[..., Any], done: str,
                 failed: str) -> None:
    """``one_pass`` over ``streams_of()`` every ``every_s`` seconds until ``stop``: what it
    removed is said as ``done``, a Redis error warned as ``failed`` (the next pass tries again)."""
    while not stop.is_set():
        streams = streams_of()
        try:
            removed = await one_pass(streams)
        except Exception as exc:  # noqa: BLE001 - Redis trouble, or redis-py's own on a cluster
            # (a connection closed under a command during a failover raises a plain error):
            # the pass is tried again; the loop must outlive it.
            warned(failed, streams=len(streams), error=repr(exc))
        else:
            if removed:
                said(done, streams=len(streams), removed=removed)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)


# --------------------------------------------------------------------------------------------
# Reading what the groups need


async def _floors(redis: Redis, streams: Sequence[str]) -> list[Floor]:
    """The safe trim id of each stream, in two pipelined round trips (see the module notes for
    why XINFO GROUPS must come first)."""
    pipe = redis.pipeline(transaction=False)
    for stream in streams:
        pipe.xinfo_groups(stream)
    infos = await pipe.execute(raise_on_error=False)

    floors: list[Floor] = []
    with_pending: list[tuple[int, Any]] = []  # (index into streams, group name)
    for index, groups in enumerate(infos):
        if isinstance(groups, ResponseError):
            floors.append(None if _no_such_key(groups) else _Unknown(groups))
            continue
        if not groups:
            floors.append(None)
            continue
        floors.append(min(successor(parse_id(group["last-delivered-id"])) for group in groups))
        with_pending.extend((index, group["name"]) for group in groups if group["pending"])
    if not with_pending:
        return floors

    pipe = redis.pipeline(transaction=False)
    for index, group in with_pending:
        pipe.xpending(streams[index], group)
    summaries = await pipe.execute(raise_on_error=False)
    for (index, _), summary in zip(with_pending, summaries, strict=True):
        floor = floors[index]
        if isinstance(floor, _Unknown):
            continue
        if isinstance(summary, ResponseError):
            # The group (or stream) went away in between: be careful, skip it this pass.
            floors[index] = _Unknown(summary)
        elif summary["min"] is not None and floor is not None:
            floors[index] = min(floor, parse_id(summary["min"]))
    return floors


def _no_such_key(error: ResponseError) -> bool:
    return "no such key" in str(error).lower()


# --------------------------------------------------------------------------------------------
# Stream ids


def format_id(stream_id: StreamId) -> str:
    return f"{stream_id[0]}-{stream_id[1]}"


def successor(stream_id: StreamId) -> StreamId:
    """The smallest id after ``stream_id``."""
    ms, seq = stream_id
    return (ms, seq + 1) if seq < _MAX_SEQ else (ms + 1, 0)


async def cap_backlogs(redis: Redis, streams: Sequence[str], cap: int) -> int:
    """Keeps at most about ``cap`` entries on each stream, read or not (XTRIM MAXLEN ~): for
    streams whose writer may flood them, where losing its own oldest entries harms only the
    writer. Returns how many entries went."""
    if not streams:
        return 0
    for stream in streams:
        if _MATCH_LOG_KEY.match(stream):
            raise ValueError(f"{stream!r} is a match log; match logs are never trimmed")
    pipe = redis.pipeline(transaction=False)
    for stream in streams:
        pipe.xtrim(stream, maxlen=cap, approximate=True)
    return sum(int(r) for r in await pipe.execute(raise_on_error=False)
               if not isinstance(r, BaseException))


async def cap_forever(redis: Redis, streams_of: Callable[[], Sequence[str]], cap: int,
                      every_s: float, stop: asyncio.Event, log: Any) -> None:
    """Runs :func:`cap_backlogs` every ``every_s`` seconds until ``stop``."""
    await _every(lambda streams: cap_backlogs(redis, streams, cap), streams_of, every_s, stop,
                 log.warning, log.warning, "backlog_capped", "backlog_cap_failed")
