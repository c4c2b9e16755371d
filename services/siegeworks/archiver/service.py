"""``siege serve archiver``: archives every match that finished ``delay`` ago, for ever.

Every ``every_s`` it asks of the scored matches and the live tournaments (siegeworks.archiver
.finding), every ``sweep_s`` of every live log, and archives what is ready, a few at a time.
When the store is busy (memory over the match service's threshold: new matches are being
refused) it archives without waiting out the delay, so memory comes back. Several archivers may
run: each match's lease keeps them off one another's work. It writes a health record like the
other services (``siege health``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import structlog
from redis.asyncio import Redis

from siege.archive.archiving import ARCHIVED, FAILED_AUDIT, Archiver, Outcome
from siege.archive.stores import ArchiveStore
from siege.eventlog.keys import health_key
from siege.eventlog.log import RedisEventLog
from siegeworks.archiver.finding import live_ids, ready, scored_ids
from siegeworks.archiver.metrics import ArchiverMetrics
from siegeworks.headroom import Headroom, measure
from siegeworks.keys import read_keyring

DELAY_S = 60.0
"""How long a finished match stays in Redis before it is archived: its players, spectators and
the pages that show its end read it live for a while."""
EVERY_S = 2.0
SWEEP_S = 300.0
AT_ONCE = 8
HEALTH_TTL_S = 5


@dataclass
class Tally:
    archived: int = 0
    failed: int = 0  # archive attempts that raised (a store or Redis error): tried again
    bad_audits: set[str] = field(default_factory=set)  # left in Redis, as evidence
    bytes_archived: int = 0

    def count(self, outcome: Outcome) -> None:
        if outcome.state == ARCHIVED:
            self.archived += 1
            self.bytes_archived += outcome.size
        elif outcome.state == FAILED_AUDIT:
            self.bad_audits.add(outcome.match_id)


def archiver_on(redis: Redis, store: ArchiveStore, name: str) -> Archiver:
    """An archiver of the live logs in ``redis``, checking seals against the keys published
    there, its leases held as ``<name>:<host>:<pid>``."""
    return Archiver(redis, RedisEventLog(redis), store, lambda: read_keyring(redis),
                    owner=f"{name}:{socket.gethostname()}:{os.getpid()}",
                    now_ms=lambda: int(time.time() * 1000))


async def one_pass(archiver: Archiver, redis: Redis, log: RedisEventLog, delay_ms: int,
                   sweep: bool, tally: Tally, log_out: structlog.typing.FilteringBoundLogger,
                   stop: asyncio.Event | None = None,
                   progress: Callable[[], None] = lambda: None) -> int:
    """Archives what is ready now, 500 at a time (``progress`` is told after each 500, and a
    ``stop`` set meanwhile ends the pass there); returns how many matches it archived."""
    ids = await live_ids(log) if sweep else sorted(
        set(await scored_ids(redis)) | set(await live_ids(log, tournaments_only=True)))
    todo = [m for m in await ready(redis, ids, delay_ms, archiver.now_ms())
            if m not in tally.bad_audits]
    before = tally.archived

    def each(outcome: Outcome) -> None:
        tally.count(outcome)
        if outcome.state == FAILED_AUDIT:
            log_out.warning("archive_refused", match_id=outcome.match_id, why=outcome.detail)

    for start in range(0, len(todo), 500):
        if stop is not None and stop.is_set():
            break
        try:
            await archiver.archive_all(todo[start:start + 500], AT_ONCE, each)
        except Exception as exc:  # noqa: BLE001 - a store or Redis error: the next pass retries
            tally.failed += 1
            log_out.warning("archive_failed", error=repr(exc))
            break
        progress()
    return tally.archived - before


async def serve_archiver(redis_url: str, consumer: str, store: ArchiveStore, *,
                         delay_s: float = DELAY_S, every_s: float = EVERY_S,
                         sweep_s: float = SWEEP_S, stop: asyncio.Event | None = None,
                         metrics_port: int = 0, metrics_host: str = "127.0.0.1") -> None:
    from siegeworks.metrics import MetricsServer, metrics_app
    from siegeworks.redis_target import connect

    metrics = ArchiverMetrics()
    server = MetricsServer(metrics_host, metrics_port) if metrics_port else None
    if server is not None:
        server.start(metrics_app(metrics))
    redis: Redis = connect(redis_url)  # type: ignore[assignment]
    log = RedisEventLog(redis)
    logger = structlog.get_logger(service="archiver", consumer=consumer)
    archiver = archiver_on(redis, store, consumer)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    tally, room = Tally(), Headroom()
    swept_at = 0.0
    logger.info("service_started", store=store.url, delay_s=delay_s)
    while not stop.is_set():
        await measure(redis, room)
        delay_ms = 0 if room.busy else int(delay_s * 1000)
        sweep = time.monotonic() - swept_at >= sweep_s
        failed, bytes_before = tally.failed, tally.bytes_archived
        try:
            done = await one_pass(archiver, redis, log, delay_ms, sweep, tally, logger, stop,
                                  lambda: metrics.passed(True))
        except Exception as exc:  # noqa: BLE001 - Redis away: the next pass tries again
            tally.failed += 1
            logger.warning("archive_pass_failed", error=repr(exc))
            done = 0
        metrics.archived.inc(done)
        metrics.archived_bytes.inc(tally.bytes_archived - bytes_before)
        metrics.failures.inc(tally.failed - failed)
        metrics.refused.set(len(tally.bad_audits))
        metrics.passed(tally.failed == failed)
        if sweep:
            swept_at = time.monotonic()
        if done:
            logger.info("archived", matches=done, total=tally.archived)
        await _beat(redis, consumer, tally, room)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)
    with contextlib.suppress(Exception):
        await redis.delete(health_key("archiver", consumer))
    await redis.aclose()
    if server is not None:
        await asyncio.to_thread(server.close)


async def _beat(redis: Redis, consumer: str, tally: Tally, room: Headroom) -> None:
    from siegeworks.serve import Health

    warnings = [f"{len(tally.bad_audits)} finished matches fail their audit and stay in "
                "Redis (siege audit names why)"] if tally.bad_audits else []
    if room.busy:
        warnings.append(room.describe())
    health = Health(service="archiver", consumer=consumer, pid=os.getpid(),
                    host=socket.gethostname(), at_ms=int(time.time() * 1000),
                    processed=tally.archived, failed=tally.failed, dead_lettered=0, claimed=0,
                    warnings=warnings)
    with contextlib.suppress(Exception):
        await redis.set(health_key("archiver", consumer), msgspec.json.encode(health),
                        ex=HEALTH_TTL_S)
