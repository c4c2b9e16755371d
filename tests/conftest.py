"""Shared fixtures: a real Redis for integration tests, and a way to run coroutines.

Redis: ``REDIS_URL`` if set (the tests FLUSH that database), else a private ``redis-server``
started once per session on a free port (:class:`siege.eventlog.embedded.EmbeddedRedis`). The
default port 6379 is never used implicitly: whatever runs there is not ours to flush.

Tests marked ``both_stores`` run twice: on that Redis and on a Redis Cluster, a private six-node
one started once per session (:class:`siege.eventlog.embedded_cluster.EmbeddedCluster`), or
``REDIS_CLUSTER_URL`` (a ``redis+cluster://`` URL; the tests FLUSH it) when set.

Async: tests are plain functions that call ``run(coro)``. ``run`` is one event loop per test, and
``redis_client`` is closed on that same loop, because redis.asyncio connections belong to the loop
that opened them. (A test may use ``asyncio.run`` with clients it creates itself.)
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
import redis
import redis.asyncio

from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.log import RedisEventLog
from siegeworks.redis_target import connect, connect_sync

STORES = ("single", "cluster")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_stores: runs on a single Redis and on a cluster")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if (metafunc.definition.get_closest_marker("both_stores") is not None
            and "redis_url" in metafunc.fixturenames):
        metafunc.parametrize("redis_url", STORES, indirect=True, scope="session")


@pytest.fixture(scope="session")
def redis_url(request: pytest.FixtureRequest) -> Iterator[str]:
    if getattr(request, "param", "single") == "cluster":
        url = os.environ.get("REDIS_CLUSTER_URL")
        if url:
            yield url
            return
        with EmbeddedCluster(masters=3, replicas=1) as made:
            yield made.cluster_url
        return
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    with EmbeddedRedis() as server:
        yield server.url


def flush(url: str) -> None:
    """Empties the store at ``url``: its database, or every primary of a cluster."""
    with connect_sync(url) as client:
        if isinstance(client, redis.RedisCluster):
            client.flushdb(target_nodes=redis.RedisCluster.PRIMARIES)
        else:
            client.flushdb()


@pytest.fixture
def flush_store(redis_url: str) -> Callable[[], None]:
    """Empties the test's store when called (a test that runs twice in one store)."""
    return lambda: flush(redis_url)


@pytest.fixture
def run() -> Iterator[Callable[[Awaitable[Any]], Any]]:
    """Runs a coroutine to completion on this test's event loop."""
    with asyncio.Runner() as runner:
        yield runner.run


@pytest.fixture
def redis_client(
    redis_url: str, run: Callable[[Awaitable[Any]], Any]
) -> Iterator[redis.asyncio.Redis]:
    """An async client (bytes replies) on an empty database; use it inside ``run``."""
    # Flushing with a sync client keeps the async client free of any event loop until the test
    # first uses it inside ``run``.
    flush(redis_url)
    client = connect(redis_url, decode_responses=False)
    yield client
    run(client.aclose())


@pytest.fixture
def event_log(redis_client: redis.asyncio.Redis) -> RedisEventLog:
    return RedisEventLog(redis_client)


@pytest.fixture(scope="module")
def cluster() -> Iterator[EmbeddedCluster]:
    """A private six-node Redis Cluster (three masters, a replica each) per test module: a
    module may kill its nodes, so none is shared further."""
    with EmbeddedCluster(masters=3, replicas=1) as made:
        yield made
