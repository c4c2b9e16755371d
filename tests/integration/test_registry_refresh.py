"""The match and rules replicas learn of new clients from the registry (``siege:clients``): read
whole at start, then again only when its mark (its size, the doorbell's last ring) has changed,
and once a minute whatever it says. Before, every replica read every registered client every
two seconds."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import pytest
import redis.asyncio

from siege.eventlog.keys import CLIENTS_CHANGED_STREAM, CLIENTS_KEY, commands_key
from siege.testing.waiting import wait_until
from siegeworks import ingress

pytestmark = [pytest.mark.integration, pytest.mark.both_stores]

Run = Callable[[Awaitable[Any]], Any]


class Counted:
    """The registry's reads and looks at its mark, counted; and the streams followed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads = self.looks = 0
        self.followed: set[str] = set()
        read, mark = ingress.registered_streams, ingress.registry_mark

        async def counted_read(r: Any) -> list[str]:
            self.reads += 1
            return await read(r)

        async def counted_mark(r: Any) -> tuple[int, bytes | None]:
            self.looks += 1
            return await mark(r)

        monkeypatch.setattr(ingress, "registered_streams", counted_read)
        monkeypatch.setattr(ingress, "registry_mark", counted_mark)

    async def follow(self, streams: Collection[str]) -> list[str]:
        added = sorted(set(streams) - self.followed)
        self.followed.update(added)
        return added

    async def looked(self, times: int) -> None:
        """Waits for ``times`` more looks at the mark."""
        until = self.looks + times
        await wait_until(lambda: self.looks >= until, f"{times} looks at the registry's mark")


async def register(r: redis.asyncio.Redis, client: str, ring: bool = True) -> None:
    """As ``siege acl issue`` does (added and rung), or added alone."""
    await r.sadd(CLIENTS_KEY, client)
    if ring:
        await r.xadd(CLIENTS_CHANGED_STREAM, {"c": client})


def test_the_registry_is_read_again_only_when_its_mark_changed(
        redis_client: redis.asyncio.Redis, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)

    async def scenario() -> None:
        r = redis_client
        await register(r, "ann")
        await register(r, "bob")
        stop = asyncio.Event()
        task = asyncio.create_task(ingress.refresh_forever(r, counted.follow, stop,
                                                           every_s=0.01, full_every_s=3600))
        await counted.looked(30)
        assert counted.reads == 1  # at start, and not again while nothing changed
        assert counted.followed == {commands_key("ann"), commands_key("bob")}
        await register(r, "cat")  # rung
        await wait_until(lambda: commands_key("cat") in counted.followed, "cat followed")
        await register(r, "dan", ring=False)  # the size says it
        await wait_until(lambda: commands_key("dan") in counted.followed, "dan followed")
        await r.srem(CLIENTS_KEY, "ann")  # the same size, but a ring
        await register(r, "eve")
        await wait_until(lambda: commands_key("eve") in counted.followed, "eve followed")
        await counted.looked(2)
        settled = counted.reads
        await counted.looked(30)
        assert counted.reads == settled
        stop.set()
        await task

    run(scenario())


def test_a_change_the_mark_misses_is_read_at_the_next_full_read(
        redis_client: redis.asyncio.Redis, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)

    async def scenario(full_every_s: float) -> set[str]:
        r = redis_client
        await r.delete(CLIENTS_KEY, CLIENTS_CHANGED_STREAM)
        counted.followed.clear()
        await register(r, "ann")
        stop = asyncio.Event()
        task = asyncio.create_task(ingress.refresh_forever(
            r, counted.follow, stop, every_s=0.01, full_every_s=full_every_s))
        await wait_until(lambda: counted.followed, "the registry read at start")
        # One revoked, another added without a ring: size and last ring as they were.
        await r.srem(CLIENTS_KEY, "ann")
        await register(r, "fay", ring=False)
        await counted.looked(30)  # 0.3 s and more
        stop.set()
        await task
        return counted.followed

    assert commands_key("fay") not in run(scenario(full_every_s=3600))
    assert commands_key("fay") in run(scenario(full_every_s=0.1))


def test_a_doorbell_that_is_no_stream_does_not_stop_the_registry_being_read(
        redis_client: redis.asyncio.Redis, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)

    async def scenario() -> None:
        r = redis_client
        await r.set(CLIENTS_CHANGED_STREAM, "not a stream")
        await r.sadd(CLIENTS_KEY, "ann")
        stop = asyncio.Event()
        task = asyncio.create_task(ingress.refresh_forever(r, counted.follow, stop,
                                                           every_s=0.01, full_every_s=3600))
        await wait_until(lambda: counted.followed, "the registry read")
        await r.sadd(CLIENTS_KEY, "bob")
        await wait_until(lambda: commands_key("bob") in counted.followed, "bob followed")
        stop.set()
        await task

    run(scenario())


def test_a_ring_follows_or_drops_the_client_it_names_by_the_registry(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    """One SISMEMBER per ring, not the whole registry: the client rung for is followed if it
    is registered and dropped if not (revoked); a name that is no client id changes nothing."""
    ann, bob = commands_key("ann"), commands_key("bob")

    async def scenario() -> list[list[str]]:
        r = redis_client
        await r.sadd(CLIENTS_KEY, "ann", "bob")
        added = await ingress.after_ring(r, [ann], "bob")
        stranger = await ingress.after_ring(r, [ann], "mallory")  # rung, never registered
        await r.srem(CLIENTS_KEY, "ann")
        revoked = await ingress.after_ring(r, [ann, bob], "ann")
        nonsense = await ingress.after_ring(r, [ann], "../*")
        return [added, stranger, revoked, nonsense]

    assert run(scenario()) == [sorted([ann, bob]), [ann], [bob], [ann]]
