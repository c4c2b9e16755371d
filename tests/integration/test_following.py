"""The match and rules replicas learn of new clients from the registry (``siege:clients``): read
whole at start, then one client per ring of its doorbell, read by every replica as it rings;
whole again only when its size changed with no ring, and once a minute whatever it says.
Before, a ring reached one replica of each service, and the replica holding the new client's
shard learned of it only at its next look at the registry, up to two seconds later."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import pytest
import redis.asyncio

from siege.eventlog.keys import (
    CLIENTS_CHANGED_STREAM,
    CLIENTS_KEY,
    bus_key,
    client_shard,
    commands_key,
)
from siege.eventlog.pipelined import PipelinedRedis
from siege.testing.waiting import wait_until
from siegeworks import following
from siegeworks.following import RegistryFollower
from siegeworks.redis_target import is_cluster_url
from siegeworks.transport.streams import StreamConsumer

pytestmark = [pytest.mark.integration, pytest.mark.both_stores]

Run = Callable[[Awaitable[Any]], Any]


class Counted:
    """The registry's whole reads and looks at its size, counted; and the streams followed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads = self.looks = 0
        self.followed: set[str] = set()
        read, size = following.registered_streams, following.registry_size

        async def counted_read(r: Any) -> list[str]:
            self.reads += 1
            return await read(r)

        async def counted_size(r: Any) -> int:
            self.looks += 1
            return await size(r)

        monkeypatch.setattr(following, "registered_streams", counted_read)
        monkeypatch.setattr(following, "registry_size", counted_size)

    async def follow(self, streams: Collection[str]) -> list[str]:
        """As ``StreamConsumer.follow``: exactly these streams from now on."""
        added = sorted(set(streams) - self.followed)
        self.followed = set(streams)
        return added

    def start(self, r: Any, stop: asyncio.Event, **timing: float) -> asyncio.Task[None]:
        """A replica's follower: the registry read at start, then the doorbell followed."""
        follower = RegistryFollower(r, self.follow, lambda: self.followed, **timing)

        async def go() -> None:
            await follower.start()
            await follower.run(stop)
        return asyncio.create_task(go())

    async def looked(self, times: int) -> None:
        """Waits for ``times`` more looks at the mark."""
        until = self.looks + times
        await wait_until(lambda: self.looks >= until, f"{times} looks at the registry's mark")


async def register(r: redis.asyncio.Redis, client: str, ring: bool = True) -> None:
    """As ``siege acl issue`` does (added and rung), or added alone. At once on a single
    Redis: a follower that saw the size grow before the ring would read the whole registry,
    rightly (it cannot tell a ring is coming), which a test counting reads must not race. A
    cluster holds the two keys in two slots: no transaction spans them."""
    cluster = isinstance(r, redis.asyncio.RedisCluster)
    pipe = r.pipeline(transaction=not cluster)
    pipe.sadd(CLIENTS_KEY, client)
    if ring:
        pipe.xadd(CLIENTS_CHANGED_STREAM, {"c": client})
    await pipe.execute()


def test_the_registry_is_read_again_only_when_its_mark_changed(
        redis_client: redis.asyncio.Redis, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)

    async def scenario() -> None:
        r = redis_client
        await register(r, "ann")
        await register(r, "bob")
        stop = asyncio.Event()
        task = counted.start(r, stop, every_s=0.01, full_every_s=3600)
        await counted.looked(30)
        assert counted.reads == 1  # at start, and not again while nothing changed
        assert counted.followed == {commands_key("ann"), commands_key("bob")}
        await register(r, "cat")  # rung: one SISMEMBER, the registry is not read again
        await wait_until(lambda: commands_key("cat") in counted.followed, "cat followed")
        await counted.looked(3)
        # (On a cluster a pass may fall between the add and the ring: one read more.)
        assert counted.reads <= (2 if isinstance(r, redis.asyncio.RedisCluster) else 1)
        before = counted.reads
        await register(r, "dan", ring=False)  # the size says it: read again
        await wait_until(lambda: commands_key("dan") in counted.followed, "dan followed")
        assert counted.reads == before + 1
        await r.srem(CLIENTS_KEY, "ann")  # revoked with a ring: dropped at the ring
        await r.xadd(CLIENTS_CHANGED_STREAM, {"c": "ann"})
        await register(r, "eve")
        await wait_until(lambda: commands_key("eve") in counted.followed, "eve followed")
        await wait_until(lambda: commands_key("ann") not in counted.followed, "ann dropped")
        await counted.looked(2)
        settled = counted.reads
        await counted.looked(30)
        assert counted.reads == settled
        stop.set()
        await task

    run(scenario())


