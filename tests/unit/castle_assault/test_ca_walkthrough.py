"""The rulebook's walkthrough, turns 1-5 with its dice and cards, then Combat Examples 1-3.

Seat 0 is "you" (Burning Brood Dragons), seat 1 is Pete (Adamantine Anvil Dwarves); Pete wins
the roll-off and lets you start. Rows count from your castle area (row 0) to Pete's (row 9).
"""

from __future__ import annotations

from ca_support import PETE, YOU, Table, replay, start

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME
from siege.games.castle_assault.state import State

YOUR_DECK = ["Soot", "Soot", "Drake", "Dracomancer", "Ranged Blessing",  # opening hand
             "Drake", "Shift", "Brood Wurm"]  # drawn on turns 1, 3 and 5
PETES_DECK = ["Bronzebeard Bulwark", "Ironborne Dwarf", "Forge Master", "Bitterbrew Batterers",
              "Dwarf Lord Grim'gor",  # opening hand
              "Ironborne Dwarf", "Magmaton Mortar",  # drawn on turns 2 and 4
              "Goldguard Garrison"]  # drawn for destroying the Dracomancer
LEFT, CENTRE = 0, 1


def to_turn_five(env: tuple[str, ...] = ("Local Support", "Blistering Cold")) -> Table:
    t = start(YOUR_DECK, PETES_DECK, env)
    # Before turn 1: Local Support changes nothing with both castles at 10.
    assert t.s.revealed == BY_NAME["Local Support"].id and t.castle(YOU) == t.castle(PETE) == 10
    # Turn 1 (you).
    t.start_turn(4)
    assert t.s.momentum == 4  # Max in your favour
    assert t.hand_names(YOU) == sorted(["Soot", "Soot", "Drake", "Drake", "Dracomancer",
                                        "Ranged Blessing"])
    t.resource(YOU, "Soot")
    t.play(YOU, "Dracomancer", CENTRE)
    draco = t.unit(YOU, "Dracomancer")
    assert (draco.lane, draco.row) == (CENTRE, 0)
    assert a.Charge(unit=draco.uid) not in t.legal(YOU)  # not under your control since the start
    t.end_turn(YOU)
    assert len(t.s.hands[YOU]) == 4
    # Turn 2 (Pete): the meter moved to T1 first.
    t.start_turn(1)
    assert t.s.env_meter == 1 and t.s.momentum == 3
    t.resource(PETE, "Forge Master")
    t.resource(PETE, "Ironborne Dwarf")  # going second: two resources on the first turn
    assert not any(isinstance(x, a.PlaceResource) for x in t.legal(PETE))
    t.play(PETE, "Bronzebeard Bulwark", CENTRE)
    assert t.s.exhausted[PETE] == 2
    t.end_turn(PETE)
    assert len(t.s.hands[PETE]) == 3
    # Turn 3 (you).
    t.start_turn(4)
    assert t.s.env_meter == 2 and t.s.momentum == 4  # capped at Max
    assert t.s.exhausted[YOU] == 0 and "Shift" in t.hand_names(YOU)
    assert (draco.row) == 1  # Move Units: its printed Movement of 1
    t.resource(YOU, "Ranged Blessing")
    t.play(YOU, "Drake", LEFT)
    t.charge(YOU, "Dracomancer", 6)
    assert draco.row == 7
    assert not any(getattr(x, "unit", None) == t.unit(YOU, "Drake").uid for x in t.legal(YOU))
    t.end_turn(YOU)
    assert len(t.s.hands[YOU]) == 3
    # Turn 4 (Pete): the Bulwark moves 1, touches the Dracomancer and both strike at once.
    t.start_turn(4)
    assert t.s.env_meter == 3 and t.s.momentum == 0
    bulwark = t.unit(PETE, "Bronzebeard Bulwark")
    clash = t.s.clashes[0]
    assert (clash.source, clash.target, clash.damage, clash.returned) == (
        bulwark.uid, draco.uid, 1, 2)
    assert draco not in t.s.units and bulwark.damage == 2 and bulwark.row == 8
    assert "Goldguard Garrison" in t.hand_names(PETE)  # the card drawn for the kill
    t.resource(PETE, "Magmaton Mortar")
    t.play(PETE, "Bitterbrew Batterers", LEFT)
    assert len(t.s.resources[PETE]) - t.s.exhausted[PETE] == 1  # one Ready resource left
    t.charge(PETE, "Bronzebeard Bulwark", 6)
    assert bulwark.row == 2
    t.end_turn(PETE)
    # Turn 5 (you): the Drake becomes Captain, then moves its printed 4.
    drake = t.unit(YOU, "Drake")
    t.start_turn(2, captain=drake.uid)
    assert t.s.env_meter == 4 and t.s.momentum == 2
    assert "Brood Wurm" in t.hand_names(YOU)
    assert t.s.captain[YOU] == drake.uid and (drake.lane, drake.row) == (LEFT, 4)
    t.resource(YOU, "Soot")
    assert len(t.s.resources[YOU]) == 3
    shift = a.PlayCommand(card=t.instance(YOU, "Shift"), unit=drake.uid, lane=CENTRE)
    assert a.PlayCommand(card=shift.card, unit=drake.uid, lane=2) in t.legal(YOU)  # or lower
    t.when(YOU, shift)
    assert (drake.lane, drake.row) == (CENTRE, 4) and t.s.clashes == []  # faced away: no combat
    assert BY_NAME["Shift"].id in [t.s.cards[YOU][i] for i in t.s.discards[YOU]]
    return t


