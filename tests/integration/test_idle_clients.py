"""Idle clients cost nothing: a replica reads, claims and measures only the clients' commands
streams written lately, which Redis names in its keyspace notifications; every other followed
stream only at a sweep (after every new subscription, and now and then as the safety net).
Without notifications a replica reads every stream on every pass, as before."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio

from siege.eventlog.keys import bus_key, commands_key
from siege.testing.waiting import wait_until
from siegeworks.transport.activity import Activity, Notifications
from siegeworks.transport.streams import StreamConsumer

pytestmark = [pytest.mark.integration]

Run = Callable[[Awaitable[Any]], Any]
BASE = bus_key(0, "rules")


class Clock:
    """A clock the test moves: streams go quiet when it says so, not when a sleep ends."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def clients(count: int) -> list[str]:
    return [commands_key(f"idle-{n}") for n in range(count)]


async def write(r: redis.asyncio.Redis, stream: str, body: bytes = b"x") -> None:
    await r.xadd(stream, {b"m": body})


class Setup:
    """A consumer following ``streams`` with an activity of the test's clock, its notifications
    running; ``handled`` the (stream, body) it was given."""

    def __init__(self, r: redis.asyncio.Redis, streams: list[str], clock: Clock,
                 sweep_every_s: float = 3600.0) -> None:
        self.r, self.clock = r, clock
        self.activity = Activity(quiet_after_s=30.0, sweep_every_s=sweep_every_s, clock=clock)
        self.handled: list[tuple[str, bytes]] = []
        self.stop = asyncio.Event()
        self.streams = streams

        async def handler(stream: str, entry_id: str, body: Any) -> None:
            self.handled.append((stream, body))

        self.reader = StreamConsumer(r, [BASE], "match", "match-1", handler,
                                     decode=lambda fields: fields[b"m"], block_ms=200,
                                     activity=self.activity)
        self.notifications = Notifications(r, self.activity, "test:match-1",
                                           wanted=lambda s: s.endswith(":commands"))

    async def __aenter__(self) -> Setup:
        self.tasks = [asyncio.create_task(self.notifications.run(self.stop))]
        await self.reader.follow(self.streams)
        self.tasks.append(asyncio.create_task(self.reader.run()))
        await wait_until(lambda: self.activity.live, "the subscription proved by its probe")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stop.set()
        self.reader.stop()
        await asyncio.gather(*self.tasks)

    def go_quiet(self) -> None:
        """Everything written so far is older than quiet_after_s."""
        self.clock.now += 31.0
        self.activity.lively()


@pytest.mark.both_stores
def test_a_replica_reads_only_the_streams_written_lately(redis_client: redis.asyncio.Redis,
                                                         run: Run) -> None:
    streams = clients(300)

    async def scenario() -> None:
        # Written before anyone listened: the first sweep (at the subscription) finds them.
        for stream in streams[:5]:
            await write(redis_client, stream, b"old")
        async with Setup(redis_client, streams, Clock()) as s:
            await wait_until(lambda: len(s.handled) == 5, "the sweep's five old commands")
            assert s.reader.sweeps >= 1
            s.go_quiet()
            # Quiet now: a read names the shard's bus and no client's stream.
            assert s.reader.considered() == [BASE]
            await write(redis_client, streams[200], b"new")
            await wait_until(lambda: (streams[200], b"new") in s.handled,
                             "a quiet client's command, read as it is written")
            assert s.reader.considered() == [BASE, streams[200]]
            assert s.activity.live
            s.go_quiet()
            assert streams[200] not in s.reader.considered()

    run(scenario())


