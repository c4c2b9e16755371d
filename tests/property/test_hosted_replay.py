"""Hosted matches on a real Redis: the live state equals a fold of the bytes read back, and
every finished log passes the audit."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState
from siegeworks.runner import RunConfig, play_matches


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_live_state_equals_fold_of_stored_bytes(
    event_log: RedisEventLog, run: Callable[[Awaitable[Any]], Any], players: int, seed: int
) -> None:
    # The examples share one Redis: a seed of its own per player count, since a match id (made
    # from the seed) created with other seats is another match's (match_id_taken).
    cfg = RunConfig(game="castle-dash", matches=1, players=players, bots=["greedy", "random"],
                    seed=seed * 10 + players, fixed_clock_ms=0)
    result = run(play_matches(cfg, event_log))
    (match_id,) = result.match_ids
    assert [f.match_id for f in result.finished] == [match_id]
    live = run(result.wired.contexts["rules"].loader.load(match_id))
    entries = run(event_log.read(match_id))
    folded = MatchState(match_id)
    decode_entries(folded, entries)
    assert folded.game == live.game
    assert folded.ended == live.ended and folded.ended is not None
    assert folded.head_seq == live.head_seq == len(entries)
    report = audit(entries)
    assert report.ok, report.line()
