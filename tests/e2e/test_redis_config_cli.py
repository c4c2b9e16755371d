"""``siege health`` and ``siege serve`` against a Redis that may evict match logs, run as a user
runs them: health says so and exits 1, a service refuses to start with a one-line error, and a
service whose user may not read the settings starts and says the check is the operator's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
import redis

from siege.eventlog.acl import service_rules
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import health_key
from siegeworks.serve import Health

SIEGE = [sys.executable, "-m", "siegeworks.cli"]


def siege(args: list[str], cwd: Path, redis_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "REDIS_URL": redis_url, "COLUMNS": "80"}
    return subprocess.run(SIEGE + args, env=env, capture_output=True, text=True, timeout=60,
                          cwd=cwd)


@pytest.fixture
def evicting() -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis(extra_args=("--maxmemory-policy", "allkeys-lru")) as server:
        yield server


def pretend_a_service_runs(url: str) -> None:
    """A health record like the match service's heartbeat, so only Redis can fail health."""
    record = Health(service="match", consumer="match-0", pid=1, host="here",
                    at_ms=int(time.time() * 1000), processed=0, failed=0, dead_lettered=0,
                    claimed=0)
    with redis.Redis.from_url(url) as client:
        client.set(health_key("match", "match-0"), msgspec.json.encode(record), ex=60)


def test_health_on_an_evicting_redis_names_the_policy_and_exits_1(
        evicting: EmbeddedRedis, tmp_path: Path) -> None:
    with EmbeddedRedis(extra_args=("--appendonly", "yes", "--appendfsync", "always")) as safe:
        pretend_a_service_runs(safe.url)
        fine = siege(["health"], tmp_path, safe.url)
    assert fine.returncode == 0, fine.stdout + fine.stderr
    assert "match match-0 pid 1" in fine.stdout and "problem" not in fine.stdout

    pretend_a_service_runs(evicting.url)
    done = siege(["health"], tmp_path, evicting.url)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "match match-0 pid 1" in done.stdout
    problems = [line for line in done.stdout.splitlines() if line.startswith("problem:")]
    assert any("maxmemory-policy allkeys-lru" in line and "noeviction" in line
               for line in problems), done.stdout


def test_health_as_a_user_that_may_not_ask_says_who_may_and_does_not_fail(
        tmp_path: Path) -> None:
    with EmbeddedRedis() as server, redis.Redis.from_url(server.url) as admin:
        admin.execute_command("ACL", "SETUSER", "viewer", "on", ">pw", "~*", "+@all", "-config")
        pretend_a_service_runs(server.url)
        done = siege(["health"], tmp_path, f"redis://viewer:pw@127.0.0.1:{server.port}/0")
    assert done.returncode == 0, done.stdout + done.stderr
    said = [line for line in done.stdout.splitlines() if "operator" in line]
    assert len(said) == 1 and "siege health with the operator's REDIS_URL" in said[0]


def test_serve_refuses_to_start_on_an_evicting_redis(
        evicting: EmbeddedRedis, tmp_path: Path) -> None:
    done = siege(["serve", "match"], tmp_path, evicting.url)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: refusing to start") and "allkeys-lru" in lines[0]
    with redis.Redis.from_url(evicting.url) as client:
        assert client.keys("siege:health:*") == []


def test_serve_as_a_service_user_starts_and_leaves_the_policy_check_to_the_operator(
        evicting: EmbeddedRedis, tmp_path: Path) -> None:
    """Its ACL user may not run CONFIG: even on an evicting Redis it cannot know, so it starts
    and says so in one line."""
    with redis.Redis.from_url(evicting.url) as admin:
        if int(admin.info("server")["redis_version"].split(".")[0]) < 7:
            pytest.skip("the services' ACL rules need Redis 7")
        admin.execute_command("ACL", "SETUSER", "siege-dice", *service_rules("dice"), ">pw")
        log = tmp_path / "dice.log"
        env = {**os.environ, "REDIS_URL": f"redis://siege-dice:pw@127.0.0.1:{evicting.port}/0"}
        with open(log, "wb") as output:
            proc = subprocess.Popen(SIEGE + ["serve", "dice"], env=env, stdout=output,
                                    stderr=subprocess.STDOUT, cwd=tmp_path)
        try:
            deadline = time.monotonic() + 30
            while not admin.keys("siege:health:dice:*"):
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=30)
    assert code == 0, log.read_text()
    warnings = [line for line in log.read_text().splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "maxmemory-policy" in warnings[0]
    assert "operator's" in warnings[0]


def test_health_shows_a_services_warnings_loudly(tmp_path: Path) -> None:
    """A service's health record may carry warnings (``Health.warnings``): one line each."""
    with EmbeddedRedis() as server, redis.Redis.from_url(server.url) as client:
        record = {"service": "rules", "consumer": "rules-0", "pid": 2, "host": "here",
                  "at_ms": int(time.time() * 1000), "processed": 0, "failed": 0,
                  "dead_lettered": 0, "claimed": 0, "warnings": ["the store went back"]}
        client.set(health_key("rules", "rules-0"), msgspec.json.encode(record), ex=60)
        done = siege(["health"], tmp_path, server.url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning: rules rules-0: the store went back" in done.stdout.splitlines()
