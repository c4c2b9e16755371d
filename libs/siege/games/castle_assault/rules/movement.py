"""Moving units: the Move Units step, Charges, Quick moves at End of Turn, and lateral moves.

A unit moves straight ahead one square at a time. A friendly unit or rubble ahead stops it; an
opposing unit or castle ahead engages it, with the Smash Bonus when it had distance left. A unit
that ends its movement touching an enemy engages it too, without the Smash Bonus. Engaging
ends the movement whatever the combat's outcome.
"""

from __future__ import annotations

from siege.games.castle_assault.board import castle_row, forward
from siege.games.castle_assault.rules.combat import ahead_of, auras_now, engaged, fight
from siege.games.castle_assault.rules.stats import (
    has_quick,
    hero_of,
    is_captain,
    movement_bonus,
    movement_of,
)
from siege.games.castle_assault.state import State, Unit, unit_at


def advance_unit(state: State, unit: Unit, distance: int, charge_roll: int = 0) -> None:
    auras = auras_now(state, unit)
    moved = 0
    while moved < distance:
        kind, _ = ahead_of(state, unit.seat, unit.lane, unit.row)
        if kind == "block":
            return
        if kind != "free":
            fight(state, unit, smash=True, charge_roll=charge_roll, auras=auras)
            return
        unit.row += forward(unit.seat)
        moved += 1
    if engaged(state, unit):
        fight(state, unit, smash=False, charge_roll=charge_roll, auras=auras)


def progress(unit: Unit) -> int:
    return (unit.row - castle_row(unit.seat)) * forward(unit.seat)


def in_move_order(units: list[Unit]) -> list[Unit]:
    """Most forward first; ties go by lane, left to right as seat 0 sees them (our ruling)."""
    return sorted(units, key=lambda u: (-progress(u), u.lane))


def move_units(state: State, seat: int) -> None:
    """The mandatory Move Units step: every unit the seat controlled since its turn began.
    A unit with 0 Movement stays put and does not engage."""
    for unit in in_move_order([u for u in state.units if u.seat == seat]):
        if unit in state.units and movement_of(state, unit) > 0:
            advance_unit(state, unit, movement_of(state, unit))


def quick_moves(state: State, seat: int) -> None:
    """End of Turn: each Quick unit that is not engaged moves its Movement again."""
    movers = [u for u in state.units if u.seat == seat and u.entered < state.turn
              and has_quick(state, u)]
    for unit in in_move_order(movers):
        if unit in state.units and not engaged(state, unit) and movement_of(state, unit) > 0:
            advance_unit(state, unit, movement_of(state, unit))


def charge_distance(state: State, unit: Unit, roll: int) -> int:
    """The die, plus every Movement bonus (never the printed Movement) and the Captain's."""
    bonus = movement_bonus(state, unit)
    if is_captain(state, unit):
        bonus += hero_of(state, unit.seat).charge_movement
    return max(0, roll + bonus)


def charge(state: State, unit: Unit, roll: int) -> None:
    advance_unit(state, unit, charge_distance(state, unit, roll), charge_roll=roll)


def lateral_lanes(state: State, unit: Unit, reach: int) -> list[int]:
    """Lanes a lateral move of 1..``reach`` squares can end in: every square passed and the
    one it stops on must be free."""
    found: list[int] = []
    for step in (-1, 1):
        for dist in range(1, reach + 1):
            lane = unit.lane + step * dist
            if not 0 <= lane < 3:
                break
            if unit_at(state, lane, unit.row) is not None or [lane, unit.row] in state.rubble:
                break
            found.append(lane)
    return sorted(found)


def move_sideways(state: State, unit: Unit, lane: int) -> None:
    unit.lane = lane
    if engaged(state, unit):  # a lateral move into contact engages at once
        fight(state, unit)
