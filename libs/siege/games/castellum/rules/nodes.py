"""Opening decision points and chance nodes: the only places the decision number moves.

A point is open while ``state.waiting`` is non-empty or ``state.chance`` is set; event handlers
close the point they answer, and :func:`siege.games.castellum.rules.flow.advance` runs the
automatic steps until the next point opens.
"""

from __future__ import annotations

from siege.contracts.events import ChanceKind
from siege.engine.protocol import ChanceNeeded
from siege.games.castellum.state import Asking, State


def open_decision(state: State, seat: int, asking: Asking) -> None:
    state.decision += 1
    state.waiting = [seat]
    state.asking = asking
    state.chance = None


def close_decision(state: State) -> None:
    state.waiting = []
    state.asking = ""


def open_chance(state: State, need: ChanceNeeded) -> None:
    state.decision += 1
    state.waiting = []
    state.asking = ""
    state.chance = need


_NEEDS: dict[tuple[ChanceKind, int, int, str], ChanceNeeded] = {}


def chance_need(kind: ChanceKind, count: int, sides: int, purpose: str) -> ChanceNeeded:
    """A shared ``ChanceNeeded`` (frozen, so sharing is safe)."""
    key = (kind, count, sides, purpose)
    need = _NEEDS.get(key)
    if need is None:
        need = _NEEDS[key] = ChanceNeeded(kind=kind, count=count, sides=sides, purpose=purpose)
    return need
