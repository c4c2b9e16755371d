"""Shard leases between the replicas of a service, on a single Redis and on a cluster: every
shard held by exactly one live replica, a dead one's shards taken over within a bounded time,
and shards given back when a replica returns."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio

from siege.eventlog.keys import SHARDS, bus_key, commands_key
from siege.testing.waiting import wait_until
from siegeworks.transport.leases import ShardLeases, lease_key, shard_of_stream

pytestmark = [pytest.mark.integration, pytest.mark.both_stores]

Run = Callable[[Awaitable[Any]], Any]
TTL_MS = 400


def replica(client: Any, name: str, ttl_ms: int = TTL_MS) -> ShardLeases:
    return ShardLeases(client, "rules", name, lambda: int(time.time() * 1000), ttl_ms=ttl_ms)


async def settle(*replicas: ShardLeases, rounds: int = 4) -> None:
    for _ in range(rounds):
        for one in replicas:
            await one.tick()


def split(*replicas: ShardLeases) -> list[set[int]]:
    held = [set(one.held) for one in replicas]
    every = [shard for one in held for shard in one]
    assert len(every) == len(set(every)), f"a shard held twice: {held}"
    return held


def test_a_lone_replica_holds_every_shard(redis_client: redis.asyncio.Redis, run: Run) -> None:
    one = replica(redis_client, "rules-0")
    assert run(one.tick()) == set(range(SHARDS))
    assert one.holds(bus_key(3, "rules")) and one.holds(commands_key("alice"))
    assert one.holds("siege:clients:changed")  # no shard: every replica reads it
    owner = run(redis_client.get(lease_key("rules", 5)))
    assert owner == b"rules-0"


def test_replicas_split_the_shards_and_take_a_dead_ones_and_give_them_back(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    a, b = replica(redis_client, "rules-a"), replica(redis_client, "rules-b")
    run(settle(a, b))
    held_a, held_b = split(a, b)
    assert len(held_a) == len(held_b) == SHARDS // 2
    assert held_a | held_b == set(range(SHARDS))
    # A stream goes to the one holding its shard, and to no other.
    stream = bus_key(min(held_b), "dice")
    assert shard_of_stream(stream) == min(held_b)
    assert b.holds(stream) and not a.holds(stream)

    # b dies (no renewal, no goodbye): a takes its shards once b's leases lapse.
    async def a_holds_all() -> bool:
        return await a.tick() == set(range(SHARDS))
    run(wait_until(a_holds_all, "the survivor holding every shard", timeout=5 * TTL_MS / 1000))

    # b comes back: a gives back half at its next ticks, and b takes them.
    back = replica(redis_client, "rules-b")
    run(settle(back, a, back, a))
    held_a, held_b = split(a, back)
    assert len(held_a) == len(held_b) == SHARDS // 2


def test_a_replica_that_leaves_hands_its_shards_over_at_once(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    # A long time to live: only the goodbye can free the shards within the test.
    a, b = replica(redis_client, "rules-a", 60_000), replica(redis_client, "rules-b", 60_000)
    run(settle(a, b))
    run(b.leave())
    assert b.held == set()
    assert run(a.tick()) == set(range(SHARDS))


def test_three_replicas_hold_at_most_their_share_each(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    trio = [replica(redis_client, f"rules-{n}") for n in range(3)]
    run(settle(*trio, rounds=6))
    held = split(*trio)
    assert set().union(*held) == set(range(SHARDS))
    assert all(len(one) <= -(-SHARDS // 3) for one in held)


def test_each_stream_is_looked_after_by_one_replica_and_the_answer_follows_the_shards(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    """Measuring, trimming and capping a stream is one replica's: its shard's holder, and shard
    0's for a stream of no shard. The answer for a list of streams is kept until the list or
    the shards held change."""
    a, b = replica(redis_client, "rules-a"), replica(redis_client, "rules-b")
    run(settle(a, b))
    streams = sorted({bus_key(shard, "rules") for shard in range(SHARDS)}
                     | {commands_key(f"client-{n}") for n in range(40)}
                     | {"siege:clients:changed"})
    mine, theirs = a.looked_after(streams), b.looked_after(streams)
    assert sorted(mine + theirs) == streams  # every stream once
    first = a if 0 in a.held else b
    assert "siege:clients:changed" in first.looked_after(streams)
    assert all(shard_of_stream(s) in a.held for s in mine if s != "siege:clients:changed")
    assert a.looked_after(streams) == mine  # kept, and given as a list of its own
    assert a.looked_after(streams) is not a.looked_after(streams)
    run(b.leave())  # b leaves: a takes its shards at its next tick
    run(a.tick())
    assert a.looked_after(streams) == streams
    assert a.looked_after(streams[:3]) == streams[:3]  # another list: worked out anew
