"""The response window: after a special effect is played, the other players may cancel it.

Played effects wait on a stack. The seat asked is the first of the top effect's responders
(the other seats, clockwise from the player); a seat whose hand is empty is skipped, since hand
sizes are public and asking it would change nothing. Anyone may answer with a cancel card, which
is itself an effect that can be cancelled. When the top effect's window closes it resolves: a
cancel throws away itself and the effect below it; after that the effect below the cancelled
one (if any) asks its remaining responders. Only then does the game go on.
"""

from __future__ import annotations

from siege.games.castellum.actions import DECLINE, CancelEffect, DeclineCancel
from siege.games.castellum.angels import ANGEL_CARDS, Effect
from siege.games.castellum.events import CancelDeclined, CancelPlayed
from siege.games.castellum.rules.effects import resolve
from siege.games.castellum.rules.nodes import close_decision, open_decision
from siege.games.castellum.state import Play, State, others


def push(state: State, seat: int, card: int, effect: Effect, targets: list[int]) -> None:
    state.stack.append(Play(seat=seat, card=card, effect=effect, targets=targets,
                            responders=others(state.players, seat)))


def settle(state: State) -> bool:
    """Asks the next responder, resolving closed windows; then asks a draft's player for its
    next target. False when no effect is in play any more."""
    stack = state.stack
    hands = state.hands
    while stack:
        top = stack[-1]
        asked = top.responders
        while asked and not hands[asked[0]]:
            asked.pop(0)
        if asked:
            open_decision(state, asked[0], "respond")
            return True
        stack.pop()
        if top.effect == "cancel":
            cancelled = stack.pop()
            state.angel_discard.append(cancelled.card)
            state.angel_discard.append(top.card)
        else:
            resolve(state, top)
    if state.draft is not None:
        open_decision(state, state.draft.seat, "target")
        return True
    return False


def legal(state: State, seat: int) -> list[CancelEffect | DeclineCancel]:
    return [DECLINE, *(CancelEffect(card=card) for card in state.hands[seat]
                       if ANGEL_CARDS[card].effect == "cancel")]


def on_cancel_played(state: State, event: CancelPlayed) -> None:
    close_decision(state)
    seat = event.seat
    state.stack[-1].responders.pop(0)  # this seat has answered the effect below
    state.hands[seat].remove(event.card)
    # No pass bookkeeping here: a response always follows a card just played on a turn, which
    # already reset the Angel phase's passes.
    push(state, seat, event.card, "cancel", [])


def on_cancel_declined(state: State, event: CancelDeclined) -> None:
    close_decision(state)
    state.stack[-1].responders.pop(0)
