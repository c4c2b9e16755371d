"""The defenders' hero: the three triggers and the pause, the placement priorities, the hero's
own Onward March 1, the extra event card, later turns, once a game, never in the intro game."""

from __future__ import annotations

from storm_support import BLANK, HIT, act_table, defender, play_on, put

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import HERO_KINDS, KIND_BY_NAME
from siege.games.storm_castle.board import (
    KEEP,
    SPACES,
    WALLS,
    battlefield_space,
    keep_ground,
    rampart,
)
from siege.games.storm_castle.rules import economy, heroes, terrain, turns

SIDE = 0
ALDRIC, ELOWEN = HERO_KINDS


def finish_hero_march(table) -> None:
    """The hero's march with blank dice; stops as soon as the pause is over."""
    while table.state.summon is not None:
        if table.state.chance is not None:
            need = table.need()
            table.roll(*[BLANK] * need.count) if need.kind == "dice" else table.shuffle()
        elif table.state.asking == "order":
            table.when(table.asked, table.legal(table.asked)[-1])


def test_declaring_a_move_into_the_keep_pauses_and_the_hero_takes_the_keep() -> None:
    table = act_table(hero=True)
    orc = put(table, 0, "Orc Warrior", keep_ground(SIDE))
    plan = len(table.state.event_plan)
    table.when(0, a.MoveUnit(unit=orc, to=KEEP))
    assert table.state.summon is not None and table.need().purpose == "heroes"
    table.shuffle([1, 0])  # the hero is chosen at random
    assert table.state.asking == "hero" and table.legal(table.asked) == [a.PlaceHero(space=KEEP)]
    table.when(table.asked, a.PlaceHero(space=KEEP))
    hero = table.state.hero
    assert table.state.units[hero].kind == ELOWEN and table.state.march is not None
    orders = table.legal(table.asked)
    assert {x.unit for x in orders} == {hero}  # its own Onward March 1
    assert {x.to for x in orders} == {KEEP}  # in the keep, with the orc near: it stays
    finish_hero_march(table)
    assert table.state.units[orc].space == keep_ground(SIDE)  # the move is called off
    assert table.state.army_moves == 5 and table.state.winner == -1
    assert len(table.state.event_plan) == plan + 1  # an extra event card this turn
    assert table.state.event_plan[table.state.event_next] == 1  # at the end of this turn


def test_declaring_an_attack_on_the_keep_pauses_and_then_goes_ahead() -> None:
    table = act_table(hero=True)
    orc = put(table, 0, "Orc Warrior", keep_ground(SIDE))
    knight = defender(table, "Knight", KEEP)
    table.when(0, a.AttackTarget(unit=orc, target=knight))
    table.shuffle()
    far = keep_ground((SIDE + 2) % 4)
    assert a.PlaceHero(space=far) in table.legal(table.asked)
    table.when(table.asked, a.PlaceHero(space=far))
    assert table.state.units[table.state.hero].kind == ALDRIC
    finish_hero_march(table)
    battle = table.state.battle
    assert orc in table.state.units  # blank dice: the hero hurt nobody
    assert battle is not None and (battle.attacker, battle.target) == (orc, knight)


def test_the_ninth_wall_down_summons_the_hero() -> None:
    table = act_table(hero=True)
    for wall in WALLS[3:11]:
        table.state.standing[wall] = False
    wall = WALLS[1]
    table.state.structure_damage[wall] = 2
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 0, 1))
    table.when(0, a.AttackTarget(unit=orc, structure=wall))
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    assert not table.state.standing[wall] and table.state.summon is not None
    assert table.state.summon.reason == "wall"
    table.shuffle()
    table.when(table.asked, a.PlaceHero(space=KEEP))
    finish_hero_march(table)
    assert table.state.hero_summoned and table.state.hero in table.state.units


def test_the_hero_lands_on_a_dark_force_unit_in_the_full_keep_grounds() -> None:
    table = act_table(hero=True)
    defender(table, "Knight", KEEP)
    for side in (1, 2, 3):
        defender(table, "Knight", keep_ground(side))
    orc = put(table, 0, "Orc Warrior", keep_ground(SIDE))
    table.state.hero_pool = [ALDRIC]
    assert heroes.hero_spaces(table.state) == [keep_ground(SIDE)]
    heroes.on_placed(table.state, keep_ground(SIDE), table.state.next_uid)
    assert orc not in table.state.units and table.state.bought[0][KIND_BY_NAME["Orc Warrior"]] == 0


def test_with_defenders_on_every_keep_ground_the_hero_goes_where_it_can_strike() -> None:
    table = act_table(hero=True)
    defender(table, "Knight", KEEP)
    for side in range(4):
        defender(table, "Knight", keep_ground(side))
    orc = put(table, 0, "Orc Warrior", rampart(SIDE, 1))
    table.state.hero_pool = [ALDRIC]
    spaces = heroes.hero_spaces(table.state)
    grounds = [s.id for s in SPACES if s.kind == "ground"]
    near = [g for g in grounds if terrain.melee_adjacent(table.state, g, rampart(SIDE, 1))]
    assert spaces == near and orc in table.state.units


def test_the_hero_never_comes_in_the_introductory_game() -> None:
    table = act_table(intro=True, hero=True)
    orc = put(table, 0, "Orc Warrior", keep_ground(SIDE))
    table.when(0, a.MoveUnit(unit=orc, to=KEEP))
    assert table.state.winner == 0 and table.state.summon is None


def test_a_hero_in_play_adds_an_event_card_and_marches_before_the_first_one() -> None:
    table = act_table(hero=True)
    hero = defender(table, "Sir Aldric the Bold", rampart(1, 1))
    table.state.hero, table.state.hero_summoned, table.state.hero_march_turn = hero, True, 1
    count = turns.event_count(table.state)
    table.state.hero = -1
    assert turns.event_count(table.state) == count - 1
    table.state.hero = hero
    play_on(table, lambda s: s.turn == 2 and s.march is not None)
    assert table.state.march is not None and table.state.march.hero
    assert table.state.event_next == 0 and table.state.hero_march_turn == 2


def test_a_slain_hero_is_worth_a_vote() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", rampart(SIDE, 1))
    hero = defender(table, "Sir Aldric the Bold", rampart(SIDE, 2), damage=3)
    table.state.hero = hero
    votes = economy.base_votes(table.state, 0)
    table.when(0, a.AttackTarget(unit=orc, target=hero))
    table.roll(BLANK, BLANK, BLANK, BLANK, purpose=f"attack:{hero}")  # first strike
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    table.roll(BLANK, purpose=f"defense:{orc}")  # its armor
    assert hero not in table.state.units and table.state.heroes_slain[0] == 1
    assert economy.base_votes(table.state, 0) == votes + 1
