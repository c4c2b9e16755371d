"""Lateral moves (Shift): sideways in the same row, never engaging sideways."""

from __future__ import annotations

from siege.games.castle_assault.board import LANES
from siege.games.castle_assault.rules.combat import engaged
from siege.games.castle_assault.state import Fight, State, Unit, unit_at


def lateral_lanes(state: State, unit: Unit, reach: int) -> list[int]:
    """Lanes a lateral move of 1..``reach`` squares can end in: every square passed and the
    one it stops on must be free."""
    found: list[int] = []
    for step in (-1, 1):
        for dist in range(1, reach + 1):
            lane = unit.lane + step * dist
            if not 0 <= lane < LANES:
                break
            if unit_at(state, lane, unit.row) is not None or [lane, unit.row] in state.rubble:
                break
            found.append(lane)
    return sorted(found)


def move_sideways(state: State, unit: Unit, lane: int) -> None:
    unit.lane = lane
    if engaged(state, unit):  # a lateral move into contact engages at once
        state.fight = Fight(uid=unit.uid)
