"""The rest of the glossary's keywords, each on a card of the two warbands."""

from __future__ import annotations

import msgspec
from ca_support import ENGINE, PETE, YOU, Table, put, start

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME
from siege.games.castle_assault.rules.combat import castle_code, remove_destroyed
from siege.games.castle_assault.rules.stats import attack_of


def _end(t: Table, seat: int) -> None:
    t.end_turn(seat)
    while t.s.asking == "discard":
        t.when(seat, a.DiscardCard(card=t.s.hands[seat][0]))


def test_defense_denies_the_smash_even_in_move_units() -> None:
    t = start()
    put(t, YOU, "Ash Raider", 1, 4)  # Attack 2; it would Smash
    sentinel = put(t, PETE, "Stoneshield Wardens", 1, 6)  # Defense, Armor 3
    plain = put(t, PETE, "Bronzebeard Bulwark", 0, 6)
    put(t, YOU, "Brood Wurm", 0, 4)  # Attack 2 + Smash against the Bulwark
    t.start_turn(1)
    by_target = {c.target: c for c in t.s.clashes}
    assert not by_target[sentinel.uid].smash and by_target[sentinel.uid].damage == 0
    assert by_target[plain.uid].smash and by_target[plain.uid].damage == 3


def test_cannot_charge_but_may_attack_when_engaged() -> None:
    t = start(warbands="dwarves,dragons")
    wardens = put(t, YOU, "Stoneshield Wardens", 1, 3)
    t.start_turn(1)
    assert a.Charge(unit=wardens.uid) not in t.legal(YOU)
    foe = put(t, PETE, "Ember Hatchling", 1, 5)
    assert a.Attack(unit=wardens.uid) in t.legal(YOU) and foe.row == 5


def test_phase_passes_through_friendly_units() -> None:
    t = start(warbands="dwarves,dragons")
    miners = put(t, YOU, "Deepdelver Miners", 1, 2)  # Movement 2, Phase
    put(t, YOU, "Oathsworn Shieldbearers", 1, 3)  # 0 Movement: it stays put
    t.start_turn(1)
    assert miners.row == 4  # through the Shieldbearers' square and beyond
    wall = start(warbands="dwarves,dragons")
    plain = put(wall, YOU, "Ironborne Dwarf", 1, 2)
    put(wall, YOU, "Oathsworn Shieldbearers", 1, 3)
    wall.start_turn(1)
    assert plain.row == 2  # without Phase the Dwarf is stuck behind it


def test_ram_carries_the_excess_through_a_castle_defender() -> None:
    t = start(warbands="dwarves,dragons")
    put(t, YOU, "Hammerfall Berserkers", 2, 7)  # Attack 3 + Smash = 4, Ram
    put(t, PETE, "Ember Hatchling", 2, 9)  # Health 1, Armor 0
    t.start_turn(1)
    assert t.s.castle_damage[PETE] == 4 - 1
    field = start(warbands="dwarves,dragons")
    put(field, YOU, "Hammerfall Berserkers", 2, 3)
    put(field, PETE, "Ember Hatchling", 2, 5)  # not in its castle area: the excess is lost
    field.start_turn(1)
    assert field.s.castle_damage[PETE] == 0


def test_consume_strikes_the_castle_or_moves_on() -> None:
    t = start()
    raider = put(t, YOU, "Ash Raider", 2, 7)  # Attack 2 (+1 Smash), Consume
    put(t, PETE, "Deepdelver Miners", 2, 9)  # Health 2
    t.start_turn(1)
    assert t.s.castle_damage[PETE] == 2  # its Attack again, no Smash
    on = start()
    raider = put(on, YOU, "Ash Raider", 0, 2)
    put(on, PETE, "Deepdelver Miners", 0, 4)
    on.start_turn(1)
    assert raider.row == 3 + 3  # moved 1, destroyed the Miners, moved its 3 again


def test_resurrection_brings_a_unit_back_once() -> None:
    t = start(warbands="dwarves,dragons")
    priest = put(t, YOU, "Runepriest of the Anvil", 1, 5)  # Health 2, Resurrection
    put(t, PETE, "Soot", 1, 6)  # Attack 4: destroys it
    decks = len(t.s.decks[PETE])
    t.start_turn(1)
    back = next(u for u in t.s.units if u.uid == priest.uid)
    assert (back.lane, back.row, back.damage) == (1, 0, 0)  # home, unhurt
    assert len(t.s.decks[PETE]) == decks - 1  # Pete still drew for destroying it
    back.damage = 99
    remove_destroyed(t.s)
    assert all(u.uid != priest.uid for u in t.s.units) and t.s.returning == []
    assert priest.uid % 100 in t.s.discards[YOU]  # the second time it stays destroyed


