"""A service's metrics (siegeworks.metrics): the consumer's counters read at scrape time, the
lag and pending entries of one heartbeat's reading, the batch histogram and its p99, the
probes, and the HTTP server's paths; no Redis (a fake pipeline answers)."""

from __future__ import annotations

import asyncio
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from wsgiref.util import setup_testing_defaults

import msgspec
import pytest
from prometheus_client.parser import text_string_to_metric_families
from redis.exceptions import NoPermissionError, ResponseError

from siege.contracts.events import MatchCreated, MatchEnded
from siege.eventlog.keys import CLIENTS_CHANGED_STREAM, bus_key, commands_key
from siege.eventlog.log import MemoryEventLog
from siege.hosting.clock import FixedClock
from siege.hosting.loader import MatchLoader
from siegeworks.metrics import (
    COMMANDS_LABEL,
    LIVE_WITHIN_S,
    P99_WINDOW_S,
    MetricsServer,
    MetricsServerError,
    ServiceMetrics,
    lag_from_ids,
    lag_of,
    matches_running,
    metrics_app,
    p99,
    read_backlog,
)
from siegeworks.serve import Health

LABELS = {"service": "rules", "consumer": "rules-0"}


@dataclass
class Consumer:
    """What the metrics read of a StreamConsumer: plain ints and its start-up event."""

    processed: int = 0
    failed: int = 0
    dead_lettered: int = 0
    claimed: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def samples(metrics: ServiceMetrics) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """What a scrape of /metrics shows, by sample name and labels."""
    status, _, body = get(metrics_app(metrics), "/metrics")
    assert status.startswith("200")
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(body.decode())
            for s in family.samples}


def value(metrics: ServiceMetrics, name: str, **extra: str) -> float | None:
    return samples(metrics).get((name, frozenset({**LABELS, **extra}.items())))


def get(app: Any, path: str) -> tuple[str, dict[str, str], bytes]:
    environ: dict[str, Any] = {"PATH_INFO": path}
    setup_testing_defaults(environ)
    said: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None
                       ) -> Any:
        said.update(status=status, headers=dict(headers))

    body = b"".join(app(environ, start_response))
    return said["status"], said["headers"], body


# -- a fake Redis: XINFO GROUPS, XLEN and XINFO STREAM replies, counting round trips ----------


class FakePipe:
    def __init__(self, redis: FakeRedis) -> None:
        self.redis = redis
        self.asked: list[tuple[str, str]] = []

    async def __aenter__(self) -> FakePipe:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def xinfo_groups(self, stream: str) -> None:
        self.asked.append(("groups", stream))

    def xlen(self, stream: str) -> None:
        self.asked.append(("len", stream))

    def xinfo_stream(self, stream: str) -> None:
        self.asked.append(("stream", stream))

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        self.redis.round_trips.append(self.asked)
        return [self.redis.replies[asked] for asked in self.asked]


class FakeRedis:
    def __init__(self, replies: dict[tuple[str, str], Any]) -> None:
        self.replies = replies
        self.round_trips: list[list[tuple[str, str]]] = []

    def pipeline(self, transaction: bool = False) -> FakePipe:
        return FakePipe(self)


def missing() -> Exception:
    return ResponseError("no such key")


def row(group: str, pending: int, lag: int | None = None, delivered: str = "0-0",
        redis7: bool = True) -> dict[str, Any]:
    found: dict[str, Any] = {"name": group.encode(), "consumers": 1, "pending": pending,
                             "last-delivered-id": delivered.encode()}
    if redis7:
        found.update({"entries-read": 1, "lag": lag})
    return found


# -- tests -------------------------------------------------------------------------------------


def test_the_consumers_counters_are_read_when_scraped_not_counted_per_message() -> None:
    metrics = ServiceMetrics("rules", "rules-0")
    consumer = Consumer(processed=3, failed=1, dead_lettered=2, claimed=4)
    metrics.watch(consumer, asyncio.Event())
    assert value(metrics, "siege_entries_processed_total") == 3
    assert value(metrics, "siege_entries_failed_total") == 1
    assert value(metrics, "siege_entries_dead_lettered_total") == 2
    assert value(metrics, "siege_entries_claimed_total") == 4
    consumer.processed = 1003  # the consumer's own int moved; nothing else was told
    assert value(metrics, "siege_entries_processed_total") == 1003


def test_no_lag_is_shown_before_the_first_reading() -> None:
    metrics = ServiceMetrics("rules", "rules-0")
    metrics.watch(Consumer(), asyncio.Event())
    names = {name for name, _ in samples(metrics)}
    assert "siege_service_lag" not in names and "siege_pending_entries" not in names
    assert metrics.figures.lag is None  # so the health record says None, not a false 0


