"""Pushing (an Attack 1 on the pushed unit, then one more space) and "roll an Attack X" outside
battle (the Burst die first, a critical adds three Battle dice, armor only)."""

from __future__ import annotations

from storm_support import BLANK, CRIT, HIT, act_table, put

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import battlefield_space

SIDE = 0
START, MIDDLE, FRONT = (battlefield_space(SIDE, r, 1) for r in (2, 1, 0))


def pushes(table) -> list[a.PushUnit]:
    return [x for x in table.legal(0) if isinstance(x, a.PushUnit)]


def test_only_a_pushable_unit_that_spent_its_two_moves_is_pushed() -> None:
    table = act_table()
    goblin = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 0))
    put(table, 0, "Troll", battlefield_space(SIDE, 2, 2))
    assert pushes(table) == []
    table.when(0, a.MoveUnit(unit=goblin, to=battlefield_space(SIDE, 0, 0)))
    assert {x.to for x in pushes(table)} == {battlefield_space(SIDE, 0, 1),
                                             battlefield_space(SIDE, 1, 0)}  # free neighbours


def test_a_pushed_unit_takes_an_attack_one_and_moves_on_if_it_survives() -> None:
    table = act_table()
    goblin = put(table, 0, "Goblin", START)
    table.when(0, a.MoveUnit(unit=goblin, to=FRONT))
    table.when(0, a.PushUnit(unit=goblin, to=battlefield_space(SIDE, 0, 0)))
    table.roll(HIT, purpose="attack:-1")
    unit = table.state.units[goblin]
    assert unit.damage == 1 and unit.space == battlefield_space(SIDE, 0, 0)
    assert table.state.army_moves == 2 and pushes(table) == []  # once a turn


def test_a_push_that_destroys_the_unit_moves_nothing() -> None:
    table = act_table()
    goblin = put(table, 0, "Goblin", START, damage=1)
    table.when(0, a.MoveUnit(unit=goblin, to=FRONT))
    table.when(0, a.PushUnit(unit=goblin, to=battlefield_space(SIDE, 0, 0)))
    table.roll(HIT, purpose="attack:-1")
    assert goblin not in table.state.units


def test_an_attack_outside_battle_rolls_the_burst_die_and_a_critical_adds_three() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", START)
    table.state.units[orc].gear = [14]  # an Iron Helm: armor rolls, cover never does
    table.when(0, a.MoveUnit(unit=orc, to=FRONT))
    table.when(0, a.PushUnit(unit=orc, to=battlefield_space(SIDE, 0, 2)))
    assert table.need().count == 1  # Attack 1: the Burst die alone
    table.roll(CRIT, purpose="attack:-1")
    table.roll(HIT, BLANK, BLANK, purpose="critical:-1")
    table.roll(BLANK, purpose="defense:-1")  # the helm's one die
    assert table.state.units[orc].damage == 2
