"""Drawing cards and the hand limit. An empty deck is never reshuffled: a draw just fails."""

from __future__ import annotations

from siege.games.castle_assault.state import State

HAND_LIMIT = 5


def draw(state: State, seat: int, count: int = 1) -> int:
    """Draws up to ``count`` cards from the top of the seat's deck; returns how many."""
    deck = state.decks[seat]
    got = min(count, len(deck))
    state.hands[seat].extend(deck[:got])
    del deck[:got]
    return got


def over_limit(state: State, seat: int) -> bool:
    return len(state.hands[seat]) > HAND_LIMIT