def test_one_reading_feeds_the_gauges_and_the_figures_alike() -> None:
    """Redis 7: one round trip; every client's commands stream in one series."""
    buses = [bus_key(0, "rules"), bus_key(1, "rules")]
    alice, bob = commands_key("alice"), commands_key("bob")
    streams = [CLIENTS_CHANGED_STREAM, *buses, alice, bob, commands_key("gone")]
    redis = FakeRedis({
        ("groups", CLIENTS_CHANGED_STREAM): [row("rules", 0, lag=0)],
        ("groups", buses[0]): [row("rules", 2, lag=5), row("dice", 9, lag=90)],
        ("groups", buses[1]): [row("rules", 1, lag=0)],
        ("groups", alice): [row("match", 7, lag=70), row("rules", 3, lag=4)],
        ("len", alice): 100,
        ("groups", bob): [row("rules", 0, lag=50_000)],
        ("len", bob): 10_000,  # capped at its backlog: no more undelivered than it holds
        ("groups", commands_key("gone")): missing(),
        ("len", commands_key("gone")): 0,
    })
    metrics = ServiceMetrics("rules", "rules-0")
    metrics.watch(Consumer(), asyncio.Event())
    figures = asyncio.run(metrics.measure(redis, streams, "rules", lambda: 2, (COMMANDS_LABEL,)))
    assert len(redis.round_trips) == 1
    assert figures.lag == 5 + 4 + 10_000 and figures.pending == 2 + 1 + 3
    assert value(metrics, "siege_stream_lag", stream=buses[0]) == 5
    assert value(metrics, "siege_stream_lag", stream=buses[1]) == 0
    assert value(metrics, "siege_stream_lag", stream=CLIENTS_CHANGED_STREAM) == 0
    assert value(metrics, "siege_stream_lag", stream=COMMANDS_LABEL) == 4 + 10_000
    assert value(metrics, "siege_stream_lag", stream=alice) is None  # never one per client
    assert value(metrics, "siege_service_lag") == figures.lag
    assert value(metrics, "siege_pending_entries") == figures.pending
    assert value(metrics, "siege_matches_running") == figures.matches_running == 2


def test_the_commands_series_is_shown_before_any_client_wrote() -> None:
    backlog = asyncio.run(read_backlog(FakeRedis({}), [], "match", (COMMANDS_LABEL,)))
    assert backlog.lag == {COMMANDS_LABEL: 0} and backlog.pending == 0


def test_redis_6_2_lag_comes_from_the_streams_ids_in_a_second_round_trip() -> None:
    all_read, none_read, part_read = bus_key(0, "dice"), bus_key(1, "dice"), bus_key(2, "dice")
    redis = FakeRedis({
        ("groups", all_read): [row("dice", 1, delivered="5-0", redis7=False)],
        ("groups", none_read): [row("dice", 0, delivered="5-0", redis7=False)],
        ("groups", part_read): [row("dice", 2, delivered="5-0", redis7=False)],
        ("stream", all_read): {"length": 3, "last-generated-id": b"5-0",
                               "first-entry": (b"3-0", {})},
        ("stream", none_read): {"length": 4, "last-generated-id": b"9-0",
                                "first-entry": (b"6-0", {})},
        ("stream", part_read): {"length": 10, "last-generated-id": b"9-0",
                                "first-entry": (b"1-0", {})},
    })
    backlog = asyncio.run(read_backlog(redis, [all_read, none_read, part_read], "dice"))
    assert len(redis.round_trips) == 2
    assert [asked for asked, _ in redis.round_trips[1]] == ["stream"] * 3
    # all delivered: 0; nothing it holds delivered: its length; in between: an upper bound
    assert backlog.lag == {all_read: 0, none_read: 4, part_read: 10 - 2}
    assert backlog.pending == 3


def test_lag_of_a_row() -> None:
    assert lag_of(row("g", 0, lag=7)) == 7
    assert lag_of(row("g", 0, lag=7), length=3) == 3
    assert lag_of(row("g", 0, lag=None)) is None  # Redis 7 could not count it
    assert lag_of(row("g", 0, redis7=False)) is None
    assert lag_of(row("g", 0, redis7=False), length=0) == 0
    assert lag_from_ids(row("g", 0, delivered="5-0"), {"length": 0, "first-entry": None}) == 0


def test_a_batch_is_observed_once_into_the_histogram_and_the_p99() -> None:
    clock = Clock()
    metrics = ServiceMetrics("rules", "rules-0", clock=clock)
    metrics.watch(Consumer(), asyncio.Event())
    for n in range(1, 101):
        metrics.observe_batch(n / 1000, entries=10)
    assert value(metrics, "siege_batch_seconds_count") == 100
    assert value(metrics, "siege_batch_seconds_bucket", le="0.05") == 50
    figures = asyncio.run(metrics.measure(FakeRedis({}), [], "rules", lambda: 0))
    assert figures.batch_p99_ms == 99.0
    clock.now += P99_WINDOW_S + 1  # a quiet minute: no batch to speak of
    figures = asyncio.run(metrics.measure(FakeRedis({}), [], "rules", lambda: 0))
    assert figures.batch_p99_ms is None
    assert value(metrics, "siege_batch_seconds_count") == 100  # the histogram keeps counting