def test_battering_shoots_an_empty_lanes_castle_and_blunt_hits_the_defender() -> None:
    t = start(warbands="dwarves,dragons")
    t.start_turn(1)
    batterers = put(t, YOU, "Bitterbrew Batterers", 2, 6)  # Ranged Linear (2-3), Battering
    shot = a.UseAbility(unit=batterers.uid, target=a.CASTLE_TARGET)
    assert shot in t.legal(YOU)
    put(t, PETE, "Ember Hatchling", 2, 9)
    assert shot not in t.legal(YOU)  # an opposing unit in the lane: no Battering
    t.s.units.pop()
    t.when(YOU, shot)
    assert t.s.castle_damage[PETE] == 2 and t.s.clashes[-1].target == castle_code(PETE)


def test_a_burning_unit_loses_one_health_each_of_its_end_of_turns() -> None:
    t = start()
    wyvern = put(t, YOU, "Cinderscale Wyvern", 0, 1)
    t.start_turn(1)
    _end(t, YOU)
    assert wyvern.damage == 1
    decks = len(t.s.decks[PETE])
    wyvern.damage = 2
    t.start_turn(1)
    _end(t, PETE)
    assert wyvern.damage == 2  # not on the opponent's turn
    t.start_turn(1)
    _end(t, YOU)
    assert wyvern not in t.s.units and len(t.s.decks[PETE]) == decks - 1  # no card for it


def test_aura_four_reaches_two_squares_each_way() -> None:
    t = start()
    put(t, YOU, "Wyrmlord Ignaroth", 1, 4)
    near = put(t, YOU, "Brood Wurm", 1, 6)
    far = put(t, YOU, "Ember Hatchling", 1, 7)
    assert attack_of(t.s, near) == 2 + 1 and attack_of(t.s, far) == 1


def test_momentum_max_effects_hold_only_at_max() -> None:
    t = start(warbands="dwarves,dragons")
    lord = put(t, YOU, "Dwarf Lord Grim'gor", 1, 2)
    assert attack_of(t.s, lord) == 3
    t.s.momentum = 4
    assert attack_of(t.s, lord) == 3 + 2
    t.s.momentum = 3
    assert attack_of(t.s, lord) == 3


def test_different_card_backs_show_face_down() -> None:
    t = start()
    t.start_turn(1)
    reveller = BY_NAME["Masked Reveller"].id
    t.s.cards[YOU].append(reveller)
    t.s.hands[YOU].append(len(t.s.cards[YOU]) - 1)
    mine, theirs = ENGINE.view(t.state, YOU), ENGINE.view(t.state, PETE)
    assert theirs.marked_hand == [1, 0] and mine.marked_hand == [1, 0]
    t.when(YOU, a.PlaceResource(card=len(t.s.cards[YOU]) - 1))
    assert ENGINE.view(t.state, PETE).marked_resources == [1, 0]
    t.s.decks[YOU].insert(0, t.s.resources[YOU].pop())
    assert ENGINE.view(t.state, PETE).marked_top == [True, False]
    assert msgspec.msgpack.encode(ENGINE.view(t.state, PETE))


def test_zero_movement_never_moves_or_reengages_but_may_attack_and_charge() -> None:
    t = start(warbands="dwarves,dragons")
    bearers = put(t, YOU, "Oathsworn Shieldbearers", 1, 4)  # 0 Movement
    put(t, PETE, "Ember Hatchling", 1, 5)
    t.start_turn(1)
    assert bearers.row == 4 and t.s.clashes == []  # touching, yet no combat in Move Units
    assert a.Attack(unit=bearers.uid) in t.legal(YOU)
    free = start(warbands="dwarves,dragons")
    alone = put(free, YOU, "Oathsworn Shieldbearers", 0, 4)
    free.start_turn(1)
    assert alone.row == 4 and a.Charge(unit=alone.uid) in free.legal(YOU)


def test_a_hero_may_carry_an_attachment() -> None:
    t = start(top0=["Flight"])
    t.start_turn(1)
    t.when(YOU, a.SummonHero(lane=1))
    hero = t.unit(YOU, "Vyrax, the Ashen Tyrant")
    t.s.resources[YOU] = [t.s.decks[YOU].pop()]
    flight = a.PlayCommand(card=t.instance(YOU, "Flight"), unit=hero.uid)
    assert flight in t.legal(YOU)
    t.when(YOU, flight)
    assert [t.s.cards[YOU][i] for i in hero.attachments] == [BY_NAME["Flight"].id]
