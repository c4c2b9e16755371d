"""The game as a machine: runs every automatic step until a seat or chance is needed.

Event handlers only record what their event says and close the decision it answered;
:func:`advance` then moves the game on. Before any phase step it settles what interrupts play:
first a seat over the angel hand limit, then a special effect in play (its targets and its
response window).

Setup: one die with a side per player picks the first player (face f: seat f - 1), then the
seven decks are shuffled in a fixed order (angels, fortifications, troops, the four enemy years).
A shuffle answer's ``order[k]`` is the index, in ascending id order of the cards shuffled, of
the card that becomes the k-th from the top.
"""

from __future__ import annotations

from siege.games.castellum.angels import ANGEL_DECK
from siege.games.castellum.board import SPACES, workers_in
from siege.games.castellum.cards import (
    FORT_DECK,
    FORTS_PER_YEAR,
    NOBODY,
    TROOP_DECK,
    TROOPS_PER_YEAR,
)
from siege.games.castellum.enemies import ENEMY_CARDS, ENEMY_DECKS, YEARS
from siege.games.castellum.rules import angels, building, combat, hand, responses, reward, siege
from siege.games.castellum.rules.nodes import chance_need, open_chance
from siege.games.castellum.state import State

FIRST_PLAYER_PURPOSE = "first_player"
ANGEL_RESHUFFLE_PURPOSE = "angel_reshuffle"
SETUP_SHUFFLES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("angel_shuffle", ANGEL_DECK),
    ("fort_shuffle", FORT_DECK),
    ("troop_shuffle", TROOP_DECK),
    *((f"enemy_shuffle_{year}", ENEMY_DECKS[k]) for k, year in enumerate(YEARS)),
)
SHUFFLED_CARDS = dict(SETUP_SHUFFLES)
LAST_YEAR = len(YEARS) - 1


def advance(state: State) -> None:
    while not state.waiting and state.chance is None:
        if state.discards and hand.settle(state):
            return
        if (state.stack or state.draft is not None) and responses.settle(state):
            return
        phase = state.phase
        if phase == "building":
            if building.settle(state):
                return
            siege.begin(state)
        elif phase == "siege":
            if siege.settle(state):
                return
            angels.begin(state)
        elif phase == "angels":
            if angels.settle(state):
                return
            combat.fight(state)
            reward.begin(state)
        elif phase == "reward":
            if reward.settle(state):
                return
            end_year(state)
        elif phase == "year_start":
            _start_year(state)
        elif phase == "setup":
            _setup(state)
        else:
            return


def _deck(state: State, purpose: str) -> list[int]:
    if purpose == "angel_shuffle":
        return state.angel_deck
    if purpose == "fort_shuffle":
        return state.fort_deck
    if purpose == "troop_shuffle":
        return state.troop_deck
    return state.enemy_decks[YEARS.index(int(purpose.rsplit("_", 1)[1]))]


def _setup(state: State) -> None:
    if state.first == NOBODY:
        open_chance(state, chance_need("dice", 1, state.players, FIRST_PLAYER_PURPOSE))
        return
    for purpose, cards in SETUP_SHUFFLES:
        if not _deck(state, purpose):
            open_chance(state, chance_need("shuffle", len(cards), 0, purpose))
            return
    _deal_offer(state)
    state.phase = "year_start"


def _deal_offer(state: State) -> None:
    forts, troops = state.fort_deck, state.troop_deck
    state.offer = forts[:FORTS_PER_YEAR] + troops[:TROOPS_PER_YEAR]
    del forts[:FORTS_PER_YEAR]
    del troops[:TROOPS_PER_YEAR]


def _start_year(state: State) -> None:
    # Angel cards used or discarded last year are shuffled back under the deck first.
    if state.angel_discard:
        open_chance(state, chance_need("shuffle", len(state.angel_discard), 0,
                                       ANGEL_RESHUFFLE_PURPOSE))
        return
    building.income(state)
    building.begin(state)


def on_first_player(state: State, values: list[int]) -> None:
    state.first = values[0] - 1


def on_shuffled(state: State, purpose: str, order: list[int]) -> None:
    if purpose == ANGEL_RESHUFFLE_PURPOSE:
        cards = sorted(state.angel_discard)
        state.angel_deck.extend(cards[i] for i in order)
        state.angel_discard = []
        return
    cards_in_order = SHUFFLED_CARDS[purpose]
    _deck(state, purpose).extend(cards_in_order[i] for i in order)


def end_year(state: State) -> None:
    """Clears the year: enemies left go to the box, angel cards below columns to the discard
    pile, help and boosts end; then the next year is set up or the game is over."""
    n = state.players
    for line in state.lines:
        for column in line:
            column.enemy = NOBODY
            state.angel_discard.extend(column.angels)
            column.angels = []
    state.enemy_boost = [0] * len(ENEMY_CARDS)
    state.dinghuis = [0] * n
    state.reward_strength = state.reward_strength_next
    state.reward_strength_next = [0] * n
    state.year_defeats = [0] * n
    state.reward_chooser = NOBODY
    state.reward_side = NOBODY
    state.passed = [False] * n
    if state.year == LAST_YEAR:
        state.phase = "over"
        state.turn = NOBODY
        return
    state.year += 1
    state.workers = [workers_in(state.year)] * n
    state.spaces = [[] for _ in SPACES]
    _deal_offer(state)  # the unbought offer goes back to the box
    state.first = (state.first + 1) % n
    state.phase = "year_start"
