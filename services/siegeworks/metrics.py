"""What a service process says about itself: Prometheus metrics and probes over HTTP
(``siege serve SERVICE --metrics-port PORT``), and the figures its health record carries
(``siege health``). docs/metrics.md lists every metric.

Nothing here runs per message: the services are measured in CPU per action
(docs/performance.md), and a counter bumped per message would show there.

- The consumer's counters are the plain ints :class:`StreamConsumer` keeps anyway; the
  collector reads them when Prometheus scrapes.
- Lag, pending entries and the matches running are measured once per heartbeat (one pipelined
  round trip to Redis), and that one snapshot feeds both the gauges and the health record, so
  ``siege health`` and ``/metrics`` never disagree on how they counted.
- Batch times are observed once per batch read (the consumer's ``on_batch`` hook).

The HTTP server runs in threads of its own (prometheus_client's threaded WSGI server), not on
the event loop: a stuck loop still gets an answer on ``/livez``, a 503 that says how long ago
its heartbeat last ran, rather than a hung request.
"""

from __future__ import annotations

import asyncio
import errno
import math
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from wsgiref.simple_server import WSGIRequestHandler, make_server
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

import structlog
from prometheus_client import CollectorRegistry, Histogram, ProcessCollector, make_wsgi_app
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import ThreadingWSGIServer
from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from siege.eventlog.keys import client_of_commands_key
from siege.hosting.loader import MatchLoader
from siegeworks.transport.streams import parse_id

METRICS_PORT_ENV = "SIEGE_METRICS_PORT"
METRICS_HOST_ENV = "SIEGE_METRICS_HOST"
DEFAULT_METRICS_HOST = "127.0.0.1"
"""Only this machine by default; a container sets 0.0.0.0 so the cluster can scrape it."""

PATHS = ("/metrics", "/livez", "/readyz")
LIVE_WITHIN_S = 5.0
"""A process whose heartbeat has not run for this long has a stuck event loop (it runs every
second when all is well)."""

COMMANDS_LABEL = "commands"
"""The one ``stream`` label of every client's commands stream together: there is one such
stream per client, too many for a series each."""

BATCH_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                 5.0)
"""A batch takes about a millisecond when idle and tens under load (docs/performance.md); the
upper buckets catch a loop held up by Redis refusing writes."""
P99_WINDOW_S = 60.0
P99_WINDOW_BATCHES = 2048
"""The health record's p99 is over the batches of the last minute, at most the latest 2,048
(a busy service reads hundreds a second; sorting 2,048 floats once a second costs little)."""

LABELS = ("service", "consumer")


class WatchedConsumer(Protocol):
    """What the metrics read of a :class:`~siegeworks.transport.streams.StreamConsumer`."""

    processed: int
    failed: int
    dead_lettered: int
    claimed: int
    ready: asyncio.Event


# --------------------------------------------------------------------------------------------
# Lag and pending entries, once per heartbeat


@dataclass(frozen=True, slots=True)
class Backlog:
    """One reading of the streams a service reads, as its consumer group sees them."""

    lag: Mapping[str, int]
    """Entries not yet delivered to the group, per ``stream`` label (see :func:`stream_label`)."""
    pending: int
    """Entries delivered to the group and not acked yet (XPENDING's count), over every stream."""

    @property
    def total_lag(self) -> int:
        return sum(self.lag.values())


def stream_label(stream: str) -> str:
    """The ``stream`` label of a stream: its name, or :data:`COMMANDS_LABEL` for any client's
    commands stream."""
    return COMMANDS_LABEL if client_of_commands_key(stream) is not None else stream


def group_row(groups: Iterable[Mapping[str, Any]], group: str) -> Mapping[str, Any] | None:
    """The row of ``group`` in an XINFO GROUPS reply, if the stream has that group."""
    for row in groups:
        name = row.get("name")
        if (name.decode() if isinstance(name, bytes) else name) == group:
            return row
    return None


def lag_of(row: Mapping[str, Any], length: int | None = None) -> int | None:
    """The group's lag from its XINFO GROUPS row (and the stream's length, when known), or
    None when that cannot tell (Redis 6.2 has no ``lag``; Redis 7 gives nil when it cannot
    count it).

    Redis 7 computes ``lag`` from counts of entries ever added and read, so entries removed
    unread (a client's commands stream capped at its backlog: serve.CLIENT_BACKLOG) are still
    counted there; no stream has more undelivered entries than it holds, hence the ``min``.
    """
    if length == 0:
        return 0
    lag = row.get("lag")
    if lag is None:
        return None
    return int(lag) if length is None else min(int(lag), length)


