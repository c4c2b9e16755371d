"""Setup: seating, hostages, supplies, the opening chance nodes, the reveal."""

from __future__ import annotations

import msgspec
import pytest
from castle_dash_support import ENGINE, Table, created, start

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
from siege.engine.protocol import ChanceMismatchError
from siege.engine.registry import get_engine
from siege.games.castle_dash import cards, seating
from siege.games.castle_dash.actions import ClaimArmory


def test_the_registry_finds_castle_dash() -> None:
    engine = get_engine("castle-dash")
    assert engine.name == "castle-dash"
    assert (engine.min_players, engine.max_players) == (3, 6)


@pytest.mark.parametrize("players", [2, 7])
def test_player_counts_outside_three_to_six_are_refused(players: int) -> None:
    with pytest.raises(ValueError):
        ENGINE.initial_state(created(players))


def test_the_game_opens_by_shuffling_the_armory_then_rolling_for_the_first_player() -> None:
    table = Table(5)
    first = ENGINE.pending(table.state)
    assert first.chance is not None
    assert (first.chance.kind, first.chance.count, first.chance.purpose) == (
        "shuffle", 18, "armory_shuffle")
    assert first.seats == frozenset()
    table.shuffle(list(reversed(range(18))))
    assert table.state.deck == list(reversed(range(18)))
    second = ENGINE.pending(table.state)
    assert second.decision == first.decision + 1
    assert second.chance is not None
    assert (second.chance.kind, second.chance.sides, second.chance.count) == ("dice", 5, 1)
    assert second.chance.purpose == "first_player"
    table.roll(4)
    # Die face 4 names seat 3, who places first.
    assert table.state.first == 3
    assert table.waiting == frozenset({3})


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_reveal_turns_two_cards_per_player_face_up_from_the_top(players: int) -> None:
    table = start(players, top=[17, 16, 15])
    assert table.state.face_up[:3] == [17, 16, 15]
    assert len(table.state.face_up) == 2 * players
    assert len(table.state.deck) == 18 - 2 * players
    assert table.state.phase == "place"


@pytest.mark.parametrize(("players", "opponents_of_0"), [
    (3, (1, 2)),
    (4, (1, 3, 2)),
    (5, (1, 4)),
    (6, (1, 5, 3)),
])
def test_who_battles_whom(players: int, opponents_of_0: tuple[int, ...]) -> None:
    # Left is the next seat clockwise; across exists only with an even number of players.
    assert seating.OPPONENTS[players][0] == opponents_of_0
    assert seating.left(players, players - 1) == 0
    assert seating.right(players, 0) == players - 1


@pytest.mark.parametrize(("players", "captives"), [(3, 2), (4, 3), (5, 2), (6, 3)])
def test_setup_hostages_supplies_coins_and_cannonballs(players: int, captives: int) -> None:
    state = ENGINE.initial_state(created(players))
    for seat in range(players):
        # One captive from each opponent: left and right, plus across in 4 and 6 player games.
        assert sorted(state.hostages[seat]) == sorted(seating.OPPONENTS[players][seat])
        assert len(state.hostages[seat]) == captives
    # 11 soldiers minus the hostages given, minus one to the box in 3 and 5 player games.
    assert state.supply == [8] * players
    assert state.coins == [5] * players
    assert state.cannonballs == [2] * players
    assert state.stolen == [0] * players
    assert state.rescued == [0] * players


def test_five_player_games_give_hostages_only_to_neighbours() -> None:
    state = ENGINE.initial_state(created(5))
    assert sorted(state.hostages[0]) == [1, 4]
    assert 0 not in state.hostages[2] and 0 not in state.hostages[3]


def test_evolve_ignores_core_events_the_game_does_not_need() -> None:
    table = start(4)
    before = msgspec.to_builtins(table.state)
    for event in (
        MatchCreated(game="castle-dash", players=4, seat_names=["a", "b", "c", "d"]),
        SeedCommitted(commitment="00"),
        PlayerSeedAdded(seat=1, seed="ab"),
        ChanceRequested(kind="dice", sides=6, count=2, purpose="cannonballs"),
        SeatTimedOut(seat=0, decision=3),
        MatchEnded(ranks=[1, 2, 3, 4]),
        SeedRevealed(seed="ff"),
    ):
        table.fold(event)
    assert msgspec.to_builtins(table.state) == before


def test_a_chance_answer_that_does_not_fit_the_request_is_refused() -> None:
    table = Table(3)  # waiting for a shuffle of 18 cards
    with pytest.raises(ChanceMismatchError):
        ENGINE.evolve(table.state, DiceRolled(request=1, first_index=0, values=[3]))


@pytest.mark.parametrize("players", [3, 6])
def test_face_up_cards_and_their_holders_show_in_every_seats_view(players: int) -> None:
    # Given the reveal of round 1 and one card claimed by the first player
    table = start(players, first=0, top=[cards.WAR_BANNER])
    table.when(0, ClaimArmory(card=cards.WAR_BANNER))
    face_up = list(table.state.face_up)
    assert len(face_up) == 2 * players
    for seat in range(players):
        # When any seat, the claimer's opponents included, looks at the table
        view = ENGINE.view(table.state, seat)
        # Then it sees every face-up card and who holds the claimed one; only the deck is hidden
        assert view.face_up == face_up
        assert view.holder[cards.WAR_BANNER] == 0
        assert all(view.holder[card] == -1 for card in face_up if card != cards.WAR_BANNER)
        assert view.deck_size == 18 - 2 * players
        assert not set(face_up) & set(table.state.deck)
