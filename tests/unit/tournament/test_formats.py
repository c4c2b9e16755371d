"""The next round from a tournament's state: withdrawals, late entries, each format."""

from __future__ import annotations

from siege.tournament.events import (
    EntrantRegistered,
    EntrantWithdrew,
    MatchRecorded,
    RoundPaired,
    TournamentCreated,
    match_id_for,
)
from siege.tournament.formats import pair_next, total_rounds
from siege.tournament.state import TournamentState, evolve


def state_of(fmt: str, entrants: list[str], table_size: int = 2, rounds: int = 3,
             ) -> TournamentState:
    state = TournamentState()
    evolve(state, TournamentCreated(tournament_id="t-x", game="g", format=fmt,  # type: ignore[arg-type]
                                    rounds=rounds, table_size=table_size, seed=0))
    for e in entrants:
        evolve(state, EntrantRegistered(entrant=e, bot="random"))
    return state


def play_round(state: TournamentState) -> RoundPaired:
    """Pairs the next round and records every table in seat order (seat 0 wins)."""
    paired = pair_next(state)
    evolve(state, paired)
    for t, table in enumerate(paired.tables):
        match_id = match_id_for("t-x", paired.round, t)
        evolve(state, MatchRecorded(round=paired.round, match_id=match_id,
                                    entrants=list(table), ranks=list(range(1, len(table) + 1))))
    return paired


def test_a_withdrawn_entrant_is_not_paired_and_a_late_one_is() -> None:
    state = state_of("swiss", ["a", "b", "c", "d"])
    play_round(state)
    evolve(state, EntrantWithdrew(entrant="b"))
    evolve(state, EntrantRegistered(entrant="late", bot="random"))
    paired = play_round(state)
    seated = {e for t in paired.tables for e in t} | set(paired.byes)
    assert "b" not in seated and "late" in seated and seated == {"a", "c", "d", "late"}


def test_swiss_never_repeats_a_pairing_while_avoidable() -> None:
    state = state_of("swiss", [f"p{i}" for i in range(8)])
    met: set[frozenset[str]] = set()
    for _ in range(3):
        for table in play_round(state).tables:
            pair = frozenset(table)
            assert pair not in met
            met.add(pair)


def test_round_robin_meets_everyone_once() -> None:
    players = [f"p{i}" for i in range(6)]
    state = state_of("round-robin", players)
    assert total_rounds(state) == 5
    met = [frozenset(t) for _ in range(5) for t in play_round(state).tables]
    assert len(met) == len(set(met)) == 15


def test_elimination_halves_the_field_until_a_winner() -> None:
    state = state_of("elimination", [f"s{i}" for i in range(8)])
    assert total_rounds(state) == 3
    sizes = [len(play_round(state).tables) for _ in range(3)]
    assert sizes == [4, 2, 1]
    final = state.rounds[3].tables[0]
    assert "s0" in final  # the top seed wins every match here (seat 0 always first)


def test_tournament_streams_are_told_apart_from_their_matches() -> None:
    from siege.tournament.state import is_tournament, tournament_id_for

    tid = tournament_id_for("castle-dash", "swiss", ["a", "b"], 3, 2, 7)
    assert is_tournament(tid)
    assert not is_tournament(match_id_for(tid, 1, 0))
    assert not is_tournament("castle-dash-s1-00000")


def test_multiplayer_elimination_advances_the_top_k_of_each_table() -> None:
    state = TournamentState()
    evolve(state, TournamentCreated(tournament_id="t-x", game="g", format="elimination",
                                    rounds=0, table_size=4, seed=0, advance=1))
    for i in range(16):
        evolve(state, EntrantRegistered(entrant=f"s{i:02d}", bot="random"))
    assert total_rounds(state) == 2  # 16 -> 4 (one per table) -> 1
    first = play_round(state)
    second = play_round(state)
    assert len(first.tables) == 4 and len(second.tables) == 1
    assert sorted(second.tables[0]) == sorted(t[0] for t in first.tables)
