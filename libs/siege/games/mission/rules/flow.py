"""The turn as a machine: runs every automatic step until a seat or chance is needed.

Event handlers only record what their event says and close the decision it answered;
:func:`advance` then moves the game on. Automatic steps (a skipped assault, the start of a close
combat, scoring, a replaced mission, a draw) are not events: they follow from earlier events and
are redone on every fold, so a live game and its replay agree.

A turn: start (turn limit) -> assault -> [combat] -> [stash] -> deploy -> draw -> next seat.
"""

from __future__ import annotations

from siege.games.mission.cards import DECK_SIZE
from siege.games.mission.missions import MISSION_COUNT
from siege.games.mission.rules import assault, combat, deploy
from siege.games.mission.rules.nodes import open_chance
from siege.games.mission.state import State, opponent
from siege.games.mission.tuning import (
    DEPLOYS_PER_TURN,
    OPENING_HAND,
    PLAYERS,
    SLOTS,
    TURN_LIMIT,
    WIN_POINTS,
)

MISSIONS_PURPOSE = "missions"
FIRST_PLAYER_PURPOSE = "first_player"


def deck_purpose(seat: int) -> str:
    return f"deck_{seat}"


def reshuffle_purpose(seat: int) -> str:
    return f"reshuffle_{seat}"


def advance(state: State) -> None:
    while not state.waiting and state.chance is None:
        phase = state.phase
        if phase == "over":
            return
        # Checked at the end of each phase: an assault runs to its end (the stash follows
        # combat whatever its outcome) before a point won in its combat can end the game.
        if phase not in ("combat", "stash") and max(state.points) >= WIN_POINTS:
            state.phase = "over"
            state.ended = "points"
            return
        if phase == "combat":
            if combat.settle(state):
                return
        elif phase == "stash":
            if assault.open_stash(state):
                return
        elif phase == "deploy":
            if deploy.open_choice(state):
                return
        elif phase == "draw":
            if _draw(state):
                return
        elif phase == "assault":
            if assault.open_choice(state):
                return
        elif phase == "start":
            _start_turn(state)
        elif phase == "setup":
            _setup(state)


def _setup(state: State) -> None:
    if not state.mission_deck:
        open_chance(state, "shuffle", MISSION_COUNT, 0, MISSIONS_PURPOSE)
        return
    for seat in range(PLAYERS):
        if not state.decks[seat]:
            open_chance(state, "shuffle", DECK_SIZE, 0, deck_purpose(seat))
            return
    open_chance(state, "dice", 1, PLAYERS, FIRST_PLAYER_PURPOSE)


def on_missions_shuffled(state: State, order: list[int]) -> None:
    """``order[k]`` is the index, in id order, of the card that becomes the k-th from the top
    (the same convention for every shuffle in this game)."""
    state.mission_deck = list(order)


def on_deck_shuffled(state: State, seat: int, order: list[int]) -> None:
    state.decks[seat] = list(order)


def on_first_player(state: State, values: list[int]) -> None:
    first = values[0] - 1
    state.first = first
    for seat in range(PLAYERS):
        deck = state.decks[seat]
        state.hands[seat] = deck[:OPENING_HAND]
        del deck[:OPENING_HAND]
    state.missions = state.mission_deck[:SLOTS]
    del state.mission_deck[:SLOTS]
    state.active = first
    state.phase = "start"


def _start_turn(state: State) -> None:
    if state.turn >= TURN_LIMIT:
        state.phase = "over"
        state.ended = "turns"
        return
    state.turn += 1
    state.result = None
    state.deploys_left = DEPLOYS_PER_TURN
    state.phase = "assault"


def _draw(state: State) -> bool:
    """Draws the active seat's top card; True when a reshuffle must come first."""
    seat = state.active
    deck = state.decks[seat]
    if not deck and state.discards[seat]:
        open_chance(state, "shuffle", len(state.discards[seat]), 0, reshuffle_purpose(seat))
        return True
    if deck:  # with no deck and no discard pile there is nothing to draw
        state.hands[seat].append(deck.pop(0))
    state.active = opponent(seat)
    state.phase = "start"
    return False


def on_reshuffled(state: State, seat: int, order: list[int]) -> None:
    cards = sorted(state.discards[seat])
    state.decks[seat] = [cards[i] for i in order]
    state.discards[seat] = []
