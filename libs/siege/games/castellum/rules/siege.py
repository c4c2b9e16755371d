"""Phase 2, the Siege: enemy cards dealt in secret, then placed one per turn.

Each seat gets as many cards from the year's enemy deck as it has columns (2-5), dealt from the
top, the first player's first. From the first player clockwise, a seat puts one of its cards in
any free available column of any Line, its own included, until every card is placed; as there
are exactly as many cards as available columns, every column ends with one enemy card.
"""

from __future__ import annotations

from siege.games.castellum.actions import PlaceEnemy
from siege.games.castellum.cards import NOBODY
from siege.games.castellum.events import EnemyPlaced
from siege.games.castellum.rules.nodes import close_decision, open_decision
from siege.games.castellum.state import State, clockwise, columns_open


def begin(state: State) -> None:
    state.phase = "siege"
    count = columns_open(state)
    deck = state.enemy_decks[state.year]
    for seat in clockwise(state.players, state.first):
        state.enemy_hands[seat] = deck[:count]
        del deck[:count]
    state.turn = state.first


def settle(state: State) -> bool:
    hands = state.enemy_hands
    for seat in clockwise(state.players, state.turn):
        if hands[seat]:
            state.turn = seat
            open_decision(state, seat, "enemy")
            return True
    return False


def free_columns(state: State, seat: int) -> list[tuple[int, int]]:
    """(owner, column) of every available column without an enemy, the seat's own Line first."""
    lines = state.lines
    return [(owner, col) for owner in clockwise(state.players, seat)
            for col in range(columns_open(state)) if lines[owner][col].enemy == NOBODY]


def legal(state: State, seat: int) -> list[PlaceEnemy]:
    free = free_columns(state, seat)
    return [PlaceEnemy(card=card, owner=owner, column=col)
            for card in state.enemy_hands[seat] for owner, col in free]


def on_enemy_placed(state: State, event: EnemyPlaced) -> None:
    close_decision(state)
    state.enemy_hands[event.seat].remove(event.card)
    state.lines[event.owner][event.column].enemy = event.card
    state.turn = (event.seat + 1) % state.players
