"""Equipment and ladders: buying them (from the hand; ladders without a card), at most two
pieces with different names per unit, never transferred, destroyed at will or with the unit;
up to three ladders per army, placed against the front of a wall, climbed, picked up again and
knocked down by the defenders.

Rulings (see the README): equipment is bought and deployed in one step, so it is only offered
when a unit may take it (nothing bought is ever left over); ladders are given to a unit on any
start space; a picked-up ladder belongs to the picker's army from then on; a ladder is climbed
inward only, into a free space; a defender knocks a ladder down from the space behind its wall.
"""

from __future__ import annotations

from typing import Any

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import (
    EDGES,
    NOBODY,
    START_SPACES,
    STRUCTURES,
    is_battlefield,
    is_location,
)
from siege.games.storm_castle.cards import EQUIPMENT, GEAR_LIMIT, LADDER, LADDERS_PER_ARMY
from siege.games.storm_castle.rules import terrain
from siege.games.storm_castle.rules.battle import roll_attack
from siege.games.storm_castle.state import Ladder, State, Unit

KNOCK_ATTACK = 1
KNOCK_MOVES = 1
_STARTS = frozenset(s for spaces in START_SPACES for s in spaces)


def can_carry(unit: Unit, card: int) -> bool:
    """Room for one more piece, with a name the unit does not carry yet (never flipped)."""
    if unit.flipped or is_location(unit.space) or len(unit.gear) >= GEAR_LIMIT:
        return False
    return EQUIPMENT[card].name not in {EQUIPMENT[c].name for c in unit.gear}


def ladders_in_use(state: State, seat: int) -> int:
    carried = sum(u.gear.count(LADDER) for u in state.units.values() if u.owner == seat)
    return carried + sum(1 for ladder in state.ladders.values() if ladder.owner == seat)


def _mine(state: State, seat: int) -> list[Unit]:
    return sorted((u for u in state.units.values() if u.owner == seat), key=lambda u: u.uid)


def buy_options(state: State, seat: int) -> list[Any]:
    gold = state.gold[seat]
    mine = [u for u in _mine(state, seat) if is_battlefield(u.space)]
    out: list[Any] = []
    for card in sorted(set(state.hands[seat])):
        if card in EQUIPMENT and EQUIPMENT[card].cost <= gold:
            out += [a.BuyEquipment(card=card, unit=u.uid) for u in mine if can_carry(u, card)]
    if ladders_in_use(state, seat) < LADDERS_PER_ARMY and EQUIPMENT[LADDER].cost <= gold:
        out += [a.BuyLadder(unit=u.uid) for u in mine
                if u.space in _STARTS and can_carry(u, LADDER)]
    return out


def drop_options(state: State, seat: int) -> list[a.DropEquipment]:
    return [a.DropEquipment(unit=u.uid, card=c) for u in _mine(state, seat)
            for c in sorted(set(u.gear))]


def ladder_options(state: State, seat: int) -> list[Any]:
    """Placing a carried ladder and picking one up: free actions on the player's turn."""
    out: list[Any] = []
    room = ladders_in_use(state, seat) < LADDERS_PER_ARMY
    for unit in _mine(state, seat):
        if unit.flipped:
            continue
        for sid, structure in enumerate(STRUCTURES):
            if structure.kind not in ("wall", "keep_wall") or unit.space not in structure.front:
                continue
            if not state.standing[sid]:
                continue
            ladder = state.ladders.get(sid)
            if ladder is None and LADDER in unit.gear:
                out.append(a.PlaceLadder(unit=unit.uid, wall=sid))
            elif (ladder is not None and can_carry(unit, LADDER)
                  and (room or ladder.owner == seat)):
                out.append(a.PickUpLadder(unit=unit.uid, wall=sid))
    return out


def on_equipment_bought(state: State, seat: int, card: int, unit: int, cost: int) -> None:
    state.gold[seat] -= cost
    if card != LADDER:
        state.hands[seat].remove(card)  # set aside on the unit: no longer in the hand
    state.units[unit].gear.append(card)


def on_dropped(state: State, seat: int, unit: int, card: int) -> None:
    state.units[unit].gear.remove(card)
    if card != LADDER:
        state.discards[seat].append(card)


def on_ladder_placed(state: State, seat: int, unit: int, wall: int) -> None:
    state.units[unit].gear.remove(LADDER)
    state.ladders[wall] = Ladder(owner=seat, placer=unit)


def on_ladder_picked_up(state: State, seat: int, unit: int, wall: int) -> None:
    del state.ladders[wall]
    state.units[unit].gear.append(LADDER)


# --- climbing and knocking down --------------------------------------------------------------


def climbs(state: State, space: int) -> list[int]:
    """Spaces reached from ``space`` over a standing wall with a ladder (inward only)."""
    out = []
    for wall in state.ladders:
        structure = STRUCTURES[wall]
        if space in structure.front and state.standing[wall]:
            out += [i for i in structure.inner
                    if any(e.to == i and e.wall == wall for e in EDGES[space])]
    return out


def knock_walls(state: State, space: int) -> list[int]:
    """Walls with a ladder that a defender on ``space`` (behind the wall) may knock down."""
    return sorted(w for w in state.ladders
                  if state.standing[w] and space in STRUCTURES[w].inner)


def climber(state: State, wall: int) -> Unit | None:
    """The unit on the ladder against ``wall``, if any."""
    return next((u for u in sorted(state.units.values(), key=lambda u: u.uid)
                 if terrain.on_ladder(state, u) == wall), None)


def knock_down(state: State, wall: int) -> None:
    """The ladder is destroyed (back to its owner's pile); the unit on it takes an Attack 1."""
    climber_ = climber(state, wall)
    del state.ladders[wall]
    if climber_ is not None:
        roll_attack(state, climber_.uid, KNOCK_ATTACK, NOBODY, "ladder")
