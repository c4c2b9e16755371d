"""Which clients' commands streams were written lately: the only ones a replica reads, claims,
measures, trims and caps between two sweeps. An idle client then costs a replica nothing.

Redis says when a stream is written: with ``notify-keyspace-events`` holding ``K`` and ``t``,
every XADD publishes ``xadd`` on ``__keyspace@<db>__:<key>``. A replica subscribes, on every
primary (a cluster publishes a key's events on the node that holds it, and nowhere else), to
the commands streams' pattern. The signal can be trusted: Redis itself sends it, naming the key
written, and a client can write only its own stream, so "who you are is the stream you write"
holds as before; a hostile client can make its own stream lively, nothing more.

A stream noticed stays lively for ``quiet_after_s`` after its last write, so a client playing
a match does not make each of its commands wake the reader. Pub/sub is at-most-once: a
subscription lost (a dropped connection, a failover) or not yet made misses writes, so
- each (re)subscription is followed by a sweep: one non-blocking read of every followed stream,
  which hands out whatever waited;
- a sweep runs every ``sweep_every_s`` anyway, as the safety net;
- while no subscription is up on every primary (notifications off on the server, or a node
  unreachable), the replica reads every followed stream on every pass, as before.

See docs/decisions/0017-idle-clients-cost-nothing.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable
from typing import Any

import structlog
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

QUIET_AFTER_S = 30.0
"""A stream last written this long ago is read no more until it is written again."""
SWEEP_EVERY_S = 60.0
"""How often every followed stream is read once whatever the notifications said."""
PROBE_WAIT_S = 2.0
"""How long a new subscription waits for its own probe's notification before it is trusted."""
RETRY_S = 5.0
"""How long a replica waits before subscribing again after a failure."""
COMMANDS_PATTERN = "siege:client:*:commands"
PROBE_PREFIX = "siege:probe:"
"""A replica proves notifications reach it by writing a key of its own here and hearing it."""
NEEDED_FLAGS = "Kt"
"""``notify-keyspace-events`` must hold these (or ``A`` for ``t``): keyspace events of streams."""
WRITES = frozenset({b"xadd", "xadd"})


def channel_prefix(db: int) -> str:
    return f"__keyspace@{db}__:"


