"""Where the logs live: the Redis at ``REDIS_URL``, or an embedded one this process starts.

The embedded server keeps its data in a directory (``.siege/redis`` by default, or
``SIEGE_DATA_DIR``) with an append-only file, so ``siege export`` or ``siege audit`` after
``siege run`` find the matches that run wrote.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from redis.asyncio import Redis

from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.log import RedisEventLog

DEFAULT_DATA_DIR = Path(".siege") / "redis"


def data_dir() -> Path:
    return Path(os.environ.get("SIEGE_DATA_DIR", str(DEFAULT_DATA_DIR)))


@asynccontextmanager
async def open_log(redis_url: str | None) -> AsyncIterator[tuple[RedisEventLog, str, str]]:
    """Yields the log, a description of where it is, and its URL."""
    if redis_url:
        client = Redis.from_url(redis_url)
        try:
            yield RedisEventLog(client), redis_url, redis_url
        finally:
            await client.aclose()
        return
    folder = data_dir().resolve()
    folder.mkdir(parents=True, exist_ok=True)
    persist = ("--dir", str(folder), "--appendonly", "yes", "--appendfsync", "everysec")
    async with EmbeddedRedis(extra_args=persist) as server:
        client = Redis.from_url(server.url)
        try:
            yield RedisEventLog(client), f"embedded redis (data in {folder})", server.url
        finally:
            await client.aclose()
