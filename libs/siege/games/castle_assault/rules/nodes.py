"""Opening decision points and chance nodes: the only places the decision number moves."""

from __future__ import annotations

from siege.contracts.events import ChanceKind
from siege.engine.protocol import ChanceNeeded
from siege.games.castle_assault.state import Asking, State


def open_decision(state: State, seats: list[int], asking: Asking) -> None:
    state.decision += 1
    state.waiting = list(seats)
    state.asking = asking
    state.chance = None


def close_decision(state: State, seat: int) -> None:
    state.waiting = [s for s in state.waiting if s != seat]
    if not state.waiting:
        state.asking = ""


def open_chance(state: State, kind: ChanceKind, count: int, sides: int, purpose: str) -> None:
    state.decision += 1
    state.waiting = []
    state.asking = ""
    state.chance = ChanceNeeded(kind=kind, count=count, sides=sides, purpose=purpose)
