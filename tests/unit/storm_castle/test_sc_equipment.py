"""Equipment and ladders: bought from the hand (ladders without a card), two pieces with
different names per unit, never transferred, gone with the unit; ladders placed in front of a
wall, climbed, picked up, knocked down; fighting across a wall and cover with a ladder."""

from __future__ import annotations

from storm_support import BLANK, HIT, act_table, clear_board, defender, put, start, to_buy

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import (
    KEEP_WALLS,
    LOCATIONS,
    STRUCTURES,
    WALLS,
    battlefield_space,
    ground,
    rampart,
)
from siege.games.storm_castle.cards import LADDER
from siege.games.storm_castle.rules import equipment, terrain

SIDE = 0
HELM, HELM_TOO, BLADE = 14, 15, 16  # our equipment (cards.py)
WALL = WALLS[3 * SIDE + 1]  # in front of battlefield_space(SIDE, 0, 1)
FRONT = battlefield_space(SIDE, 0, 1)


def buy_table():
    table = start(2, hands=((HELM, HELM_TOO, BLADE), (2, 3, 4)))
    to_buy(table, token=1)
    clear_board(table)
    assert table.state.asking == "buy" and table.asked == 0
    table.state.gold[0] = 10
    return table


def gear_buys(table) -> list:
    return [x for x in table.legal(0) if isinstance(x, (a.BuyEquipment, a.BuyLadder))]


def test_equipment_is_bought_from_the_hand_for_units_on_battlefields_only() -> None:
    table = buy_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1))
    scout = put(table, 0, "Goblin", LOCATIONS[1])
    assert all(x.unit != scout for x in gear_buys(table))  # never at a battlefield location
    table.when(0, a.BuyEquipment(card=HELM, unit=orc))
    assert table.state.gold[0] == 8 and table.state.units[orc].gear == [HELM]
    assert HELM not in table.state.hands[0]  # set aside: no longer in the hand


def test_a_unit_carries_at_most_two_pieces_with_different_names() -> None:
    table = buy_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 2, 1))
    table.when(0, a.BuyEquipment(card=HELM, unit=orc))
    assert a.BuyEquipment(card=HELM_TOO, unit=orc) not in table.legal(0)  # same name
    table.when(0, a.BuyEquipment(card=BLADE, unit=orc))
    assert [x for x in gear_buys(table) if x.unit == orc] == []  # two pieces: full


def test_equipment_counts_in_battle_and_goes_with_its_unit() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1))
    table.state.units[orc].gear = [BLADE, LADDER]
    rival = put(table, 1, "Goblin", battlefield_space(SIDE, 1, 2))
    assert terrain.attack_dice(table.state.units[orc]) == 3
    table.when(0, a.AttackTarget(unit=orc, target=rival))
    table.roll(BLANK, BLANK, BLANK, purpose=f"attack:{orc}")  # Attack 2 + the blade
    table.state.units[orc].damage = 2
    table.roll(HIT, purpose=f"attack:{rival}")
    assert orc not in table.state.units
    assert BLADE in table.state.discards[0] and equipment.ladders_in_use(table.state, 0) == 0


def test_equipment_is_never_transferred_but_may_be_destroyed() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1))
    put(table, 0, "Goblin", battlefield_space(SIDE, 1, 0))
    table.state.units[orc].gear = [HELM]
    gear_moves = [x for x in table.legal(0) if isinstance(x, (a.BuyEquipment, a.DropEquipment))]
    assert gear_moves == [a.DropEquipment(unit=orc, card=HELM)]
    table.when(0, a.DropEquipment(unit=orc, card=HELM))
    assert table.state.units[orc].gear == [] and HELM in table.state.discards[0]


def test_ladders_go_to_units_on_start_spaces_up_to_three_per_army() -> None:
    table = buy_table()
    start_orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 2, 0))
    front_orc = put(table, 0, "Orc Warrior", FRONT)
    assert [x for x in gear_buys(table) if isinstance(x, a.BuyLadder)] == [
        a.BuyLadder(unit=start_orc)]
    table.when(0, a.BuyLadder(unit=start_orc))
    assert table.state.units[start_orc].gear == [LADDER] and table.state.gold[0] == 9
    table.state.units[front_orc].gear = [LADDER, HELM]
    other = put(table, 0, "Goblin", battlefield_space(SIDE, 2, 2))
    assert a.BuyLadder(unit=other) in table.legal(0)
    table.state.ladders[WALLS[0]] = equipment.Ladder(owner=0, placer=front_orc)
    assert equipment.ladders_in_use(table.state, 0) == 3
    assert a.BuyLadder(unit=other) not in table.legal(0)