def lag_from_ids(row: Mapping[str, Any], info: Mapping[str, Any]) -> int:
    """The group's lag from its XINFO GROUPS row and the stream's XINFO STREAM: where
:func:`lag_of` could not tell.

    Exact when the group has been delivered everything (0) or nothing the stream still holds
    (its length). In between, counting exactly would mean reading the entries (XRANGE) every
    second; what is given then is the stream's length less the group's pending entries, an
    upper bound: it also counts entries acked but not trimmed yet (the trimmer runs every
    ``SIEGE_TRIM_EVERY_S``). An over-estimate scales up too early; an under-estimate would
    hide a backlog.
    """
    length = int(info.get("length") or 0)
    first = info.get("first-entry")
    if length == 0 or not first:
        return 0
    delivered = parse_id(row.get("last-delivered-id") or "0-0")
    if parse_id(info.get("last-generated-id") or "0-0") <= delivered:
        return 0
    if parse_id(first[0]) > delivered:
        return length
    return max(1, length - int(row.get("pending") or 0))


def _missing(reply: Any) -> bool:
    """An error reply for a stream that does not exist (yet): nothing is owed on it."""
    return isinstance(reply, ResponseError) and "no such key" in str(reply)


async def read_backlog(redis: Redis, streams: Sequence[str], group: str,
                       always: Collection[str] = ()) -> Backlog:
    """How far ``group`` is behind on ``streams``: XINFO GROUPS of each (and XLEN of each
    client's commands stream, the only streams trimmed below what a group still needs: see
    :func:`lag_of`), in one pipelined round trip. A second round trip (XINFO STREAM) is made
    only for the streams whose lag that does not settle: on Redis 6.2, or where Redis 7 could
    not count it.

    Labels in ``always`` are reported (0) even when no stream has them yet: a dashboard then
    shows the commands series of a service no client has written to.
    """
    lag = dict.fromkeys(always, 0)
    pending = 0
    if not streams:
        return Backlog(lag, pending)
    capped = [client_of_commands_key(stream) is not None for stream in streams]
    async with redis.pipeline(transaction=False) as pipe:
        for stream, with_length in zip(streams, capped, strict=True):
            pipe.xinfo_groups(stream)
            if with_length:
                pipe.xlen(stream)
        replies = iter(await pipe.execute(raise_on_error=False))
    unsettled: list[tuple[str, Mapping[str, Any]]] = []
    for stream, with_length in zip(streams, capped, strict=True):
        groups = next(replies)
        length = next(replies) if with_length else None
        if _missing(groups):
            continue
        for reply in (groups, length):
            if isinstance(reply, Exception):
                raise reply
        row = group_row(groups, group)
        if row is None:
            continue  # the service makes its group at its next read
        pending += int(row.get("pending") or 0)
        known = lag_of(row, None if length is None else int(length))
        if known is None:
            unsettled.append((stream, row))
            continue
        label = stream_label(stream)
        lag[label] = lag.get(label, 0) + known
    if unsettled:
        async with redis.pipeline(transaction=False) as pipe:
            for stream, _ in unsettled:
                pipe.xinfo_stream(stream)
            infos = await pipe.execute(raise_on_error=False)
        for (stream, row), info in zip(unsettled, infos, strict=True):
            if _missing(info):
                continue
            if isinstance(info, Exception):
                raise info
            label = stream_label(stream)
            lag[label] = lag.get(label, 0) + lag_from_ids(row, info)
    return Backlog(lag, pending)


def matches_running(loader: MatchLoader) -> int:
    """Matches the loader holds in its cache that have begun and not ended (a damaged match has
    ended: the fold gives it an end).

    Read once per heartbeat, on the event loop's thread (the cache must not be walked while a
    handler changes it), at no cost to the handlers.
    """
    return sum(1 for ms in loader.cached() if ms.created is not None and ms.ended is None)


def p99(samples: Sequence[float]) -> float | None:
    """The 99th percentile (nearest rank) of ``samples``; None for none."""
    if not samples:
        return None
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


# --------------------------------------------------------------------------------------------
# One process's figures


@dataclass(frozen=True, slots=True)
class Figures:
    """What one heartbeat measured; the health record and the gauges both show it."""

    backlog: Backlog | None = None  # None until measured once
    batch_p99_ms: float | None = None  # None: no batch in the window
    matches_running: int = 0

    @property
    def lag(self) -> int | None:
        return None if self.backlog is None else self.backlog.total_lag

    @property
    def pending(self) -> int | None:
        return None if self.backlog is None else self.backlog.pending


