"""The round as a machine: runs every automatic step until a seat or chance is needed.

Event handlers only record what their event says and close the decision it answered;
:func:`advance` then moves the game on. That split is what makes automatic steps (skipped seats,
one-sided battles, single-option loots) free of events, yet identical in a live game and a replay.
"""

from __future__ import annotations

from siege.games.castle_dash.cards import DECK_SIZE
from siege.games.castle_dash.rules import battle, claims, loot, placement
from siege.games.castle_dash.rules.nodes import chance_need, open_chance
from siege.games.castle_dash.seating import CARDS_PER_PLAYER, START_CANNONBALLS, left
from siege.games.castle_dash.state import State, owned

SHUFFLE_PURPOSE = "armory_shuffle"
RESHUFFLE_PURPOSE = "armory_reshuffle"
FIRST_PLAYER_PURPOSE = "first_player"


def advance(state: State) -> None:
    while not state.waiting and state.chance is None:
        phase = state.phase
        # Most frequent phases first: this loop runs after nearly every event.
        if phase == "place":
            if placement.settle(state):
                return
            state.phase = "claim"
            claims.begin(state)
        elif phase == "battle":
            if battle.settle(state):
                return
            state.phase = "loot"
            loot.begin(state)
        elif phase == "claim":
            if claims.settle(state):
                return
            state.phase = "battle"
            battle.begin(state)
        elif phase == "loot":
            if loot.settle(state):
                return
            if loot.game_over(state):
                state.phase = "over"
                return
            end_round(state)
        elif phase == "reveal":
            _reveal(state)
        elif phase == "setup":
            _setup(state)
        else:
            return


def _setup(state: State) -> None:
    if not state.deck:
        open_chance(state, chance_need("shuffle", DECK_SIZE, 0, SHUFFLE_PURPOSE))
    else:
        open_chance(state, chance_need("dice", 1, state.players, FIRST_PLAYER_PURPOSE))


def _reveal(state: State) -> None:
    need = CARDS_PER_PLAYER * state.players - len(state.face_up)
    deck = state.deck
    if len(deck) >= need:
        state.face_up.extend(deck[:need])
        del deck[:need]
        state.phase = "place"
        placement.begin(state)
        return
    # Draw what is left, then shuffle the discard pile into a new deck for the rest.
    state.face_up.extend(deck)
    deck.clear()
    open_chance(state, chance_need("shuffle", len(state.discard), 0, RESHUFFLE_PURPOSE))


def on_shuffled(state: State, order: list[int]) -> None:
    """``order[k]`` is the index, in id order, of the card that becomes the k-th from the top."""
    cards = sorted(state.discard) if state.phase == "reveal" else range(DECK_SIZE)
    state.deck = [cards[i] for i in order]
    state.discard = []


def on_first_player(state: State, values: list[int]) -> None:
    state.first = values[0] - 1
    state.round = 1
    state.phase = "reveal"


def end_round(state: State) -> None:
    n = state.players
    state.discard.extend(state.face_up)
    state.face_up = []
    state.holder = [-1] * DECK_SIZE
    state.claim_order = []
    state.spent = []
    state.troops = [[0] * n for _ in range(n)]
    state.placed = [0] * n
    state.resolved = [0] * n
    state.smoke = [0] * n
    walls = state.walls
    # Every soldier not on a wall comes home: on cards, in battles, knocked out or just looted.
    state.supply = [owned(state, p) - sum(row[p] for row in walls) for p in range(n)]
    state.cannonballs = [START_CANNONBALLS] * n
    state.first = left(n, state.first)
    state.round += 1
    state.outcome = None
    state.phase = "reveal"
