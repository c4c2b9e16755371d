"""The unit keywords and heroes added with the full card pool: Hex Aura, Gloat, Blooded,
Stalwart, Momentum Max Armor, Wallbreaker, the War-Engine's siege engines (Build, 0 Movement,
Cannot Charge, Ranged Linear with Blunt Damage or Battering), and the Fae and War-Engine
heroes' Captain and Curse skills."""

from __future__ import annotations

from ca_support import PETE, YOU, Table, put, start

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME, CARDS, stock_deck
from siege.games.castle_assault.rules.stats import (
    armor_of,
    attack_of,
    build_available,
    movement_of,
)


def ready(t: Table, seat: int, count: int) -> None:
    t.s.resources[seat] = [t.s.decks[seat].pop() for _ in range(count)]
    t.s.exhausted[seat] = 0


def to_hand(t: Table, seat: int, name: str) -> int:
    i = next(i for i in t.s.decks[seat] if CARDS[t.s.cards[seat][i]].name == name)
    t.s.decks[seat].remove(i)
    t.s.hands[seat].append(i)
    return i


def test_a_hex_aura_weakens_opposing_units_in_reach_only() -> None:
    t = start(warbands="war-engine,fae")
    put(t, PETE, "Hexweaver", 1, 5)  # Hex Aura 2: rows 4 and 6 of its lane
    touched = put(t, YOU, "Armored Knights", 1, 4)  # Attack 3
    beyond = put(t, YOU, "Escalade Troop", 1, 3)
    beside = put(t, YOU, "Mounted Lancers", 0, 4)
    friend = put(t, PETE, "Grim Jester", 1, 6)
    assert attack_of(t.s, touched) == 3 - 1
    assert (attack_of(t.s, beyond), attack_of(t.s, beside), attack_of(t.s, friend)) == (2, 2, 2)


def test_the_masque_lords_hex_aura_strips_armor_two_squares_each_way() -> None:
    t = start(warbands="war-engine,fae")
    put(t, PETE, "Vaelith, the Masque Lord", 1, 6)
    near = put(t, YOU, "Armored Knights", 1, 4)  # Armor 2, two squares in front of it
    far = put(t, YOU, "Battering Ram", 1, 3)  # Armor 2, three squares away
    assert (armor_of(t.s, near), armor_of(t.s, far)) == (1, 2)


def test_gloat_while_the_curse_lies_on_an_opposing_unit() -> None:
    t = start(warbands="fae,war-engine")
    jester = put(t, YOU, "Grim Jester", 0, 3)
    foe = put(t, PETE, "Pikemen", 1, 6)
    assert attack_of(t.s, jester) == 2
    t.s.curse, t.s.curse_by = foe.uid, YOU
    assert attack_of(t.s, jester) == 2 + 2
    t.s.curse, t.s.curse_by = jester.uid, PETE  # on itself: no gloating
    assert attack_of(t.s, jester) == 2


def test_blooded_while_damaged() -> None:
    t = start(warbands="fae,war-engine")
    duelist = put(t, YOU, "Harlequinn Duelist", 0, 3)
    assert attack_of(t.s, duelist) == 3
    duelist.damage = 1
    assert attack_of(t.s, duelist) == 3 + 2


def test_stalwart_only_in_its_own_castle_area() -> None:
    t = start(warbands="fae,war-engine")
    home = put(t, YOU, "Bramble Knight", 0, 0)
    out = put(t, YOU, "Bramble Knight", 1, 1)
    sergeants = put(t, PETE, "Shieldwall Sergeants", 2, 9)
    assert (armor_of(t.s, home), armor_of(t.s, out), armor_of(t.s, sergeants)) == (3, 1, 2)


def test_armored_knights_gain_armor_at_momentum_max() -> None:
    t = start(warbands="war-engine,fae")
    knights = put(t, YOU, "Armored Knights", 0, 3)
    lancers = put(t, YOU, "Mounted Lancers", 1, 3)
    t.s.momentum = 3
    assert (armor_of(t.s, knights), attack_of(t.s, lancers)) == (2, 2)
    t.s.momentum = 4
    assert (armor_of(t.s, knights), attack_of(t.s, lancers)) == (3, 3)


def test_wallbreaker_hits_an_undefended_castle_harder() -> None:
    t = start(warbands="war-engine,fae")
    troop = put(t, YOU, "Escalade Troop", 2, 7)  # Movement 2: one space, then the wall
    t.start_turn(1)
    assert t.s.castle_damage[PETE] == 2 + 2 + 1  # Attack, Wallbreaker, Smash
    put(t, PETE, "Thornling Sprite", 2, 9)
    assert attack_of(t.s, troop) == 2  # a defender: no Wallbreaker


def test_siege_engines_need_build_never_move_or_charge_and_shoot_the_castle() -> None:
    t = start(warbands="war-engine,fae")
    t.start_turn(1)
    ready(t, YOU, 8)
    trebuchet = to_hand(t, YOU, "Trebuchet")
    assert not any(isinstance(x, a.PlayUnit) and x.card == trebuchet for x in t.legal(YOU))
    put(t, YOU, "Master Sappers", 0, 2)  # Build 4
    t.play(YOU, "Trebuchet", 1)
    assert build_available(t.s, YOU) == 0
    engine = t.unit(YOU, "Trebuchet")
    engine.entered = 0  # as if it came earlier
    assert a.Charge(unit=engine.uid) not in t.legal(YOU) and movement_of(t.s, engine) == 0
    t.when(YOU, a.UseAbility(unit=engine.uid, target=a.CASTLE_TARGET))  # 9 away: Blunt
    assert t.s.castle_damage[PETE] == 2 and engine.row == 0


