"""Keywords: Aura, Ranged Linear and Adjacent, Blast, Lord, Epic, Shift's lateral move,
attachments (Ranged Blessing, Flight's Cannot Stack), Captain and Curse."""

from __future__ import annotations

from ca_support import PETE, YOU, put, start

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME, CARDS, WARBAND_CARDS, stock_deck
from siege.games.castle_assault.rules.combat import remove_destroyed
from siege.games.castle_assault.rules.stats import build_available, movement_of
from siege.games.castle_assault.state import NOBODY, find_unit, uid_of


def _resources(t, seat: int, count: int) -> None:
    t.s.resources[seat] = [t.s.decks[seat].pop() for _ in range(count)]


def test_example_4_an_aura_lasts_through_the_movement_into_combat() -> None:
    t = start(warbands="dwarves,dragons")
    put(t, YOU, "Forge Master", 1, 3)  # Aura 2: the squares in front and behind
    dwarf = put(t, YOU, "Ironborne Dwarf", 1, 4)  # Armor 1, +1 inside the aura
    put(t, PETE, "Brood Wurm", 1, 6)  # Attack 2
    t.start_turn(1)
    clash = t.s.clashes[0]
    assert clash.source == dwarf.uid and clash.returned == 0  # 2 - (1 + 1): the aura held
    no_aura = start(warbands="dwarves,dragons")
    dwarf = put(no_aura, YOU, "Ironborne Dwarf", 1, 4)
    put(no_aura, PETE, "Brood Wurm", 1, 6)
    no_aura.start_turn(1)
    assert no_aura.s.clashes[0].returned == 1


def test_ranged_linear_reaches_ahead_only_and_never_the_unit_it_touches() -> None:
    t = start()
    t.start_turn(1)
    welps = put(t, YOU, "Dragon Welps", 1, 2)  # Ranged Linear (1-4)
    touching = put(t, PETE, "Bronzebeard Bulwark", 1, 3)
    far = put(t, PETE, "Ironborne Dwarf", 1, 6)
    too_far = put(t, PETE, "Deepdelver Miners", 1, 7)
    beside = put(t, PETE, "Forge Master", 0, 3)
    shots = {x.target for x in t.legal(YOU) if isinstance(x, a.UseAbility)}
    assert shots == {far.uid}
    assert {touching.uid, too_far.uid, beside.uid}.isdisjoint(shots)
    t.when(YOU, a.UseAbility(unit=welps.uid, target=far.uid))
    assert far.damage == 1 - 1 + 0 and welps.damage == 0  # Attack 1 - Armor 1; no answer
    assert not any(getattr(x, "unit", None) == welps.uid for x in t.legal(YOU))  # one action


def test_ranged_adjacent_spreads_to_other_lanes_counting_no_diagonals() -> None:
    t = start()
    t.start_turn(1)
    queen = put(t, YOU, "Pyrexia, The Brood Queen", 1, 2)  # Ranged Adjacent (1-6)
    side = put(t, PETE, "Ironborne Dwarf", 0, 2)  # beside it: 1 space
    corner = put(t, PETE, "Deepdelver Miners", 2, 7)  # 1 lane + 5 rows = 6 spaces
    beyond = put(t, PETE, "Forge Master", 0, 8)  # 1 + 6 = 7 spaces
    behind = put(t, PETE, "Bronzebeard Bulwark", 2, 1)
    shots = {x.target for x in t.legal(YOU) if isinstance(x, a.UseAbility)}
    assert shots == {side.uid, corner.uid}
    assert beyond.uid not in shots and behind.uid not in shots and queen.lane == 1


def test_a_blast_hits_friends_in_range_too() -> None:
    t = start()
    t.start_turn(1)
    adept = put(t, YOU, "Flamecaller Adept", 1, 2)  # Burn, Ranged Linear (1-2), Attack 2
    friend = put(t, YOU, "Ember Hatchling", 1, 3)
    foe = put(t, PETE, "Deepdelver Miners", 1, 4)
    t.when(YOU, a.UseAbility(unit=adept.uid))
    assert friend not in t.s.units and foe not in t.s.units
    assert t.s.discards[YOU] and t.s.discards[PETE]


def test_only_one_lord_in_play_and_epic_cards_come_once() -> None:
    t = start(top0=["Pyrexia, The Brood Queen"])
    t.start_turn(1)
    _resources(t, YOU, 6)
    queen = a.PlayUnit(card=t.instance(YOU, "Pyrexia, The Brood Queen"), lane=0)
    assert queen in t.legal(YOU)
    put(t, YOU, "Wyrmlord Ignaroth", 2, 3)
    assert queen not in t.legal(YOU)
    for warband in WARBAND_CARDS:
        deck = stock_deck(warband)
        assert all(deck.count(c) == 1 for c in set(deck) if CARDS[c].epic)


def test_shift_moves_one_or_two_lanes_through_free_squares_and_may_engage() -> None:
    t = start(top0=["Shift"])
    t.start_turn(1)
    _resources(t, YOU, 1)
    raider = put(t, YOU, "Ash Raider", 0, 4)
    shift = t.instance(YOU, "Shift")
    lanes = {x.lane for x in t.legal(YOU) if isinstance(x, a.PlayCommand) and x.unit == raider.uid}
    assert lanes == {1, 2}
    blocker = put(t, PETE, "Ironborne Dwarf", 1, 4)
    lanes = {x.lane for x in t.legal(YOU) if isinstance(x, a.PlayCommand) and x.unit == raider.uid}
    assert lanes == set()  # the occupied square cannot be entered or passed
    t.s.units.remove(blocker)
    foe = put(t, PETE, "Deepdelver Miners", 2, 5)
    t.when(YOU, a.PlayCommand(card=shift, unit=raider.uid, lane=2))
    assert raider.lane == 2 and t.s.clashes[-1].target == foe.uid  # moved into contact


