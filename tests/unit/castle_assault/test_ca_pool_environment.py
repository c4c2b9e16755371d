"""The ten Environment cards added with the full card pool, each revealed between turns."""

from __future__ import annotations

from ca_support import PETE, YOU, Table, put, start

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME, CARDS, ENVIRONMENT_CARDS
from siege.games.castle_assault.rules.stats import armor_of, has_quick, ranged_of
from siege.games.castle_assault.state import NOBODY


def reveal_next(t: Table, name: str) -> None:
    """Puts the named card on top of the Environment deck and ends your turn with the meter at
    T4, so that it is revealed before Pete's turn."""
    card = BY_NAME[name].id
    t.s.env_deck.remove(card)
    t.s.env_deck.insert(0, card)
    t.s.env_meter = 4
    t.end_turn(YOU)
    while t.s.asking == "discard":
        t.when(YOU, a.DiscardCard(card=t.s.hands[YOU][0]))
    assert t.s.revealed == card


def opened(warbands: str = "fae,war-engine") -> Table:
    t = start(warbands=warbands)
    t.start_turn(1)
    return t


def test_there_are_twenty_two_environment_cards_each_with_its_own_effect() -> None:
    effects = {(CARDS[c].env_effect, CARDS[c].amount) for c in ENVIRONMENT_CARDS}
    assert len(ENVIRONMENT_CARDS) == 22 == len(effects)


def test_acid_rain_takes_one_armor_from_every_unit_never_below_zero() -> None:
    t = opened()
    knights = put(t, PETE, "Armored Knights", 1, 6)
    sprite = put(t, YOU, "Thornling Sprite", 0, 3)
    reveal_next(t, "Acid Rain")
    assert (armor_of(t.s, knights), armor_of(t.s, sprite)) == (1, 0)


def test_gale_silences_quick() -> None:
    t = opened()
    sprite = put(t, YOU, "Thornling Sprite", 0, 3)
    assert has_quick(t.s, sprite)
    reveal_next(t, "Gale")
    assert not has_quick(t.s, sprite)


def test_stout_walls_armors_units_in_their_own_castle_area() -> None:
    t = opened()
    home = put(t, PETE, "Pikemen", 0, 9)
    out = put(t, PETE, "Pikemen", 1, 7)
    reveal_next(t, "Stout Walls")
    assert (armor_of(t.s, home), armor_of(t.s, out)) == (1, 0)


def test_keen_winds_lengthens_every_ranged_ability() -> None:
    t = opened()
    archers = put(t, YOU, "Pixie Archers", 0, 3)
    reveal_next(t, "Keen Winds")
    reach = ranged_of(t.s, archers)
    assert reach is not None and (reach.low, reach.high) == (1, 4)


def test_eclipse_returns_every_captain_and_the_curse() -> None:
    t = opened()
    mine = put(t, YOU, "Grim Jester", 0, 3)
    theirs = put(t, PETE, "Pikemen", 1, 6)
    t.s.captain = [mine.uid, theirs.uid]
    t.s.curse, t.s.curse_by = theirs.uid, YOU
    reveal_next(t, "Eclipse")
    assert t.s.captain == [NOBODY, NOBODY] and t.s.curse == NOBODY


def test_windfall_gives_each_player_a_ready_resource_from_the_deck() -> None:
    t = opened()
    before = [len(r) for r in t.s.resources]
    decks = [len(d) for d in t.s.decks]
    reveal_next(t, "Windfall")
    assert [len(r) for r in t.s.resources] == [before[0] + 1, before[1] + 1]
    assert len(t.s.decks[YOU]) == decks[YOU] - 1


def test_rusting_mist_discards_every_attachment() -> None:
    t = opened("dwarves,fae")
    dwarf = put(t, YOU, "Goldguard Garrison", 0, 3)
    plate = next(i for i in t.s.decks[YOU] if CARDS[t.s.cards[YOU][i]].name == "Runic Plate")
    t.s.decks[YOU].remove(plate)
    dwarf.attachments.append(plate)
    reveal_next(t, "Rusting Mist")
    assert dwarf.attachments == [] and plate in t.s.discards[YOU]


def test_earthquake_shakes_only_unarmored_units() -> None:
    t = opened()
    sprite = put(t, YOU, "Thornling Sprite", 0, 3)  # Armor 0, Health 2
    cannon = put(t, PETE, "Nether Cannon", 2, 8)  # Armor 0, Health 1
    knights = put(t, PETE, "Armored Knights", 1, 6)
    decks = len(t.s.decks[PETE])
    reveal_next(t, "Earthquake")
    assert sprite.damage == 1 and cannon not in t.s.units and knights.damage == 0
    assert len(t.s.decks[PETE]) == decks  # nobody draws for it


def test_war_drums_favour_the_weaker_castle() -> None:
    t = opened()
    t.s.castle_damage[PETE] = 3
    t.s.momentum = 1
    reveal_next(t, "War Drums")
    assert t.s.momentum == 1 - 2 and t.s.chance is not None  # before Pete's die


def test_broken_bridge_fills_the_left_lanes_middle_and_replaces_the_colossus() -> None:
    t = opened()
    t.s.field = BY_NAME["Fallen Colossus"].id
    t.s.rubble = [[1, 4], [1, 5]]
    reveal_next(t, "Broken Bridge")
    assert sorted(t.s.rubble) == [[0, 4], [0, 5]]
    assert BY_NAME["Fallen Colossus"].id in t.s.env_discard
