"""Damaged tables in a tournament: they count for nobody (points, games, ratings), the standings
count them per round, a replay's result stands for its table, and replay ids are the
organiser's like the table's own."""

from __future__ import annotations

from siege.tournament.events import (
    EntrantRegistered,
    MatchRecorded,
    RoundPaired,
    TournamentCreated,
    match_id_for,
    replay_id_for,
    table_id_of,
)
from siege.tournament.formats import pair_next
from siege.tournament.ratings import Ratings
from siege.tournament.results import TableResult
from siege.tournament.standings import round_counts, standings
from siege.tournament.state import TournamentState, evolve
from siegeworks.match.consent import _TABLE

T0, T1 = match_id_for("t-x", 1, 0), match_id_for("t-x", 1, 1)


def two_tables(fmt: str = "swiss", rounds: int = 2) -> TournamentState:
    """Round 1 of a duel tournament: a-b finished (a won), c-d damaged."""
    state = TournamentState()
    evolve(state, TournamentCreated(tournament_id="t-x", game="g", format=fmt,  # type: ignore[arg-type]
                                    rounds=rounds, table_size=2, seed=0))
    for e in "abcd":
        evolve(state, EntrantRegistered(entrant=e, bot="random"))
    evolve(state, RoundPaired(round=1, tables=[["a", "b"], ["c", "d"]], byes=[]))
    evolve(state, MatchRecorded(round=1, match_id=T0, entrants=["a", "b"], ranks=[1, 2]))
    evolve(state, MatchRecorded(round=1, match_id=T1, entrants=["c", "d"], ranks=[],
                                reason="damaged"))
    return state


def test_a_damaged_match_counts_for_nobody() -> None:
    state = two_tables()
    rows = {r.entrant: r for r in standings(state.entrants, state.order, two_player=True)}
    assert rows["c"].points == rows["d"].points == 0 and rows["c"].played == 0
    assert rows["a"].played == rows["b"].played == 1 and rows["a"].points == 1
    assert state.round_complete(1)  # the tournament goes on without it
    damaged = next(r for r in state.order if isinstance(r, TableResult) and r.damaged)
    assert Ratings().apply(damaged) == []


def test_a_forfeit_counts_as_played_with_the_forfeiter_last() -> None:
    results = [TableResult(round=1, match_id="m", entrants=["a", "b"], ranks=[2, 1],
                           reason="forfeit")]
    rows = {r.entrant: r for r in standings(["a", "b"], results, two_player=True)}
    assert rows["a"].played == 1 and rows["a"].points == 0 and rows["b"].points == 1


def test_a_replay_stands_for_its_table_and_the_counts_say_so() -> None:
    state = two_tables()
    assert [r.match_id for r in state.damaged_tables()] == [T1]
    replay = state.next_replay_id(T1)
    assert replay == replay_id_for(T1, 1) == f"{T1}-replay1" and table_id_of(replay) == T1
    evolve(state, MatchRecorded(round=1, match_id=replay, entrants=["c", "d"], ranks=[2, 1],
                                reason="forfeit"))
    assert state.damaged_tables() == []
    table = state.table_result(T1)
    assert table is not None and table.match_id == replay
    rows = {r.entrant: r for r in standings(state.entrants, state.order, two_player=True)}
    assert rows["d"].points == 1 and rows["c"].played == 1
    counts, = round_counts(state.order)
    assert (counts.matches, counts.forfeited, counts.damaged, counts.replayed) == (3, 1, 1, 1)


def test_a_replay_damaged_again_gets_the_next_id() -> None:
    state = two_tables()
    evolve(state, MatchRecorded(round=1, match_id=state.next_replay_id(T1),
                                entrants=["c", "d"], ranks=[], reason="damaged"))
    assert [r.match_id for r in state.damaged_tables()] == [f"{T1}-replay1"]
    assert state.next_replay_id(T1) == f"{T1}-replay2"


def test_elimination_knocks_nobody_out_at_a_damaged_table() -> None:
    state = two_tables("elimination")
    paired = pair_next(state)
    assert sorted([*paired.byes, *(e for t in paired.tables for e in t)]) == ["a", "c", "d"]


def test_replay_ids_are_reserved_for_the_organiser_like_tables() -> None:
    real = match_id_for("t-0123456789ab", 3, 7)
    for match_id in (real, replay_id_for(real, 1), replay_id_for(real, 25)):
        found = _TABLE.fullmatch(match_id)
        assert found is not None and (found[1], found[2], found[3]) == ("t-0123456789ab",
                                                                        "03", "0007")
    assert _TABLE.fullmatch(real + "-replay0") is None
    assert _TABLE.fullmatch(real + "-replay1x") is None


def test_an_entrant_whose_clock_ran_out_at_every_table_is_a_no_show() -> None:
    state = TournamentState()
    evolve(state, TournamentCreated(tournament_id="t-x", game="g", format="swiss",  # type: ignore[arg-type]
                                    rounds=2, table_size=3, seed=0))
    for e in "abc":
        evolve(state, EntrantRegistered(entrant=e, bot="random"))
    # c never came: its clock ran out at both tables; b ran out of time once, and played once.
    evolve(state, MatchRecorded(round=1, match_id="m1", entrants=["a", "b", "c"],
                                ranks=[1, 2, 3], reason="forfeit", timed_out=[2]))
    evolve(state, MatchRecorded(round=2, match_id="m2", entrants=["c", "a", "b"],
                                ranks=[2, 1, 2], reason="forfeit", timed_out=[0, 2]))
    rows = {r.entrant: r for r in standings(state.entrants, state.order, two_player=False)}
    assert rows["c"].no_show and rows["c"].played == 2
    assert not rows["b"].no_show and not rows["a"].no_show
    # Nobody is a no-show before sitting at a table.
    fresh = standings(["a", "b", "c", "d"], state.order[:1], two_player=False)
    assert [r.entrant for r in fresh if r.no_show] == ["c"]
