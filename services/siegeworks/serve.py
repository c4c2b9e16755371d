"""One service as its own process: ``siege serve {match|rules|dice|scoring}``.

Each process consumes its input streams through a consumer group (created at 0) under a stable
consumer name, runs the same handlers as the in-process bus, and writes a health record every
second (``siege health`` reads them). With a metrics port it also serves Prometheus metrics,
``/livez`` and ``/readyz`` (siegeworks.metrics; docs/metrics.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import socket
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import msgspec
import structlog
from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import NoPermissionError, ResponseError

from siege.contracts.messages import RULES_COMMANDS, LogAppended, Message
from siege.contracts.version import CONTRACT_VERSION
from siege.eventlog.keys import (
    CONTRACT_KEY,
    SEAT_SECRET_KEY,
    SHARDS,
    bus_key,
    client_of_commands_key,
    health_key,
)
from siege.eventlog.log import RedisEventLog
from siege.eventlog.pipelined import PipelinedRedis
from siege.eventlog.pipelined_cluster import pipelined_like
from siege.hosting.clock import Clock, FixedClock, RedisClock, SystemClock, redis_time_ms
from siege.hosting.signing import seeded_key
from siege.tournament.state import is_tournament
from siegeworks import ingress, keys
from siegeworks.context import ServiceContext
from siegeworks.dice import handlers as dice
from siegeworks.following import ClientsChanged, RegistryFollower
from siegeworks.headroom import Headroom, measure
from siegeworks.match import handlers as match
from siegeworks.match.clocks import run_clock
from siegeworks.match.lobby import RedisLobbies
from siegeworks.metrics import (
    COMMANDS_LABEL,
    DEFAULT_METRICS_HOST,
    MetricsServer,
    ServiceMetrics,
    matches_running,
    metrics_app,
)
from siegeworks.redis_target import connect, is_cluster_url
from siegeworks.rules import handlers as rules
from siegeworks.scoring import handlers as scoring
from siegeworks.scoring.ratings import RatingBook, apply_finished_tournament
from siegeworks.store_watch import (
    StoreWatch,
    forget_everything,
    read_beat,
    reannounce_unfinished,
    tell_the_others,
)
from siegeworks.transport.activity import Activity, Notifications
from siegeworks.transport.byte_watch import ByteWatch
from siegeworks.transport.counting import CountingConnection, commands_sent
from siegeworks.transport.leases import ShardLeases
from siegeworks.transport.redis_bus import RedisBus
from siegeworks.transport.streams import StreamConsumer, decode_message, ensure_groups
from siegeworks.transport.trimming import cap_forever, trim_forever

SERVICES = ("match", "rules", "dice", "scoring")
"""The services that read the bus."""
PROCESSES = (*SERVICES, "archiver")
"""Everything ``siege serve`` runs: the bus services and the archiver (siegeworks.archiver),
which moves finished matches out of Redis."""
def shard_buses(audience: str) -> list[str]:
    return [bus_key(shard, audience) for shard in range(SHARDS)]
HEALTH_EVERY_S = 1.0
CLIENT_BACKLOG = 10_000
"""Entries kept (about) on a client's commands stream, read or not: a client flooding its own
stream faster than its quota lets it be read loses its own oldest commands, and memory stays
bounded (an honest client has a few hundred in flight at most)."""
QUIET_AFTER_S = 30.0
"""A client's stream not written for this long is read no more until it is (an idle client
costs nothing: siegeworks.transport.activity); ``SIEGE_QUIET_AFTER_S`` changes it."""
SWEEP_EVERY_S = 60.0
"""How often every followed stream is read once anyway (``SIEGE_SWEEP_EVERY_S``)."""
TRIM_EVERY_S = 30.0
"""How often a service trims the streams it reads below what every group still needs: the bus
carries pointers and commands, not history (the logs are the history), so it stays small."""
HEALTH_TTL_S = 5
MAX_CONNECTIONS = 64
CLUSTER_MAX_CONNECTIONS = 256


class Health(msgspec.Struct):
    service: str
    consumer: str
    pid: int
    host: str
    at_ms: int
    processed: int
    failed: int
    dead_lettered: int
    claimed: int
    commands: int = 0  # Redis commands this process has sent (a script call once)
    # Times this process saw the store go back in time, and what it saw (newest last).
    rewinds: int = 0
    warnings: list[str] = []
    # The figures /metrics shows, from the same measurement (siegeworks.metrics): entries not
    # yet delivered to the group and delivered but not acked, over every stream the service
    # reads; the slowest 1% of batch handling times of the last minute; matches in its cache
    # that have not ended. None in a record of a version that did not measure them, or before
    # the first measurement.
    lag: int | None = None
    pending: int | None = None
    batch_p99_ms: float | None = None
    matches_running: int | None = None
    # The shards this replica holds and reads (siegeworks.transport.leases); None in a record
    # of a version without leases.
    shards: list[int] | None = None


def decode_lifecycle(fields: Mapping[bytes, bytes]) -> Message | None:
    """The match service's view of the command stream: everything decoded (it dead-letters
    what is malformed), but actions are passed by (None) without running a handler."""
    message = decode_entry(fields)
    return None if isinstance(message, RULES_COMMANDS) else message


def decode_entry(fields: Mapping[bytes, bytes]) -> Message | ClientsChanged:
    """Shard buses carry the append script's plain pointer fields, other streams a message
    (a doorbell's entry, a client id, is only ever written to a client's stream by mistake)."""
    if b"c" in fields and b"m" not in fields:
        return ClientsChanged(fields[b"c"].decode(errors="replace"))
    if b"m" in fields and b"f" in fields:
        note = LogAppended(match_id=fields[b"m"].decode(), first=int(fields[b"f"]),
                           last=int(fields[b"l"]))
        if b"e" in fields and b"h" in fields:
            return CarriedPointer(note, fields[b"e"], fields[b"h"], fields.get(b"g"))
        return note
    return decode_message(fields)


@dataclass(frozen=True, slots=True)
class CarriedPointer:
    """A pointer with a copy of the last entry it points at (append.lua adds it when that entry
    is small) and maybe a guard: the handler first gives the copy to the loader, which folds it
    instead of reading the log when its cache ends right before it, or (the dice service's
    light cache, with a guard) when the guard says it skips nothing it keeps
    (``MatchLoader.jump``, docs/decisions/0012-a-die-from-the-pointer.md)."""

    note: LogAppended
    stored: bytes
    digest: bytes
    guard: bytes | None = None

    @property
    def match_id(self) -> str:
        return self.note.match_id


def trusted_copy(sender: str | None, message: Any) -> tuple[CarriedPointer | None, Any]:
    """The copy a pointer carries when it may be folded, and the message to route. Only the
    append script writes copies, on the shard buses: the same fields on a client's own stream
    (``sender`` is not None) are that client's words, never a log entry."""
    if not isinstance(message, CarriedPointer):
        return None, message
    return (message if sender is None else None), message.note


