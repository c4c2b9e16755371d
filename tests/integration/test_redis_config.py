"""What a real redis-server guarantees, as :mod:`siegeworks.redis_config` reads it: eviction
policy, persistence, replicas, and a user that may not ask (the services' ACL users)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio

from siege.eventlog.acl import service_rules
from siege.eventlog.embedded import EmbeddedRedis
from siegeworks.redis_config import Guarantees, NotAllowed, read_guarantees

Run = Callable[[Awaitable[Any]], Any]
SHIPPED_CONF = Path(__file__).parents[2] / "deploy" / "redis" / "redis.conf"


def guarantees(url: str, run: Run) -> Guarantees | NotAllowed:
    async def read() -> Guarantees | NotAllowed:
        client = redis.asyncio.Redis.from_url(url)
        try:
            return await read_guarantees(client)
        finally:
            await client.aclose()
    return run(read())


def test_an_evicting_policy_is_a_problem_that_names_it(run: Run) -> None:
    with EmbeddedRedis(extra_args=("--maxmemory-policy", "allkeys-lru",
                                   "--maxmemory", "64mb")) as server:
        found = guarantees(server.url, run)
    assert isinstance(found, Guarantees)
    assert found.evicts and found.maxmemory_policy == "allkeys-lru"
    assert found.maxmemory == 64 * 1024 * 1024
    assert any(p.startswith("maxmemory-policy allkeys-lru:") for p in found.problems())


def test_noeviction_with_an_fsync_per_write_has_no_problem(run: Run) -> None:
    with EmbeddedRedis(extra_args=("--maxmemory-policy", "noeviction", "--appendonly", "yes",
                                   "--appendfsync", "always")) as server:
        found = guarantees(server.url, run)
    assert isinstance(found, Guarantees)
    assert not found.evicts and found.appendonly and found.appendfsync == "always"
    assert found.problems() == []


def test_no_persistence_says_a_restart_loses_every_match(run: Run) -> None:
    with EmbeddedRedis() as server:  # appendonly no, save ""
        found = guarantees(server.url, run)
    assert isinstance(found, Guarantees) and not found.appendonly and found.save == ""
    assert [p for p in found.problems() if "restart" in p] == [
        'no persistence (appendonly no, save ""): a restart of Redis loses every match '
        "(set appendonly yes)"]


def test_everysec_and_snapshots_only_say_what_a_crash_loses(run: Run) -> None:
    with EmbeddedRedis(extra_args=("--appendonly", "yes", "--appendfsync", "everysec")) as one:
        everysec = guarantees(one.url, run)
    with EmbeddedRedis(extra_args=("--save", "60 1000")) as two:
        snapshots = guarantees(two.url, run)
    assert isinstance(everysec, Guarantees) and isinstance(snapshots, Guarantees)
    assert [p.split(":")[0] for p in everysec.problems()] == ["appendfsync everysec"]
    assert [p.split(":")[0] for p in snapshots.problems()] == ["RDB snapshots only (save 60 1000)"]


def test_too_few_replicas_for_min_replicas_to_write_is_a_problem(run: Run) -> None:
    with EmbeddedRedis(extra_args=("--appendonly", "yes", "--appendfsync", "always",
                                   "--min-replicas-to-write", "1")) as server:
        found = guarantees(server.url, run)
    assert isinstance(found, Guarantees)
    assert found.connected_replicas == 0 and found.min_replicas_to_write == 1
    assert [p.split(" with")[0] for p in found.problems()] == ["min-replicas-to-write 1"]


def test_the_shipped_redis_conf_has_no_problem(run: Run) -> None:
    """deploy/redis/redis.conf's directives (its aclfile aside: the operator's passwords are
    placeholders there) give a Redis that loses no acknowledged append and evicts nothing."""
    args: list[str] = []
    for line in SHIPPED_CONF.read_text().splitlines():
        name, _, value = line.partition(" ")
        if line and not line.startswith("#") and name != "aclfile":
            args += [f"--{name}", value.strip('"')]
    with EmbeddedRedis(extra_args=tuple(args)) as server:
        found = guarantees(server.url, run)
    assert isinstance(found, Guarantees), found
    assert found.problems() == [], found.describe()


@pytest.mark.parametrize("denied", ["-config", "-info"])
def test_a_user_that_may_not_ask_is_told_the_check_is_the_operators(
        run: Run, denied: str) -> None:
    with EmbeddedRedis() as server, redis.Redis.from_url(server.url) as admin:
        admin.execute_command("ACL", "SETUSER", "limited", "on", ">pw", "~*", "+@all", denied)
        found = guarantees(f"redis://limited:pw@127.0.0.1:{server.port}/0", run)
    assert isinstance(found, NotAllowed)
    assert found.command == ("CONFIG GET" if denied == "-config" else "INFO")
    assert "operator's user" in found.describe()


def test_a_service_user_may_not_ask(run: Run) -> None:
    """The deployment's own service users have no @admin, so no CONFIG."""
    with EmbeddedRedis() as server, redis.Redis.from_url(server.url) as admin:
        version = admin.info("server")["redis_version"]
        if int(version.split(".")[0]) < 7:
            pytest.skip(f"redis-server {version} cannot take the services' Redis 7 ACL rules")
        admin.execute_command("ACL", "SETUSER", "siege-match", *service_rules("match"), ">pw")
        found = guarantees(f"redis://siege-match:pw@127.0.0.1:{server.port}/0", run)
    assert isinstance(found, NotAllowed) and found.command == "CONFIG GET"
