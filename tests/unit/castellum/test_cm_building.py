"""Phase 1, Building: income, workers in turn order, the action spaces, buying cards."""

from __future__ import annotations

import pytest
from castellum_support import (
    WOOD_FROM_BRIDGE,
    angel,
    at,
    build,
    deal_angels,
    play,
    run_until,
    set_resources,
    start,
)

from siege.games.castellum.actions import (
    PLACE_WORKER,
    BuyCard,
    DiscardAngel,
    PlaceWorker,
    TargetResources,
    UseAngel,
)
from siege.games.castellum.board import DINGHUIS, MARKT, OUDE_BRUG, SPACES
from siege.games.castellum.cards import GOLD, STONE, WOOD
from siege.games.castellum.events import AngelDiscarded, CardBought, WorkerPlaced
from siege.games.castellum.rules.combat import column_strength

TIMBER, QUARRY, MINT, WORKSHOPS, SERVAAS, VROUWE = 2, 3, 4, 5, 7, 8
EARTHEN_RAMPART, TREASURY, CHAPEL = 4, 14, 15  # fortifications
PIKEMEN, MUSKETEERS, FIELD_CHAPLAIN = 20, 24, 32  # troops


def test_workers_are_placed_one_per_turn_clockwise_from_the_first_player() -> None:
    table = start(3, first=1)
    asked = []
    while table.state.phase == "building":
        seat = table.asked
        asked.append(seat)
        table.when(seat, WOOD_FROM_BRIDGE)
    assert asked == [1, 2, 0, 1, 2, 0]
    assert table.state.phase == "siege"


def test_a_single_worker_space_takes_one_worker_a_year_unlimited_spaces_take_any() -> None:
    table = start(2, first=0)
    markt = PlaceWorker(space=MARKT, gain=(WOOD, STONE))
    play(table, (0, markt))
    assert not any(isinstance(a, PlaceWorker) and a.space == MARKT for a in table.legal(1))
    play(table, (1, WOOD_FROM_BRIDGE), (0, WOOD_FROM_BRIDGE))
    assert table.state.spaces[OUDE_BRUG] == [1, 0]
    assert WOOD_FROM_BRIDGE in table.legal(1)
    # Next year every space is free again.
    run_until(table, lambda s: s.year == 1 and s.phase == "building")
    assert markt in table.legal(table.asked)


def test_the_oude_brug_gives_one_resource_of_choice_and_the_markt_two() -> None:
    table = start(2, first=0)
    legal = table.legal(0)
    bridge = [a for a in legal if isinstance(a, PlaceWorker) and a.space == OUDE_BRUG]
    market = [a for a in legal if isinstance(a, PlaceWorker) and a.space == MARKT]
    assert {a.gain for a in bridge} == {(WOOD,), (STONE,), (GOLD,)}
    assert len(market) == 6 and (GOLD, GOLD) in {a.gain for a in market}
    out = table.when(0, PlaceWorker(space=MARKT, gain=(GOLD, GOLD)))
    assert out == [WorkerPlaced(seat=0, space=MARKT, gain=[GOLD, GOLD])]
    table.when(1, PlaceWorker(space=OUDE_BRUG, gain=(STONE,)))
    assert table.state.resources == [[3, 3, 5], [3, 4, 3]]


@pytest.mark.parametrize(("space", "after"), [
    (TIMBER, [6, 3, 3]),
    (QUARRY, [3, 6, 3]),
    (MINT, [3, 3, 5]),
    (WORKSHOPS, [4, 4, 4]),
])
def test_the_fixed_spaces_yield_their_resources(space: int, after: list[int]) -> None:
    table = start(2, first=0)
    table.when(0, PLACE_WORKER[space][0])
    assert table.state.resources[0] == after
    assert table.state.workers[0] == 1


def test_the_dinghuis_gives_every_column_of_its_player_one_strength_for_this_year() -> None:
    table = start(2, first=0)
    build(table, 0, 1, troops=[PIKEMEN])
    before = [column_strength(table.state, 0, col) for col in range(5)]
    other = [column_strength(table.state, 1, col) for col in range(5)]
    table.when(0, PLACE_WORKER[DINGHUIS][0])
    assert [column_strength(table.state, 0, col) for col in range(5)] == [
        strength + 1 for strength in before]
    assert [column_strength(table.state, 1, col) for col in range(5)] == other
    assert not any(isinstance(a, PlaceWorker) and a.space == DINGHUIS for a in table.legal(1))
    run_until(table, lambda s: s.year == 1)
    assert [column_strength(table.state, 0, col) for col in range(5)] == before