class ServiceMetrics:
    """One service process's metrics: a registry of its own (so tests can make several), the
    collector over the consumer's counters and the latest :class:`Figures`, the batch
    histogram, and what ``/livez`` and ``/readyz`` decide on.

    Values shared with the HTTP threads are replaced whole (numbers, a frozen ``Figures``),
    never changed in place, so a scrape reads one beat's figures or the next, never half of
    each.
    """

    def __init__(self, service: str, consumer: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.consumer = consumer
        self.clock = clock
        self.figures = Figures()
        self.watched: WatchedConsumer | None = None
        self.stop: asyncio.Event | None = None
        # When the heartbeat last ran, and last wrote its record to Redis (None: its last
        # attempt failed); monotonic seconds.
        self.beat_ran_at: float | None = None
        self.beat_reached_at: float | None = None
        # (when, seconds) of the latest batches, for the health record's p99.
        self._batches: deque[tuple[float, float]] = deque(maxlen=P99_WINDOW_BATCHES)
        self._measure_failed = False
        self.registry = CollectorRegistry()
        self.registry.register(_Collector(self))
        # CPU seconds, memory and open files of this process: read from /proc at scrape time.
        ProcessCollector(registry=self.registry)
        self.batch_seconds = Histogram(
            "siege_batch_seconds", "Wall time to handle one batch read from the streams.",
            LABELS, registry=self.registry, buckets=BATCH_BUCKETS,
        ).labels(service, consumer)

    def watch(self, consumer: WatchedConsumer, stop: asyncio.Event) -> None:
        """Reports ``consumer``'s counters and start-up, and not ready once ``stop`` is set."""
        self.watched = consumer
        self.stop = stop

    # -- fed by the consumer, once per batch ---------------------------------------------------

    def observe_batch(self, seconds: float, entries: int) -> None:
        """The consumer's ``on_batch`` hook: one batch of ``entries`` took ``seconds`` (only
        the time is kept: the entries are counted by the consumer's own counters)."""
        self.batch_seconds.observe(seconds)
        self._batches.append((self.clock(), seconds))

    # -- fed by the heartbeat, once per second -------------------------------------------------

    def beat_ran(self) -> None:
        self.beat_ran_at = self.clock()

    def beat_reached_redis(self, reached: bool) -> None:
        self.beat_reached_at = self.clock() if reached else None

    async def measure(self, redis: Redis, streams: Sequence[str], group: str,
                      running: Callable[[], int], always: Collection[str] = ()) -> Figures:
        """Measures the backlog (one round trip), the matches running and the batch p99, and
        keeps them for the next scrape. A backlog that cannot be read (a Redis error, a user
        not allowed XINFO) keeps the last one read: the health record is still written."""
        backlog = self.figures.backlog
        try:
            backlog = await read_backlog(redis, list(streams), group, always)
        except RedisError as exc:
            if not self._measure_failed:  # once, not every second, until it works again
                structlog.get_logger(service=self.service).warning(
                    "lag not measured; keeping the last figures", error=repr(exc))
            self._measure_failed = True
        else:
            self._measure_failed = False
        self.figures = Figures(backlog=backlog, batch_p99_ms=self._batch_p99_ms(),
                               matches_running=running())
        return self.figures

    def _batch_p99_ms(self) -> float | None:
        since = self.clock() - P99_WINDOW_S
        while self._batches and self._batches[0][0] < since:
            self._batches.popleft()
        worst = p99([seconds for _, seconds in self._batches])
        return None if worst is None else round(worst * 1000, 3)

    # -- read by the probes, on the HTTP server's threads --------------------------------------

    def live(self) -> tuple[bool, str]:
        ran = self.beat_ran_at
        if ran is None:
            return False, "the heartbeat has not run yet"
        age = self.clock() - ran
        if age > LIVE_WITHIN_S:
            return False, f"the heartbeat last ran {age:.1f} s ago: the event loop is stuck"
        return True, "ok"

    def ready(self) -> tuple[bool, str]:
        if self.stop is not None and self.stop.is_set():
            return False, "stopping"
        if self.watched is None or not self.watched.ready.is_set():
            return False, "the consumer is still starting (re-reading its pending entries)"
        reached = self.beat_reached_at
        if reached is None:
            return False, "the last heartbeat did not reach Redis"
        age = self.clock() - reached
        if age > LIVE_WITHIN_S:
            return False, f"the last heartbeat reached Redis {age:.1f} s ago"
        return True, "ok"


class _Collector:
    """Reads the consumer's counters and the latest figures when Prometheus scrapes."""

    def __init__(self, metrics: ServiceMetrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        m = self.metrics
        labels = [m.service, m.consumer]
        watched = m.watched
        if watched is not None:
            for name, value, text in (
                ("siege_entries_processed_total", watched.processed,
                 "Stream entries handled (handler returned)."),
                ("siege_entries_failed_total", watched.failed,
                 "Stream entries whose handler raised (left pending, delivered again)."),
                ("siege_entries_dead_lettered_total", watched.dead_lettered,
                 "Stream entries sent to siege:dead (undecodable or delivered too often)."),
                ("siege_entries_claimed_total", watched.claimed,
                 "Stream entries taken over from a consumer that left them pending."),
            ):
                counter = CounterMetricFamily(name, text, labels=LABELS)
                counter.add_metric(labels, value)
                yield counter
        figures = m.figures
        running = GaugeMetricFamily("siege_matches_running",
                                    "Matches this process holds in its cache that have not "
                                    "ended.", labels=LABELS)
        running.add_metric(labels, figures.matches_running)
        yield running
        backlog = figures.backlog
        if backlog is None:
            return  # not measured yet: no figure rather than a false zero
        by_stream = GaugeMetricFamily(
            "siege_stream_lag", "Entries of a stream not yet delivered to this service's "
            "consumer group (stream=\"commands\": every client's commands stream together).",
            labels=[*LABELS, "stream"])
        for stream, lag in sorted(backlog.lag.items()):
            by_stream.add_metric([*labels, stream], lag)
        yield by_stream
        total = GaugeMetricFamily("siege_service_lag", "Entries not yet delivered to this "
                                  "service's consumer group, over every stream it reads.",
                                  labels=LABELS)
        total.add_metric(labels, backlog.total_lag)
        yield total
        pending = GaugeMetricFamily("siege_pending_entries", "Entries delivered to this "
                                    "service's consumer group and not acked yet, over every "
                                    "stream it reads.", labels=LABELS)
        pending.add_metric(labels, backlog.pending)
        yield pending


# --------------------------------------------------------------------------------------------
# The HTTP server


class Probed(Protocol):
    """What the metrics app serves: a registry, and whether the process is live and ready
    (a service's ServiceMetrics, the archiver's ArchiverMetrics)."""

    registry: CollectorRegistry

    def live(self) -> tuple[bool, str]: ...

    def ready(self) -> tuple[bool, str]: ...


def metrics_app(metrics: Probed) -> WSGIApplication:
    """``/metrics`` (prometheus_client's own exposition: text or OpenMetrics, gzip when
    asked), ``/livez`` and ``/readyz`` (200 or 503, the reason as text); 404 elsewhere."""
    exposition = make_wsgi_app(metrics.registry)

    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO") or "/"
        if path == "/metrics":
            return exposition(environ, start_response)
        if path in ("/livez", "/readyz"):
            ok, why = metrics.live() if path == "/livez" else metrics.ready()
            return _text(start_response, "200 OK" if ok else "503 Service Unavailable", why)
        return _text(start_response, "404 Not Found",
                     f"not found: this server has {', '.join(PATHS)}")

    return app


def _text(start_response: StartResponse, status: str, text: str) -> list[bytes]:
    body = (text + "\n").encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(body))), ("Cache-Control", "no-store")])
    return [body]


