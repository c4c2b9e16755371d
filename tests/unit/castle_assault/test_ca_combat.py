"""Combat: engaging straight ahead, simultaneous damage, Smash and Momentum, castles defended
lane by lane, blocking, repeat combat, Gigantic and Quick, and a card for each kill."""

from __future__ import annotations

from ca_support import PETE, YOU, put, start

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME
from siege.games.castle_assault.rules.combat import castle_code


def test_example_6_soot_against_an_undefended_castle_deals_nine() -> None:
    t = start()
    put(t, PETE, "Goldguard Garrison", 0, 9)  # another lane's location: lane 2 is undefended
    soot = put(t, YOU, "Soot", 2, 7)
    t.start_turn(1)
    clash = t.s.clashes[0]
    assert soot.row == 8 and (clash.target, clash.damage, clash.smash) == (castle_code(PETE),
                                                                            5, True)
    assert a.Charge(unit=soot.uid) not in t.legal(YOU)  # engaged: it may only Attack
    t.when(YOU, a.Attack(unit=soot.uid))
    assert t.s.clashes[-1].damage == 4 and not t.s.clashes[-1].smash  # no bonus on an Attack
    assert t.s.castle_damage[PETE] == 9 and t.castle(PETE) == 1


def test_a_defended_lane_takes_the_blow_instead_of_the_castle() -> None:
    t = start()
    garrison = put(t, PETE, "Goldguard Garrison", 2, 9)
    put(t, YOU, "Soot", 2, 7)
    t.start_turn(1)
    clash = t.s.clashes[0]
    assert clash.target == garrison.uid and clash.damage == 4 + 1 - 2
    assert t.s.castle_damage[PETE] == 0


def test_momentum_bonus_only_on_a_charge_with_a_smash() -> None:
    t = start()
    soot = put(t, YOU, "Soot", 2, 7)
    wurm = put(t, YOU, "Brood Wurm", 0, 3)
    t.start_turn(4)  # Max in your favour: the Charging Smash area
    assert t.s.clashes[0].damage == 5 and not t.s.clashes[0].momentum  # Move Units: Smash only
    assert soot.row == 8 and wurm.row == 5
    t.charge(YOU, "Brood Wurm", 6)  # 3 spaces to the wall, 3 more: Smash and Momentum
    clash = t.s.clashes[-1]
    assert (clash.damage, clash.smash, clash.momentum) == (2 + 1 + 1, True, True)


def test_a_charge_that_exactly_reaches_gets_no_smash() -> None:
    t = start()
    put(t, YOU, "Brood Wurm", 0, 3)
    t.start_turn(4)
    t.charge(YOU, "Brood Wurm", 3)  # from row 5, exactly 3 to the wall
    clash = t.s.clashes[-1]
    assert (clash.damage, clash.smash, clash.momentum) == (2, False, False)


def test_a_friendly_unit_blocks_and_the_most_forward_moves_first() -> None:
    t = start()
    drake = put(t, YOU, "Drake", 1, 3)
    draco = put(t, YOU, "Dracomancer", 1, 4)
    t.start_turn(1)
    assert (draco.row, drake.row) == (5, 4)  # the Dracomancer moved first, the Drake queued
    assert t.s.clashes == []


def test_units_in_other_lanes_never_engage() -> None:
    t = start()
    mine = put(t, YOU, "Ash Raider", 0, 3)
    put(t, PETE, "Bronzebeard Bulwark", 1, 6)
    t.start_turn(1)
    assert mine.row == 6 and t.s.clashes == []


def test_engaged_units_fight_again_each_move_units_step_with_the_smash() -> None:
    t = start()
    wurm = put(t, YOU, "Brood Wurm", 1, 4)
    bulwark = put(t, PETE, "Bronzebeard Bulwark", 1, 5)
    t.start_turn(1)  # already touching: no space to move, so blocked with distance left
    clash = t.s.clashes[0]
    assert wurm.row == 4 and (clash.damage, clash.returned, clash.smash) == (3, 0, True)
    assert bulwark.damage == 3


def test_destroying_an_enemy_unit_draws_a_card_for_each_side_that_did() -> None:
    t = start()
    raider = put(t, YOU, "Ash Raider", 1, 4)  # Attack 2 (+1 Smash), Health 2
    put(t, PETE, "Deepdelver Miners", 1, 5)  # Attack 1, Health 2
    decks = [len(d) for d in t.s.decks]
    t.start_turn(1)
    assert t.s.units == [raider] and raider.damage == 1
    assert [len(d) for d in t.s.decks] == [decks[0] - 2, decks[1]]  # the turn's draw + a kill
    both = start()
    raider = put(both, YOU, "Ash Raider", 1, 4)
    raider.damage = 1
    put(both, PETE, "Deepdelver Miners", 1, 5)
    decks = [len(d) for d in both.s.decks]
    both.start_turn(1)
    assert both.s.units == [] and [len(d) for d in both.s.decks] == [decks[0] - 2, decks[1] - 1]


def test_a_command_kill_draws_no_card() -> None:
    t = start(top0=["Searing Breath"])
    t.start_turn(1)
    t.s.resources[YOU] = [t.s.decks[YOU].pop(), t.s.decks[YOU].pop()]  # two ready resources
    miners = put(t, PETE, "Deepdelver Miners", 1, 5)
    deck = len(t.s.decks[YOU])
    t.when(YOU, a.PlayCommand(card=t.instance(YOU, "Searing Breath"), unit=miners.uid))
    assert miners not in t.s.units and len(t.s.decks[YOU]) == deck


def test_gigantic_stacks_while_engaged_with_the_castle() -> None:
    t = start()
    put(t, YOU, "Drake", 0, 8)
    put(t, YOU, "Magma Drake", 2, 8)
    assert t.castle(PETE) == 10 - 4
    garrison = put(t, PETE, "Goldguard Garrison", 2, 9)
    assert t.castle(PETE) == 10 - 2  # the Magma Drake now faces a defender, not the castle
    assert garrison.lane == 2


def test_quick_moves_again_at_end_of_turn_unless_engaged() -> None:
    t = start(top0=["Flight"])
    t.start_turn(1)
    t.s.resources[YOU] = [t.s.decks[YOU].pop()]
    soot = put(t, YOU, "Soot", 0, 8)  # engaged with the castle: Quick does nothing
    raider = put(t, YOU, "Ash Raider", 2, 7)  # Movement 3, one space from the wall
    t.when(YOU, a.PlayCommand(card=t.instance(YOU, "Flight"), unit=raider.uid))
    before = t.s.castle_damage[PETE]
    t.end_turn(YOU)
    assert soot.row == 8 and raider.row == 8
    assert t.s.castle_damage[PETE] - before == 2 + 1  # the Quick example: base 2 + Smash
    assert [t.s.cards[YOU][i] for i in raider.attachments] == [BY_NAME["Flight"].id]
