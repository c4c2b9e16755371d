"""Remain-in-play cards and the hand limits they count for; the Part II card data."""

from __future__ import annotations

from storm_support import act_table, play_on

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import ARCANISTS, DARK_ELVES, UNDEAD
from siege.games.storm_castle.cards import EQUIPMENT, SPELLS, WAR_DRUMS, card_name
from siege.games.storm_castle.power import POWER_CARDS
from siege.games.storm_castle.rules import economy
from siege.games.storm_castle.state import ARMY_MOVES


def test_a_remain_in_play_card_stays_out_counts_for_the_hand_and_adds_a_move() -> None:
    table = act_table(hands=((WAR_DRUMS, 2, 3), (2, 3, 4)))
    table.when(0, a.PlayCard(card=WAR_DRUMS))
    state = table.state
    assert WAR_DRUMS not in state.hands[0] and state.in_play[0] == [WAR_DRUMS]
    assert economy.held(state, 0).count(WAR_DRUMS) == 1
    state.hands[0] += [4]  # three held and one in play: one over the limit
    assert economy.over_limit(state, 0) == "discard"
    play_on(table, lambda s: s.asking == "discard")
    assert a.DiscardPowerCard(card=WAR_DRUMS) in table.legal(0)
    table.when(0, a.DiscardPowerCard(card=4))
    play_on(table, lambda s: s.turn == 2 and s.asking == "act" and s.order[s.current] == 0)
    assert table.state.army_moves == ARMY_MOVES + 1 and table.state.in_play[0] == [WAR_DRUMS]


def test_the_part_two_cards_are_data_with_names() -> None:
    assert set(SPELLS) == {ARCANISTS, UNDEAD}
    assert all(card_name(army, c) for army in SPELLS for c in SPELLS[army])
    names = [EQUIPMENT[c].name for c in (14, 15)]
    assert names[0] == names[1]  # two copies: the different-names rule can bite
    assert card_name(DARK_ELVES, 18) == ""  # not a spell: a Dark Elf action card (Part III)
    assert POWER_CARDS[DARK_ELVES][18].kind == "action"