class Activity:
    """The followed streams written in the last ``quiet_after_s``, and when to sweep.

    ``live`` is True while notifications are known to arrive from every primary: only then may
    a reader leave quiet streams unread. ``version`` changes whenever the lively set or
    ``live`` does (a reader works its list of streams out again only then); ``on_change`` is
    called when a stream becomes lively or ``live`` changes (the reader ends its blocking read,
    so the next one names the stream)."""

    def __init__(self, quiet_after_s: float = QUIET_AFTER_S,
                 sweep_every_s: float = SWEEP_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet_after_s, self.sweep_every_s, self.clock = quiet_after_s, sweep_every_s, clock
        self.live = False
        self.version = 0
        self.on_change: Callable[[], None] | None = None
        self.on_write: Callable[[str], None] | None = None  # told of every stream written
        self.noticed = 0  # notifications taken, for tests and metrics
        self._written: dict[str, float] = {}  # lively stream -> when last written
        self._touched: set[str] = set()  # written since the upkeep last took them
        self._next_expiry = 0.0
        self._sweep_at = 0.0  # a sweep is due at once

    def notice(self, stream: str) -> None:
        """``stream`` was written (a notification, or a read found entries on it)."""
        self.noticed += 1
        new = stream not in self._written
        self._written[stream] = self.clock()
        self._touched.add(stream)
        if self.on_write is not None:
            self.on_write(stream)
        if new:
            self.version += 1
            self._changed()

    def lively(self) -> Iterable[str]:
        """The streams written in the last ``quiet_after_s`` (expired at most once a second)."""
        now = self.clock()
        if now >= self._next_expiry:
            self._next_expiry = now + 1.0
            quiet = [s for s, at in self._written.items() if now - at > self.quiet_after_s]
            for stream in quiet:
                del self._written[stream]
            if quiet:
                self.version += 1
        return self._written.keys()

    def touched(self) -> set[str]:
        """The streams written since the last call, with the lively ones: what the upkeep
        (trimming, capping) must look at. A stream gone quiet is taken once more, so its last
        entries are trimmed after it falls out of the reads."""
        taken, self._touched = self._touched, set()
        return taken | set(self.lively())

    def set_live(self, live: bool) -> None:
        if live != self.live:
            self.live = live
            self.version += 1
            if live:
                self.sweep_now()  # what was written while nobody listened
            self._changed()

    def sweep_now(self) -> None:
        self._sweep_at = 0.0

    def sweep_due(self) -> bool:
        return self.live and self.clock() >= self._sweep_at

    def swept(self) -> None:
        self._sweep_at = self.clock() + self.sweep_every_s

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()


def _nodes(redis: Redis) -> list[tuple[str, int] | None]:
    """The primaries to subscribe on: each of a cluster's, or None for the one Redis."""
    if isinstance(redis, RedisCluster):
        return [(node.host, int(node.port)) for node in redis.get_primaries()]
    return [None]


def _node_client(redis: Redis, node: tuple[str, int] | None) -> Redis:
    if node is None:
        return redis
    kw = redis.get_connection_kwargs()
    options = {name: kw[name] for name in ("username", "password", "ssl", "ssl_cert_reqs",
                                           "ssl_ca_certs", "ssl_certfile", "ssl_keyfile")
               if kw.get(name) is not None}
    if "ssl" not in options and "SSL" in str(kw.get("connection_class", "")):
        options["ssl"] = True
    return Redis(host=node[0], port=node[1], **options)


async def ensure_notifications(client: Redis, log: Any) -> bool:
    """Turns on keyspace events of streams on this node when they are off and this user may
    (CONFIG SET: a server of one's own, the operator's user); True if it did. A service user
    under ACLs may not: the operator sets ``notify-keyspace-events Kt`` (deploy/ does)."""
    try:
        reply = await client.config_get("notify-keyspace-events")
        flags = str(next(iter(reply.values()), ""))
        flags = flags.decode() if isinstance(flags, bytes) else flags
        missing = [f for f in NEEDED_FLAGS if f not in flags and not (f == "t" and "A" in flags)]
        if not missing:
            return False
        await client.config_set("notify-keyspace-events", flags + "".join(missing))
    except RedisError as exc:
        log.info("keyspace events not set here", error=str(exc))
        return False
    log.info("keyspace events of streams turned on", flags=flags + "".join(missing))
    return True


class Notifications:
    """Subscribes on every primary and tells ``activity`` of every commands stream written,
    until ``stop``; keeps ``activity.live`` true only while every subscription is up and was
    proved by a probe of its own (a write this replica made and heard)."""

    def __init__(self, redis: Redis, activity: Activity, name: str,
                 wanted: Callable[[str], bool] = lambda stream: True,
                 logger: Any = None) -> None:
        self.redis, self.activity, self.name, self.wanted = redis, activity, name, wanted
        self.log = logger or structlog.get_logger("siegeworks.transport.activity")
        db = int(redis.get_connection_kwargs().get("db", 0) or 0)
        self.prefix = channel_prefix(db)
        self.prefix_bytes = self.prefix.encode()
        self.up: dict[tuple[str, int] | None, bool] = {}
        self._warned = False

    def probe_key(self, node: tuple[str, int] | None) -> str:
        """This replica's probe stream: on a cluster, one whose slot ``node`` holds (the
        notification of a write is published on the node written)."""
        if node is None:
            return f"{PROBE_PREFIX}{self.name}"
        for tag in range(100_000):
            key = f"{PROBE_PREFIX}{{{tag}}}:{self.name}"
            found = self.redis.get_node_from_key(key)
            if found is not None and (found.host, int(found.port)) == node:
                return key
        raise LookupError(f"no slot of {node} known")

    async def run(self, stop: asyncio.Event) -> None:
        """One listener per primary; the set of primaries looked at again every sweep."""
        listeners: dict[tuple[str, int] | None, asyncio.Task[None]] = {}
        try:
            while not stop.is_set():
                try:
                    nodes = _nodes(self.redis)
                except Exception as exc:  # noqa: BLE001 - a cluster between two topologies
                    self.log.warning("primaries not known", error=repr(exc))
                    nodes = list(listeners)
                for node in [n for n in listeners if n not in nodes]:
                    listeners.pop(node).cancel()
                    self.up.pop(node, None)
                for node in nodes:
                    if node not in listeners or listeners[node].done():
                        listeners[node] = asyncio.create_task(self._listen(node, stop))
                self._update()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), min(RETRY_S, self.activity.sweep_every_s))
        finally:
            for task in listeners.values():
                task.cancel()
            for task in listeners.values():
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.activity.set_live(False)

    def _update(self, stopping: bool = False) -> None:
        live = bool(self.up) and all(self.up.values())
        if not live and not self._warned and self.up and not stopping:
            self._warned = True
            self.log.warning(
                "keyspace notifications not heard: every followed stream is read on every "
                "pass, a cost that grows with the clients registered (set "
                f"notify-keyspace-events {NEEDED_FLAGS} on every primary)")
        if live:
            self._warned = False
        self.activity.set_live(live)

    async def _listen(self, node: tuple[str, int] | None, stop: asyncio.Event) -> None:
        """Subscribes on ``node`` and passes its notifications on until it fails or stops."""
        client = _node_client(self.redis, node)
        pubsub = client.pubsub()
        self.up[node] = False
        probe = self.probe_key(node)
        try:
            await ensure_notifications(client, self.log)
            await pubsub.psubscribe(self.prefix + COMMANDS_PATTERN)
            await pubsub.subscribe(self.prefix + probe)
            # A stream write (keyspace events of class t, the flag needed), gone in a minute.
            async with client.pipeline(transaction=False) as pipe:
                pipe.xadd(probe, {b"p": b"1"}, maxlen=1, approximate=False)
                pipe.expire(probe, 60)
                await pipe.execute()
            heard = await self._hear_probe(pubsub, probe)
            if not heard:
                self._update()
                await asyncio.sleep(RETRY_S)
                return
            self.up[node] = True
            self._update()
            while not stop.is_set():
                message = await pubsub.get_message(timeout=1.0)
                if message is not None:
                    self._take(message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a lost subscription: reads go back to all
            self.log.warning("keyspace subscription lost", node=str(node), error=repr(exc))
        finally:
            self.up[node] = False
            self._update(stopping=stop.is_set())
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            if node is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()

    async def _hear_probe(self, pubsub: Any, probe: str) -> bool:
        channel = (self.prefix + probe).encode()
        deadline = asyncio.get_running_loop().time() + PROBE_WAIT_S
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            message = await pubsub.get_message(timeout=left)
            if message is None:
                continue
            if message.get("channel") == channel and message.get("type") == "message":
                return True
            self._take(message)
        return False

    def _take(self, message: dict[str, Any]) -> None:
        if message.get("type") != "pmessage" or message.get("data") not in WRITES:
            return
        channel = message.get("channel")
        if isinstance(channel, bytes) and channel.startswith(self.prefix_bytes):
            stream = channel[len(self.prefix_bytes):].decode(errors="replace")
            if self.wanted(stream):
                self.activity.notice(stream)