Route = Callable[[Message], Awaitable[None]]


def routes(service: str, ctx: ServiceContext, redis: Redis) -> tuple[list[str], Route]:
    """The streams a service reads and the handler for what arrives on them."""
    if service == "match":
        ctx.lobbies = RedisLobbies(redis)
        return [], partial(match.on_command, ctx)
    if service == "rules":
        ctx.on_forget.append(ctx.watchers.clear)  # told seqs of a store that went back

        async def on_rules(message: Message) -> None:
            if isinstance(message, RULES_COMMANDS):
                await rules.on_command(ctx, message)
            elif isinstance(message, LogAppended):
                await rules.on_log_appended(ctx, message)
        return shard_buses("rules"), on_rules
    if service == "dice":
        vault = dice.SeedVault(_master_seed())
        ctx.on_forget.append(vault.forget)

        async def on_dice(message: Message) -> None:
            if isinstance(message, LogAppended):
                await dice.on_log_appended(ctx, vault, message)
        return shard_buses("dice"), on_dice
    if service == "scoring":
        results = scoring.RedisResults(redis)
        book = RatingBook(redis)

        async def on_scoring(message: Message) -> None:
            if isinstance(message, LogAppended) and is_tournament(message.match_id):
                await apply_finished_tournament(ctx, book, message.match_id)
            elif isinstance(message, LogAppended):
                await scoring.on_log_appended(ctx, results, message)
        return shard_buses("scoring"), on_scoring
    raise ValueError(f"unknown service {service!r}; choose from {', '.join(SERVICES)}")


