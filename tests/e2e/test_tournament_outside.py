"""Tournament entrants that are outside clients: they register over the bus, are seated at
their tables by the organiser, play through their own streams, and hear when it is over."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio
from cli_support import siege

from siege.contracts.messages import CommandRefused, RegisterEntrant, SeatGranted
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import commands_key, inbox_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.clock import SystemClock
from siege.tournament.standings import standings
from siege.tournament.state import entrant_for
from siege.tournament.store import TournamentStore
from siegeworks.clients.joiner import enter_and_play
from siegeworks.clients.remote import SeatReader
from siegeworks.supervisor import ServiceProcesses
from siegeworks.tournament_run import TournamentSpec, run_tournament
from siegeworks.transport.redis_bus import RedisBus

pytestmark = pytest.mark.both_stores  # on a single Redis and on a Redis Cluster

Run = Callable[[Awaitable[Any]], Any]
SPEC = TournamentSpec(game="castle-dash", format="swiss", entrants=8, rounds=2, table_size=4,
                      bots=["random", "greedy"], seed=9, outside=2, registration_timeout_s=60)


async def refusal_for(client: redis.asyncio.Redis, who: str, tid: str) -> CommandRefused:
    reader = SeatReader(client, block_ms=200)
    reader.follow(inbox_key(who), await reader.cursor_of(inbox_key(who)))
    await RedisBus(client).publish(commands_key(who), RegisterEntrant(tournament_id=tid,
                                                                     client=who))
    while True:
        for message in await reader.poll():
            if isinstance(message, CommandRefused):
                return message


def test_outside_clients_register_and_play_a_tournament(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis
) -> None:
    tid = SPEC.tournament_id()

    async def scenario() -> tuple[Any, dict, dict, list, CommandRefused, CommandRefused]:
        seen_ann: list = []
        state, ann, bob = await asyncio.wait_for(asyncio.gather(
            run_tournament(SPEC, redis_client, SystemClock()),
            enter_and_play(redis_client, "ann", tid, "greedy", b"ann", 120, seen_ann),
            enter_and_play(redis_client, "bob", tid, "random", b"bob", 120)), 180)
        late = await asyncio.wait_for(refusal_for(redis_client, "cat", tid), 30)
        bogus = await asyncio.wait_for(refusal_for(redis_client, "cat", "t-000000000000"), 30)
        return state, ann, bob, seen_ann, late, bogus

    state, ann, bob, seen_ann, late, bogus = run(scenario())
    assert state.finished
    assert state.clients == {entrant_for("ann"): "ann", entrant_for("bob"): "bob"}
    assert len(state.entrants) == SPEC.entrants
    # Each outside entrant played exactly the matches it was paired at, and saw every result.
    for client, results in (("ann", ann), ("bob", bob)):
        entrant = entrant_for(client)
        paired = {m.match_id for m in state.recorded.values() if entrant in m.entrants}
        assert set(results) == paired and paired
        for match_id in paired:
            seat = state.recorded[match_id].entrants.index(entrant)
            assert results[match_id].ranks[seat] == state.recorded[match_id].ranks[seat]
    grants = [m for m in seen_ann if isinstance(m, SeatGranted)]
    assert {g.match_id for g in grants} == set(ann)
    for match_id in {*ann, *bob}:
        entries = run(RedisEventLog(redis_client).read(match_id))
        assert audit(entries).ok
    stored, _, _ = run(TournamentStore(RedisEventLog(redis_client), SystemClock()).load(tid))
    rows = standings(stored.entrants, stored.order, two_player=False)
    assert {entrant_for("ann"), entrant_for("bob")} <= {r.entrant for r in rows}
    assert late.code == RejectionCode.REGISTRATION_CLOSED and late.subject == tid
    assert bogus.code == RejectionCode.UNKNOWN_TOURNAMENT


def test_an_entrant_who_registers_and_never_plays_is_a_no_show(
    redis_url: str, redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path
) -> None:
    """The clocks handle an entrant who never comes (every table a forfeit, quickly, on a
    1.5 s clock), and the standings say who it was, in every format."""
    procs = ServiceProcesses(redis_url, tmp_path / "logs", {"SIEGE_DECISION_TIMEOUT_MS": "1500"})
    procs.start_all()
    spec = TournamentSpec(game="castle-dash", format="swiss", entrants=4, rounds=2,
                          table_size=4, bots=["random"], seed=21, outside=1,
                          registration_timeout_s=60)
    tid = spec.tournament_id()
    try:
        run(procs.wait_healthy(redis_client))

        async def scenario() -> Any:
            async def register() -> None:
                await RedisBus(redis_client).publish(commands_key("dan"), RegisterEntrant(
                    tournament_id=tid, client="dan"))

            state, _ = await asyncio.wait_for(asyncio.gather(
                run_tournament(spec, redis_client, SystemClock()), register()), 180)
            return state

        state = run(scenario())
    finally:
        procs.stop_all()
    assert state.finished
    dan = entrant_for("dan")
    rows = {r.entrant: r for r in standings(state.entrants, state.order, two_player=False)}
    assert rows[dan].no_show and rows[dan].played == 2
    assert [r.entrant for r in rows.values() if r.no_show] == [dan]
    shown = siege(["standings", tid], tmp_path, REDIS_URL=redis_url)
    assert f"{dan} (no-show)" in shown.stdout, shown.stdout + shown.stderr
    as_csv = siege(["standings", tid, "--format", "csv"], tmp_path, REDIS_URL=redis_url)
    header, *lines = list(csv.reader(io.StringIO(as_csv.stdout)))
    marked = {line[1]: line[header.index("no_show")] for line in lines}
    assert marked[dan] == "true" and list(marked.values()).count("true") == 1
