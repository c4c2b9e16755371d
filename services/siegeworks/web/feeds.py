"""Spectators' feeds: one reader per watched match, however many pages follow it.

The first page to follow a match starts a watch of it (``clients.watcher.watch``, under the
gateway's client id); every entry of the match's public stream goes to each following page's
queue, and a page that joins late first gets what the feed has heard since its snapshot. The
last page to leave stops the watch, so a match nobody follows costs the gateway nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from redis.asyncio import Redis

from siege.contracts.messages import MatchWatched
from siege.eventlog.acl import GATEWAY_CLIENT
from siegeworks.clients.watcher import WatchRefusedError, watch

Heard = MatchWatched | str  # an entry, or why the match cannot be watched


@dataclass
class Feed:
    pages: set[asyncio.Queue[Heard]] = field(default_factory=set)
    heard: list[Heard] = field(default_factory=list)  # the snapshot and everything since
    task: asyncio.Task[None] | None = None

    def tell(self, item: Heard) -> None:
        if isinstance(item, MatchWatched) and item.snapshot:
            self.heard = []  # a fresh snapshot holds the story so far
        self.heard.append(item)
        for page in self.pages:
            page.put_nowait(item)


class Feeds:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._feeds: dict[str, Feed] = {}

    def follow(self, match_id: str) -> asyncio.Queue[Heard]:
        feed = self._feeds.get(match_id)
        if feed is None:
            feed = self._feeds[match_id] = Feed()
            feed.task = asyncio.create_task(self._watch(match_id, feed))
        page: asyncio.Queue[Heard] = asyncio.Queue()
        for item in feed.heard:
            page.put_nowait(item)
        feed.pages.add(page)
        return page

    async def leave(self, match_id: str, page: asyncio.Queue[Heard]) -> None:
        feed = self._feeds.get(match_id)
        if feed is None:
            return
        feed.pages.discard(page)
        if feed.pages:
            return
        del self._feeds[match_id]
        if feed.task is not None:
            feed.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await feed.task

    async def _watch(self, match_id: str, feed: Feed) -> None:
        try:
            await watch(self.redis, GATEWAY_CLIENT, match_id, feed.tell)
        except WatchRefusedError as error:
            feed.tell(str(error))
