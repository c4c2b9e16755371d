"""Part III power and Boss cards: the deck data, one given/when/then per effect kind, every
card's effect through a table over the data, remain-in-play income, and full-deck playouts."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from storm_support import ENGINE, act_table, defender, play_on, put, replay

from siege.games.storm_castle import actions as a
from siege.games.storm_castle import events as e
from siege.games.storm_castle.armies import ARCANISTS, ARMY_NAMES, DARK_ELVES, GREEN_TIDE, UNDEAD
from siege.games.storm_castle.board import KEEP, battlefield_space, keep_ground, rampart
from siege.games.storm_castle.cards import SPELLS, WAR_DRUMS
from siege.games.storm_castle.decks import BOSS_DECK_SIZE, POWER_DECK_SIZE
from siege.games.storm_castle.power import BOSS_CARDS, COMMON, POWER_CARDS, playable
from siege.games.storm_castle.rules import economy, terrain
from siege.games.storm_castle.state import ARMY_MOVES
from siege.testing.playout import seeded_playout

PLUNDER, FORCED_MARCH, FIELD_DRESSING, SPY_NETWORK = 2, 3, 4, 5
FRONT = battlefield_space(0, 0, 1)  # north front row, middle: 4 from the keep
RAMPART = rampart(0, 1)  # right behind the wall in front of FRONT


def played(table, card: int) -> e.PowerCardPlayed:
    (event,) = table.when(0, a.PlayPowerCard(card=card))
    assert isinstance(event, e.PowerCardPlayed)
    return event


def test_every_army_has_22_power_cards_of_the_published_kinds() -> None:
    assert len(POWER_CARDS) == len(ARMY_NAMES) == 4  # the fifth reference card: the defenders'
    for army, deck in enumerate(POWER_CARDS):
        assert sorted(deck) == list(range(POWER_DECK_SIZE))
        kinds = Counter(c.kind for c in deck.values())
        assert kinds["champion"] == kinds["upgrade"] == 1
        assert kinds["common"] == len(COMMON) and kinds["rip"] == 2
        assert kinds["magic"] == (3 if army in SPELLS else 0)
        assert kinds["action"] == (8 if army in SPELLS else 11)
        assert all(c.name for c in deck.values())
        effects = [c.effect for c in deck.values() if playable(army, c.card)]
        assert len(set(map(repr, effects))) == len(effects)  # no two alike in one deck
    assert len(BOSS_CARDS) == BOSS_DECK_SIZE
    assert len({repr(c.effect) for c in BOSS_CARDS}) == BOSS_DECK_SIZE


def test_no_two_cards_of_any_deck_or_the_boss_deck_share_an_effect() -> None:
    effects = [repr(c.effect) for deck in POWER_CARDS for c in deck.values()
               if c.kind == "action"]
    effects += [repr(c.effect) for c in COMMON] + [repr(c.effect) for c in BOSS_CARDS]
    assert len(effects) == 38 + 4 + 9 and len(set(effects)) == len(effects)


def test_a_gold_card_gains_gold_up_to_the_cap_and_is_discarded() -> None:
    table = act_table(hands=((PLUNDER, 3, 4), (2, 3, 4)))
    state = table.state
    capped = copy.deepcopy(state)
    state.gold[0] = 3
    assert played(table, PLUNDER).gold == 2 and state.gold[0] == 5
    assert PLUNDER not in state.hands[0] and state.discards[0] == [PLUNDER]
    capped.gold[0] = 9
    (event,) = ENGINE.apply(capped, 0, a.PlayPowerCard(card=PLUNDER))
    assert event.gold == 1


def test_power_cards_are_played_on_ones_own_turn_only() -> None:
    table = act_table(hands=((PLUNDER, 0, 13), (PLUNDER, 3, 4)))
    assert a.PlayPowerCard(card=PLUNDER) in table.legal(0)
    assert a.PlayPowerCard(card=0) not in table.legal(0)  # the champion is bought, not played
    assert a.PlayCard(card=13) in table.legal(0)  # the army's remain-in-play card
    assert table.legal(1) == []


def test_a_magic_card_gains_magic() -> None:
    table = act_table(armies=(ARCANISTS, GREEN_TIDE), hands=((6, 2, 3), (2, 3, 4)))
    before = table.state.magic[0]
    assert played(table, 6).magic == 3 and table.state.magic[0] == before + 3


def test_a_draw_card_takes_the_top_cards_and_never_reshuffles() -> None:
    table = act_table(hands=((SPY_NETWORK, 2, 4), (2, 3, 4)))
    state = table.state
    short = copy.deepcopy(state)
    top = state.decks[0][:2]
    assert played(table, SPY_NETWORK).drawn == 2
    assert state.hands[0][-2:] == top
    short.decks[0] = short.decks[0][:1]
    (event,) = ENGINE.apply(short, 0, a.PlayPowerCard(card=SPY_NETWORK))
    assert event.drawn == 1
    ENGINE.evolve(short, event)
    assert short.decks[0] == [] and short.chance is None


def test_a_moves_card_adds_army_moves_to_this_turn() -> None:
    table = act_table(hands=((FORCED_MARCH, 2, 4), (2, 3, 4)))
    played(table, FORCED_MARCH)
    assert table.state.army_moves == ARMY_MOVES + 2


def test_a_fury_card_adds_attack_dice_to_the_players_units() -> None:
    table = act_table(hands=((12, 2, 3), (2, 3, 4)))  # Blood Frenzy: fury 2
    troll = put(table, 0, "Troll", FRONT)
    knight = defender(table, "Knight", battlefield_space(0, 1, 1))  # next to it
    played(table, 12)
    unit = table.state.units[troll]
    assert terrain.attack_dice(unit) == 3 + 2
    unit.flipped = True
    assert terrain.attack_dice(unit) == 3  # a flipped unit has no fury
    unit.flipped = False
    table.when(0, a.AttackTarget(unit=troll, target=knight))
    assert table.need().count == 5


def test_fury_and_guard_last_until_the_next_collect() -> None:
    table = act_table(hands=((12, 11, 3), (2, 3, 4)))
    troll = put(table, 0, "Troll", FRONT)
    played(table, 12)
    played(table, 11)
    unit = table.state.units[troll]
    assert (unit.fury, unit.ward) == (2, 1)
    play_on(table, lambda s: s.turn == 2 and s.phase == "vote")
    assert (unit.fury, unit.ward) == (0, 0)


def test_a_guard_card_adds_armor_dice() -> None:
    table = act_table(hands=((11, 2, 3), (2, 3, 4)))  # Thick Skulls: guard 1
    orc = put(table, 0, "Orc Warrior", FRONT)
    played(table, 11)
    assert terrain.armor(table.state.units[orc]) == 1


def test_a_heal_card_removes_damage_from_each_unit() -> None:
    table = act_table(hands=((7, 2, 3), (2, 3, 4)))  # Troll Regeneration: heal 2
    troll = put(table, 0, "Troll", FRONT, damage=3)
    goblin = put(table, 0, "Goblin", battlefield_space(0, 1, 1), damage=1)
    fresh = put(table, 0, "Orc Warrior", battlefield_space(0, 1, 0))
    event = played(table, 7)
    assert event.healed == [troll, goblin]
    units = table.state.units
    assert (units[troll].damage, units[goblin].damage, units[fresh].damage) == (1, 0, 0)


def test_a_flip_card_flips_reachable_defenders_nearest_the_keep_first() -> None:
    table = act_table(hands=((10, 2, 3), (2, 3, 4)))  # Headbutt: flip 1
    put(table, 0, "Goblin", FRONT)
    far = defender(table, "Knight", battlefield_space(2, 0, 1))  # other side: out of reach
    near = defender(table, "Halfling Slinger", RAMPART)  # 3 from the keep
    behind = defender(table, "Knight", battlefield_space(0, 1, 1))  # in reach, 5 from the keep
    event = played(table, 10)
    assert event.flipped == [near]
    units = table.state.units
    assert units[near].flipped and not units[far].flipped and not units[behind].flipped


def test_a_flip_never_reaches_the_keeps_guard() -> None:
    table = act_table(armies=(ARCANISTS, GREEN_TIDE), hands=((8, 2, 3), (2, 3, 4)))  # flip 3
    put(table, 0, "Apprentice", keep_ground(0))
    guard = defender(table, "Knight", KEEP)
    assert played(table, 8).flipped == [] and not table.state.units[guard].flipped


@pytest.mark.parametrize("army", [ARCANISTS, DARK_ELVES, GREEN_TIDE, UNDEAD])
def test_every_playable_card_does_exactly_what_its_data_says(army: int) -> None:
    table = act_table(armies=(army, GREEN_TIDE if army != GREEN_TIDE else DARK_ELVES))
    hurt = put(table, 0, "Troll" if army == GREEN_TIDE else "Skeleton" if army == UNDEAD
               else "Clay Golem" if army == ARCANISTS else "Blade Dancer", FRONT, damage=1)
    guard = defender(table, "Halfling Slinger", RAMPART)
    base = table.state
    base.gold[0] = base.magic[0] = 0
    for card, data in POWER_CARDS[army].items():
        if not playable(army, card):
            assert a.PlayPowerCard(card=card) not in table.legal(0) or card in base.hands[0]
            continue
        state = copy.deepcopy(base)
        state.hands[0] = [card]
        deck = list(state.decks[0])
        (event,) = ENGINE.apply(state, 0, a.PlayPowerCard(card=card))
        fx = data.effect
        assert (event.gold, event.magic, event.drawn, event.moves) == (
            fx.gold, fx.magic, min(fx.draw, len(deck)), fx.moves), data.name
        assert event.flipped == ([guard] if fx.flip else [])
        assert event.healed == ([hurt] if fx.heal else [])
        moves = state.army_moves
        ENGINE.evolve(state, event)
        unit = state.units[hurt]
        assert (state.gold[0], state.magic[0]) == (fx.gold, fx.magic)
        assert state.army_moves == moves + fx.moves
        assert state.hands[0] == deck[:fx.draw] and state.discards[0][-1] == card
        assert (unit.fury, unit.ward, unit.damage) == (fx.fury, fx.guard, 0 if fx.heal else 1)
        assert state.units[guard].flipped == bool(fx.flip)


def test_every_boss_card_does_what_its_data_says_and_goes_to_the_boss_discard() -> None:
    table = act_table()
    hurt = put(table, 0, "Troll", FRONT, damage=2)
    guard = defender(table, "Halfling Slinger", RAMPART)
    base = table.state
    base.gold[0] = base.magic[0] = 0
    base.boss_hands[0] = [0]
    assert a.PlayBossCard(card=0) in table.legal(0)
    for data in BOSS_CARDS:
        state = copy.deepcopy(base)
        state.boss_hands[0] = [data.card]
        (event,) = ENGINE.apply(state, 0, a.PlayBossCard(card=data.card))
        assert isinstance(event, e.BossCardPlayed)
        ENGINE.evolve(state, event)
        fx = data.effect
        unit = state.units[hurt]
        assert (state.gold[0], state.magic[0], len(state.hands[0])) == (
            fx.gold, fx.magic, len(base.hands[0]) + fx.draw), data.name
        assert (unit.fury, unit.ward, unit.damage) == (fx.fury, fx.guard, max(0, 2 - fx.heal))
        assert state.units[guard].flipped == bool(fx.flip)
        assert state.boss_hands[0] == [] and state.boss_discard[-1] == data.card


def test_an_armys_remain_in_play_card_yields_at_every_collect() -> None:
    table = act_table(hands=((13, 2, 3), (13, 3, 4)))  # Loot Wagon (gold) and Slave Market
    table.when(0, a.PlayCard(card=13))
    state = table.state
    assert state.in_play[0] == [13]
    state.gold = [0, 0]
    economy.collect(state)
    assert state.gold == [6, 5]
    state.in_play[0] = [WAR_DRUMS]  # War Drums gives moves, not gold
    state.gold = [0, 0]
    economy.collect(state)
    assert state.gold == [5, 5]


@pytest.mark.parametrize("seed", [3, 4])
def test_greedy_playouts_with_every_army_play_the_cards_and_replay_to_the_live_state(
        seed: int) -> None:
    live, history = seeded_playout(ENGINE, ["greedy"] * 4, seed)
    assert ENGINE.is_terminal(live) and sorted(live.armies) == [0, 1, 2, 3]
    assert replay(history) == live
    kinds = Counter(type(x).__name__ for x in history)
    assert kinds["PowerCardPlayed"] > 0 and kinds["BossCardPlayed"] > 0
    assert any(c >= 36 for c in live.event_discard + live.revealed)  # a non-march event
