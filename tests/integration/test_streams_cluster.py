"""The consumer loop on a six-node Redis Cluster: every slot it reads is swept by one loop, so
entries waiting in many slots are handled as one batch, and the entries of each stream keep
their order across sweeps and blocking reads."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import redis.crc
from redis.asyncio.cluster import RedisCluster

from siege.contracts.messages import LogAppended, Message
from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.pipelined_cluster import ClusterPipelinedRedis
from siegeworks.transport.streams import StreamConsumer, publish

pytestmark = pytest.mark.integration

DEADLINE_S = 20.0
GROUP = "svc"


def streams_on_distinct_slots(count: int, name: str) -> list[str]:
    """``count`` streams called ``name`` whose hash tags put each in a slot of its own."""
    names = [f"{{s{n}}}:{name}" for n in range(count)]
    assert len({redis.crc.key_slot(name.encode()) for name in names}) == count
    return names


@asynccontextmanager
async def consuming(consumer: StreamConsumer[Message]) -> AsyncIterator[None]:
    running = asyncio.create_task(consumer.run())
    try:
        await asyncio.wait_for(consumer.ready.wait(), DEADLINE_S)
        yield
    finally:
        consumer.stop()
        await asyncio.wait_for(running, DEADLINE_S)


async def connected(cluster: EmbeddedCluster) -> tuple[RedisCluster, ClusterPipelinedRedis]:
    client = RedisCluster.from_url(cluster.url)
    await client.initialize()
    return client, ClusterPipelinedRedis.like(client)


def test_entries_waiting_in_many_slots_are_handled_as_one_batch(
        cluster: EmbeddedCluster) -> None:
    streams = streams_on_distinct_slots(9, "waiting")

    async def main() -> None:
        client, hot = await connected(cluster)
        all_seen = asyncio.Event()
        seen: list[str] = []
        batches: list[int] = []

        async def handler(stream: str, entry_id: str, message: Message) -> None:
            seen.append(stream)
            if len(seen) == len(streams):
                all_seen.set()

        for n, stream in enumerate(streams):
            await publish(client, stream, LogAppended(match_id=f"m{n}", first=0, last=0))
        consumer = StreamConsumer(client, streams, GROUP, "c1", handler, pipelined=hot,
                                  block_ms=200, on_batch=lambda _s, n: batches.append(n))
        try:
            async with consuming(consumer):
                await asyncio.wait_for(all_seen.wait(), DEADLINE_S)
        finally:
            await hot.aclose()
            await client.aclose()
        assert sorted(seen) == sorted(streams)
        # One sweep of the nine slots, one batch (a loop per slot would make nine).
        assert batches == [len(streams)]
        assert consumer.processed == len(streams)

    asyncio.run(main())


def test_each_stream_is_handled_in_order_across_sweeps_and_blocking_reads(
        cluster: EmbeddedCluster) -> None:
    streams = streams_on_distinct_slots(4, "ordered")
    per_stream = 300

    async def main() -> None:
        client, hot = await connected(cluster)
        seen: dict[str, list[int]] = {stream: [] for stream in streams}
        done = asyncio.Event()

        async def handler(stream: str, entry_id: str, message: Message) -> None:
            assert isinstance(message, LogAppended)
            seen[stream].append(message.first)
            if all(len(numbers) == per_stream for numbers in seen.values()):
                done.set()

        consumer = StreamConsumer(client, streams, GROUP, "c1", handler,
                                  pipelined=hot, batch=7, block_ms=100,
                                  key=lambda message: message.match_id)
        try:
            async with consuming(consumer):
                for n in range(per_stream):  # a trickle and bursts, across every slot
                    await asyncio.gather(*(
                        publish(client, stream, LogAppended(match_id="m", first=n, last=n))
                        for stream in streams))
                    if n % 50 == 0:
                        await asyncio.sleep(0)
                await asyncio.wait_for(done.wait(), DEADLINE_S)
        finally:
            await hot.aclose()
            await client.aclose()
        assert seen == {stream: list(range(per_stream)) for stream in streams}
        assert consumer.processed == per_stream * len(streams)

    asyncio.run(main())