def test_a_change_the_mark_misses_is_read_at_the_next_full_read(
        redis_client: redis.asyncio.Redis, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)

    async def scenario(full_every_s: float) -> set[str]:
        r = redis_client
        await r.delete(CLIENTS_KEY, CLIENTS_CHANGED_STREAM)
        counted.followed.clear()
        await register(r, "ann")
        stop = asyncio.Event()
        task = counted.start(r, stop, every_s=0.01, full_every_s=full_every_s)
        await wait_until(lambda: counted.followed, "the registry read at start")
        # One revoked, another added without a ring: size and last ring as they were.
        await r.srem(CLIENTS_KEY, "ann")
        await register(r, "fay", ring=False)
        await counted.looked(30)  # 0.3 s and more
        stop.set()
        await task
        return counted.followed

    assert commands_key("fay") not in run(scenario(full_every_s=3600))
    assert commands_key("fay") in run(scenario(full_every_s=0.1))


def test_a_doorbell_that_is_no_stream_does_not_stop_the_registry_being_read(
        redis_client: redis.asyncio.Redis, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)

    async def scenario() -> None:
        r = redis_client
        await r.set(CLIENTS_CHANGED_STREAM, "not a stream")
        await r.sadd(CLIENTS_KEY, "ann")
        stop = asyncio.Event()
        task = counted.start(r, stop, every_s=0.01, full_every_s=3600)
        await wait_until(lambda: counted.followed, "the registry read")
        await r.sadd(CLIENTS_KEY, "bob")
        await wait_until(lambda: commands_key("bob") in counted.followed, "bob followed")
        stop.set()
        await task

    run(scenario())


def test_a_ring_follows_or_drops_the_client_it_names_by_the_registry(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    """One SISMEMBER per ring, not the whole registry: the client rung for is followed if it
    is registered and dropped if not (revoked); a name that is no client id changes nothing."""
    ann, bob = commands_key("ann"), commands_key("bob")

    async def scenario() -> list[list[str]]:
        r = redis_client
        await r.sadd(CLIENTS_KEY, "ann", "bob")
        added = await following.after_ring(r, [ann], "bob")
        stranger = await following.after_ring(r, [ann], "mallory")  # rung, never registered
        await r.srem(CLIENTS_KEY, "ann")
        revoked = await following.after_ring(r, [ann, bob], "ann")
        nonsense = await following.after_ring(r, [ann], "../*")
        return [added, stranger, revoked, nonsense]

    assert run(scenario()) == [sorted([ann, bob]), [ann], [bob], [ann]]


def test_every_replica_follows_a_new_client_at_its_ring(
        redis_client: redis.asyncio.Redis, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two replicas, whose looks at the registry are an hour apart: each follows a client rung
    for at once (its first command must not wait for whichever replica holds its shard to look
    again), and stops at once when told."""
    replicas = [Counted(monkeypatch), Counted(monkeypatch)]

    async def scenario() -> None:
        r = redis_client
        await register(r, "ann")
        stop = asyncio.Event()
        tasks = [c.start(r, stop, every_s=3600, full_every_s=3600) for c in replicas]
        await wait_until(lambda: all(commands_key("ann") in c.followed for c in replicas),
                         "ann followed at start")
        await register(r, "bob")
        await wait_until(lambda: all(commands_key("bob") in c.followed for c in replicas),
                         "bob followed by both replicas at the ring")
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 5)

    run(scenario())


async def blocked(r: Any) -> bool:
    """Whether a client is blocked in a read (on any node of a cluster)."""
    if isinstance(r, redis.asyncio.RedisCluster):
        infos = (await r.info("clients", target_nodes=redis.asyncio.RedisCluster.ALL_NODES))
        return any(info["blocked_clients"] for info in infos.values())
    return bool((await r.info("clients"))["blocked_clients"])


def test_a_quiet_consumer_reads_a_stream_it_follows_at_once(
        redis_client: redis.asyncio.Redis, redis_url: str, run: Run) -> None:
    """A consumer blocked in a read of its streams (for 8 s here) ends that read when it
    follows a new stream, so the new client's first command is read now, not at the timeout;
    on a cluster too, where the client's stream shares its slot with its shard's bus, which a
    read is always outstanding on. And stop() ends the reads at once."""
    got: list[str] = []

    async def handler(stream: str, entry_id: str, message: Any) -> None:
        got.append(stream)

    async def scenario() -> None:
        r = redis_client
        new = commands_key("cat")
        reads = None if is_cluster_url(redis_url) else PipelinedRedis.like(r)
        bus = bus_key(client_shard("cat"), "rules")  # the slot of cat's commands stream
        consumer = StreamConsumer(r, [bus], group="rules", consumer="rules-0",
                                  handler=handler, block_ms=8_000, reads=reads,
                                  decode=lambda fields: dict(fields))
        task = asyncio.create_task(consumer.run())
        await wait_until(lambda: blocked(r), "the consumer blocked in its read")
        await consumer.follow([new])
        await r.xadd(new, {"x": "1"})
        await wait_until(lambda: got == [new], "the new stream's entry handled", timeout=3)
        consumer.stop()
        await asyncio.wait_for(task, 5)
        if reads is not None:
            await reads.aclose()

    run(scenario())
