"""Cluster URLs: ``redis+cluster://`` names a Redis Cluster by its seed nodes."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from siegeworks.redis_target import (
    RedisUrlError,
    check_url,
    connect,
    is_cluster_url,
    plain_url,
    redacted,
    seeds,
)

URL = "redis+cluster://siege-rules:s3cret@10.0.0.1:7000,10.0.0.2:7001,node-c/0"


def test_a_cluster_url_names_every_seed_with_its_port() -> None:
    assert is_cluster_url(URL) and not is_cluster_url("redis://10.0.0.1:7000/0")
    assert seeds(URL) == [("10.0.0.1", 7000), ("10.0.0.2", 7001), ("node-c", 6379)]
    assert seeds("rediss+cluster://[::1]:7000") == [("::1", 7000)]


def test_the_first_seed_as_a_plain_url_keeps_the_user_and_the_options() -> None:
    assert plain_url(URL) == "redis://siege-rules:s3cret@10.0.0.1:7000/0"
    assert (plain_url("rediss+cluster://h:1,g:2?ssl_ca_certs=/ca.crt")
            == "rediss://h:1?ssl_ca_certs=/ca.crt")
    assert plain_url("redis://x:1/0") == "redis://x:1/0"  # not a cluster: unchanged


@pytest.mark.parametrize("bad", ["redis+cluster://host:notaport", "redis+cluster://:7000",
                                 "redis+cluster://a:1,,b:2", "redis+cluster://h:70000"])
def test_a_seed_that_is_no_host_and_port_is_a_clear_error(bad: str) -> None:
    with pytest.raises(RedisUrlError, match="is no host:port"):
        check_url(bad)


def test_the_password_of_a_cluster_url_is_never_printed() -> None:
    shown = redacted(URL)
    assert "s3cret" not in shown and "siege-rules" in shown


def test_connect_makes_a_cluster_client_for_a_cluster_url_only() -> None:
    cluster = connect(URL)  # nothing is contacted before the first command
    assert isinstance(cluster, RedisCluster)
    nodes = {(n.host, n.port) for n in cluster.nodes_manager.startup_nodes.values()}
    assert {("10.0.0.1", 7000), ("10.0.0.2", 7001), ("node-c", 6379)} <= nodes
    assert cluster.get_connection_kwargs()["username"] == "siege-rules"
    assert isinstance(connect("redis://127.0.0.1:1/0"), Redis)
