"""Part III defender events: the deck's data (54 cards, the Onward March mix, 18 others), one
given/when/then per effect kind, and an event resolving when it is turned up in play."""

from __future__ import annotations

import copy
from collections import Counter

from storm_support import act_table, defender, put, start, to_buy, to_turns

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import KEEP, WALLS, battlefield_space, rampart
from siege.games.storm_castle.cards import DEFENDER_SPELLS
from siege.games.storm_castle.decks import (
    EVENT_CARDS,
    EVENT_DECK_SIZE,
    MAGIC_DECK_SIZE,
    MARCH_MIX,
    OTHER_EVENTS,
)
from siege.games.storm_castle.rules import events_play

FIRST_OTHER = sum(MARCH_MIX.values())  # 36: the first non-march event
FRONT = battlefield_space(0, 0, 1)


def card(name: str) -> int:
    return next(c.id for c in EVENT_CARDS if c.name == name)


def test_the_event_deck_holds_54_cards_with_its_onward_march_mix() -> None:
    assert len(EVENT_CARDS) == EVENT_DECK_SIZE == 54
    assert [c.id for c in EVENT_CARDS] == list(range(EVENT_DECK_SIZE))
    assert Counter(c.march for c in EVENT_CARDS if c.march) == Counter(MARCH_MIX)
    assert MARCH_MIX == {1: 16, 2: 12, 3: 8}
    others = [c for c in EVENT_CARDS if c.march == 0]
    assert len(others) == len(OTHER_EVENTS) == 18 and others[0].id == FIRST_OTHER
    assert len({repr(c.effect) for c in others}) == 18 and len({c.name for c in others}) == 18
    assert all(repr(c.effect) != repr(type(c.effect)()) for c in others)  # each does something
    assert len(DEFENDER_SPELLS) == MAGIC_DECK_SIZE == 5


def test_mending_heals_every_defender() -> None:
    table = act_table()
    knight = defender(table, "Knight", rampart(0, 1), damage=2)
    slinger = defender(table, "Halfling Slinger", rampart(0, 0), damage=1)
    events_play.resolve(table.state, card("Field Surgeons"), 0)
    assert table.state.units[knight].damage == 1 and table.state.units[slinger].damage == 0


def test_repairing_mends_standing_walls_only() -> None:
    table = act_table()
    state = table.state
    up, down = WALLS[0], WALLS[1]
    state.structure_damage[up] = state.structure_damage[down] = 2
    state.standing[down] = False
    events_play.resolve(state, card("Stonemasons"), 0)
    assert (state.structure_damage[up], state.structure_damage[down]) == (1, 2)


def test_taxing_and_draining_hit_the_player_whose_turn_it_is() -> None:
    table = act_table()
    state = table.state
    state.gold, state.magic = [5, 5], [1, 3]
    events_play.resolve(state, card("Royal Tax Collector"), 0)
    events_play.resolve(state, card("Anti-Magic Ward"), 0)
    assert (state.gold, state.magic) == ([3, 5], [0, 3])


def test_a_levy_takes_gold_from_every_player() -> None:
    table = act_table()
    state = table.state
    state.gold = [1, 4]
    events_play.resolve(state, card("Scorched Earth"), 0)
    assert state.gold == [0, 2]


def test_a_stun_flips_the_players_units_nearest_the_keep() -> None:
    table = act_table()
    front = put(table, 0, "Troll", FRONT)
    back = put(table, 0, "Goblin", battlefield_space(0, 2, 1))
    rival = put(table, 1, "Blade Dancer", battlefield_space(1, 0, 1))
    events_play.resolve(table.state, card("Blinding Flash"), 0)
    units = table.state.units
    assert units[front].flipped and not units[back].flipped and not units[rival].flipped


def test_a_rally_unflips_the_defenders() -> None:
    table = act_table()
    keep = defender(table, "Knight", KEEP)
    table.state.units[keep].flipped = True
    events_play.resolve(table.state, card("Trumpet Call"), 0)
    assert not table.state.units[keep].flipped


def test_a_non_march_event_resolves_when_it_is_turned_up() -> None:
    tax = card("Royal Tax Collector")
    table = start(2, events=(tax,))
    to_buy(table, token=1)
    before = table.state.gold[0]
    assert before >= 2
    to_turns(table)
    state = table.state
    assert state.revealed[:1] == [tax] and state.asking == "act"
    assert state.gold[0] == before - 2
    assert a.END_TURN in table.legal(0)


def test_every_non_march_event_does_exactly_what_its_data_says() -> None:
    base = act_table()
    knight = defender(base, "Knight", rampart(0, 1), damage=2)
    dazed = defender(base, "Halfling Slinger", rampart(0, 0))
    troll = put(base, 0, "Troll", FRONT)
    base.state.units[dazed].flipped = True
    base.state.structure_damage[WALLS[0]] = 2
    base.state.gold, base.state.magic = [5, 5], [5, 5]
    for event in EVENT_CARDS[FIRST_OTHER:]:
        state = copy.deepcopy(base.state)
        events_play.resolve(state, event.id, 0)
        fx = event.effect
        assert state.units[knight].damage == 2 - fx.mend, event.name
        assert state.units[dazed].flipped != fx.rally
        assert state.structure_damage[WALLS[0]] == 2 - fx.repair
        assert state.gold == [5 - fx.tax - fx.levy, 5 - fx.levy]
        assert state.magic == [5 - fx.drain, 5]
        assert state.units[troll].flipped == bool(fx.stun)
