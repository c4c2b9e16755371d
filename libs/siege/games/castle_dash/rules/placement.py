"""Step 2, placing soldiers: in turn from the first player, each turn either claims one
face-up Armory card with one soldier or puts 1-6 soldiers into one battle not yet placed in.

Nobody may pass while a move remains; a seat with no move is skipped, and the step ends when
no seat has one.
"""

from __future__ import annotations

from siege.games.castle_dash.actions import CLAIM, PLACE, ClaimArmory, PlaceSoldiers
from siege.games.castle_dash.events import ArmoryClaimed, SoldiersPlaced
from siege.games.castle_dash.rules.nodes import open_decision
from siege.games.castle_dash.seating import MAX_PER_PLACEMENT, OPPONENT_MASK, OPPONENTS
from siege.games.castle_dash.state import State


def begin(state: State) -> None:
    # The seat before the first player "just moved", so the first to act is the first player.
    state.turn = (state.first - 1) % state.players


def _has_unclaimed(state: State) -> bool:
    holder = state.holder
    return any(holder[card] < 0 for card in state.face_up)


def settle(state: State) -> bool:
    """Asks the next seat that can move; False when the step is over."""
    n = state.players
    supply = state.supply
    placed = state.placed
    full = OPPONENT_MASK[n]
    unclaimed: bool | None = None  # computed at most once, and only if needed
    turn = state.turn
    for k in range(1, n + 1):
        seat = (turn + k) % n
        if supply[seat] <= 0:
            continue
        if placed[seat] == full[seat]:
            if unclaimed is None:
                unclaimed = _has_unclaimed(state)
            if not unclaimed:
                continue
        state.turn = seat
        open_decision(state, [seat])
        return True
    return False


def legal(state: State, seat: int) -> list[ClaimArmory | PlaceSoldiers]:
    supply = state.supply[seat]
    holder = state.holder
    found: list[ClaimArmory | PlaceSoldiers] = [
        CLAIM[card] for card in state.face_up if holder[card] < 0
    ]
    most = min(MAX_PER_PLACEMENT, supply)
    placed = state.placed[seat]
    for opponent in OPPONENTS[state.players][seat]:
        if not placed >> opponent & 1:
            found.extend(PLACE[opponent][1 : most + 1])
    return found


def on_soldiers_placed(state: State, event: SoldiersPlaced) -> None:
    state.waiting = []
    seat, opponent, count = event.seat, event.opponent, event.count
    state.troops[seat][opponent] += count
    state.supply[seat] -= count
    state.placed[seat] |= 1 << opponent
    state.turn = seat
    settle(state)  # asks the next placer now; when nobody is left, ``advance`` moves on


def on_armory_claimed(state: State, event: ArmoryClaimed) -> None:
    state.waiting = []
    seat, card = event.seat, event.card
    state.holder[card] = seat
    state.claim_order.append(card)
    state.supply[seat] -= 1
    state.turn = seat
    settle(state)