def test_p99_is_the_nearest_rank() -> None:
    assert p99([]) is None
    assert p99([0.5]) == 0.5
    assert p99([float(n) for n in range(200, 0, -1)]) == 198.0


def test_a_reading_that_fails_keeps_the_last_figures() -> None:
    class Refusing(FakeRedis):
        def pipeline(self, transaction: bool = False) -> FakePipe:
            raise NoPermissionError("this user may not run XINFO")

    stream = bus_key(0, "dice")
    metrics = ServiceMetrics("dice", "dice-0")
    good = FakeRedis({("groups", stream): [row("dice", 1, lag=2)]})
    asyncio.run(metrics.measure(good, [stream], "dice", lambda: 0))
    figures = asyncio.run(metrics.measure(Refusing({}), [stream], "dice", lambda: 3))
    assert (figures.lag, figures.pending, figures.matches_running) == (2, 1, 3)


def test_matches_running_are_those_begun_and_not_ended_in_the_cache() -> None:
    async def scenario() -> int:
        log = MemoryEventLog()
        loader = MatchLoader(log, FixedClock(5), light=True)
        for match_id in ("a", "b", "c"):
            ms = await loader.load(match_id)
            assert await loader.append(ms, [MatchCreated(game="castle-dash", players=2,
                                                         seat_names=["x", "y"])])
        ended = await loader.load("c")
        assert await loader.append(ended, [MatchEnded(ranks=[1, 2], reason="won")])
        await loader.load("never-made")  # asked about, no log: not a match
        return matches_running(loader)

    assert asyncio.run(scenario()) == 2


def test_livez_says_whether_the_heartbeat_ran_lately() -> None:
    clock = Clock()
    metrics = ServiceMetrics("dice", "dice-0", clock=clock)
    app = metrics_app(metrics)
    assert get(app, "/livez")[0].startswith("503")
    metrics.beat_ran()
    assert get(app, "/livez")[0] == "200 OK"
    clock.now += LIVE_WITHIN_S + 0.5
    status, _, body = get(app, "/livez")
    assert status.startswith("503") and b"stuck" in body


def test_readyz_waits_for_the_start_up_and_a_beat_that_reached_redis() -> None:
    clock = Clock()
    metrics = ServiceMetrics("dice", "dice-0", clock=clock)
    consumer, stop = Consumer(), asyncio.Event()
    metrics.watch(consumer, stop)
    app = metrics_app(metrics)
    assert get(app, "/readyz")[0].startswith("503")
    consumer.ready.set()
    assert get(app, "/readyz")[0].startswith("503")  # no beat reached Redis yet
    metrics.beat_reached_redis(True)
    assert get(app, "/readyz")[0] == "200 OK"
    metrics.beat_reached_redis(False)
    assert get(app, "/readyz")[0].startswith("503")
    metrics.beat_reached_redis(True)
    clock.now += LIVE_WITHIN_S + 0.5  # and none since
    assert get(app, "/readyz")[0].startswith("503")
    metrics.beat_reached_redis(True)
    assert get(app, "/readyz")[0] == "200 OK"
    stop.set()
    status, _, body = get(app, "/readyz")
    assert status.startswith("503") and body == b"stopping\n"


def test_only_the_three_paths_are_served() -> None:
    app = metrics_app(ServiceMetrics("dice", "dice-0"))
    status, headers, body = get(app, "/metrics")
    assert status == "200 OK" and headers["Content-Type"].startswith("text/plain")
    assert b"siege_batch_seconds_bucket" in body and b"process_cpu_seconds_total" in body
    for path in ("/", "/metric", "/healthz", "/metrics/x"):
        assert get(app, path)[0].startswith("404"), path


@pytest.fixture
def listening() -> Iterator[int]:
    """A port something else listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def test_a_port_in_use_is_a_clear_error(listening: int) -> None:
    with pytest.raises(MetricsServerError, match="already in use"):
        MetricsServer("127.0.0.1", listening)


def test_the_server_serves_over_http_and_frees_its_port_when_closed() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = MetricsServer("127.0.0.1", port)
    metrics = ServiceMetrics("dice", "dice-0")
    metrics.beat_ran()
    server.start(metrics_app(metrics))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=5) as answer:
            assert answer.status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5)
        assert refused.value.code == 503
    finally:
        server.close()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass


def test_a_health_record_of_an_older_version_still_decodes() -> None:
    old = {"service": "dice", "consumer": "dice-0", "pid": 1, "host": "h", "at_ms": 1,
           "processed": 5, "failed": 0, "dead_lettered": 0, "claimed": 0}
    record = msgspec.json.decode(msgspec.json.encode(old), type=Health)
    assert (record.lag, record.pending, record.batch_p99_ms, record.matches_running) == (
        None, None, None, None)
    new = msgspec.json.decode(msgspec.json.encode(
        {**old, "lag": 3, "pending": 1, "batch_p99_ms": 2.5, "matches_running": 4}), type=Health)
    assert (new.lag, new.pending, new.batch_p99_ms, new.matches_running) == (3, 1, 2.5, 4)
