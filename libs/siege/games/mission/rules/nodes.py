"""Opening decision points and chance nodes: the only places the decision number moves.

A point is open while ``state.waiting`` is non-empty or ``state.chance`` is set; event handlers
close the point they answer, and :func:`siege.games.mission.rules.flow.advance` runs the
automatic steps until the next point opens.
"""

from __future__ import annotations

from siege.contracts.events import ChanceKind
from siege.engine.protocol import ChanceNeeded
from siege.games.mission.state import State


def open_decision(state: State, seat: int) -> None:
    """Only one seat ever decides at a time in this game."""
    state.decision += 1
    state.waiting = [seat]
    state.chance = None


def close_decision(state: State) -> None:
    state.waiting = []


def open_chance(state: State, kind: ChanceKind, count: int, sides: int, purpose: str) -> None:
    state.decision += 1
    state.waiting = []
    state.chance = ChanceNeeded(kind=kind, count=count, sides=sides, purpose=purpose)
