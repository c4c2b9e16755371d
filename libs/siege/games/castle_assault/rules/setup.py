"""Set-up: shuffles, five cards each, one mulligan, the roll-off and the opening Environment.

Chance requests, in order: ``deck_0`` and ``deck_1`` (a shuffle of the seat's whole deck list),
``environment`` (the Environment deck), then ``rolloff`` (two dice, seat 0's first) until they
differ. A shuffle answer's ``order[k]`` is the instance (or Environment card, in id order) that
becomes k-th from the top.
"""

from __future__ import annotations

from siege.games.castle_assault.cards import ENVIRONMENT_CARDS
from siege.games.castle_assault.rules.environment import SHUFFLE_PURPOSE
from siege.games.castle_assault.rules.hand import draw
from siege.games.castle_assault.rules.nodes import close_decision, open_chance, open_decision
from siege.games.castle_assault.state import State

OPENING_HAND = 5
ROLLOFF_PURPOSE = "rolloff"


def deck_purpose(seat: int) -> str:
    return f"deck_{seat}"


def setup_step(state: State) -> None:
    """The next set-up chance node (phase ``setup``), then the mulligan decision."""
    for seat in (0, 1):
        if not state.decks[seat] and not state.hands[seat]:
            open_chance(state, "shuffle", len(state.cards[seat]), 0, deck_purpose(seat))
            return
    if not state.env_deck:
        open_chance(state, "shuffle", len(ENVIRONMENT_CARDS), 0, SHUFFLE_PURPOSE)
        return
    for seat in (0, 1):
        draw(state, seat, OPENING_HAND)
    state.phase = "mulligan"
    open_decision(state, [0, 1], "mulligan")


def on_deck_shuffled(state: State, seat: int, order: list[int]) -> None:
    state.decks[seat] = list(order)


def on_environment_shuffled(state: State, order: list[int]) -> None:
    state.env_deck = [ENVIRONMENT_CARDS[i] for i in order]


def on_kept(state: State, seat: int) -> None:
    state.mulligan[seat] = 0
    _after_mulligan(state, seat)


def on_mulliganed(state: State, seat: int) -> None:
    state.mulligan[seat] = 1
    hand = state.hands[seat]
    state.decks[seat].extend(hand)
    state.hands[seat] = []
    draw(state, seat, OPENING_HAND)
    _after_mulligan(state, seat)


def _after_mulligan(state: State, seat: int) -> None:
    close_decision(state, seat)
    if not state.waiting:
        state.phase = "rolloff"


def rolloff_step(state: State) -> None:
    open_chance(state, "dice", 2, 6, ROLLOFF_PURPOSE)


def on_rolloff(state: State, values: list[int]) -> None:
    """A tie rolls again; otherwise the higher roller chooses who starts."""
    state.rolls = list(values)
    if values[0] == values[1]:
        return
    state.rolloff_winner = 0 if values[0] > values[1] else 1
    state.phase = "first"
    open_decision(state, [state.rolloff_winner], "first")


def on_first_chosen(state: State, first: int) -> None:
    close_decision(state, state.rolloff_winner)
    state.first = first
    state.active = first
    state.phase = "turn"
    state.step = "opening"  # reveal the opening Environment card, then turn 1
