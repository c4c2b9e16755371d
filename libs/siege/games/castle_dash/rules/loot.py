"""Step 5, looting: each castle in turn from the first player's; on a castle, attackers
clockwise from the owner's left. An attacker with 3+ soldiers on the wall breaks in, takes one
thing, and takes its soldiers home; smaller walls stay for later rounds.

The looter chooses between rescuing its captive and stealing a coin only when both are
possible; otherwise it takes the one that is (a forced coin once its captive is home, a forced
rescue once the castle's coins are gone), or nothing when neither is.
"""

from __future__ import annotations

from siege.games.castle_dash.events import LootChoice, LootTaken
from siege.games.castle_dash.rules.nodes import open_decision
from siege.games.castle_dash.seating import (
    COINS_TO_WIN,
    LOOT_THRESHOLD,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TURN_ORDER,
)
from siege.games.castle_dash.state import State


def begin(state: State) -> None:
    n = state.players
    walls = state.walls
    attackers = ATTACKERS[n]
    state.queue = [
        [castle, attacker]
        for castle in TURN_ORDER[n][state.first]
        if max(walls[castle]) >= LOOT_THRESHOLD
        for attacker in attackers[castle]
        if walls[castle][attacker] >= LOOT_THRESHOLD
    ]


ATTACKERS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(TURN_ORDER[n][(castle + 1) % n][:-1] for castle in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
"""``ATTACKERS[players][castle]``: every other seat, clockwise from the castle's left."""


def options(state: State, castle: int, attacker: int) -> list[LootChoice]:
    found: list[LootChoice] = []
    if attacker in state.hostages[castle]:
        found.append("rescue")
    if state.coins[castle] > 0:
        found.append("coin")
    return found


def settle(state: State) -> bool:
    queue = state.queue
    while queue:
        castle, attacker = queue.pop(0)
        choices = options(state, castle, attacker)
        if len(choices) == 2:
            state.current = [castle, attacker]
            state.turn = attacker
            open_decision(state, [attacker])
            return True
        take(state, castle, attacker, choices[0] if choices else None)
    return False


def on_loot_taken(state: State, event: LootTaken) -> None:
    state.waiting = []
    take(state, event.castle, event.seat, event.choice)


def take(state: State, castle: int, attacker: int, choice: LootChoice | None) -> None:
    if choice == "rescue":
        state.hostages[castle].remove(attacker)
        state.rescued[attacker] += 1
        state.supply[attacker] += 1
    elif choice == "coin":
        state.coins[castle] -= 1
        state.stolen[attacker] += 1
    state.supply[attacker] += state.walls[castle][attacker]
    state.walls[castle][attacker] = 0
    state.current = []


def game_over(state: State) -> bool:
    return max(state.stolen) >= COINS_TO_WIN
