"""A replica that starts with many clients' streams to follow makes their consumer groups a
pipeline of GROUPS_PER_PIPELINE at a time (``ensure_groups``), not one round trip per stream:
at 40,000 clients that was 80,000 round trips per match or rules replica before its first read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio
from redis.exceptions import ResponseError

from siege.eventlog.keys import commands_key
from siegeworks.transport.streams import GROUPS_PER_PIPELINE, StreamConsumer, ensure_groups

pytestmark = [pytest.mark.integration, pytest.mark.both_stores]

Run = Callable[[Awaitable[Any]], Any]
GROUP = "rules"


class Trips:
    """A client that counts its round trips: pipelines, and commands sent alone."""

    def __init__(self, redis: Any) -> None:
        self.redis, self.pipelines, self.alone = redis, 0, 0

    def pipeline(self, *args: Any, **kwargs: Any) -> Any:
        self.pipelines += 1
        return self.redis.pipeline(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        self.alone += 1
        return getattr(self.redis, name)


def test_groups_are_made_a_pipeline_at_a_time(run: Run, redis_client: redis.asyncio.Redis) -> None:
    streams = [commands_key(f"client-{n}") for n in range(GROUPS_PER_PIPELINE * 2 + 7)]

    async def scenario() -> None:
        await redis_client.set(streams[5], "not a stream")  # only an operator makes such a key
        await redis_client.xgroup_create(streams[6], GROUP, id="0", mkstream=True)
        counted = Trips(redis_client)
        made = await ensure_groups(counted, streams, GROUP)  # type: ignore[arg-type]
        assert (counted.pipelines, counted.alone) == (3, 0)
        assert list(made) == streams
        assert isinstance(made[streams[5]], ResponseError)
        assert made[streams[6]] is False
        assert all(made[s] is True for s in streams if s not in streams[5:7])
        for stream in (streams[0], streams[-1]):
            groups = await redis_client.xinfo_groups(stream)
            assert [(g["name"], g["last-delivered-id"]) for g in groups] == [(b"rules", b"0-0")]
        # Again: every group is there, nothing is made twice.
        again = await ensure_groups(redis_client, streams, GROUP)
        assert sum(1 for value in again.values() if value is True) == 0

    run(scenario())


def test_a_consumer_follows_many_streams_in_few_round_trips(
    run: Run, redis_client: redis.asyncio.Redis
) -> None:
    streams = [commands_key(f"client-{n}") for n in range(GROUPS_PER_PIPELINE + 1)]

    async def handler(stream: str, entry_id: str, message: Any) -> None:
        return None

    async def scenario() -> None:
        await redis_client.set(streams[0], "not a stream")
        counted = Trips(redis_client)
        consumer = StreamConsumer(counted, ["bus:base"], group=GROUP,  # type: ignore[arg-type]
                                  consumer="rules-0", handler=handler)
        counted.pipelines = counted.alone = 0  # (what the consumer looked up when made)
        added = await consumer.follow(streams)
        assert counted.pipelines == 2 and counted.alone == 0
        assert added == streams[1:]  # the key that is no stream is left out, the rest followed
        assert consumer.streams == ["bus:base", *sorted(streams[1:])]
        assert len(await redis_client.xinfo_groups(streams[-1])) == 1

    run(scenario())
