"""Moving units: Move Units, Charges, Quick moves, Consume's carry-on and lateral moves.

A movement is resumable (``state.motion``), because an engagement it runs into waits for a
response window before it resolves (``state.fight``). :func:`drive` runs the queue of units to
move, the movement under way and the pending combat until everything has resolved, or a window
opened.

A unit moves straight ahead one square at a time. A friendly unit or rubble ahead stops it
(a unit with Phase passes through friendly units); an opposing unit or castle ahead engages it,
with the Smash Bonus when it had distance left. A unit that ends its movement touching an enemy
engages too, without the Smash Bonus. Engaging ends the movement (Consume aside).
"""

from __future__ import annotations

from siege.games.castle_assault.board import castle_row, forward
from siege.games.castle_assault.rules.combat import (
    ahead_of,
    auras_now,
    engaged,
    fight,
    place_returning,
)
from siege.games.castle_assault.rules.stats import (
    card_of,
    has_quick,
    hero_of,
    is_captain,
    movement_bonus,
    movement_of,
)
from siege.games.castle_assault.rules.windows import open_window
from siege.games.castle_assault.state import Fight, Motion, State, Unit, find_unit, unit_at


def progress(unit: Unit) -> int:
    return (unit.row - castle_row(unit.seat)) * forward(unit.seat)


def in_move_order(units: list[Unit]) -> list[int]:
    """Most forward first; ties go by lane, left to right as seat 0 sees them (our ruling)."""
    return [u.uid for u in sorted(units, key=lambda u: (-progress(u), u.lane))]


def queue_move_units(state: State, seat: int) -> None:
    """Move Units: every unit the seat controlled since its turn began, except 0 Movement."""
    state.queue = in_move_order([u for u in state.units if u.seat == seat])
    state.quick = False


def queue_quick_moves(state: State, seat: int) -> None:
    """End of Turn: Quick units on the battlefield since the turn began move again."""
    state.queue = in_move_order([u for u in state.units if u.seat == seat
                                 and u.entered < state.turn and has_quick(state, u)])
    state.quick = True


def charge_distance(state: State, unit: Unit, roll: int) -> int:
    """The die, plus every Movement bonus (never the printed Movement) and the Captain's."""
    bonus = movement_bonus(state, unit)
    if is_captain(state, unit):
        bonus += hero_of(state, unit.seat).charge_movement
    return max(0, roll + bonus)


def start_charge(state: State, unit: Unit, roll: int) -> None:
    state.motion = Motion(uid=unit.uid, left=charge_distance(state, unit, roll), roll=roll,
                          auras=auras_now(state, unit))


def drive(state: State) -> bool:
    """Resolves movement and combat; True when a response window opened and must be answered."""
    while True:
        if state.fight is not None:
            if _settle_fight(state):
                return True
        elif state.motion is not None:
            _step_motion(state)
        elif state.returning:
            place_returning(state)
        elif state.queue:
            unit = find_unit(state, state.queue.pop(0))
            if unit is None or movement_of(state, unit) == 0:
                continue  # destroyed meanwhile, or a 0 Movement unit: it stays and holds
            if state.quick and engaged(state, unit):
                continue  # Quick does nothing for an engaged unit
            state.motion = Motion(uid=unit.uid, left=movement_of(state, unit),
                                  auras=auras_now(state, unit))
        else:
            return False


def _settle_fight(state: State) -> bool:
    pending = state.fight
    assert pending is not None
    unit = find_unit(state, pending.uid)
    if unit is None or not engaged(state, unit):  # an Instant moved or destroyed it
        state.fight = None
        return False
    if not pending.windowed:
        pending.windowed = True
        if open_window(state, "combat"):
            return True
    state.fight = None
    fight(state, unit, smash=pending.smash, charge_roll=pending.roll, auras=pending.auras)
    return False


def _step_motion(state: State) -> None:
    motion = state.motion
    assert motion is not None
    state.motion = None
    unit = find_unit(state, motion.uid)
    if unit is None:
        return
    step = forward(unit.seat)
    while motion.left > 0:
        kind, _ = ahead_of(state, unit.seat, unit.lane, unit.row)
        if kind == "block":
            hop = _phase_hop(state, unit) if card_of(unit).phase else 0
            if not hop or hop > motion.left:
                return
            unit.row += hop * step
            motion.left -= hop
            continue
        if kind != "free":
            state.fight = Fight(uid=unit.uid, smash=True, roll=motion.roll, auras=motion.auras)
            return
        unit.row += step
        motion.left -= 1
    if engaged(state, unit):
        state.fight = Fight(uid=unit.uid, smash=False, roll=motion.roll, auras=motion.auras)


def _phase_hop(state: State, unit: Unit) -> int:
    """Spaces a Phase unit needs to pass the friendly units straight ahead and land on the free
    square beyond them; 0 when rubble, the castle area or an enemy lies beyond (it stops)."""
    row = unit.row
    step = forward(unit.seat)
    hop = 0
    while True:
        row += step
        hop += 1
        if row == castle_row(1 - unit.seat) or [unit.lane, row] in state.rubble:
            return 0
        other = unit_at(state, unit.lane, row)
        if other is None:
            return hop
        if other.seat != unit.seat:
            return 0
