"""Battles: dice, criticals, counterattacks, ranged first, first strike, defenses, walls and
trophies, collapse, battle march, battle rounds, flipped units, the Boss's protection."""

from __future__ import annotations

from storm_support import BLANK, CRIT, HIT, act_table, defender, put

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import (
    KEEP,
    LOCATIONS,
    STRUCTURES,
    TOWERS,
    WALLS,
    battlefield_space,
    ground,
    keep_ground,
    rampart,
)
from siege.games.storm_castle.state import ARMY_MOVES

SIDE = 0


def attack(table, unit: int, target: int = -1, structure: int = -1) -> None:
    table.when(0, a.AttackTarget(unit=unit, target=target, structure=structure))


def test_melee_is_simultaneous_and_both_may_fall() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1), damage=2)
    rival = put(table, 1, "Goblin", battlefield_space(SIDE, 1, 2))
    attack(table, orc, rival)
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    table.roll(HIT, purpose=f"attack:{rival}")
    assert orc not in table.state.units and table.state.units.get(rival) is not None
    assert table.state.units[rival].damage == 1


def test_damage_equal_to_health_destroys() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1))
    rival = put(table, 1, "Goblin", battlefield_space(SIDE, 1, 2), damage=1)
    attack(table, orc, rival)
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    table.roll(BLANK, purpose=f"attack:{rival}")
    assert rival not in table.state.units  # health 2, two damage


def test_a_critical_adds_three_battle_dice() -> None:
    table = act_table()
    troll = put(table, 0, "Troll", battlefield_space(SIDE, 1, 1))
    rival = put(table, 1, "Troll", battlefield_space(SIDE, 1, 2))
    attack(table, troll, rival)
    table.roll(CRIT, BLANK, BLANK, purpose=f"attack:{troll}")
    assert table.need().purpose == f"critical:{troll}" and table.need().count == 3
    table.roll(HIT, HIT, BLANK)
    table.roll(BLANK, BLANK, BLANK, purpose=f"attack:{rival}")
    assert table.state.units[rival].damage == 3  # the critical's hit and two Battle hits


def test_a_unit_counterattacks_only_once_per_player_turn() -> None:
    table = act_table()
    first = put(table, 0, "Goblin", battlefield_space(SIDE, 1, 1))
    second = put(table, 0, "Goblin", battlefield_space(SIDE, 0, 2))
    rival = put(table, 1, "Troll", battlefield_space(SIDE, 1, 2))
    attack(table, first, rival)
    table.roll(BLANK, purpose=f"attack:{first}")
    table.roll(BLANK, BLANK, BLANK, purpose=f"attack:{rival}")
    attack(table, second, rival)
    table.roll(BLANK, purpose=f"attack:{second}")
    assert table.state.chance is None and table.state.asking == "act"  # no second counter


def test_ranged_units_strike_before_melee_and_trump_first_strike() -> None:
    table = act_table()
    blade = put(table, 0, "Blade Dancer", battlefield_space(SIDE, 1, 1))  # first strike
    shooter = put(table, 1, "Crossbow Sister", battlefield_space(SIDE, 1, 2))
    attack(table, blade, shooter)
    assert table.need().purpose == f"attack:{shooter}"  # the ranged target shoots first
    table.roll(HIT, HIT)
    assert blade not in table.state.units and table.state.chance is None


def test_first_strike_deals_its_damage_first_and_can_prevent_the_reply() -> None:
    table = act_table()
    goblin = put(table, 0, "Goblin", battlefield_space(SIDE, 1, 1))
    blade = put(table, 1, "Shadow Blade", battlefield_space(SIDE, 1, 2))
    table.state.units[goblin].damage = 1
    attack(table, goblin, blade)
    table.roll(HIT, purpose=f"attack:{blade}")  # first strike: the Goblin (health 2) falls
    assert goblin not in table.state.units and table.state.chance is None


