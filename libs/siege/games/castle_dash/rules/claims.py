"""Step 3, claiming: claimed cards are already in their holders' hands (``state.holder``); the
blue-flag cards among them resolve now, one at a time, from the first player clockwise, each
player's flags in the order it claimed them.

A flag whose effect needs a choice asks its holder only when there are two or more targets;
with one target it resolves by itself, with none it fizzles.
"""

from __future__ import annotations

from siege.games.castle_dash import cards as c
from siege.games.castle_dash.events import FlagCardResolved
from siege.games.castle_dash.rules.nodes import open_decision
from siege.games.castle_dash.seating import OPPONENTS, TURN_ORDER
from siege.games.castle_dash.state import State


def begin(state: State) -> None:
    holder = state.holder
    flags = [card for card in state.claim_order if c.KIND[card] == "flag"]
    state.queue = [
        [seat, card]
        for seat in TURN_ORDER[state.players][state.first]
        for card in flags
        if holder[card] == seat
    ]


def targets(state: State, seat: int, card: int) -> list[int] | None:
    """What ``card`` may aim at; None when it takes no target at all."""
    if card == c.POWDER_CACHE:
        return None
    if card == c.BRIBE:
        wall = state.walls[seat]
        n = state.players
        return [a for a in ((seat + k) % n for k in range(1, n)) if wall[a] > 0]
    if card == c.LOOKOUT:
        holder = state.holder
        return [x for x in state.face_up if holder[x] < 0 and c.KIND[x] != "flag"]
    # Sabotage, Sappers and Smoke Screen aim at an opponent the holder battles.
    return list(OPPONENTS[state.players][seat])


def settle(state: State) -> bool:
    """Resolves queued flags until one needs a choice; False when none is left."""
    queue = state.queue
    while queue:
        seat, card = queue.pop(0)
        aims = targets(state, seat, card)
        if aims is None:
            resolve(state, seat, card, -1)
        elif len(aims) == 1:
            resolve(state, seat, card, aims[0])
        elif aims:
            state.current = [seat, card]
            open_decision(state, [seat])
            return True
    state.current = []
    return False


def on_flag_card_resolved(state: State, event: FlagCardResolved) -> None:
    state.waiting = []
    resolve(state, event.seat, event.card, event.target)


def resolve(state: State, seat: int, card: int, target: int) -> None:
    amount = c.AMOUNT[card]
    if card == c.POWDER_CACHE:
        state.cannonballs[seat] += amount
    elif card == c.SABOTAGE:
        state.cannonballs[target] = max(0, state.cannonballs[target] - amount)
    elif card == c.SAPPERS:
        # The claiming soldier leaves the card for the wall; round end counts it as on a wall.
        state.walls[target][seat] += amount
    elif card == c.BRIBE:
        state.walls[seat][target] -= amount
        state.supply[target] += amount
    elif card == c.LOOKOUT:
        state.holder[target] = seat
    elif card == c.SMOKE_SCREEN:
        state.smoke[seat] |= 1 << target
        state.smoke[target] |= 1 << seat
    state.current = []
