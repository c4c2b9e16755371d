"""Card texts that change numbers: a unit's strength and a side's total in close combat.

Stashed maneuvers live in ``state.stashes``, never in ``state.maneuvers``, so every text that
looks for or counts "maneuvers" (Outriders, Drill Sergeant, the assault rules) cannot see them,
and a stashed Outriders' own text is gone. Only a text that names stashed maneuvers (Tunnellers,
Relay) reads ``state.stashes``.
"""

from __future__ import annotations

from siege.games.mission.cards import DRILL_SERGEANT, OUTRIDERS, SPEED, STRENGTH, TUNNELLERS, TYPE
from siege.games.mission.state import Combat, State


def outriders_in_play(state: State, seat: int) -> int:
    return sum(1 for card in state.maneuvers[seat] if TYPE[card] == OUTRIDERS)


def strength(state: State, seat: int, card: int, slot: int) -> int:
    """What one unit of ``seat`` at ``slot`` adds to its side in close combat."""
    value = STRENGTH[card] + outriders_in_play(state, seat)
    kind = TYPE[card]
    if kind == DRILL_SERGEANT:
        value += len(state.maneuvers[seat])  # swerved or not, never stashed
    elif kind == TUNNELLERS:
        value += len(state.stashes[slot][seat])
    return value


def unit_strength(state: State, seat: int, slot: int) -> int:
    """All of ``seat``'s units at ``slot`` together."""
    return sum(strength(state, seat, card, slot) for card in state.units[seat][slot])


def stashed_speed(state: State, seat: int, slot: int) -> int:
    return sum(SPEED[card] for card in state.stashes[slot][seat])


def combat_totals(state: State, combat: Combat) -> list[int]:
    """Each side's total: its units' strength there plus the speed it swerved in this combat."""
    return [
        unit_strength(state, seat, combat.slot) + sum(SPEED[c] for c in combat.swerved[side])
        for side, seat in enumerate(combat.sides)
    ]