def test_a_ranged_attack_from_afar_gets_no_melee_reply() -> None:
    table = act_table()
    archer = put(table, 0, "Bone Archer", battlefield_space(SIDE, 2, 1))
    rival = put(table, 1, "Goblin", battlefield_space(SIDE, 0, 1))
    attack(table, archer, rival)
    table.roll(BLANK, BLANK, purpose=f"attack:{archer}")
    assert table.state.chance is None


def test_armor_and_cover_roll_battle_dice_that_cancel_damage() -> None:
    table = act_table()
    shooter = put(table, 0, "Bone Archer", battlefield_space(SIDE, 0, 0))
    knight = defender(table, "Knight", rampart(SIDE, 0))
    attack(table, shooter, knight)
    table.roll(HIT, HIT, purpose=f"attack:{shooter}")
    need = table.need()
    assert need.purpose == f"defense:{shooter}" and need.count == 2  # armor 1 + wall cover 1
    table.roll(HIT, BLANK)
    assert table.state.units[knight].damage == 1


def test_a_tower_gives_two_cover_outside_the_introductory_game() -> None:
    table = act_table()
    shooter = put(table, 0, "Bone Archer", battlefield_space(SIDE, 0, 0))
    target = defender(table, "Halfling Slinger", TOWERS[0])
    attack(table, shooter, target)
    table.roll(HIT, BLANK, purpose=f"attack:{shooter}")
    assert table.need().count == 2


def test_melee_cannot_fight_across_a_standing_wall_but_attacks_it_from_the_front() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 0, 0))
    inside = defender(table, "Knight", rampart(SIDE, 0))
    targets = [x for x in table.legal(0) if isinstance(x, a.AttackTarget) and x.unit == orc]
    assert a.AttackTarget(unit=orc, target=inside) not in targets
    assert targets == [a.AttackTarget(unit=orc, structure=WALLS[0])]


def test_a_destroyed_wall_is_a_trophy_and_collapses_on_the_rampart() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 0, 0))
    inside = defender(table, "Halfling Slinger", rampart(SIDE, 0))
    table.state.structure_damage[WALLS[0]] = 1
    attack(table, orc, structure=WALLS[0])
    table.roll(HIT, HIT, purpose=f"attack:{orc}")
    assert not table.state.standing[WALLS[0]] and table.state.walls_taken[0] == 1
    assert table.need().purpose == "attack:-1" and table.need().count == 1  # the collapse
    table.roll(HIT)
    assert inside not in table.state.units and table.state.defenders_slain[0] == 1
    assert table.state.offer is None  # no battle march after a structure


def test_dark_forces_attack_walls_only_from_the_front() -> None:
    table = act_table()
    table.state.standing[WALLS[1]] = False
    inside = put(table, 0, "Orc Warrior", rampart(SIDE, 1))
    walls = [x.structure for x in table.legal(0)
             if isinstance(x, a.AttackTarget) and x.unit == inside]
    assert WALLS[0] not in walls and WALLS[2] not in walls


def test_a_melee_victor_may_battle_march_into_the_emptied_space() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1))
    rival = put(table, 1, "Goblin", battlefield_space(SIDE, 0, 1), damage=1)
    attack(table, orc, rival)
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    table.roll(BLANK, purpose=f"attack:{rival}")
    assert table.state.asking == "march" and table.legal(0) == [a.MARCH, a.HOLD]
    table.when(0, a.MARCH)
    unit = table.state.units[orc]
    assert unit.space == battlefield_space(SIDE, 0, 1)
    assert table.state.army_moves == ARMY_MOVES - 1 and unit.done


def test_no_battle_march_without_army_moves_left() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1))
    rival = put(table, 1, "Goblin", battlefield_space(SIDE, 0, 1), damage=1)
    table.state.army_moves = 0
    attack(table, orc, rival)
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    table.roll(BLANK, purpose=f"attack:{rival}")
    assert table.state.asking == "act" and table.state.offer is None