def test_every_stream_is_read_while_no_notification_is_heard(redis_url: str,
                                                             redis_client: redis.asyncio.Redis,
                                                             run: Run) -> None:
    """Keyspace events off, and a user that may not turn them on: the replica says so and
    reads every followed stream on every pass (a command is still answered)."""
    streams = clients(20)

    async def scenario() -> None:
        await redis_client.config_set("notify-keyspace-events", "")
        await redis_client.acl_setuser("svc", enabled=True, passwords=["+pw"], keys=["~*"],
                                       channels=["*"], commands=["+@all", "-config"])
        user = redis.asyncio.Redis.from_url(redis_url, username="svc", password="pw")
        try:
            clock = Clock()
            activity = Activity(clock=clock)
            stop = asyncio.Event()
            task = asyncio.create_task(Notifications(user, activity, "t").run(stop))
            handled: list[bytes] = []

            async def handler(stream: str, entry_id: str, body: Any) -> None:
                handled.append(body)

            reader = StreamConsumer(user, [BASE], "match", "m-1", handler,
                                    decode=lambda f: f[b"m"], block_ms=200, activity=activity)
            await reader.follow(streams)
            running = asyncio.create_task(reader.run())
            await write(redis_client, streams[7], b"heard anyway")
            await wait_until(lambda: b"heard anyway" in handled, "a command read by the "
                             "every-stream reads")
            assert not activity.live
            assert len(reader.considered()) == 21
            stop.set()
            reader.stop()
            await asyncio.gather(task, running)
        finally:
            await user.aclose()
            await redis_client.config_set("notify-keyspace-events", "Kt")

    run(scenario())


def test_a_lost_subscription_reads_everything_then_sweeps(redis_client: redis.asyncio.Redis,
                                                          run: Run) -> None:
    """The pub/sub connection killed: until it is back the replica reads every stream, and
    the new subscription is followed by a sweep, so a command written meanwhile is read."""
    streams = clients(50)

    async def scenario() -> None:
        async with Setup(redis_client, streams, Clock()) as s:
            s.go_quiet()
            sweeps = s.reader.sweeps
            await redis_client.client_kill_filter(_type="pubsub")
            await wait_until(lambda: not s.activity.live, "the lost subscription noticed")
            await write(redis_client, streams[3], b"meanwhile")
            await wait_until(lambda: (streams[3], b"meanwhile") in s.handled,
                             "the command written while nobody listened")
            await wait_until(lambda: s.activity.live, "subscribed again", timeout=20)
            await wait_until(lambda: s.reader.sweeps > sweeps, "a sweep after it")

    run(scenario())


def test_the_safety_net_sweep_finds_a_write_no_notification_announced(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    """A notification that never came (pub/sub is at most once): the periodic sweep reads the
    stream anyway."""
    streams = clients(50)

    async def scenario() -> None:
        async with Setup(redis_client, streams, Clock(), sweep_every_s=60.0) as s:
            s.go_quiet()
            s.notifications.wanted = lambda stream: False  # every notification lost from now
            await write(redis_client, streams[9], b"unannounced")
            assert s.reader.considered() == [BASE]
            s.clock.now += 61.0  # the sweep is due: the next pass of the reader makes it
            await wait_until(lambda: (streams[9], b"unannounced") in s.handled,
                             "the command the sweep found")

    run(scenario())


def test_a_service_user_may_hear_the_clients_write(redis_url: str,
                                                   redis_client: redis.asyncio.Redis,
                                                   run: Run) -> None:
    """The match and rules services' ACL users may subscribe to the commands streams' keyspace
    events and write their probe (PSUBSCRIBE's pattern is allowed letter for letter)."""
    from siege.eventlog.acl import service_rules

    async def scenario() -> None:
        for service in ("match", "rules"):
            await redis_client.execute_command("ACL", "SETUSER", f"t-{service}",
                                               *service_rules(service), ">pw")
            user = redis.asyncio.Redis.from_url(redis_url, username=f"t-{service}",
                                                password="pw")
            activity, stop = Activity(), asyncio.Event()
            task = asyncio.create_task(Notifications(user, activity, service).run(stop))
            try:
                await wait_until(lambda: activity.live, f"{service}'s subscription")  # noqa: B023
                await write(redis_client, commands_key("someone"))
                await wait_until(lambda: commands_key("someone") in activity.lively(),  # noqa: B023
                                 "the write heard")
            finally:
                stop.set()
                await task
                await user.aclose()

    run(scenario())
