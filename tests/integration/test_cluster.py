"""The match log on a real Redis Cluster: six redis-server processes (three masters, a replica
each) made with ``redis-cli --cluster create``, the match shards spread over every master, and a
master killed in the middle of a log: its replica takes over and the log goes on where it was."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ClusterDownError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.keys import SHARDS, log_key, shard_of
from siege.eventlog.log import ZERO_HASH, AppendConflict, RedisEventLog
from tests.integration.test_eventlog import as_read, chain, ids_on_distinct_shards

pytestmark = pytest.mark.integration

FAILOVER_S = 30.0
"""How long a test waits for a promoted replica to take appends (a few seconds here)."""


def test_the_cluster_has_three_masters_with_a_replica_each(cluster: EmbeddedCluster) -> None:
    roles = []
    for port in cluster.ports:
        with redis.Redis(port=port) as client:
            roles.append(client.info("replication")["role"])
    assert sorted(roles) == ["master"] * 3 + ["slave"] * 3


def test_every_shard_appends_and_reads_back_whichever_master_serves_it(
        cluster: EmbeddedCluster) -> None:
    ids = ids_on_distinct_shards(SHARDS)
    # The control: the sixteen shards' slots are served by all three masters, not one.
    assert len({cluster.master_of(log_key(m)) for m in ids}) == 3

    async def main() -> None:
        client = RedisCluster.from_url(cluster.url)
        log = RedisEventLog(client)
        try:
            for match_id in ids:
                entries = chain(match_id, 0, ZERO_HASH, 3)
                assert await log.append(match_id, 0, ZERO_HASH, entries, audience="rules") == 3
                assert await log.read(match_id) == as_read(0, entries)
                assert await log.head(match_id) == (3, entries[-1][1])
                stale = await log.append(match_id, 0, ZERO_HASH, chain(match_id, 0, ZERO_HASH, 1))
                assert stale == AppendConflict(head_seq=3, head_hash=entries[-1][1])
                pointers = await log.read_bus(shard_of(match_id), audience="rules")
                assert (match_id, 1, 3) in [(m, f, last) for _, m, f, last in pointers]
            assert set(ids) <= set(await log.match_ids())  # one pipeline over every slot
        finally:
            await client.aclose()

    asyncio.run(main())


def test_a_log_goes_on_after_its_master_is_killed(cluster: EmbeddedCluster) -> None:
    match_id = "failover-1"
    first = chain(match_id, 0, ZERO_HASH, 4)

    async def main() -> None:
        client = RedisCluster.from_url(cluster.url)
        log = RedisEventLog(client)
        try:
            assert await log.append(match_id, 0, ZERO_HASH, first) == 4
            # Replication is asynchronous: only what reached the replica survives its master.
            await asyncio.to_thread(cluster.wait_replicated)
            master = cluster.master_of(log_key(match_id))
            await asyncio.to_thread(cluster.kill, master)
            more = chain(match_id, 4, first[-1][1], 2)
            deadline = time.monotonic() + FAILOVER_S
            while True:  # what a service does: Redis refusing or gone is retried, not fatal
                try:
                    appended = await log.append(match_id, 4, first[-1][1], more)
                    break
                except (RedisConnectionError, RedisTimeoutError, ClusterDownError,
                        TryAgainError):
                    assert time.monotonic() < deadline, "no master took the slot over"
                    await asyncio.sleep(0.1)
            assert appended == 6
            # The nodes learn of the promotion one by one: ask once they all have.
            await asyncio.to_thread(cluster.wait_ready)
            assert cluster.master_of(log_key(match_id)) != master
            assert await log.read(match_id) == as_read(0, first + more)
        finally:
            await client.aclose()

    asyncio.run(main())
