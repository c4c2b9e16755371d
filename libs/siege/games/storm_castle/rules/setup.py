"""Set-up: turn-order tokens, armies and battlefields, the shuffles, the deal, and the first
defenders (one drawn and placed by each player in token order, or the introductory set-up).

A shuffle answer's ``order[k]`` is the index, in ascending id order of the cards shuffled, of
the card that becomes the k-th from the top (the same for every shuffle in this game).
"""

from __future__ import annotations

from siege.games.storm_castle.armies import (
    DEFENDER_TOKENS,
    INTRO_TOKENS,
    MAGIC_ARMIES,
    PEASANT,
    START_GOLD,
    START_MAGIC,
)
from siege.games.storm_castle.board import KEEP, LOCATIONS, NOBODY, TOWERS
from siege.games.storm_castle.decks import (
    BOSS_DECK_SIZE,
    EVENT_DECK_SIZE,
    MAGIC_DECK_SIZE,
    POWER_DECK_SIZE,
    START_HAND,
)
from siege.games.storm_castle.rules import defenders, policy
from siege.games.storm_castle.rules.nodes import open_decision, shuffle
from siege.games.storm_castle.state import DEFENDER_SIDE, State, Unit


def setup_order(state: State) -> list[int]:
    return sorted(range(state.players), key=lambda s: state.setup_tokens[s])


def pool_tokens(state: State) -> list[int]:
    used = set(INTRO_TOKENS) if state.intro else set()
    return [t for t in range(len(DEFENDER_TOKENS)) if t not in used]


def step(state: State) -> bool:
    """One set-up step; True when a decision or chance is open."""
    n = state.players
    if not state.setup_tokens:
        if n == 1:
            state.setup_tokens = [1]
        else:
            shuffle(state, n, "setup_tokens")
            return True
    order = setup_order(state)
    for seat in order:
        if state.armies[seat] == NOBODY:
            open_decision(state, [seat], "army")
            return True
    for seat in order:
        if state.battlefields[seat] == NOBODY:
            open_decision(state, [seat], "battlefield")
            return True
    for seat in range(n):
        if not state.shuffled[seat]:
            shuffle(state, POWER_DECK_SIZE, f"power_{seat}")
            return True
    if not state.pool_shuffled:
        shuffle(state, len(pool_tokens(state)), "defender_pool")
        return True
    if not state.events_shuffled:
        shuffle(state, EVENT_DECK_SIZE, "events")
        return True
    if not state.boss_shuffled:
        shuffle(state, BOSS_DECK_SIZE, "boss")
        return True
    if not state.magic_deck:
        shuffle(state, MAGIC_DECK_SIZE, "magic")
        return True
    if not state.dealt:
        _deal(state)
    if not state.intro and state.initial_placed < state.players and state.defender_pool:
        drawer = order[state.initial_placed]
        state.to_place = [state.defender_pool[0]]
        if n == 1:  # nobody to hinder: the rules place it
            space = policy.place(state, defenders.placement_spaces(state, setup=True))
            on_placed(state, state.to_place[0], space, state.next_uid)
            return False
        open_decision(state, [drawer], "place")
        return True
    state.phase = "collect"
    state.turn = 1
    return False


def _deal(state: State) -> None:
    state.dealt = True
    for seat in range(state.players):
        state.hands[seat] = state.decks[seat][:START_HAND]
        del state.decks[seat][:START_HAND]
        state.gold[seat] = START_GOLD
        state.magic[seat] = START_MAGIC if state.armies[seat] in MAGIC_ARMIES else 0
    first = setup_order(state)[0]
    state.ref_holder = (first + 1) % state.players if state.players > 1 else NOBODY
    if state.intro:
        for tower, token in zip(TOWERS, INTRO_TOKENS, strict=True):
            defenders.place(state, token, tower, state.next_uid)
    else:
        for location in LOCATIONS:
            uid = state.next_uid
            state.units[uid] = Unit(uid=uid, kind=PEASANT, owner=DEFENDER_SIDE, space=location)
            state.next_uid += 1


def on_placed(state: State, token: int, space: int, uid: int, swapped: int = -1) -> None:
    """A defender token drawn at set-up or as a reinforcement goes onto the board (with
    ``swapped``: into the keep, the guard there moving out to ``space``)."""
    state.defender_pool.remove(token)
    state.to_place = []
    if swapped >= 0:
        state.units[swapped].space = space
        space = KEEP
    defenders.place(state, token, space, uid)
    if state.phase == "setup":
        state.initial_placed += 1
    else:
        state.place_left -= 1


def is_setup_shuffle(purpose: str) -> bool:
    return (purpose in ("setup_tokens", "defender_pool", "events", "boss", "magic")
            or purpose.startswith("power_"))


def on_shuffled(state: State, purpose: str, order: list[int]) -> bool:
    """Set-up shuffles; False when ``purpose`` is not one of them."""
    if purpose == "setup_tokens":
        state.setup_tokens = [order[s] + 1 for s in range(state.players)]
    elif purpose.startswith("power_"):
        seat = int(purpose.removeprefix("power_"))
        state.decks[seat] = list(order)
        state.shuffled[seat] = True
    elif purpose == "defender_pool":
        tokens = pool_tokens(state)
        state.defender_pool = [tokens[i] for i in order]
        state.pool_shuffled = True
    elif purpose == "events":
        state.event_deck = list(order)
        state.events_shuffled = True
    elif purpose == "boss":
        state.boss_deck = list(order)
        state.boss_shuffled = True
    elif purpose == "magic":
        state.magic_deck = list(order)
    else:
        return False
    return True
