"""Angel cards coming in: draws from the deck and the hand limit of three.

A seat may hold any number of cards for a moment, but whoever ends up over the limit discards,
one card per decision and of its own choice, before anything else happens. An empty deck gives
nothing (the discard pile comes back only at the start of a year, see ``flow``).
"""

from __future__ import annotations

from siege.games.castellum.actions import DiscardAngel
from siege.games.castellum.angels import HAND_LIMIT
from siege.games.castellum.events import AngelDiscarded
from siege.games.castellum.rules.nodes import close_decision, open_decision
from siege.games.castellum.state import State


def draw(state: State, seat: int, count: int) -> None:
    deck = state.angel_deck
    got = deck[:count]
    del deck[:count]
    state.hands[seat].extend(got)
    if len(state.hands[seat]) > HAND_LIMIT and seat not in state.discards:
        state.discards.append(seat)


def settle(state: State) -> bool:
    """Asks the first seat still over the limit; False when nobody is."""
    discards = state.discards
    while discards:
        seat = discards[0]
        if len(state.hands[seat]) > HAND_LIMIT:
            open_decision(state, seat, "discard")
            return True
        discards.pop(0)
    return False


def legal(state: State, seat: int) -> list[DiscardAngel]:
    return [DiscardAngel(card=card) for card in state.hands[seat]]


def on_discarded(state: State, event: AngelDiscarded) -> None:
    close_decision(state)
    state.hands[event.seat].remove(event.card)
    state.angel_discard.append(event.card)
