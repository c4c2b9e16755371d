"""The hot path's client on a six-node Redis Cluster: each command reaches the master of its
key's slot, one connection per master; a wrong map is mended from the cluster's own MOVED
answers; a master killed under it is found again once its replica is promoted."""

from __future__ import annotations

import asyncio

import pytest
import redis.crc
from redis.asyncio.cluster import RedisCluster

from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.keys import SHARDS, log_key
from siege.eventlog.log import ZERO_HASH, RedisEventLog
from siege.eventlog.pipelined_cluster import ClusterPipelinedRedis, key_position
from tests.integration.test_eventlog import as_read, chain, ids_on_distinct_shards

pytestmark = pytest.mark.integration


def client_of(cluster: EmbeddedCluster) -> ClusterPipelinedRedis:
    return ClusterPipelinedRedis([("127.0.0.1", cluster.ports[0])])


def test_the_first_key_of_each_hot_path_command() -> None:
    assert key_position(["XADD", "k", "*", "m", "x"]) == 1
    assert key_position(["EVALSHA", "sha", 2, "k1", "k2", "a"]) == 3
    assert key_position(["EVAL", "return 1", 0]) is None
    assert key_position([b"XREADGROUP", b"GROUP", b"g", b"c", b"COUNT", 5, b"STREAMS", b"s",
                         b">"]) == 7


def test_appends_of_every_shard_reach_their_masters_in_one_connection_each(
        cluster: EmbeddedCluster) -> None:
    ids = ids_on_distinct_shards(SHARDS)

    async def main() -> None:
        hot = client_of(cluster)
        plain = RedisCluster.from_url(cluster.url)
        log = RedisEventLog(plain, pipelined=hot)
        try:
            entries = {m: chain(m, 0, ZERO_HASH, 2) for m in ids}
            # All at once, as a batch of handlers does: one write per master.
            done = await asyncio.gather(*(log.append(m, 0, ZERO_HASH, entries[m]) for m in ids))
            assert done == [2] * len(ids)
            for match_id in ids:
                assert await log.read(match_id) == as_read(0, entries[match_id])
            assert hot.connections == 3  # the three masters, no replica, no seed kept
        finally:
            await hot.aclose()
            await plain.aclose()

    asyncio.run(main())


def test_a_wrong_slot_map_is_mended_from_moved(cluster: EmbeddedCluster) -> None:
    match_id = "moved-1"
    slot_owner = cluster.master_of(log_key(match_id))
    elsewhere = next(p for p in {cluster.master_of(log_key(m))
                                 for m in ids_on_distinct_shards(SHARDS)} if p != slot_owner)

    async def main() -> None:
        hot = client_of(cluster)
        try:
            await hot.refresh()
            slot = redis.crc.key_slot(log_key(match_id).encode())
            hot._slots[slot] = ("127.0.0.1", elsewhere)  # a map gone stale
            assert await hot.execute("XADD", log_key(match_id), "0-1", "e", "x") == b"0-1"
            assert hot._slots[slot] == ("127.0.0.1", slot_owner)
            assert hot.refreshes == 2  # the first map, and again after MOVED
        finally:
            await hot.aclose()

    asyncio.run(main())


def test_a_killed_master_is_found_again_after_its_failover(cluster: EmbeddedCluster) -> None:
    match_id = "failover-hot"
    first = chain(match_id, 0, ZERO_HASH, 3)

    async def main() -> None:
        hot = client_of(cluster)
        plain = RedisCluster.from_url(cluster.url)
        log = RedisEventLog(plain, pipelined=hot)
        try:
            assert await log.append(match_id, 0, ZERO_HASH, first) == 3
            await asyncio.to_thread(cluster.wait_replicated)
            master = cluster.master_of(log_key(match_id))
            await asyncio.to_thread(cluster.kill, master)
            # No waiting here: the client itself waits out the failover (retries, re-reads
            # the map) within its redirect budget.
            more = chain(match_id, 3, first[-1][1], 1)
            assert await log.append(match_id, 3, first[-1][1], more) == 4
            # The nodes learn of the promotion one by one: ask once they all have.
            await asyncio.to_thread(cluster.wait_ready)
            assert cluster.master_of(log_key(match_id)) != master
            assert await log.read(match_id) == as_read(0, first + more)
        finally:
            await hot.aclose()
            await plain.aclose()

    asyncio.run(main())
