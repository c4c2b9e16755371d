"""Response windows: when Instants may be played on either seat's turn.

A window opens before the active seat's Move Units step (``movement``) and before every combat
resolves (``combat``); in its own Open Phase a seat plays Instants between its other actions.
The seat whose turn it is not answers first. A seat may play an Instant or pass; after an
Instant the other seat may answer it; the window closes once both have passed since the last
Instant. Whether a seat is asked depends only on what everyone can see (a card in hand and a
Ready resource), so a window never reveals a hand. Steps that resolve at once (a combat's
simultaneous damage, a card's effect) are never interrupted.
"""

from __future__ import annotations

from typing import Any, Literal

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.rules import commands
from siege.games.castle_assault.state import State, Window, opponent, ready_resources


def may_respond(state: State, seat: int) -> bool:
    return bool(state.hands[seat]) and ready_resources(state, seat) >= 1


def open_window(state: State, kind: Literal["movement", "combat"]) -> bool:
    window = Window(kind=kind, to_act=-1)
    state.window = window
    if _next(state, window, opponent(state.active)):
        return True
    state.window = None
    return False


def _next(state: State, window: Window, first: int) -> bool:
    for seat in (first, opponent(first)):
        if not window.passed[seat] and may_respond(state, seat):
            window.to_act = seat
            return True
    return False


def legal(state: State, seat: int) -> list[Any]:
    ready = ready_resources(state, seat)
    out: list[Any] = [a.PASS_RESPONSE]
    for i in state.hands[seat]:
        card = CARDS[state.cards[seat][i]]
        if card.timing == "instant" and card.cost <= ready:
            out += [a.PlayCommand(card=i, unit=uid, lane=lane)
                    for uid, lane in commands.targets(state, seat, card)]
    return out


def answered(state: State, seat: int, played: bool) -> None:
    """After ``seat`` passed or played an Instant in the window: ask the next seat, or close."""
    window = state.window
    assert window is not None
    if played:
        window.passed = [False, False]
    else:
        window.passed[seat] = True
    if not _next(state, window, opponent(seat)):
        state.window = None
