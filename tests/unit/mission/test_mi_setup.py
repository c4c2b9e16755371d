"""Setup: the opening chance nodes, hands and missions, and what the engine refuses."""

from __future__ import annotations

from typing import get_type_hints

import pytest
from mission_support import ENGINE, Table, created, order_with, start

from siege.contracts.events import (
    ChanceRequested,
    DiceRolled,
    MatchCreated,
    MatchEnded,
    PlayerSeedAdded,
    SeatTimedOut,
    SeedCommitted,
    SeedRevealed,
)
from siege.engine.codecs import view_type
from siege.engine.protocol import ChanceMismatchError
from siege.engine.registry import get_engine, register
from siege.games.mission import actions as a
from siege.games.mission.engine import IllegalActionError, MissionGame
from siege.games.mission.views import MissionView


def test_the_engine_is_named_mission_for_exactly_two_players() -> None:
    assert (MissionGame.name, MissionGame.min_players, MissionGame.max_players) == (
        "mission", 2, 2)
    with pytest.raises(ValueError):
        ENGINE.initial_state(MatchCreated(game="mission", players=3, seat_names=["a", "b", "c"]))


def test_the_engine_can_be_registered_and_its_view_type_read_from_the_annotation() -> None:
    register(MissionGame())
    assert isinstance(get_engine("mission"), MissionGame)
    assert view_type("mission") is MissionView
    assert get_type_hints(MissionGame.view)["return"] is MissionView


def test_the_game_opens_with_three_shuffles_then_a_first_player_roll() -> None:
    table = Table()
    seen = []
    decisions = []
    for answer in ("shuffle", "shuffle", "shuffle", "roll"):
        need = table.need()
        seen.append((need.kind, need.count, need.sides, need.purpose))
        decisions.append(table.decision)
        if answer == "roll":
            table.roll(1)
        else:
            table.shuffle()
    assert seen == [("shuffle", 8, 0, "missions"), ("shuffle", 18, 0, "deck_0"),
                    ("shuffle", 18, 0, "deck_1"), ("dice", 1, 2, "first_player")]
    assert decisions == [1, 2, 3, 4]  # each chance node is a new decision point
    assert table.decision == 5 and table.waiting == frozenset({0})


def test_each_seat_draws_five_cards_from_its_own_shuffled_deck_and_two_missions_are_revealed(
) -> None:
    table = Table()
    table.shuffle(order_with([6, 2], 8))
    table.shuffle(list(reversed(range(18))))
    table.shuffle(order_with([17, 16, 15, 14, 13], 18))
    table.roll(1)
    state = table.state
    assert state.missions == [6, 2] and state.mission_deck == [0, 1, 3, 4, 5, 7]
    assert state.hands == [[17, 16, 15, 14, 13], [17, 16, 15, 14, 13]]
    # Seat 0 has already drawn after nothing: its deck is 13 cards, top first.
    assert state.decks[0] == list(reversed(range(13)))
    assert state.points == [0, 0] and state.turn == 1


@pytest.mark.parametrize("face, first", [(1, 0), (2, 1)])
def test_the_first_player_roll_picks_who_takes_the_first_turn(face: int, first: int) -> None:
    table = Table()
    for _ in range(3):
        table.shuffle()
    table.roll(face)
    assert table.state.first == first and table.state.active == first
    assert table.waiting == frozenset({first})


def test_evolve_ignores_core_events_the_game_does_not_need() -> None:
    table = start()
    before = ENGINE.view(table.state, 0)
    for event in (created(), SeedCommitted(commitment="00"), PlayerSeedAdded(seat=0, seed="aa"),
                  ChanceRequested(kind="dice", sides=6, count=1, purpose="x"),
                  SeatTimedOut(seat=0, decision=5), MatchEnded(ranks=[1, 2]),
                  SeedRevealed(seed="00")):
        table.fold(event)
    assert ENGINE.view(table.state, 0) == before


def test_a_chance_answer_that_does_not_fit_the_request_is_refused() -> None:
    table = Table()
    with pytest.raises(ChanceMismatchError):
        table.fold(DiceRolled(request=1, first_index=0, values=[1]))  # a shuffle is awaited
    with pytest.raises(ChanceMismatchError):
        table.shuffle([0, 0, 1, 2, 3, 4, 5, 6])  # not a permutation


def test_apply_refuses_a_seat_that_is_not_asked() -> None:
    table = start(first=0)
    with pytest.raises(IllegalActionError):
        ENGINE.apply(table.state, 1, a.PASS)
    assert ENGINE.legal_actions(table.state, 1) == []