class MetricsServerError(Exception):
    """The metrics server cannot listen where it was asked to (a port in use, a bad host)."""


class _QuietHandler(WSGIRequestHandler):
    """No line on stderr per request: a scrape every few seconds would drown the service's
    own JSON log."""

    def log_message(self, *args: Any) -> None:
        pass


class MetricsServer:
    """An HTTP server bound at once (so a port in use stops the service before it starts, with
    a clear error), serving in threads of its own once :meth:`start` is given the app."""

    def __init__(self, host: str, port: int) -> None:
        try:
            family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                        flags=socket.AI_PASSIVE)[0][0]
        except socket.gaierror as error:
            raise MetricsServerError(
                f"cannot serve metrics on {host}:{port}: {error.strerror}") from None

        class Server(ThreadingWSGIServer):
            address_family = family

        try:
            self._httpd = make_server(host, port, _not_started, Server,
                                      handler_class=_QuietHandler)
        except OSError as error:
            why = ("the port is already in use (choose another with --metrics-port or "
                   f"{METRICS_PORT_ENV})" if error.errno == errno.EADDRINUSE
                   else error.strerror or str(error))
            raise MetricsServerError(f"cannot serve metrics on {host}:{port}: {why}") from None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_port)

    def start(self, app: WSGIApplication) -> None:
        self._httpd.set_app(app)
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="metrics",
                                        kwargs={"poll_interval": 0.1}, daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stops serving and frees the port; blocks up to a poll interval (call it off the
        event loop, e.g. with ``asyncio.to_thread``)."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()


def _not_started(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
    return _text(start_response, "503 Service Unavailable", "starting")
