"""One reader per watched match, however many pages follow it: the pages share one watch, a
page that joins late hears the story from the snapshot on, and the last to leave stops it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import redis.asyncio

from siege.contracts.messages import MatchWatched, Said, WatchMatch, bus_decoder
from siege.eventlog.acl import GATEWAY_CLIENT
from siege.eventlog.keys import commands_key, watch_key
from siegeworks.transport.redis_bus import RedisBus
from siegeworks.web.feeds import Feeds

Run = Callable[[Awaitable[Any]], Any]


def entry(seq: int, snapshot: bool = False, over: bool = False) -> MatchWatched:
    return MatchWatched(match_id="m-1", game="castle-dash", seat_names=["a", "b", "c"], seq=seq,
                        snapshot=snapshot, lines=[Said(seq=seq, text=f"line {seq}")],
                        view=msgspec.Raw(msgspec.msgpack.encode({})), over=over)


def test_pages_share_one_watch_and_a_late_page_hears_from_the_snapshot(
        run: Run, redis_client: redis.asyncio.Redis) -> None:
    async def scenario() -> tuple[list[int], list[int], int, bool]:
        feeds, bus = Feeds(redis_client), RedisBus(redis_client)
        first = feeds.follow("m-1")
        second = feeds.follow("m-1")
        while not await redis_client.xlen(commands_key(GATEWAY_CLIENT)):
            await asyncio.sleep(0.01)  # the one watch has its cursor once its ask is out
        await bus.publish(watch_key("m-1"), entry(3, snapshot=True))
        heard_first = [(await asyncio.wait_for(first.get(), 10)).seq]  # type: ignore[union-attr]
        await bus.publish(watch_key("m-1"), entry(4))
        heard_first.append((await asyncio.wait_for(first.get(), 10)).seq)  # type: ignore[union-attr]
        late = feeds.follow("m-1")
        heard_late = [late.get_nowait().seq for _ in range(2)]  # type: ignore[union-attr]
        asks = [bus_decoder.decode(f[b"m"]) for _, f in
                await redis_client.xrange(commands_key(GATEWAY_CLIENT))]
        for page in (first, second, late):
            await feeds.leave("m-1", page)
        return heard_first, heard_late, sum(isinstance(a, WatchMatch) for a in asks), \
            "m-1" in feeds._feeds

    heard_first, heard_late, asks, still = run(scenario())
    assert heard_first == [3, 4]
    assert heard_late == [3, 4]  # the snapshot and what came after it
    assert asks == 1  # one watch for three pages
    assert not still  # the last page gone, nothing is watched
