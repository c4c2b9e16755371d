"""Scoring and the end of the game (our own design): completion, replacement, the three ends,
and the ranking."""

from __future__ import annotations

import pytest
from mission_support import (
    CHARGE,
    ENGINE,
    KNIGHTS,
    MARCH,
    MARCH_2,
    PIKEMEN,
    PIKEMEN_2,
    RELAY,
    RIDE,
    SCRAMBLE,
    SCRAMBLE_2,
    SERGEANT,
    assault,
    deploy,
    pass_,
    pass_turn,
    play,
    replay,
    start,
    stash,
    swerve,
)

from siege.games.mission import actions as a
from siege.games.mission.missions import MISSION_COUNT
from siege.games.mission.state import State
from siege.games.mission.tuning import TURN_LIMIT, WIN_POINTS
from siege.testing.playout import seeded_playout


def test_a_completed_mission_scores_goes_to_its_completer_and_is_replaced_from_the_top() -> None:
    table = start(first=0, decks={0: [RIDE, MARCH, KNIGHTS, RELAY, SCRAMBLE],
                                  1: [MARCH_2, PIKEMEN, CHARGE, RELAY, SCRAMBLE]},
                  missions=[0, 1, 7, 2])
    play(table, deploy(0, RIDE), deploy(0, KNIGHTS, slot=0))
    play(table, (1, a.SKIP), deploy(1, MARCH_2), deploy(1, PIKEMEN, slot=0))
    play(table, assault(0, 1), stash(0, RIDE), pass_(0))
    assert table.state.completed[0] == [1] and table.state.points == [2, 0]
    assert table.state.missions == [0, 7] and table.state.mission_deck[0] == 2


def test_completing_a_mission_discards_every_stash_there_and_leaves_the_units() -> None:
    table = start(first=0, decks={0: [MARCH, RIDE, KNIGHTS, RELAY, SCRAMBLE],
                                  1: [MARCH_2, PIKEMEN, CHARGE, RELAY, SCRAMBLE]},
                  missions=[0, 1, 7, 2])
    play(table, deploy(0, MARCH), deploy(0, RIDE))
    play(table, deploy(1, MARCH_2), deploy(1, PIKEMEN, slot=1))
    play(table, assault(0, 0), stash(0, MARCH), deploy(0, KNIGHTS, slot=0), pass_(0))
    play(table, assault(1, 0), (1, a.YIELD), stash(1, MARCH_2), pass_(1))
    assert table.state.stashes[0] == [[MARCH], [MARCH_2]]
    play(table, assault(0, 0), stash(0, RIDE))
    state = table.state
    assert state.completed[0] == [0] and state.missions[0] == 7
    assert state.stashes[0] == [[], []]
    assert MARCH in state.discards[0] and RIDE in state.discards[0]
    assert state.discards[1][-1] == MARCH_2  # the opponent's stash there is discarded too
    assert state.units[0][0] == [KNIGHTS]  # units hold the place for the next mission


def first_game_ending(reason: str, bots: list[str]) -> tuple[State, list]:
    for seed in range(200):
        state, events = seeded_playout(ENGINE, bots, seed)
        if state.ended == reason:
            return state, events
    raise AssertionError(f"no game ended by {reason!r}")


def test_the_game_ends_when_a_player_reaches_the_winning_points() -> None:
    final, events = first_game_ending("points", ["random", "random"])
    before = replay(events[:-1])
    assert max(before.points) < WIN_POINTS <= max(final.points)
    assert ENGINE.is_terminal(final) and not ENGINE.is_terminal(before)
    assert ENGINE.pending(final).seats == frozenset() and ENGINE.pending(final).chance is None
    winner = final.points.index(max(final.points))
    assert ENGINE.ranks(final)[winner] == 1


def test_the_game_ends_when_a_completed_mission_cannot_be_replaced() -> None:
    final, events = first_game_ending("missions", ["greedy", "greedy"])
    before = replay(events[:-1])
    assert before.mission_deck == [] and -1 not in before.missions
    assert sum(len(done) for done in final.completed) == MISSION_COUNT - 1
    assert -1 in final.missions and ENGINE.is_terminal(final)


def test_the_game_ends_after_the_turn_limit_and_points_decide() -> None:
    table = start(first=0, decks={0: [PIKEMEN, MARCH, RELAY, SCRAMBLE, CHARGE]})
    play(table, deploy(0, PIKEMEN, slot=0), pass_(0))
    play(table, assault(1, 0))  # seat 1 may fight the Pikemen with nothing: seat 0 scores 1
    while not ENGINE.is_terminal(table.state):
        pass_turn(table)
    state = table.state
    assert state.ended == "turns" and state.turn == TURN_LIMIT
    assert state.points == [1, 0] and ENGINE.ranks(state) == [1, 2]
    assert ENGINE.legal_actions(state, 0) == ENGINE.legal_actions(state, 1) == []


@pytest.mark.parametrize("points, completed, ranks", [
    ([5, 7], [[0], [1]], [2, 1]),  # most points first
    ([6, 6], [[0, 1], [2]], [1, 2]),  # then most missions completed
    ([6, 6], [[0], [2]], [1, 1]),  # equal on both: a shared first place
])
def test_ranking_is_points_then_missions_completed_then_a_shared_place(
        points: list[int], completed: list[list[int]], ranks: list[int]) -> None:
    state = State(phase="over", points=points, completed=completed)
    assert ENGINE.ranks(state) == ranks


def test_a_combat_point_reaching_twelve_still_lets_the_attacker_stash() -> None:
    table = start(first=0, decks={0: [CHARGE, MARCH, KNIGHTS, RELAY, SCRAMBLE],
                                  1: [PIKEMEN, PIKEMEN_2, MARCH_2, SCRAMBLE_2, SERGEANT]})
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    play(table, deploy(1, PIKEMEN, slot=0), deploy(1, PIKEMEN_2, slot=1))
    table.state.points[0] = WIN_POINTS - 1
    play(table, assault(0, 0), swerve(0, CHARGE))  # wins the combat: the 12th point
    assert table.state.points[0] == WIN_POINTS and not ENGINE.is_terminal(table.state)
    assert table.state.phase == "stash" and table.waiting == frozenset({0})
    play(table, stash(0, MARCH))
    assert ENGINE.is_terminal(table.state) and table.state.ended == "points"
    assert table.state.stashes[0][0] == [MARCH]