def test_an_angel_space_draws_the_top_angel_card_into_the_hand() -> None:
    table = start(2, first=0, angels=[angel("switch")])
    table.when(0, PLACE_WORKER[SERVAAS][0])
    assert table.state.hands[0] == [angel("switch")]
    assert len(table.state.angel_deck) == 27
    table.when(1, PLACE_WORKER[VROUWE][0])
    assert len(table.state.hands[1]) == 1


def test_a_fourth_angel_card_makes_its_holder_discard_one_of_its_choice() -> None:
    held = [angel("boost"), angel("take"), angel("cancel")]
    table = start(2, first=0, angels=[angel("destroy")])
    deal_angels(table, 0, held)
    table.when(0, PLACE_WORKER[SERVAAS][0])
    assert table.state.asking == "discard" and table.asked == 0
    assert set(table.legal(0)) == {DiscardAngel(card=c) for c in [*held, angel("destroy")]}
    # An old card may go; the new one stays.
    out = table.when(0, DiscardAngel(card=angel("take")))
    assert out == [AngelDiscarded(seat=0, card=angel("take"))]
    assert sorted(table.state.hands[0]) == sorted(
        [angel("boost"), angel("cancel"), angel("destroy")])
    assert table.state.angel_discard == [angel("take")]
    assert table.state.asking == "worker" and table.asked == 1


def test_income_is_paid_before_the_first_worker_from_the_next_year_on() -> None:
    table = start(2, first=0, forts=[TREASURY, CHAPEL], troops=[FIELD_CHAPLAIN])
    play(table, (0, BuyCard(card=TREASURY, column=1)), (1, WOOD_FROM_BRIDGE),
         (0, BuyCard(card=FIELD_CHAPLAIN, column=1)), (1, WOOD_FROM_BRIDGE))
    assert table.state.resources[0] == [3, 2, 0]  # S1 G1 and G2 paid; no income this year
    assert table.state.hands[0] == []
    run_until(table, lambda s: s.year == 1 and s.phase == "building")
    # Year 2 opens with the Treasury's gold and the Chaplain's angel card, before any worker.
    assert table.state.workers == [3, 3]
    assert table.state.resources[0][GOLD] == 1
    assert len(table.state.hands[0]) == 1
    assert table.state.hands[1] == []  # seat 1 has no income card


def test_buying_pays_the_price_and_puts_the_card_in_the_chosen_column() -> None:
    table = start(2, first=0, forts=[EARTHEN_RAMPART], troops=[MUSKETEERS])
    out = table.when(0, BuyCard(card=MUSKETEERS, column=0))
    assert out == [CardBought(seat=0, card=MUSKETEERS, column=0)]
    assert table.state.resources[0] == [2, 3, 1]
    assert table.state.lines[0][0].troops == [MUSKETEERS]
    assert MUSKETEERS not in table.state.offer
    assert table.state.spaces[9] == [0] and table.state.workers[0] == 1
    table.when(1, BuyCard(card=EARTHEN_RAMPART, column=1))
    assert table.state.lines[1][1].fort == EARTHEN_RAMPART
    assert table.state.resources[1] == [1, 3, 3]


def test_a_card_that_cannot_be_paid_is_not_offered() -> None:
    table = start(2, first=0, troops=[MUSKETEERS])
    set_resources(table, 0, 1, 0, 1)  # Musketeers cost W1 G2
    buys = {a.card for a in table.legal(0) if isinstance(a, BuyCard)}
    assert MUSKETEERS not in buys and PIKEMEN in buys  # Pikemen cost W1 G1


def test_a_column_holds_one_fortification_and_two_troops_in_available_columns_only() -> None:
    table = start(2, first=0, forts=[EARTHEN_RAMPART], troops=[PIKEMEN])
    build(table, 0, 0, fort=0, troops=[21, 22])  # full: a fortification and two troops
    build(table, 0, 1, fort=5)
    set_resources(table, 0, 9, 9, 9)
    buys = {(a.card, a.column) for a in table.legal(0) if isinstance(a, BuyCard)}
    assert (EARTHEN_RAMPART, 0) not in buys and (EARTHEN_RAMPART, 1) not in buys
    assert (PIKEMEN, 0) not in buys and (PIKEMEN, 1) in buys
    assert all(column < 2 for _, column in buys)  # only two columns in 1579


