"""Step 3: claimed cards and the order blue flags resolve in."""

from __future__ import annotations

import pytest
from castle_dash_support import ENGINE, C, place_all, sappers_and_bribe, start

from siege.games.castle_dash import cards
from siege.games.castle_dash.actions import ResolveFlagCard
from siege.games.castle_dash.events import FlagCardResolved


def test_blue_flags_resolve_from_the_first_player_so_a_later_bribe_undoes_sappers() -> None:
    table = sappers_and_bribe(first=1)
    # Seat 1 (first) put its claiming soldier on seat 0's wall; seat 0's Bribe, resolved
    # after it, had exactly one target and sent that soldier home.
    assert table.state.phase == "battle"
    assert table.state.walls[0][1] == 0
    assert table.state.supply[1] == 1


def test_blue_flags_resolve_from_the_first_player_so_an_earlier_bribe_finds_nothing() -> None:
    table = sappers_and_bribe(first=0)
    # Seat 0 (first) bribed an empty wall; seat 1's Sappers came after and stays.
    assert table.state.phase == "battle"
    assert table.state.walls[0][1] == 1
    assert table.state.supply[1] == 0


def test_flag_choices_are_asked_one_at_a_time_in_turn_order() -> None:
    table = start(4, first=2, top=[cards.SABOTAGE, cards.SMOKE_SCREEN])
    place_all(table, {1: [C(cards.SABOTAGE)], 3: [C(cards.SMOKE_SCREEN)]})
    asked = []
    while table.state.phase == "claim":
        (seat,) = table.waiting
        asked.append(seat)
        table.when(seat, table.legal(seat)[0])
    # From the first player (2) clockwise: seat 3, then seat 1.
    assert asked == [3, 1]


def test_a_flag_choice_is_recorded_as_an_event() -> None:
    table = start(3, first=0, top=[cards.SABOTAGE])
    place_all(table, {0: [C(cards.SABOTAGE)]})
    assert table.legal(0) == [ResolveFlagCard(card=cards.SABOTAGE, target=1),
                              ResolveFlagCard(card=cards.SABOTAGE, target=2)]
    out = table.when(0, ResolveFlagCard(card=cards.SABOTAGE, target=2))
    assert out == [FlagCardResolved(seat=0, card=cards.SABOTAGE, target=2)]


def test_cards_are_held_from_the_claim_step_and_non_flags_need_nothing_there() -> None:
    table = start(3, first=0, top=[cards.WAR_BANNER, cards.AMBUSH])
    place_all(table, {0: [C(cards.WAR_BANNER)], 1: [C(cards.AMBUSH)]})
    # No blue flag was claimed: the claim step passed without a decision.
    assert table.state.phase == "battle"
    assert table.state.holder[cards.WAR_BANNER] == 0
    assert table.state.holder[cards.AMBUSH] == 1
    view = ENGINE.view(table.state, 2)
    assert view.holder[cards.WAR_BANNER] == 0  # claimed cards lie open on the table


@pytest.mark.parametrize("claimed", [
    (cards.SMOKE_SCREEN, cards.SABOTAGE),
    (cards.SABOTAGE, cards.SMOKE_SCREEN),
])
def test_one_player_with_two_blue_flags_resolves_them_in_the_order_it_claimed_them(
        claimed: tuple[int, int]) -> None:
    # Given seat 1 (not the first player) claims two flags that each need a target
    table = start(3, first=0, top=list(claimed))
    place_all(table, {1: [C(claimed[0]), C(claimed[1])]})
    # When the claim step asks for them
    asked = []
    while table.state.phase == "claim":
        (seat,) = table.waiting
        choice = table.legal(seat)[0]
        asked.append((seat, choice.card))
        table.when(seat, choice)
    # Then both are asked of seat 1, one at a time, in its claim order
    assert asked == [(1, claimed[0]), (1, claimed[1])]
    assert table.state.claim_order[:2] == list(claimed)
    # and both took effect: seat 1's first opponent (2) lost a cannonball and its battle
    # with seat 1 is smoked
    assert table.state.cannonballs == [2, 2, 1]
    assert table.state.smoke[1] == 1 << 2
