"""The response window: cancelling a special effect that was just played."""

from __future__ import annotations

from castellum_support import (
    ENGINE,
    WOOD_FROM_BRIDGE,
    Table,
    angel,
    deal_angels,
    play,
    start,
    to_angels,
)

from siege.games.castellum.actions import (
    DECLINE,
    PASS,
    CancelEffect,
    TargetEnemy,
    TargetResources,
    UseAngel,
)
from siege.games.castellum.cards import GOLD
from siege.games.castellum.events import CancelDeclined, CancelPlayed
from siege.games.castellum.rules.combat import enemy_strength

# 1579, three players: seat 0 fights 3 (Walloon Horse 3) and 4, seat 1 holds 5 and 6, seat 2
# holds 0 and 1.
ENEMIES = {0: [3, 4, 5, 6, 0, 1]}
PLAN = {0: [(3, 0, 0), (4, 0, 1)], 1: [(5, 1, 0), (6, 1, 1)], 2: [(0, 2, 0), (1, 2, 1)]}
BOOST, CANCEL = angel("boost"), angel("cancel")


def boosting_table(hands: dict[int, list[int]]) -> Table:
    """Three players at the Angel phase; seat 0 has just boosted seat 1's first enemy."""
    table = start(3, first=0, enemies=ENEMIES)
    deal_angels(table, 0, [BOOST, angel("destroy")])
    for seat, cards in hands.items():
        deal_angels(table, seat, cards)
    to_angels(table, PLAN)
    play(table, (0, UseAngel(card=BOOST)), (0, TargetEnemy(owner=1, column=0)))
    return table


def test_the_other_seats_are_asked_clockwise_and_the_effect_resolves_when_all_decline() -> None:
    table = boosting_table({1: [angel("switch")], 2: [angel("take")]})
    decision = ENGINE.pending(table.state).decision
    assert table.state.asking == "respond" and table.asked == 1
    assert table.legal(1) == [DECLINE]  # no cancel card: only letting it happen
    assert table.when(1, DECLINE) == [CancelDeclined(seat=1)]
    assert ENGINE.pending(table.state).decision > decision
    assert table.asked == 2 and enemy_strength(table.state, 1, 0) == 4
    table.when(2, DECLINE)
    assert enemy_strength(table.state, 1, 0) == 6
    assert table.state.asking == "angel" and table.asked == 1  # the turn moves on


def test_a_cancel_stops_the_effect_and_both_cards_are_discarded() -> None:
    table = boosting_table({1: [CANCEL, angel("switch")], 2: [angel("take")]})
    assert CancelEffect(card=CANCEL) in table.legal(1)
    assert table.when(1, CancelEffect(card=CANCEL)) == [CancelPlayed(seat=1, card=CANCEL)]
    # The cancel is an effect too: the others, clockwise from seat 1, may answer it.
    assert table.asked == 2
    play(table, (2, DECLINE), (0, DECLINE))
    assert enemy_strength(table.state, 1, 0) == 4  # never boosted
    assert table.state.angel_discard == [BOOST, CANCEL]
    assert table.state.stack == [] and table.state.asking == "angel"


def test_cancelling_a_cancel_lets_the_effect_resolve_after_the_remaining_responders() -> None:
    second = angel("cancel", 1)
    table = boosting_table({0: [second], 1: [CANCEL, angel("switch")], 2: [angel("take")]})
    play(table, (1, CancelEffect(card=CANCEL)), (2, DECLINE), (0, CancelEffect(card=second)))
    assert [p.effect for p in table.state.stack] == ["boost", "cancel", "cancel"]
    play(table, (1, DECLINE), (2, DECLINE))
    # Seat 1's cancel is gone; the boost asks seat 2, which had not answered it yet.
    assert [p.effect for p in table.state.stack] == ["boost"]
    assert table.asked == 2 and table.state.asking == "respond"
    play(table, (2, DECLINE))
    assert enemy_strength(table.state, 1, 0) == 6
    assert table.state.angel_discard == [CANCEL, second, BOOST]


def test_seats_with_no_angel_card_are_not_asked_to_respond() -> None:
    table = boosting_table({1: [angel("switch")]})
    play(table, (1, DECLINE))
    assert enemy_strength(table.state, 1, 0) == 6  # seat 2 holds nothing: resolved
    assert table.state.asking == "angel"


def test_a_cancel_answers_an_effect_used_in_the_building_phase() -> None:
    table = start(2, first=0)
    deal_angels(table, 0, [angel("resources")])
    deal_angels(table, 1, [CANCEL])
    gold = table.state.resources[0][GOLD]
    play(table, (0, UseAngel(card=angel("resources"))),
         (0, TargetResources(resources=(GOLD, GOLD))))
    assert table.state.asking == "respond" and table.asked == 1
    play(table, (1, CancelEffect(card=CANCEL)))
    # Seat 0 has no card left to answer with: the cancel resolves at once.
    assert table.state.resources[0][GOLD] == gold
    assert table.state.asking == "worker" and table.asked == 0
    assert table.state.workers[0] == 2
    play(table, (0, WOOD_FROM_BRIDGE))
    assert table.asked == 1


def test_declining_keeps_the_cancel_card_for_later() -> None:
    table = boosting_table({1: [CANCEL]})
    play(table, (1, DECLINE))
    assert table.state.hands[1] == [CANCEL]
    assert table.state.asking == "angel" and table.asked == 1
    assert PASS in table.legal(1)