def test_the_resources_effect_may_be_used_on_a_building_turn_without_spending_it() -> None:
    table = start(2, first=0)
    card = angel("resources")
    deal_angels(table, 0, [card, angel("switch")])
    legal = table.legal(0)
    assert UseAngel(card=card) in legal
    assert UseAngel(card=angel("switch")) not in legal  # other effects wait for the Angel phase
    table.when(0, UseAngel(card=card))
    assert table.state.asking == "target" and len(table.legal(0)) == 6
    table.when(0, TargetResources(resources=(STONE, GOLD)))
    # Seat 1 holds no angel card, so nobody can cancel and the effect resolves at once.
    assert table.state.resources[0] == [3, 4, 4]
    assert table.state.angel_discard == [card]
    assert table.state.asking == "worker" and table.asked == 0
    assert table.state.workers[0] == 2


def test_the_first_building_decision_of_the_last_year_offers_five_workers() -> None:
    table = start(2, first=1)
    run_until(table, lambda s: s.year == 3 and s.phase == "building")
    assert table.state.workers == [5, 5]
    assert len(SPACES) == 10


def test_seats_over_the_hand_limit_after_income_discard_in_turn_order() -> None:
    table = start(2, first=0)
    build(table, 0, 1, fort=CHAPEL)
    build(table, 1, 1, troops=[FIELD_CHAPLAIN])
    deal_angels(table, 0, [angel("boost", k) for k in range(3)])
    deal_angels(table, 1, [angel("take", k) for k in range(3)])
    run_until(table, lambda s: s.year == 1 and s.asking == "discard")
    # 1632 starts with seat 1 as first player: it discards first, then seat 0.
    assert table.asked == 1 and len(table.state.hands[1]) == 4
    table.when(1, DiscardAngel(card=table.state.hands[1][0]))
    assert table.asked == 0 and table.state.asking == "discard"
    table.when(0, DiscardAngel(card=table.state.hands[0][-1]))
    assert table.state.asking == "worker" and table.asked == 1
    assert [len(h) for h in table.state.hands] == [3, 3]


def test_the_bank_is_unlimited_a_seat_far_past_36_wood_still_gains_wood() -> None:
    # Given both seats already hold more of every resource than the box's 36
    table = start(2, first=0)
    set_resources(table, 0, 40, 37, 50)
    set_resources(table, 1, 36, 36, 36)
    # When seat 0 takes the Timber Harbour and seat 1 two gold at the Markt
    play(table, (0, PLACE_WORKER[TIMBER][0]), (1, PlaceWorker(space=MARKT, gain=(GOLD, GOLD))))
    # Then both are paid in full: the engine keeps no bank count
    assert table.state.resources == [[43, 37, 50], [36, 36, 38]]


def test_the_offer_is_not_refilled_during_the_year() -> None:
    # Given the 1579 offer of 4 fortifications and 8 troops
    table = start(2, first=0, forts=[EARTHEN_RAMPART], troops=[PIKEMEN])
    offer = list(table.state.offer)
    decks = (list(table.state.fort_deck), list(table.state.troop_deck))
    assert len(offer) == 12
    # When two cards are bought
    play(table, (0, BuyCard(card=PIKEMEN, column=0)), (1, BuyCard(card=EARTHEN_RAMPART, column=1)))
    left = [card for card in offer if card not in (PIKEMEN, EARTHEN_RAMPART)]
    # Then their places stay empty for the rest of the year, and the decks are not touched
    for stop in (at("building"), at("siege"), lambda s: s.phase == "reward" or s.year == 1):
        run_until(table, stop)
        if table.state.year == 0:
            assert table.state.offer == left
            assert (table.state.fort_deck, table.state.troop_deck) == decks
    # until the year ends and 4 + 8 new cards are turned up
    run_until(table, lambda s: s.year == 1)
    assert table.state.offer == decks[0][:4] + decks[1][:8]