def test_a_battle_march_into_the_keep_wins() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", keep_ground(SIDE))
    guard = defender(table, "Halfling Slinger", KEEP)
    attack(table, orc, guard)
    table.roll(BLANK, purpose=f"attack:{guard}")  # a shooter: it strikes first
    table.roll(HIT, BLANK, purpose=f"attack:{orc}")
    table.when(0, a.MARCH)
    assert table.state.winner == 0 and table.state.phase == "over"
    assert table.state.defenders_slain[0] == 1


def test_battle_rounds_go_on_until_one_unit_is_left() -> None:
    table = act_table()
    goblin = put(table, 0, "Goblin", battlefield_space(SIDE, 1, 2))
    peasant = defender(table, "Peasant", LOCATIONS[0])
    table.when(0, a.MoveUnit(unit=goblin, to=LOCATIONS[0]))
    for _ in range(3):
        table.roll(BLANK, purpose=f"attack:{goblin}")
        table.roll(BLANK, purpose=f"attack:{peasant}")
    table.roll(HIT, purpose=f"attack:{goblin}")
    table.roll(BLANK, purpose=f"attack:{peasant}")
    assert peasant not in table.state.units and table.state.defenders_slain[0] == 0
    assert table.state.units[goblin].space == LOCATIONS[0] and table.state.battle is None


def test_attacking_a_flipped_unit_adds_a_die_and_gets_no_reply_or_defense() -> None:
    table = act_table()
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 0, 0))
    table.state.standing[WALLS[0]] = False
    knight = defender(table, "Knight", rampart(SIDE, 0))
    table.state.units[knight].flipped = True
    attack(table, orc, knight)
    assert table.need().count == 3  # attack 2 + 1 against a flipped unit
    table.roll(HIT, BLANK, BLANK)
    assert table.state.chance is None and table.state.units[knight].damage == 1


def test_nobody_attacks_the_boss_until_the_boss_attacks_them() -> None:
    table = act_table()
    boss_unit = put(table, 0, "Goblin", battlefield_space(SIDE, 1, 1))
    rival = put(table, 1, "Shadow Blade", battlefield_space(SIDE, 1, 2))
    from siege.games.storm_castle.rules.movement import attack_targets

    assert table.state.boss == 0
    state = table.state
    assert not any(x.target == boss_unit for x in attack_targets(state, state.units[rival]))
    attack(table, boss_unit, rival)
    table.roll(BLANK, purpose=f"attack:{rival}")
    table.roll(BLANK, purpose=f"attack:{boss_unit}")
    state.units[rival].attacked = False
    assert any(x.target == boss_unit for x in attack_targets(state, state.units[rival]))


def test_defenders_behind_the_keep_walls_take_cover_too() -> None:
    table = act_table()
    table.state.standing[WALLS[1]] = False
    shooter = put(table, 0, "Bone Archer", ground(SIDE, 1))
    target = defender(table, "Halfling Slinger", keep_ground(SIDE))
    attack(table, shooter, target)
    table.roll(HIT, BLANK, purpose=f"attack:{shooter}")
    assert table.need().purpose == f"defense:{shooter}" and table.need().count == 1


def test_towers_are_fighting_spaces_never_attacked_as_structures() -> None:
    # given a shooter in range of an empty tower and of the walls beside it
    table = act_table()
    shooter = put(table, 0, "Bone Archer", battlefield_space(SIDE, 0, 0))
    # when its attacks are listed
    offered = [x.structure for x in table.legal(0)
               if isinstance(x, a.AttackTarget) and x.unit == shooter and x.structure >= 0]
    # then walls are offered but no tower is a structure with health to attack
    assert offered and all(STRUCTURES[s].kind != "tower" for s in offered)
    assert {s.kind for s in STRUCTURES} == {"wall", "keep_wall", "building", "upgrade"}
    # and a defender on the tower is still a target who takes the tower's cover
    target = defender(table, "Halfling Slinger", TOWERS[0])
    assert a.AttackTarget(unit=shooter, target=target) in table.legal(0)
