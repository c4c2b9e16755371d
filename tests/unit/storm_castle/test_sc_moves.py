"""A player's turn: army moves, unit moves, passing through, move lock, long paths, locations,
unflipping and the keep."""

from __future__ import annotations

from storm_support import ENGINE, act_table, defender, put

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import (
    KEEP,
    LOCATIONS,
    START_SPACES,
    battlefield_space,
    ground,
    keep_ground,
    rampart,
)
from siege.games.storm_castle.rules import movement
from siege.games.storm_castle.state import ARMY_MOVES

SIDE = 0  # seat 0's battlefield (north); seat 0 is the Boss and acts first


def moves(table, uid: int) -> set[int]:
    return {x.to for x in table.legal(0) if isinstance(x, a.MoveUnit) and x.unit == uid}


def test_a_unit_moves_up_to_two_spaces_and_the_army_has_five_moves() -> None:
    table = act_table()
    goblin = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 1))
    assert table.state.army_moves == ARMY_MOVES
    reach = moves(table, goblin)
    assert battlefield_space(SIDE, 0, 1) in reach  # two steps forward
    assert battlefield_space(SIDE, 0, 0) not in reach  # three steps (no diagonals)
    table.when(0, a.MoveUnit(unit=goblin, to=battlefield_space(SIDE, 0, 1)))
    assert table.state.army_moves == ARMY_MOVES - 2 and moves(table, goblin) == set()


def test_a_unit_cannot_move_again_once_another_unit_has_moved() -> None:
    table = act_table()
    first = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 0))
    second = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 2))
    table.when(0, a.MoveUnit(unit=first, to=battlefield_space(SIDE, 1, 0)))
    assert moves(table, first)  # it still has a move
    table.when(0, a.MoveUnit(unit=second, to=battlefield_space(SIDE, 1, 2)))
    assert moves(table, first) == set()


def test_units_move_through_dark_force_units_but_never_end_on_them() -> None:
    table = act_table()
    mover = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 1))
    put(table, 1, "Shadow Blade", battlefield_space(SIDE, 1, 1))
    reach = moves(table, mover)
    assert battlefield_space(SIDE, 0, 1) in reach
    assert battlefield_space(SIDE, 1, 1) not in reach


def test_move_lock_holds_a_unit_next_to_a_defender_and_stops_one_arriving() -> None:
    table = act_table()
    table.state.standing[0] = False  # north wall 0 is down
    locked = put(table, 0, "Goblin", rampart(SIDE, 0))
    defender(table, "Knight", ground(SIDE, 0))
    assert moves(table, locked) == set()
    assert any(isinstance(x, a.AttackTarget) and x.unit == locked for x in table.legal(0))
    walker = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 0))
    reach = moves(table, walker)
    assert battlefield_space(SIDE, 0, 0) in reach  # next to the rampart... the wall is down
    assert not movement.move_locked(table.state, table.state.units[walker])
    table.state.units[next(u.uid for u in table.state.units.values() if u.owner < 0)].flipped = True
    assert moves(table, locked)  # a flipped defender locks nothing


def test_a_unit_never_moves_through_a_defender() -> None:
    table = act_table()
    for w in range(3):
        table.state.standing[w] = False
    mover = put(table, 0, "Goblin", rampart(SIDE, 1))
    for col in range(3):
        defender(table, "Halfling Slinger", ground(SIDE, col))
    table.state.units[mover].space = battlefield_space(SIDE, 0, 1)
    assert rampart(SIDE, 1) in moves(table, mover)
    assert all(m not in (ground(SIDE, c) for c in range(3)) for m in moves(table, mover))


def test_a_long_path_to_the_next_battlefield_costs_two_and_fights_who_is_there() -> None:
    table = act_table()
    mover = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 2))
    there = battlefield_space(1, 1, 0)
    rival = put(table, 1, "Shadow Blade", there)
    assert there in moves(table, mover)
    table.when(0, a.MoveUnit(unit=mover, to=there))
    assert table.state.army_moves == ARMY_MOVES - 2
    battle = table.state.battle
    assert battle is not None and battle.rounds and battle.target == rival


def test_locations_cost_two_moves_and_hold_one_unit_of_each_player() -> None:
    table = act_table()
    mover = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 0))
    other = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 2))
    assert set(LOCATIONS) <= moves(table, mover)
    table.when(0, a.MoveUnit(unit=mover, to=LOCATIONS[1]))
    assert table.state.army_moves == ARMY_MOVES - 2
    assert LOCATIONS[1] not in moves(table, other)
    table.state.units[mover].moved = 0
    table.state.units[mover].done = False
    table.state.last_mover = -1
    back = moves(table, mover)
    starts = {s for spaces in START_SPACES for s in spaces}
    assert back - set(LOCATIONS) <= starts and back & starts


def test_a_flipped_unit_spends_one_move_to_unflip() -> None:
    table = act_table()
    unit = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 0))
    table.state.units[unit].flipped = True
    assert moves(table, unit) == {battlefield_space(SIDE, 2, 0)}
    assert not any(isinstance(x, a.AttackTarget) and x.unit == unit for x in table.legal(0))
    table.when(0, a.MoveUnit(unit=unit, to=battlefield_space(SIDE, 2, 0)))
    assert not table.state.units[unit].flipped and table.state.army_moves == ARMY_MOVES - 1


def test_moving_into_the_keep_wins_the_game_at_once() -> None:
    table = act_table()
    unit = put(table, 0, "Goblin", keep_ground(SIDE))
    assert KEEP in moves(table, unit)
    table.when(0, a.MoveUnit(unit=unit, to=KEEP))
    assert ENGINE.is_terminal(table.state) and table.state.winner == 0
    assert ENGINE.ranks(table.state) == [1, 2]
    assert ENGINE.legal_actions(table.state, 0) == []


def test_walls_keep_units_out_of_the_castle_until_destroyed() -> None:
    table = act_table()
    unit = put(table, 0, "Goblin", battlefield_space(SIDE, 0, 1))
    assert rampart(SIDE, 1) not in moves(table, unit)
    table.state.standing[1] = False
    assert rampart(SIDE, 1) in moves(table, unit)
