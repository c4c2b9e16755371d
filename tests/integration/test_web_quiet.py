"""A live page's stream outlasts a quiet store: the gateway's blocking reads stay under the
client's socket timeout (redis-py 8 reads with 5 s by default)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio

from siegeworks.web.app import Gateway

pytestmark = pytest.mark.integration


def test_a_tournament_page_stream_survives_six_quiet_seconds(
        redis_url: str, run: Callable[[Awaitable[Any]], Any]) -> None:
    async def scenario() -> None:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            changes = Gateway(client)._tournament_changes("t-0123456789ab")
            # Nothing is written: the stream must still be waiting after six seconds, not
            # ended by the read's socket timeout (redis.exceptions.TimeoutError).
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(anext(changes), 6.0)
        finally:
            await client.aclose()

    run(scenario())