def test_blunt_damage_hits_the_defender_first() -> None:
    t = start(warbands="war-engine,fae")
    t.start_turn(1)
    catapult = put(t, YOU, "Catapult", 1, 3)  # Ranged Linear (3-6), Blunt Damage
    guard = put(t, PETE, "Moonlit Dryad", 1, 9)  # 6 away, in its castle area
    t.when(YOU, a.UseAbility(unit=catapult.uid, target=a.CASTLE_TARGET))
    assert t.s.castle_damage[PETE] == 0 and guard.damage == 2 - 1


def test_the_battering_ram_strikes_the_gate_from_the_front_row_of_an_empty_lane() -> None:
    t = start(warbands="war-engine,fae")
    t.start_turn(1)
    ram = put(t, YOU, "Battering Ram", 2, 7)
    shot = a.UseAbility(unit=ram.uid, target=a.CASTLE_TARGET)
    assert shot not in t.legal(YOU)  # two away: out of its reach
    ram.row = 8
    assert shot in t.legal(YOU)
    sprite = put(t, PETE, "Thornling Sprite", 2, 9)
    assert shot not in t.legal(YOU)  # a unit in the lane: no Battering
    t.s.units.remove(sprite)
    t.when(YOU, shot)
    assert t.s.castle_damage[PETE] == 3


def test_the_nether_cannon_keeps_the_rulebooks_figures_and_shoots_units_only() -> None:
    cannon = BY_NAME["Nether Cannon"]
    assert (cannon.armor, cannon.health, cannon.movement, cannon.ours) == (0, 1, 0, False)
    t = start(warbands="war-engine,fae")
    t.start_turn(1)
    gun = put(t, YOU, "Nether Cannon", 0, 6)
    close = put(t, PETE, "Grim Jester", 0, 7)
    shots = {x.target for x in t.legal(YOU) if isinstance(x, a.UseAbility) and x.unit == gun.uid}
    assert shots == set()  # the Jester touches it (melee, not a shot); no castle shots
    t.s.units.remove(close)
    far = put(t, PETE, "Thornling Sprite", 0, 8)
    assert {x.target for x in t.legal(YOU) if isinstance(x, a.UseAbility)
            and x.unit == gun.uid} == {far.uid}


def test_the_ballista_shoots_into_the_next_lane() -> None:
    t = start(warbands="war-engine,fae")
    t.start_turn(1)
    ballista = put(t, YOU, "Ballista", 1, 2)
    side = put(t, PETE, "Grim Jester", 0, 4)  # one lane + two rows = 3 spaces
    t.when(YOU, a.UseAbility(unit=ballista.uid, target=side.uid))
    assert side.damage == 3


def test_the_fae_hero_captain_and_curse() -> None:
    t = start(warbands="fae,war-engine")
    jester = put(t, YOU, "Grim Jester", 0, 3)
    foe = put(t, PETE, "Armored Knights", 1, 6)  # Attack 3, Armor 2
    t.start_turn(1, captain=jester.uid, curse=foe.uid)
    assert attack_of(t.s, jester) == 2 + 1 + 2  # Captain, and Gloat (the Curse is out)
    assert (attack_of(t.s, foe), armor_of(t.s, foe)) == (3 - 1, 2 - 1)


def test_the_war_engine_hero_captain_on_a_charge_and_its_curse() -> None:
    hits = []
    for roll in (3, 4):
        t = start(warbands="war-engine,fae")
        pikemen = put(t, YOU, "Pikemen", 1, 5)  # Attack 2
        foe = put(t, PETE, "Moonlit Dryad", 1, 8)  # Armor 1
        sprite = put(t, PETE, "Thornling Sprite", 2, 8)
        t.start_turn(1, captain=pikemen.uid, curse=sprite.uid)
        assert armor_of(t.s, pikemen) == 0 + 1 and movement_of(t.s, sprite) == 3 - 2
        pikemen.row = 5  # back where it stood before Move Units
        t.charge(YOU, "Pikemen", roll)
        hits.append(foe.damage)
    assert hits == [2 + 1 - 1, 2 + 1 + 1 - 1]  # Smash both times; +1 only on a roll of 4+


def test_the_war_engine_hero_grants_build_when_summoned() -> None:
    t = start(warbands="war-engine,fae")
    t.start_turn(1)
    assert build_available(t.s, YOU) == 0
    t.when(YOU, a.SummonHero(lane=1))
    assert build_available(t.s, YOU) == 2


def test_the_fae_deck_has_six_cards_with_different_backs() -> None:
    marked = [c for c in stock_deck("fae") if CARDS[c].marked_back]
    assert len(marked) == 6
    assert all(not CARDS[c].marked_back for w in ("dragons", "dwarves", "war-engine")
               for c in stock_deck(w))
