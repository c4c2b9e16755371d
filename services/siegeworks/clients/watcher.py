"""A spectator as an outside client: it asks to watch a match (``WatchMatch``), renews the ask
while it watches, and reads the match's public stream, which any client may read. It sees what
the services write there and nothing else: public information only.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from redis.asyncio import Redis

from siege.contracts.messages import CommandRefused, MatchWatched, WatchMatch
from siege.eventlog.keys import commands_key, inbox_key, watch_key
from siegeworks.clients.remote import SeatReader
from siegeworks.transport.redis_bus import RedisBus

RENEW_S = 20.0  # the services keep a watch 60 s (siegeworks.rules.watching.WATCH_LEASE_MS)


class WatchRefusedError(RuntimeError):
    pass


async def watch(redis: Redis, client: str, match_id: str, show: Callable[[MatchWatched], None],
                timeout_s: float | None = None) -> MatchWatched:
    """Shows every entry of the match's public stream from a snapshot on, until the match is
    over (its last entry is returned) or ``timeout_s`` passes (TimeoutError)."""
    bus, reader = RedisBus(redis), SeatReader(redis, block_ms=500)
    stream, inbox = watch_key(match_id), inbox_key(client)
    # Cursors first: the snapshot the command brings comes after them.
    reader.follow(stream, await reader.cursor_of(stream))
    reader.follow(inbox, await reader.cursor_of(inbox))
    await bus.publish(commands_key(client), WatchMatch(match_id=match_id, client=client))
    renew_at = time.monotonic() + RENEW_S
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    seen_snapshot = False
    while deadline is None or time.monotonic() < deadline:
        for message in await reader.poll():
            if (isinstance(message, CommandRefused) and message.command == "cmd.watch_match"
                    and message.subject == match_id):
                raise WatchRefusedError(f"cannot watch {match_id}: {message.detail}")
            if not isinstance(message, MatchWatched) or message.match_id != match_id:
                continue
            if not seen_snapshot and not message.snapshot:
                continue  # written for another watcher before this one's snapshot
            seen_snapshot = True
            show(message)
            if message.over:
                return message
        if time.monotonic() >= renew_at:
            await bus.publish(commands_key(client), WatchMatch(
                match_id=match_id, snapshot=False, client=client))
            renew_at = time.monotonic() + RENEW_S
    raise TimeoutError(f"{match_id} did not end within {timeout_s:g} s")