def test_a_ladder_is_placed_in_front_of_a_wall_and_climbed_into_a_free_rampart() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", FRONT)
    table.state.units[orc].gear = [LADDER]
    assert a.MoveUnit(unit=orc, to=rampart(SIDE, 1)) not in table.legal(0)
    assert a.PlaceLadder(unit=orc, wall=WALL) in table.legal(0)
    table.when(0, a.PlaceLadder(unit=orc, wall=WALL))
    assert table.state.ladders[WALL].owner == 0 and table.state.units[orc].gear == []
    assert terrain.on_ladder(table.state, table.state.units[orc]) == WALL
    assert a.MoveUnit(unit=orc, to=rampart(SIDE, 1)) in table.legal(0)
    blocker = defender(table, "Halfling Slinger", rampart(SIDE, 1))
    assert a.MoveUnit(unit=orc, to=rampart(SIDE, 1)) not in table.legal(0)  # not onto a unit
    table.state.units.pop(blocker)
    table.when(0, a.MoveUnit(unit=orc, to=rampart(SIDE, 1)))
    assert table.state.units[orc].space == rampart(SIDE, 1) and table.state.army_moves == 4


def test_on_a_keep_wall_ladder_the_placer_stands_on_it_then_the_lowest_id() -> None:
    table = act_table()
    wall = KEEP_WALLS[SIDE]
    first = put(table, 0, "Orc Warrior", ground(SIDE, 0))
    placer = put(table, 0, "Orc Warrior", ground(SIDE, 2))
    table.state.units[placer].gear = [LADDER]
    table.state.hero_summoned = True
    table.when(0, a.PlaceLadder(unit=placer, wall=wall))
    assert terrain.on_ladder(table.state, table.state.units[placer]) == wall
    assert terrain.on_ladder(table.state, table.state.units[first]) == -1
    table.state.units[placer].space = rampart(SIDE, 2)  # it leaves the castle grounds
    assert terrain.on_ladder(table.state, table.state.units[first]) == wall


def test_a_ladder_is_picked_up_again_by_a_dark_force_unit() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", FRONT)
    table.state.ladders[WALL] = equipment.Ladder(owner=1, placer=99)
    table.when(0, a.PickUpLadder(unit=orc, wall=WALL))
    assert WALL not in table.state.ladders and table.state.units[orc].gear == [LADDER]
    assert equipment.ladders_in_use(table.state, 0) == 1  # the picker's from now on


def test_melee_across_a_wall_needs_a_ladder_and_the_ladder_negates_cover() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", FRONT)
    knight = defender(table, "Knight", rampart(SIDE, 1))
    assert a.AttackTarget(unit=orc, target=knight) not in table.legal(0)
    table.state.ladders[WALL] = equipment.Ladder(owner=0, placer=orc)
    assert a.AttackTarget(unit=orc, target=knight) in table.legal(0)
    assert any(isinstance(x, a.MoveUnit) and x.unit == orc for x in table.legal(0))  # no lock
    table.when(0, a.AttackTarget(unit=orc, target=knight))
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    assert table.need().count == 1  # the knight's armor only: no cover against the ladder
    assert STRUCTURES[WALL].inner == (rampart(SIDE, 1),)


def test_a_unit_on_a_ladder_may_battle_march_over_the_wall() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", FRONT)
    slinger = defender(table, "Halfling Slinger", rampart(SIDE, 1))
    table.state.ladders[WALL] = equipment.Ladder(owner=0, placer=orc)
    table.when(0, a.AttackTarget(unit=orc, target=slinger))
    table.roll(BLANK, purpose=f"attack:{slinger}")  # the shooter first
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    assert slinger not in table.state.units and table.state.asking == "march"
    table.when(0, a.MARCH)
    assert table.state.units[orc].space == rampart(SIDE, 1)


def test_a_defender_knocks_a_ladder_down_onto_the_unit_on_it() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", FRONT)
    knight = defender(table, "Knight", rampart(SIDE, 1))
    table.state.ladders[WALL] = equipment.Ladder(owner=0, placer=orc)
    table.when(0, a.END_TURN)  # the Onward March at the end of seat 0's turn
    knock = a.OrderDefender(unit=knight, to=rampart(SIDE, 1), knock=WALL)
    assert knock in table.legal(1)
    table.when(1, knock)
    assert WALL not in table.state.ladders and equipment.ladders_in_use(table.state, 0) == 0
    table.roll(HIT, purpose="attack:-1")  # an Attack 1 on the orc
    assert table.state.units[orc].damage == 1


def test_a_ladder_against_a_fallen_wall_goes_back_to_its_owner() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", FRONT)
    table.state.ladders[WALL] = equipment.Ladder(owner=0, placer=orc)
    table.state.structure_damage[WALL] = 2
    table.when(0, a.AttackTarget(unit=orc, structure=WALL))
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    assert not table.state.standing[WALL] and table.state.ladders == {}
    assert equipment.ladders_in_use(table.state, 0) == 0
