"""The Bonus Reward card of the year.

If all seats together defeated at least the card's threshold (destroyed cards count), the seat
that defeated the most this year orients the card; on a tie the tied seat nearest the first
player, clockwise from the first player, does. Every seat then receives its side (see
``rewards.side_for`` for how 2 and 3 players sit around the four sides).
"""

from __future__ import annotations

from siege.games.castellum.cards import NOBODY
from siege.games.castellum.events import RewardOriented
from siege.games.castellum.rewards import REWARD_CARDS, side_for
from siege.games.castellum.rules import hand
from siege.games.castellum.rules.nodes import close_decision, open_decision
from siege.games.castellum.state import State, clockwise


def chooser(state: State) -> int:
    """The seat that orients the card, or NOBODY when the threshold was missed."""
    card = REWARD_CARDS[state.year]
    defeats = state.year_defeats
    if sum(defeats) < card.threshold[state.players]:
        return NOBODY
    order = clockwise(state.players, state.first)
    return max(order, key=lambda seat: (defeats[seat], -order.index(seat)))


def begin(state: State) -> None:
    state.phase = "reward"
    state.reward_chooser = chooser(state)
    state.reward_side = NOBODY


def settle(state: State) -> bool:
    if state.reward_chooser != NOBODY and state.reward_side == NOBODY:
        open_decision(state, state.reward_chooser, "reward")
        return True
    return False


def on_oriented(state: State, event: RewardOriented) -> None:
    close_decision(state)
    state.reward_side = event.side
    card = REWARD_CARDS[state.year]
    n = state.players
    for seat in clockwise(n, state.first):
        side = card.sides[side_for(n, event.seat, event.side, seat)]
        have = state.resources[seat]
        for r, amount in enumerate(side.resources):
            have[r] += amount
        state.reward_strength_next[seat] += side.strength
        if side.pair_type != NOBODY:
            state.pair_type[seat] = side.pair_type
        if side.angels:
            hand.draw(state, seat, side.angels)