def test_ranged_blessing_gives_a_shot_and_leaves_with_its_unit() -> None:
    t = start(top0=["Ranged Blessing"])
    t.start_turn(1)
    _resources(t, YOU, 2)
    wurm = put(t, YOU, "Brood Wurm", 1, 2)
    target = put(t, PETE, "Deepdelver Miners", 1, 5)
    blessing = t.instance(YOU, "Ranged Blessing")
    t.when(YOU, a.PlayCommand(card=blessing, unit=wurm.uid))
    assert a.UseAbility(unit=wurm.uid, target=target.uid) in t.legal(YOU)
    wurm.damage = 99
    remove_destroyed(t.s)
    assert blessing in t.s.discards[YOU]


def test_flight_cannot_stack_on_a_quick_unit() -> None:
    t = start(top0=["Flight"])
    t.start_turn(1)
    _resources(t, YOU, 1)
    soot = put(t, YOU, "Soot", 0, 2)
    wurm = put(t, YOU, "Brood Wurm", 1, 2)
    targets = {x.unit for x in t.legal(YOU) if isinstance(x, a.PlayCommand)}
    assert wurm.uid in targets and soot.uid not in targets


def test_captain_never_on_a_lord_or_epic_and_returns_when_destroyed() -> None:
    t = start()
    lord = put(t, YOU, "Wyrmlord Ignaroth", 0, 2)
    wyvern = put(t, YOU, "Cinderscale Wyvern", 1, 2)
    t.roll(1, purpose="momentum")
    assert t.s.asking == "captain"
    assert {x.unit for x in t.legal(YOU) if isinstance(x, a.AssignCaptain)} == {wyvern.uid}
    t.when(YOU, a.AssignCaptain(unit=wyvern.uid))
    assert t.s.captain[YOU] == wyvern.uid and lord.uid != wyvern.uid
    wyvern.damage = 99
    remove_destroyed(t.s)
    assert t.s.captain[YOU] == NOBODY


def test_the_one_curse_token_and_the_dwarf_curse() -> None:
    t = start(warbands="dwarves,dragons")
    foe = put(t, PETE, "Ash Raider", 1, 6)  # Movement 3
    t.roll(1, purpose="momentum")
    assert t.s.asking == "curse"
    t.when(YOU, a.CurseUnit(unit=foe.uid))
    assert movement_of(t.s, foe) == 2  # Oren Iron-Veins' Curse: -1 Movement
    t.end_turn(YOU)
    assert t.s.asking == "discard"  # six cards at your End of Turn: one goes
    t.when(YOU, a.DiscardCard(card=t.s.hands[YOU][0]))
    t.roll(1, purpose="momentum")
    # The token is on the battlefield: nobody else may curse.
    assert t.s.active == PETE and t.s.asking != "curse"


def _war_engine_in_hand(t, names: list[str]) -> list[int]:
    """Adds War-Engine cards to seat 0's card list and hand (no stock deck holds them yet)."""
    instances = []
    for name in names:
        t.s.cards[YOU].append(BY_NAME[name].id)
        instances.append(len(t.s.cards[YOU]) - 1)
    t.s.hands[YOU] += instances
    return instances


def test_example_5_build_is_granted_used_and_can_go_negative() -> None:
    """Ruling: Example 5's last sentence names Ally #4 where it means Ally #3 (Ally #4 was
    already played); once Ally #2 is gone, Ally #3 can be played."""
    t = start()
    t.start_turn(1)
    t.s.resources[YOU] = [t.s.decks[YOU].pop() for _ in range(12)]
    yard, bombard, tower, sappers = _war_engine_in_hand(
        t, ["Engineers' Yard", "Bombard Crew", "Siege Tower", "Master Sappers"])
    assert not any(isinstance(x, a.PlayUnit) and x.card == bombard for x in t.legal(YOU))
    t.when(YOU, a.PlayUnit(card=yard, lane=0))  # Ally #1: Build 6
    t.when(YOU, a.PlayUnit(card=bombard, lane=1))  # Ally #2 uses 4
    assert build_available(t.s, YOU) == 2
    find_unit(t.s, uid_of(YOU, yard)).damage = 99
    remove_destroyed(t.s)
    assert build_available(t.s, YOU) == -4  # Ally #2 stays
    assert find_unit(t.s, uid_of(YOU, bombard)) is not None
    assert not any(isinstance(x, a.PlayUnit) and x.card == tower for x in t.legal(YOU))
    t.when(YOU, a.PlayUnit(card=sappers, lane=0))  # Ally #4: Build 4
    assert build_available(t.s, YOU) == 0
    assert not any(isinstance(x, a.PlayUnit) and x.card == tower for x in t.legal(YOU))
    find_unit(t.s, uid_of(YOU, bombard)).damage = 99
    remove_destroyed(t.s)
    assert a.PlayUnit(card=tower, lane=1) in t.legal(YOU)