async def seat_secret(redis: Redis) -> bytes:
    """The key for seat tokens: SIEGE_SEAT_SECRET (hex) if set, else one random key kept in a
    restricted Redis key, created once, so every match replica signs alike."""
    configured = os.environ.get("SIEGE_SEAT_SECRET")
    if configured:
        return bytes.fromhex(configured)
    await redis.set(SEAT_SECRET_KEY, secrets.token_bytes(32), nx=True)
    stored = await redis.get(SEAT_SECRET_KEY)
    assert stored is not None
    return bytes(stored)


def _is_commands(stream: str) -> bool:
    return client_of_commands_key(stream) is not None


async def _clock(redis: Redis) -> Clock:
    """Redis' clock, one for every service whatever its host's says (decision clocks are judged
    by it: docs/decisions/0008-one-clock.md); a fixed clock (for reproducible runs) when
    SIEGE_FIXED_CLOCK_MS is set. SIEGE_CLOCK=host runs on the host's clock instead, shifted by
    SIEGE_CLOCK_SKEW_MS (tests use both to show what a wrong host clock did)."""
    fixed = os.environ.get("SIEGE_FIXED_CLOCK_MS")
    if fixed:
        return FixedClock(int(fixed))
    if os.environ.get("SIEGE_CLOCK") == "host":
        return SystemClock(int(os.environ.get("SIEGE_CLOCK_SKEW_MS", "0")))
    clock = RedisClock(RedisTime(redis).now_ms)
    await clock.sync()
    return clock


CLOCK_STREAM = "siege:health:clock"
"""Where a service whose ACL user may not run TIME reads Redis' clock instead: the id of an
entry it adds (``*``, kept to one entry). Every service may write ``siege:health:*``."""


