"""A log's own end, read from its last entries, for a match whose result no projection holds:
a game's events there are passed by, never taken for an end nor fatal."""

from __future__ import annotations

from siege.contracts.envelope import EventCodec, seal
from siege.contracts.events import MatchEnded
from siege.engine.registry import get_engine
from siege.testing.playout import seeded_playout
from siegeworks.listing import _end_of


def tail(events: list, count: int = 4) -> list[tuple[bytes, dict[bytes, bytes]]]:
    engine = get_engine("castle-dash")
    codec = EventCodec(engine.event_types)
    sealed = seal(codec, "m-1", 0, b"\0" * 32, events, 0)
    return [(b"%d-0" % seq, {b"e": stored}) for seq, stored, _ in reversed(sealed)][:count]


def test_a_finished_log_tells_its_end_and_a_running_one_none() -> None:
    _, events = seeded_playout(get_engine("castle-dash"), ["random"] * 3, 2)
    played = [e for e in events if not isinstance(e, MatchEnded)][-10:]
    ended = MatchEnded(ranks=[2, 1, 3], reason="finished")
    found = _end_of(tail([*played, ended]))
    assert found == ended
    assert _end_of(tail(played)) is None  # game events only: still running
    assert _end_of([]) is None
