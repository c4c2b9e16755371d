"""One client's credentials on a live Redis 7 (``siege.eventlog.credentials``): issuing,
rotating and revoking one client leaves every other client, and its connections, alone; a
revoked client is cut off at once; the registry and its doorbell follow every change.

Each test gets its own ``redis-server`` (ACL users outlive a FLUSHDB), whose default user is the
operator. Needs Redis 7 (per-pattern read/write rights); on 6.2 the tests are skipped.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.backoff import NoBackoff
from redis.exceptions import AuthenticationError, NoPermissionError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry

from siege.eventlog import credentials
from siege.eventlog.acl import service_rules
from siege.eventlog.credentials import (
    ClientEntry,
    ClientExistsError,
    CredentialsError,
    UnknownClientError,
)
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.keys import CLIENTS_CHANGED_STREAM, CLIENTS_KEY, commands_key, inbox_key

Run = Callable[[Awaitable[Any]], Any]


def _skip_before_7(server: EmbeddedRedis) -> None:
    with redis.Redis.from_url(server.url) as admin:
        version = admin.info("server")["redis_version"]
    if int(version.split(".")[0]) < 7:
        pytest.skip(f"redis-server {version} cannot enforce per-pattern read/write ACLs")


@pytest.fixture
def server() -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis() as started:
        _skip_before_7(started)
        yield started


@pytest.fixture
def operator(server: EmbeddedRedis, run: Run) -> Iterator[redis.asyncio.Redis]:
    client = redis.asyncio.Redis.from_url(server.url)
    yield client
    run(client.aclose())


def as_client(server: EmbeddedRedis, client: str, password: str) -> redis.asyncio.Redis:
    """A connection as ``client-<client>`` that never retries: a dropped connection or a
    refused sign-in shows as the error itself."""
    return connect_as(server.port, client, password)


def connect_as(port: int, client: str, password: str) -> redis.asyncio.Redis:
    return redis.asyncio.Redis(host="127.0.0.1", port=port, username=f"client-{client}",
                               password=password, retry=Retry(NoBackoff(), 0), socket_timeout=5)


async def signs_in(server: EmbeddedRedis, client: str, password: str) -> bool:
    return await signs_in_at(server.port, client, password)


async def doorbell(operator: redis.asyncio.Redis) -> list[str]:
    """The client ids the doorbell rang for, oldest first."""
    entries = await operator.xrange(CLIENTS_CHANGED_STREAM)
    return [fields[b"c"].decode() for _, fields in entries]


async def registry(operator: redis.asyncio.Redis) -> set[str]:
    return {c.decode() for c in await operator.smembers(CLIENTS_KEY)}


def test_an_issued_client_writes_its_own_commands_and_no_one_elses(
        server: EmbeddedRedis, operator: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        password = await credentials.issue(operator, "alice")
        alice = as_client(server, "alice", password)
        try:
            await alice.xadd(commands_key("alice"), {"m": "x"})
            with pytest.raises(NoPermissionError):
                await alice.xadd(commands_key("bob"), {"m": "x"})
            with pytest.raises(NoPermissionError):
                await alice.xadd(inbox_key("alice"), {"m": "x"})  # its inbox is read-only
        finally:
            await alice.aclose()
        assert await registry(operator) == {"alice"}
        assert await doorbell(operator) == ["alice"]

    run(scenario())


def test_issuing_a_second_client_leaves_the_first_working(
        server: EmbeddedRedis, operator: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        alice_pw = await credentials.issue(operator, "alice")
        alice = as_client(server, "alice", alice_pw)
        try:
            await alice.ping()
            bob_pw = await credentials.issue(operator, "bob")
            assert bob_pw != alice_pw
            await alice.xadd(commands_key("alice"), {"m": "still open"})
            assert await signs_in(server, "alice", alice_pw)
            assert await signs_in(server, "bob", bob_pw)
        finally:
            await alice.aclose()
        assert await registry(operator) == {"alice", "bob"}
        assert await doorbell(operator) == ["alice", "bob"]

    run(scenario())


def test_issuing_a_client_twice_is_refused_unless_it_is_replaced(
        server: EmbeddedRedis, operator: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        first = await credentials.issue(operator, "alice")
        with pytest.raises(ClientExistsError, match="'alice' exists already"):
            await credentials.issue(operator, "alice")
        assert await signs_in(server, "alice", first)
        alice = as_client(server, "alice", first)
        try:
            await alice.ping()
            second = await credentials.issue(operator, "alice", replace=True)
            with pytest.raises(RedisConnectionError):  # replacing drops what signed in before
                await alice.ping()
        finally:
            await alice.aclose()
        assert not await signs_in(server, "alice", first)
        assert await signs_in(server, "alice", second)
        assert await doorbell(operator) == ["alice", "alice"]

    run(scenario())


def test_rotating_refuses_the_old_password_and_touches_no_one_else(
        server: EmbeddedRedis, operator: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        old = await credentials.issue(operator, "alice")
        bob_pw = await credentials.issue(operator, "bob")
        alice, bob = as_client(server, "alice", old), as_client(server, "bob", bob_pw)
        try:
            await alice.ping()
            await bob.ping()
            new = await credentials.rotate(operator, "alice")
            assert new != old
            assert not await signs_in(server, "alice", old)
            assert await signs_in(server, "alice", new)
            assert await signs_in(server, "bob", bob_pw)
            # What is documented: connections signed in with the old password stay open, with
            # the same rights.
            await alice.xadd(commands_key("alice"), {"m": "x"})
            with pytest.raises(NoPermissionError):
                await alice.xadd(commands_key("bob"), {"m": "x"})
            await bob.xadd(commands_key("bob"), {"m": "x"})
        finally:
            await alice.aclose()
            await bob.aclose()
        new_alice = as_client(server, "alice", new)
        try:
            await new_alice.xadd(commands_key("alice"), {"m": "x"})
            with pytest.raises(NoPermissionError):
                await new_alice.xadd(commands_key("bob"), {"m": "x"})
        finally:
            await new_alice.aclose()
        # The registry did not change, so the doorbell did not ring.
        assert await registry(operator) == {"alice", "bob"}
        assert await doorbell(operator) == ["alice", "bob"]

    run(scenario())


def test_a_revoked_client_is_cut_off_at_once_and_no_one_else(
        server: EmbeddedRedis, operator: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        alice_pw = await credentials.issue(operator, "alice")
        bob_pw = await credentials.issue(operator, "bob")
        alice, waiting = as_client(server, "alice", alice_pw), as_client(server, "alice", alice_pw)
        bob = as_client(server, "bob", bob_pw)
        try:
            await alice.ping()
            await bob.ping()
            # One connection of alice's sits in a blocking read of its inbox.
            blocked = asyncio.ensure_future(
                waiting.xread({inbox_key("alice"): "$"}, block=0))
            while not any(c.get("cmd") == "xread" for c in await operator.client_list()):
                await asyncio.sleep(0.01)
            await credentials.revoke(operator, "alice")
            with pytest.raises(RedisConnectionError):
                await asyncio.wait_for(blocked, 2)  # dropped at once, not at a timeout
            with pytest.raises(RedisConnectionError):
                await alice.xadd(commands_key("alice"), {"m": "x"})
            assert not await signs_in(server, "alice", alice_pw)
            assert await operator.execute_command("ACL", "GETUSER", "client-alice") is None
            await bob.xadd(commands_key("bob"), {"m": "x"})
            assert await signs_in(server, "bob", bob_pw)
        finally:
            for connection in (alice, waiting, bob):
                await connection.aclose()
        assert await registry(operator) == {"bob"}
        assert await doorbell(operator) == ["alice", "bob", "alice"]

    run(scenario())


def test_rotating_or_revoking_an_unknown_client_is_refused(
        operator: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        with pytest.raises(UnknownClientError, match="unknown client 'carol'"):
            await credentials.rotate(operator, "carol")
        with pytest.raises(UnknownClientError, match="unknown client 'carol'"):
            await credentials.revoke(operator, "carol")
        password = await credentials.issue(operator, "carol")
        await credentials.revoke(operator, "carol")
        with pytest.raises(UnknownClientError):
            await credentials.revoke(operator, "carol")  # twice
        assert password and await doorbell(operator) == ["carol", "carol"]

    run(scenario())


@pytest.mark.parametrize("client", ["", "a:b", "x*", "{a}", "a" * 65, "no spaces"])
def test_an_invalid_client_id_is_refused_before_anything_changes(
        operator: redis.asyncio.Redis, run: Run, client: str) -> None:
    async def scenario() -> None:
        for change in (credentials.issue, credentials.rotate, credentials.revoke):
            with pytest.raises(CredentialsError, match="invalid client id"):
                await change(operator, client)
        assert await operator.execute_command("ACL", "USERS") == [b"default"]
        assert await doorbell(operator) == []

    run(scenario())


def test_only_an_operator_may_change_credentials(
        server: EmbeddedRedis, operator: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        await operator.execute_command("ACL", "SETUSER", "siege-match", *service_rules("match"),
                                       ">pw-match")
        alice_pw = await credentials.issue(operator, "alice")
        for user, password in (("siege-match", "pw-match"), ("client-alice", alice_pw)):
            someone = redis.asyncio.Redis(host="127.0.0.1", port=server.port, username=user,
                                          password=password)
            try:
                for change in (credentials.issue, credentials.rotate, credentials.revoke):
                    with pytest.raises(CredentialsError, match="connect as the operator") as e:
                        await change(someone, "bob")
                    assert "\n" not in str(e.value)
                with pytest.raises(CredentialsError, match="connect as the operator"):
                    await credentials.list_clients(someone)
            finally:
                await someone.aclose()
        assert await signs_in(server, "alice", alice_pw)

    run(scenario())


def test_the_list_shows_users_and_registered_clients(
        operator: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        assert await credentials.list_clients(operator) == []
        await credentials.issue(operator, "bob")
        await credentials.issue(operator, "alice")
        await operator.sadd(CLIENTS_KEY, "self-added")  # as a client does without ACLs
        await operator.execute_command("ACL", "SETUSER", "client-from-file", "on", ">pw")
        await operator.execute_command("ACL", "SETUSER", "siege-dice", "on", ">pw")
        assert await credentials.list_clients(operator) == [
            ClientEntry("alice", has_user=True, registered=True),
            ClientEntry("bob", has_user=True, registered=True),
            ClientEntry("from-file", has_user=True, registered=False),
            ClientEntry("self-added", has_user=False, registered=True),
        ]
        await credentials.revoke(operator, "self-added")  # a registry entry alone goes too
        assert "self-added" not in await registry(operator)

    run(scenario())


def test_without_an_aclfile_each_change_warns_that_it_lasts_until_restart(
        operator: redis.asyncio.Redis, run: Run) -> None:
    warnings: list[str] = []

    async def scenario() -> None:
        await credentials.issue(operator, "alice", warn=warnings.append)
        await credentials.rotate(operator, "alice", warn=warnings.append)
        await credentials.revoke(operator, "alice", warn=warnings.append)

    run(scenario())
    assert len(warnings) == 3
    assert all(w.startswith("the change lasts until Redis restarts: ACL SAVE refused")
               and "ACL file" in w and "\n" not in w for w in warnings), warnings


def test_with_an_aclfile_the_changes_survive_a_restart(tmp_path: Path) -> None:
    aclfile = tmp_path / "users.acl"
    aclfile.write_text("user default on nopass ~* &* +@all\n")
    warnings: list[str] = []

    async def change(server: EmbeddedRedis) -> tuple[str, str]:
        operator = redis.asyncio.Redis.from_url(server.url)
        try:
            alice = await credentials.issue(operator, "alice", warn=warnings.append)
            bob = await credentials.issue(operator, "bob", warn=warnings.append)
            bob = await credentials.rotate(operator, "bob", warn=warnings.append)
            await credentials.issue(operator, "carol", warn=warnings.append)
            await credentials.revoke(operator, "carol", warn=warnings.append)
            return alice, bob
        finally:
            await operator.aclose()

    with EmbeddedRedis(extra_args=("--aclfile", str(aclfile))) as server:
        _skip_before_7(server)
        alice_pw, bob_pw = asyncio.run(change(server))
    assert warnings == []
    assert "client-alice" in aclfile.read_text() and alice_pw not in aclfile.read_text()

    async def after_restart(server: EmbeddedRedis) -> None:
        assert await signs_in(server, "alice", alice_pw)
        assert await signs_in(server, "bob", bob_pw)
        operator = redis.asyncio.Redis.from_url(server.url)
        try:
            assert await operator.execute_command("ACL", "GETUSER", "client-carol") is None
        finally:
            await operator.aclose()

    with EmbeddedRedis(extra_args=("--aclfile", str(aclfile))) as server:
        asyncio.run(after_restart(server))


def test_on_a_cluster_every_node_knows_an_issued_client_and_forgets_a_revoked_one(
        cluster: EmbeddedCluster, run: Run) -> None:
    """Each node of a cluster keeps its own users: the client's slot may be on any master, and
    a failover hands it to a replica, so every node must know the client, and forget it."""

    async def on_every_node(client: str, password: str) -> list[bool]:
        return [await signs_in_at(port, client, password) for port in cluster.ports]

    async def scenario() -> None:
        operator = RedisCluster.from_url(cluster.url)
        try:
            password = await credentials.issue(operator, "carol")
            assert await on_every_node("carol", password) == [True] * len(cluster.ports)
            with pytest.raises(ClientExistsError):
                await credentials.issue(operator, "carol")
            assert ClientEntry("carol", has_user=True, registered=True) in (
                await credentials.list_clients(operator))
            # Its commands stream is on its shard's master, whichever that is.
            carol = RedisCluster.from_url(cluster.url, username="client-carol",
                                          password=password)
            try:
                await carol.xadd(commands_key("carol"), {"m": "x"})
            finally:
                await carol.aclose()
            fresh = await credentials.issue(operator, "carol", replace=True)
            assert await on_every_node("carol", password) == [False] * len(cluster.ports)
            assert await on_every_node("carol", fresh) == [True] * len(cluster.ports)
            rotated = await credentials.rotate(operator, "carol")
            assert await on_every_node("carol", rotated) == [True] * len(cluster.ports)
            assert await on_every_node("carol", fresh) == [False] * len(cluster.ports)
            await credentials.revoke(operator, "carol")
            assert await on_every_node("carol", rotated) == [False] * len(cluster.ports)
            assert "carol" not in {c.client for c in await credentials.list_clients(operator)}
        finally:
            await operator.aclose()

    run(scenario())


async def signs_in_at(port: int, client: str, password: str) -> bool:
    connection = connect_as(port, client, password)
    try:
        await connection.ping()
        return True
    except AuthenticationError:
        return False
    finally:
        await connection.aclose()


def test_on_a_cluster_a_node_that_does_not_answer_is_a_one_line_error(
        cluster: EmbeddedCluster, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """A node the cluster still lists but that is down since (not yet marked failed): the
    change is refused in words, not with redis-py's connection error."""
    every_node = credentials._every_node

    async def with_a_dead_node(redis: RedisCluster, made: list[ClusterNode]) -> list[ClusterNode]:
        with socket.socket() as probe:  # a port nothing listens on
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        dead = ClusterNode("127.0.0.1", port, socket_connect_timeout=1)
        made.append(dead)
        return [*await every_node(redis, made), dead]

    monkeypatch.setattr(credentials, "_every_node", with_a_dead_node)

    async def scenario() -> None:
        operator = RedisCluster.from_url(cluster.url)
        try:
            with pytest.raises(CredentialsError, match="a node did not answer"):
                await credentials.issue(operator, "erin")
        finally:
            await operator.aclose()

    run(scenario())
