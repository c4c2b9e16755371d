"""Outside clients join open seats through the real services and play to the end."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio

from siege.contracts.events import MatchCreated
from siege.contracts.lobby import OpenSeats
from siege.contracts.messages import (
    CommandRefused,
    JoinMatch,
    SeatGranted,
)
from siege.contracts.rejections import RejectionCode
from siege.contracts.version import CONTRACT_VERSION
from siege.eventlog.keys import CONTRACT_KEY, commands_key, inbox_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.lobby import OPEN
from siege.hosting.match_state import codec_for
from siegeworks.clients.joiner import join_and_play
from siegeworks.clients.remote import SeatReader
from siegeworks.match.lobby import read_listing
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.redis_bus import RedisBus

pytestmark = pytest.mark.both_stores  # on a single Redis and on a Redis Cluster

Run = Callable[[Awaitable[Any]], Any]


def test_outside_clients_join_open_seats_and_the_match_audits(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis
) -> None:
    spec = MatchSpec(match_id="joined-1", game="castle-dash",
                     seat_names=["g-0", "g-1", "open-2", "open-3"],
                     bots=["greedy", "greedy", OPEN, OPEN])

    async def scenario() -> tuple[dict, list, list, list]:
        seen_a: list = []
        seen_b: list = []
        seen_late: list = []
        listings: list = []
        played = asyncio.create_task(play_specs([spec], redis_client, b"seed",
                                                stall_timeout_s=60))
        # The public lobby lists the match with its two open seats before anyone joins.
        async def listed() -> list:
            while not (found := await read_listing(redis_client)):
                await asyncio.sleep(0.01)
            return found
        listings.append(await asyncio.wait_for(listed(), timeout=30))
        finished = await asyncio.wait_for(asyncio.gather(
            join_and_play(redis_client, "ann", spec.match_id, seen=seen_a),
            join_and_play(redis_client, "bob", spec.match_id, seen=seen_b)), timeout=60)
        results = await asyncio.wait_for(played, timeout=60)
        assert finished[0] == finished[1] == results[spec.match_id]
        listings.append(await read_listing(redis_client))  # full, so gone
        # A third client finds the match full; its refusal comes to its own inbox.
        reader = SeatReader(redis_client, block_ms=200)
        reader.follow(inbox_key("late"), "0-0")
        await RedisBus(redis_client).publish(commands_key("late"), JoinMatch(
            match_id=spec.match_id, client="late"))
        while not seen_late:
            seen_late += await reader.poll()
        return results, seen_a, seen_b, seen_late, listings

    results, seen_a, seen_b, seen_late, listings = run(scenario())
    assert listings[0] == [OpenSeats(match_id=spec.match_id, game="castle-dash", seats=4,
                                     open=[2, 3], seat_names=spec.seat_names,
                                     creator=listings[0][0].creator)]
    assert listings[0][0].creator  # the organiser's run, a real client id
    assert listings[1] == []
    entries = run(RedisEventLog(redis_client).read(spec.match_id))
    assert audit(entries).ok
    created = codec_for("castle-dash").decode(entries[0][1]).event
    assert isinstance(created, MatchCreated)
    assert sorted(created.clients[2:]) == ["ann", "bob"]
    assert created.clients[0] == created.clients[1] != OPEN  # the organiser's run
    grants_a = [m for m in seen_a if isinstance(m, SeatGranted)]
    assert len(grants_a) == 1 and grants_a[0].seat in (2, 3)
    assert [(m.code, m.subject) for m in seen_late if isinstance(m, CommandRefused)] == [
        (RejectionCode.MATCH_FULL, spec.match_id)]


def test_the_services_say_which_contract_version_they_speak(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis
) -> None:
    async def version() -> bytes:  # written with the match service's beat, a second apart
        while (said := await redis_client.hget(CONTRACT_KEY, "version")) is None:
            await asyncio.sleep(0.05)
        return said

    assert run(asyncio.wait_for(version(), timeout=10)) == CONTRACT_VERSION.encode()
