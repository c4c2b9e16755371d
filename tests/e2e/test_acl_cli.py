"""``siege acl issue|rotate|revoke|list`` run as an operator runs them, against a live Redis 7
started here: the printed URL signs the client in, a rotation or a revocation shuts the old
password out, and every mistake ends as a one-line error, never a traceback."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.exceptions import AuthenticationError, NoPermissionError

from siege.eventlog.acl import service_rules
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.keys import CLIENTS_KEY, commands_key
from siegeworks.cli.access import client_url
from siegeworks.redis_target import connect

SIEGE = [sys.executable, "-m", "siegeworks.cli"]


def siege(args: list[str], cwd: Path, redis_url: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(COLUMNS="200", SIEGE_DATA_DIR=str(cwd))
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    return subprocess.run(SIEGE + ["acl", *args], env=env, capture_output=True, text=True,
                          timeout=60, cwd=cwd)


def one_line_error(done: subprocess.CompletedProcess, text: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert text in done.stderr, done.stderr


def signs_in(url: str) -> bool:
    try:
        with redis.Redis.from_url(url) as client:
            return bool(client.ping())
    except AuthenticationError:
        return False


@pytest.fixture
def server() -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis() as started, redis.Redis.from_url(started.url) as admin:
        version = admin.info("server")["redis_version"]
        if int(version.split(".")[0]) < 7:
            pytest.skip(f"redis-server {version} cannot enforce per-pattern read/write ACLs")
        yield started


def test_issue_rotate_revoke_and_list(server: EmbeddedRedis, tmp_path: Path) -> None:
    operator_url = server.url

    issued = siege(["issue", "alice"], tmp_path, operator_url)
    assert issued.returncode == 0, issued.stderr
    url = issued.stdout.strip()
    assert url.startswith("redis://client-alice:")
    assert url.endswith(f"@127.0.0.1:{server.port}/0")
    assert issued.stdout.count("\n") == 1  # the URL, once
    password = url.split(":")[2].split("@")[0]
    assert password not in issued.stderr
    assert "warning: the change lasts until Redis restarts" in issued.stderr  # no aclfile
    with redis.Redis.from_url(url) as alice:
        alice.xadd(commands_key("alice"), {"m": "x"})
        with pytest.raises(NoPermissionError):
            alice.xadd(commands_key("bob"), {"m": "x"})

    bob = siege(["issue", "bob", "--redis-url", operator_url], tmp_path, None)
    assert bob.returncode == 0, bob.stderr
    bob_url = bob.stdout.strip()
    assert signs_in(url) and signs_in(bob_url)

    one_line_error(siege(["issue", "alice"], tmp_path, operator_url),
                   "client 'alice' exists already")
    assert signs_in(url)

    rotated = siege(["rotate", "alice"], tmp_path, operator_url)
    assert rotated.returncode == 0, rotated.stderr
    new_url = rotated.stdout.strip()
    assert new_url != url and not signs_in(url) and signs_in(new_url) and signs_in(bob_url)

    listed = siege(["list"], tmp_path, operator_url)
    assert listed.returncode == 0, listed.stderr
    rows = [line.replace("│", " ").split() for line in listed.stdout.splitlines()]
    assert ["alice", "client-alice", "yes"] in rows and ["bob", "client-bob", "yes"] in rows

    revoked = siege(["revoke", "alice"], tmp_path, operator_url)
    assert revoked.returncode == 0, revoked.stderr
    assert "revoked client-alice" in revoked.stdout
    assert not signs_in(new_url) and signs_in(bob_url)
    with redis.Redis.from_url(operator_url) as admin:
        assert admin.smembers(CLIENTS_KEY) == {b"bob"}

    one_line_error(siege(["revoke", "alice"], tmp_path, operator_url), "unknown client 'alice'")
    one_line_error(siege(["rotate", "carol"], tmp_path, operator_url), "unknown client 'carol'")
    listed = siege(["list"], tmp_path, operator_url)
    assert "alice" not in listed.stdout and "bob" in listed.stdout


def test_mistakes_are_one_line_errors(server: EmbeddedRedis, tmp_path: Path) -> None:
    bad_ids = [("issue", "x*"), ("issue", "a:b"), ("issue", "no spaces"), ("rotate", "{a}"),
               ("revoke", "a" * 65), ("setuser", "x*")]
    for command, bad in bad_ids:
        one_line_error(siege([command, bad], tmp_path, server.url), f"invalid client id {bad!r}")
    for command in (["issue", "alice"], ["rotate", "alice"], ["revoke", "alice"], ["list"]):
        one_line_error(siege(command, tmp_path, None), "say which Redis")
    done = siege(["list"], tmp_path, "http://op:hunter2@example:1/0")
    one_line_error(done, "is not a Redis URL")
    assert "hunter2" not in done.stderr
    one_line_error(siege([], tmp_path, None), "say what to do")
    one_line_error(siege(["file"], tmp_path, None), "say what to write")

    with redis.Redis.from_url(server.url) as admin:
        admin.execute_command("ACL", "SETUSER", "siege-match", *service_rules("match"), ">pw")
    as_service = f"redis://siege-match:pw@127.0.0.1:{server.port}/0"
    one_line_error(siege(["issue", "alice"], tmp_path, as_service), "connect as the operator")
    wrong = f"redis://siege-match:hunter2@127.0.0.1:{server.port}/0"
    done = siege(["list"], tmp_path, wrong)
    one_line_error(done, "siege-match:***@127.0.0.1")
    assert "hunter2" not in done.stderr + done.stdout


def test_setuser_and_file_work_without_redis(tmp_path: Path) -> None:
    printed = siege(["setuser", "dave"], tmp_path, None)
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.startswith("ACL SETUSER client-dave on resetkeys ")
    written = siege(["file", "--out", "users.acl"], tmp_path, None)
    assert written.returncode == 0, written.stderr
    assert (tmp_path / "users.acl").stat().st_mode & 0o777 == 0o600
    assert "user client-alice on >" in (tmp_path / "users.acl").read_text()
    match_env = tmp_path / "env" / "match.env"  # the same password, for compose and systemd
    assert match_env.stat().st_mode & 0o777 == 0o600
    password = match_env.read_text().split("siege-match:", 1)[1].split("@", 1)[0]
    assert f"user siege-match on >{password} " in (tmp_path / "users.acl").read_text()


@pytest.mark.parametrize(("redis_url", "expected"), [
    ("redis://operator:pw@redis.example:6380/2", "redis://client-a:PW@redis.example:6380/2"),
    ("rediss://operator:pw@redis.example/0", "rediss://client-a:PW@redis.example:6379/0"),
    ("redis://[::1]:7000", "redis://client-a:PW@[::1]:7000/0"),
    ("unix:///run/redis.sock", "redis://client-a:PW@HOST:6379/0"),
    ("redis+cluster://operator:pw@10.0.0.1:7000,10.0.0.2:7000",
     "redis+cluster://client-a:PW@10.0.0.1:7000,10.0.0.2:7000"),
])
def test_the_client_url_keeps_the_scheme_host_and_port(redis_url: str, expected: str) -> None:
    assert client_url(redis_url, "a", "PW") == expected


def test_a_redis_that_wants_a_password_says_so_in_words(server: EmbeddedRedis,
                                                        tmp_path: Path) -> None:
    with redis.Redis.from_url(server.url) as admin:
        admin.execute_command("ACL", "SETUSER", "default", "on", ">sekret", "~*", "+@all")
    host = server.url.removeprefix("redis://")
    for url, said in ((server.url, "Redis requires authentication"),
                      (f"redis://:wrong@{host}", "Redis refused the user name or password")):
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env.update(COLUMNS="200", SIEGE_HOME=str(tmp_path), REDIS_URL=url)
        done = subprocess.run(SIEGE + ["audit", "some-match"], env=env, capture_output=True,
                              text=True, timeout=60, cwd=tmp_path)
        one_line_error(done, said)
        assert "HELLO" not in done.stderr and "wrong" not in done.stderr


def test_on_a_cluster_the_issued_url_names_the_cluster_and_signs_in_on_every_node(
        cluster: EmbeddedCluster, tmp_path: Path) -> None:
    issued = siege(["issue", "dora"], tmp_path, cluster.cluster_url)
    assert issued.returncode == 0, issued.stderr
    url = issued.stdout.strip()
    assert url.startswith("redis+cluster://client-dora:")
    password = url.split(":")[2].split("@")[0]

    async def writes_its_commands() -> None:
        dora = connect(url)
        try:
            await dora.xadd(commands_key("dora"), {"m": "x"})
            with pytest.raises(NoPermissionError):
                await dora.xadd(commands_key("bob"), {"m": "x"})
        finally:
            await dora.aclose()

    asyncio.run(writes_its_commands())
    assert all(signs_in(f"redis://client-dora:{password}@127.0.0.1:{port}/0")
               for port in cluster.ports)
    revoked = siege(["revoke", "dora"], tmp_path, cluster.cluster_url)
    assert revoked.returncode == 0, revoked.stderr
    assert not any(signs_in(f"redis://client-dora:{password}@127.0.0.1:{port}/0")
                   for port in cluster.ports)