class RedisTime:
    """Redis' time in ms: ``TIME``, or (if this user is refused it) an ``XADD *`` entry id."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.allowed = True

    async def now_ms(self) -> int:
        if self.allowed:
            try:
                return redis_time_ms(await self.redis.time())
            except NoPermissionError:
                self.allowed = False
        entry_id = await self.redis.xadd(CLOCK_STREAM, {"t": "1"}, maxlen=1, approximate=False)
        return int(entry_id.split(b"-")[0] if isinstance(entry_id, bytes)
                   else str(entry_id).split("-")[0])


def _read_interval_ms(service: str) -> int:
    """The match service reads the command stream at most every 20 ms (SIEGE_MATCH_READ_MS):
    the actions on it are the rules service's, and waking for each of them cost it more CPU
    per action than the rules service spends deciding it. Creates and joins wait that long."""
    if service != "match":
        return 0
    return int(os.environ.get("SIEGE_MATCH_READ_MS", "20"))


def _master_seed() -> bytes | None:
    """A master seed makes a run reproducible; production leaves it unset (fresh secrets)."""
    value = os.environ.get("SIEGE_MASTER_SEED")
    return bytes.fromhex(value) if value else None


async def serve(service: str, redis_url: str, consumer: str, *, claim_idle_ms: int = 2000,
                stop: asyncio.Event | None = None, metrics_port: int = 0,
                metrics_host: str = DEFAULT_METRICS_HOST) -> None:
    """Runs ``service`` until ``stop`` is set (SIGTERM, SIGINT). With ``metrics_port`` (0: none)
    it serves /metrics, /livez and /readyz there, until it stops; a port it cannot listen on
    raises :class:`~siegeworks.metrics.MetricsServerError` before anything else is done."""
    server = MetricsServer(metrics_host, metrics_port) if metrics_port else None
    try:
        await _serve(service, redis_url, consumer, claim_idle_ms=claim_idle_ms, stop=stop,
                     server=server)
    finally:
        if server is not None:  # its shutdown waits for the serving thread: off the loop
            await asyncio.to_thread(server.close)


async def _serve(service: str, redis_url: str, consumer: str, *, claim_idle_ms: int,
                 stop: asyncio.Event | None, server: MetricsServer | None) -> None:
    structlog.configure(processors=[
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso"),
        structlog.processors.format_exc_info,  # a failed handler's traceback, in the record
        structlog.processors.JSONRenderer(),
    ])
    # Handlers of one batch run concurrently; a blocking pool makes them wait for a connection
    # instead of failing when more are in flight than the pool holds.
    redis: Any
    reads: PipelinedRedis | None = None
    if is_cluster_url(redis_url):
        # Per node; each slot's read loop holds one while it blocks (StreamConsumer).
        redis = connect(redis_url, max_connections=CLUSTER_MAX_CONNECTIONS)
    else:
        pool_options: dict[str, Any] = {"max_connections": MAX_CONNECTIONS, "timeout": 30}
        if redis_url.startswith("redis://"):
            pool_options["connection_class"] = CountingConnection
        redis = Redis(connection_pool=BlockingConnectionPool.from_url(redis_url,
                                                                      **pool_options))
        reads = PipelinedRedis.like(redis)  # the consumer's blocking reads, with its acks
    # The hot path (appends, log reads, publications, acks) goes through one auto-pipelined
    # connection (one per master on a cluster): a batch's commands for many matches leave in
    # one write.
    pipelined = pipelined_like(redis)
    clock = await _clock(redis)
    bus = RedisBus(redis, buffered=True, pipelined=pipelined, now_ms=clock.now_ms)
    ctx = ServiceContext.create(service, RedisEventLog(redis, pipelined=pipelined), bus, clock)
    ctx.decision_timeout_ms = int(os.environ.get("SIEGE_DECISION_TIMEOUT_MS", "60000"))
    if service in ("match", "rules"):  # the match service signs seat tokens, the rules check
        ctx.seat_secret = await seat_secret(redis)
    if service == "dice":  # it seals each match as it reveals the seed
        master = _master_seed()
        if master is not None:  # a reproducible run: the same signatures on every machine
            seeded = seeded_key(master)
            await keys.publish(redis, seeded, ctx.clock.now_ms())
            ctx.signing_key = lambda: seeded
        else:
            key_file = keys.KeyFile(keys.key_path())
            await keys.publish(redis, key_file.current(), ctx.clock.now_ms())
            ctx.signing_key = key_file.current
    streams, route = routes(service, ctx, redis)
    watch = StoreWatch()
    recovering: set[asyncio.Task[Any]] = set()

    def rewound(what: str, tell: bool = False) -> None:
        """The store went back in time: forget, report, tell the other services (when this
        one found it in a log), and (match) point everyone at the heads of the logs again."""
        watch.note(what)
        ctx.logger.error("store_went_back", what=what, rewinds=watch.rewinds)
        forget_everything(ctx)
        work = [tell_the_others(redis)] if tell else []
        if service == "match":
            work.append(reannounce_unfinished(ctx, ctx.log))
        for job in work:
            task = asyncio.create_task(job)
            recovering.add(task)
            task.add_done_callback(recovered)

    def recovered(task: asyncio.Task[Any]) -> None:
        recovering.discard(task)
        if task.cancelled():
            return
        if task.exception() is not None:  # the next rewind noticed tries again
            ctx.logger.error("store_recovery_failed", error=repr(task.exception()))
        elif task.result() is not None:
            ctx.logger.warning("store_recovered", unfinished_matches=task.result())

    ctx.loader.on_rewind = lambda match_id, seen, now: rewound(
        f"the log of {match_id} holds {now} events, fewer than the {seen} this process saw",
        tell=True)

    # One handler at a time per match in this process: the loader's cached state is shared,
    # and entries of one match can arrive on several streams and through the claimer at once.
    # A plain dict with a count of the handlers holding or awaiting each lock, emptied as a
    # match's last one leaves (a weak dictionary cost more per message than the lock itself).
    locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    async def handle(stream: str, entry_id: str, message: Any) -> None:
        if isinstance(message, ClientsChanged):
            return  # a doorbell entry on a client's own stream rings nothing
        sender = client_of_commands_key(stream)
        copy, message = trusted_copy(sender, message)
        if sender is not None:
            if service == "rules" and not isinstance(message, RULES_COMMANDS):
                return  # the match service's (a pointer written there is nobody's)
            message = await admission.admit(ctx, message, sender)
            if message is None:
                return
        # No per-message log context: the consumer logs one record per batch, with the match
        # ids it touched (and the match id of any entry whose handler fails).
        match_id = getattr(message, "match_id", "")
        held = locks.get(match_id)
        if held is None:
            held = locks[match_id] = (asyncio.Lock(), [0])
        lock, users = held
        users[0] += 1
        try:
            async with lock:
                if copy is not None and copy.guard is not None and ctx.loader.light:
                    ctx.loader.jump(copy.match_id, copy.note.last, copy.stored, copy.digest,
                                    copy.guard)
                elif copy is not None:
                    ctx.loader.offer(copy.match_id, copy.note.last, copy.stored, copy.digest)
                await route(message)
        finally:
            users[0] -= 1
            if not users[0]:
                del locks[match_id]

    async def follow(streams: Collection[str]) -> list[str]:
        """Reads these clients' commands streams from now on. The other reader's group is
        made too, at the same moment: a stream with only one group would be trimmed below
        what that one has read, before the other had seen it."""
        added = await reader.follow(streams)
        other = "rules" if service == "match" else "match"
        for stream, made in (await ensure_groups(redis, added, other)).items():
            if isinstance(made, ResponseError):  # a key that is no stream: the other makes its own
                ctx.logger.warning("group not made", stream=stream, group=other, error=str(made))
        return added

    admission = ingress.Admission()
    ctx.on_refused = admission.note_refused
    # The shards this replica reads (all of them when it is the only one): held before the
    # first read, so it never reads a shard another replica holds.
    leases = ShardLeases(redis, service, consumer, ctx.clock.now_ms, logger=ctx.logger)
    await leases.tick()

    def skip(stream: str) -> bool:
        return not leases.holds(stream) or admission.skips(stream)

    metrics = ServiceMetrics(service, consumer)
    # The match service keeps suspect clients' streams under their byte budget as they write.
    bytes_watch = (ByteWatch(redis, lambda stream: (client := client_of_commands_key(stream))
                             is not None and admission.paused(client), logger=ctx.logger)
                   if service == "match" else None)

    async def unreadable(stream: str, fields: Mapping[bytes, bytes],
                         error: BaseException) -> None:
        if bytes_watch is not None:
            bytes_watch.mark(stream)
        await ingress.answer_unreadable(ctx, stream, fields, error)

    # Only the clients' streams written lately are read (siegeworks.transport.activity).
    activity = (Activity(float(os.environ.get("SIEGE_QUIET_AFTER_S", QUIET_AFTER_S)),
                         float(os.environ.get("SIEGE_SWEEP_EVERY_S", SWEEP_EVERY_S)))
                if service in ("match", "rules") else None)
    if activity is not None and bytes_watch is not None:
        activity.on_write = bytes_watch.written
    reader = StreamConsumer(redis, streams, group=service, consumer=consumer, handler=handle,
                            decode=decode_lifecycle if service == "match" else decode_entry,
                            claim_idle_ms=claim_idle_ms, logger=ctx.logger,
                            key=lambda message: getattr(message, "match_id", None),
                            before_ack=bus.flush, pipelined=pipelined,
                            flush_failures=lambda: bus.failed_flushes,
                            on_undecodable=(unreadable if service == "match" else None),
                            drop_undecodable=(_is_commands if service == "match" else None),
                            # Commands that do not parse are the match service's to dead-letter
                            # (it owns message shape); the rules group just passes them by.
                            not_ours_if_undecodable=(
                                _is_commands if service == "rules" else None),
                            reads=reads, read_interval_ms=_read_interval_ms(service),
                            skip=skip, skip_key=lambda: (leases.moves, admission.resting()),
                            on_batch=metrics.observe_batch, activity=activity)
    stop = stop or asyncio.Event()
    metrics.watch(reader, stop)
    if server is not None:  # /readyz says 503 until the consumer's start-up is done
        server.start(metrics_app(metrics))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    def looked_after() -> list[str]:
        """The streams whose upkeep (lag measured, backlogs capped) is this replica's: those
        of the shards it holds, not every stream it follows; of the clients' streams, only
        those written lately when that is known."""
        return leases.looked_after(reader.considered())

    def to_trim() -> list[str]:
        """What the trimmer goes over: as :func:`looked_after`, with the clients' streams
        written since its last pass (one gone quiet meanwhile is trimmed once more)."""
        if activity is None or not activity.live:
            return leases.looked_after(reader.streams)
        touched = activity.touched()
        return [stream for stream in reader.streams[:len(streams)]
                + sorted(touched & reader.followed) if leases.looks_after(stream)]

    registry = backlogs = notifications = None
    if activity is not None:  # the services that read the clients' commands
        # A shard taken over: its clients' streams may hold what its last holder left.
        leases.on_change.append(lambda held: (reader.claim_everything_soon(),
                                              activity.sweep_now()))
        notifications = asyncio.create_task(Notifications(
            redis, activity, f"{service}:{consumer}",
            wanted=lambda stream: client_of_commands_key(stream) is not None,
            logger=ctx.logger).run(stop))
        # Every replica follows the doorbell itself: whichever holds a new client's shard
        # reads its first command at once.
        follower = RegistryFollower(redis, follow, lambda: reader.followed)
        await follower.start()
        registry = asyncio.create_task(follower.run(stop))
    if service == "match":  # one service caps what clients may leave unread
        backlogs = asyncio.create_task(cap_forever(
            redis, lambda: [s for s in looked_after() if _is_commands(s)], CLIENT_BACKLOG,
            1.0, stop, ctx.logger))
    running = asyncio.create_task(reader.run())
    leasing = asyncio.create_task(leases.run(stop))
    trimmer = asyncio.create_task(trim_forever(
        redis, to_trim,
        float(os.environ.get("SIEGE_TRIM_EVERY_S", TRIM_EVERY_S)), stop, ctx.logger))
    beat = asyncio.create_task(_heartbeat(redis, service, consumer, reader, stop, watch,
                                          rewound, ctx.room, metrics,
                                          partial(matches_running, ctx.loader),
                                          lambda: sorted(leases.held), looked_after))
    clocks = (asyncio.create_task(run_clock(ctx, redis, stop, lambda: leases.held, pipelined))
              if service == "match" else None)
    ctx.logger.info("service_started", consumer=consumer, streams=len(streams))
    await stop.wait()
    reader.stop()
    await running
    await leasing
    await beat
    await trimmer
    for task in (registry, backlogs, clocks, notifications):
        if task is not None:
            await task
    await redis.delete(health_key(service, consumer))
    await pipelined.aclose()
    if reads is not None:
        await reads.aclose()
    await redis.aclose()


async def _heartbeat(redis: Redis, service: str, consumer: str, reader: StreamConsumer[Any],
                     stop: asyncio.Event, watch: StoreWatch,
                     rewound: Callable[..., None], room: Headroom, metrics: ServiceMetrics,
                     running: Callable[[], int], shards: Callable[[], list[int]],
                     measured: Callable[[], list[str]]) -> None:
    encoder = msgspec.json.Encoder()
    # The services that read clients' commands always show that series, even with no client.
    always = (COMMANDS_LABEL,) if service in ("match", "rules") else ()
    while not stop.is_set():
        metrics.beat_ran()  # /livez: the event loop got round to this beat
        if reader.ready.is_set():
            try:
                what = watch.observe(*await read_beat(redis, keeper=service == "match"))
                if what is not None:
                    rewound(what)
                if service == "match":  # the one that decides on new matches
                    await measure(redis, room)
                    # ... and says which contract the services speak, for clients to check
                    # (every beat: a store that went back or was flushed gets it again).
                    await redis.hset(CONTRACT_KEY, "version", CONTRACT_VERSION)
                # Once per beat, one round trip: the figures of the record and of /metrics,
                # over this replica's shards (the replicas' lags add up to the group's).
                figures = await metrics.measure(redis, measured(), service, running, always)
                health = Health(service=service, consumer=consumer, pid=os.getpid(),
                                host=socket.gethostname(), at_ms=int(time.time() * 1000),
                                processed=reader.processed, failed=reader.failed,
                                dead_lettered=reader.dead_lettered, claimed=reader.claimed,
                                commands=commands_sent(), rewinds=watch.rewinds,
                                warnings=watch.warnings + ([room.describe()] if room.busy
                                                           else []),
                                lag=figures.lag, pending=figures.pending,
                                batch_p99_ms=figures.batch_p99_ms,
                                matches_running=figures.matches_running, shards=shards())
                await redis.set(health_key(service, consumer), encoder.encode(health),
                                ex=HEALTH_TTL_S)
                metrics.beat_reached_redis(True)
            except Exception as exc:  # noqa: BLE001 - a missed beat; the next may get through
                # (Redis refusing, or redis-py's cluster client failing with a plain error on a
                # connection it closed during a failover: the heartbeat must outlive both)
                metrics.beat_reached_redis(False)
                structlog.get_logger(service=service).warning("heartbeat failed",
                                                              error=repr(exc))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), HEALTH_EVERY_S)


async def read_health(redis: Redis) -> list[Health]:
    keys = [key async for key in redis.scan_iter(match="siege:health:*", _type="string")]
    # One GET each in a pipeline, not MGET: on a cluster the records sit in different slots.
    async with redis.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.get(key)
        values = await pipe.execute() if keys else []
    return sorted((msgspec.json.decode(v, type=Health) for v in values if v),
                  key=lambda h: (h.service, h.consumer))
