"""Opening decision points and chance nodes: the only places the decision number moves.

A point is open while ``state.waiting`` is non-empty or ``state.chance`` is set; event handlers
close the point they answer, and :func:`siege.games.storm_castle.rules.flow.advance` runs the
automatic steps until the next point opens. The Boss vote is one point for every seat at once.
"""

from __future__ import annotations

from siege.contracts.events import ChanceKind
from siege.engine.protocol import ChanceNeeded
from siege.games.storm_castle.state import Asking, State

_NEEDS: dict[tuple[ChanceKind, int, int, str], ChanceNeeded] = {}


def open_decision(state: State, seats: list[int], asking: Asking) -> None:
    state.decision += 1
    state.waiting = list(seats)
    state.asking = asking
    state.chance = None


def close_decision(state: State) -> None:
    state.waiting = []
    state.asking = ""


def open_chance(state: State, kind: ChanceKind, count: int, sides: int, purpose: str) -> None:
    key = (kind, count, sides, purpose)
    need = _NEEDS.get(key)
    if need is None:
        need = _NEEDS[key] = ChanceNeeded(kind=kind, count=count, sides=sides, purpose=purpose)
    state.decision += 1
    state.waiting = []
    state.asking = ""
    state.chance = need


def roll(state: State, count: int, purpose: str) -> None:
    open_chance(state, "dice", count, 6, purpose)


def shuffle(state: State, count: int, purpose: str) -> None:
    open_chance(state, "shuffle", count, 0, purpose)
