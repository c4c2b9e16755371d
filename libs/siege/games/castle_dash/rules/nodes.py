"""Opening decision points and chance nodes: the only places the decision number moves."""

from __future__ import annotations

from siege.engine.protocol import ChanceNeeded
from siege.games.castle_dash.state import State


def open_decision(state: State, seats: list[int]) -> None:
    """Seats that must now choose. Seats choosing together share this one number."""
    state.decision += 1
    state.waiting = seats
    state.chance = None


def open_chance(state: State, need: ChanceNeeded) -> None:
    state.decision += 1
    state.waiting = []
    state.chance = need


def is_open(state: State) -> bool:
    return bool(state.waiting) or state.chance is not None