def test_turns_one_to_five() -> None:
    t = to_turn_five()
    drake = t.unit(YOU, "Drake")
    t.charge(YOU, "Drake", 3)  # 3 + 1 from the Captain = 4 spaces: to the wall, no Smash
    assert drake.row == 8
    clash = t.s.clashes[-1]
    assert (clash.damage, clash.smash) == (1, False)
    assert t.s.castle_damage[PETE] == 1 and t.castle(PETE) == 7  # Gigantic takes 2 more
    t.play(YOU, "Brood Wurm", CENTRE)
    assert t.s.exhausted[YOU] == 3
    t.end_turn(YOU)
    # After turn 5 the meter returns to START and Blistering Cold comes up for Pete's turn.
    t.roll(1, purpose="momentum")
    assert t.s.env_meter == 0 and t.s.ongoing == BY_NAME["Blistering Cold"].id
    assert t.s.active == PETE
    assert replay(t.events) == t.state


def test_example_1_smash_bonus() -> None:
    t = to_turn_five()
    t.charge(YOU, "Drake", 6)  # 7 spaces of movement, 4 needed: stops at the wall
    assert t.unit(YOU, "Drake").row == 8
    clash = t.s.clashes[-1]
    assert (clash.damage, clash.smash, clash.momentum) == (4, True, False)  # 1 + 1 + 2
    assert t.castle(PETE) == 10 - 4 - 2


def test_example_2_momentum_bonus() -> None:
    t = to_turn_five()
    t.when(YOU, a.ShiftMomentum(toward=YOU))  # 2 -> 4: the Charging Smash area
    t.charge(YOU, "Drake", 6)
    clash = t.s.clashes[-1]
    assert (clash.damage, clash.smash, clash.momentum) == (5, True, True)  # 1 + 1 + 1 + 2


def _example_3(env: tuple[str, ...]) -> tuple[Table, State]:
    t = to_turn_five(env)
    t.charge(YOU, "Drake", 6)
    t.end_turn(YOU)
    t.start_turn(1)  # Pete's turn 6
    assert t.unit(YOU, "Drake").row == 8
    return t, t.state


def test_example_3_defending_as_printed() -> None:
    """Without an Ongoing card, the example's figures: 0 damage dealt, 3 taken, Drake gone."""
    t, s = _example_3(("Local Support", "Harvest Moon"))
    drake = t.unit(YOU, "Drake")
    deck = len(s.decks[PETE])
    t.play(PETE, "Goldguard Garrison", CENTRE)
    clash = s.clashes[-1]
    assert (clash.source, clash.damage, clash.returned) == (t.unit(PETE, "Goldguard Garrison").uid,
                                                            3, 0)
    assert drake not in s.units and len(s.decks[PETE]) == deck - 1  # Pete draws for it
    assert t.castle(PETE) == 10 - 4  # Gigantic ends with the Drake


def test_example_3_under_blistering_cold_ruling() -> None:
    """Ruling: the walkthrough left Blistering Cold in effect, and we apply it: the Garrison's
    3 Attack becomes 1, so the Drake survives, now engaged with the Garrison, not the castle."""
    t, s = _example_3(("Local Support", "Blistering Cold"))
    drake = t.unit(YOU, "Drake")
    t.play(PETE, "Goldguard Garrison", CENTRE)
    assert drake in s.units and drake.damage == 1
    assert t.castle(PETE) == 10 - 4  # engaged with a defender: Gigantic does not count
