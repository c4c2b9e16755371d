"""Hosted matches on a real Redis: the live state equals a fold of the bytes read back, and
every finished log passes the audit."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siege.contracts.messages import CreateMatch
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.clock import FixedClock
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState
from siegeworks import bus as topics
from siegeworks.clients.bots import seat_bots
from siegeworks.wiring import wire_in_process


async def play_hosted(log: RedisEventLog, match_id: str, bots: list[str], seed: int) -> Any:
    master = seed.to_bytes(8, "big")
    wired = wire_in_process(log, FixedClock(0), master)
    seat_bots(wired.bus, "castle-dash", match_id, bots, master)
    await wired.bus.publish(topics.COMMANDS, CreateMatch(
        match_id=match_id, game="castle-dash", seat_names=bots))
    await wired.bus.drain()
    return wired


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_live_state_equals_fold_of_stored_bytes(
    event_log: RedisEventLog, run: Callable[[Awaitable[Any]], Any], players: int, seed: int
) -> None:
    match_id = f"prop-{players}-{seed}"
    bots = ["greedy", "random"] * 3
    wired = run(play_hosted(event_log, match_id, bots[:players], seed))
    assert match_id in wired.results.finished
    live = run(wired.contexts["rules"].loader.load(match_id))
    entries = run(event_log.read(match_id))
    folded = MatchState(match_id)
    decode_entries(folded, entries)
    assert folded.game == live.game
    assert folded.ended == live.ended and folded.ended is not None
    assert folded.head_seq == live.head_seq == len(entries)
    report = audit(entries)
    assert report.ok, report.line()
