"""The Castellum state: everything a fold of the events builds, and nothing else.

A mutable msgspec struct, so ``==`` compares whole states and ``msgspec.to_builtins`` prints one.
Per-seat tables are lists indexed by seat. Every Line has five columns from the start; only the
first ``year + 2`` are available (see :func:`columns_open`).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from siege.engine.protocol import ChanceNeeded
from siege.games.castellum.angels import Effect
from siege.games.castellum.board import SPACES, START_RESOURCES, workers_in
from siege.games.castellum.cards import NOBODY, START_FORTS
from siege.games.castellum.enemies import ENEMY_CARDS, YEARS

MAX_COLUMNS = 5

Phase = Literal["setup", "year_start", "building", "siege", "angels", "reward", "over"]

Asking = Literal[
    "",  # nobody (chance, or over)
    "discard",  # a seat over the Angel hand limit chooses a card to discard
    "respond",  # a seat may cancel the special effect on top of the stack
    "target",  # the seat playing a special effect chooses its next target
    "worker",  # a Building turn
    "enemy",  # a Siege turn
    "angel",  # an Angel-phase turn
    "reward",  # the seat with most defeats orients the reward card
]


class Column(msgspec.Struct, kw_only=True):
    fort: int = NOBODY  # a Line card id
    troops: list[int] = msgspec.field(default_factory=list)  # at most two Line card ids
    enemy: int = NOBODY  # an enemy card id
    angels: list[int] = msgspec.field(default_factory=list)  # angel cards placed for strength


class Draft(msgspec.Struct, kw_only=True):
    """A special effect whose targets its player is still choosing (flat ints, see effects)."""

    seat: int
    card: int
    effect: Effect
    targets: list[int] = msgspec.field(default_factory=list)


class Play(msgspec.Struct, kw_only=True):
    """A special effect played and waiting to resolve while others may cancel it."""

    seat: int
    card: int
    effect: Effect
    targets: list[int]
    responders: list[int]  # seats still to be asked, clockwise from the player


class State(msgspec.Struct, kw_only=True):
    players: int
    phase: Phase = "setup"
    asking: Asking = ""
    decision: int = 0
    waiting: list[int] = msgspec.field(default_factory=list)
    chance: ChanceNeeded | None = None
    year: int = 0  # index into YEARS
    first: int = NOBODY
    turn: int = NOBODY  # whose Building/Siege/Angel turn it is (or is next)

    # Decks: index 0 is the top card. ``offer`` is the face-up Line cards.
    angel_deck: list[int] = msgspec.field(default_factory=list)
    angel_discard: list[int] = msgspec.field(default_factory=list)
    fort_deck: list[int] = msgspec.field(default_factory=list)
    troop_deck: list[int] = msgspec.field(default_factory=list)
    enemy_decks: list[list[int]] = msgspec.field(default_factory=lambda: [[] for _ in YEARS])
    offer: list[int] = msgspec.field(default_factory=list)

    resources: list[list[int]]  # [wood, stone, gold] per seat
    workers: list[int]  # workers still to place this year
    spaces: list[list[int]]  # seats with a worker on each action space, in order
    hands: list[list[int]]  # secret: angel cards
    enemy_hands: list[list[int]]  # secret: enemy cards dealt and not yet placed
    lines: list[list[Column]]
    defeated: list[list[int]]  # each seat's collection of defeated enemy cards
    year_defeats: list[int]  # enemy cards each seat defeated this year (destroyed included)
    enemy_boost: list[int]  # per enemy card: strength added by Angel effects this year
    dinghuis: list[int]  # per seat: +strength on each column this year from the Dinghuis
    reward_strength: list[int]  # per seat: +strength on each column this year (last reward)
    reward_strength_next: list[int]
    pair_type: list[int]  # per seat: enemy type of the 1794 pair bonus, NOBODY if none
    passed: list[bool]  # Angel phase: passed since the last card was played

    discards: list[int] = msgspec.field(default_factory=list)  # seats over the hand limit
    draft: Draft | None = None
    stack: list[Play] = msgspec.field(default_factory=list)
    reward_chooser: int = NOBODY  # NOBODY while the reward is not (or not yet) earned
    reward_side: int = NOBODY  # the side the chooser took, once chosen
    results: list[list[int]] = msgspec.field(default_factory=list)  # last combat, see combat.py


def new_state(players: int) -> State:
    """The table after setup steps 2-3, before the first player and the decks are chosen."""
    lines = []
    for seat in range(players):
        line = [Column() for _ in range(MAX_COLUMNS)]
        line[0].fort = START_FORTS[seat]  # each Line starts with its fortification in column 1
        lines.append(line)
    return State(
        players=players,
        resources=[list(START_RESOURCES) for _ in range(players)],
        workers=[workers_in(0)] * players,
        spaces=[[] for _ in SPACES],
        hands=[[] for _ in range(players)],
        enemy_hands=[[] for _ in range(players)],
        lines=lines,
        defeated=[[] for _ in range(players)],
        year_defeats=[0] * players,
        enemy_boost=[0] * len(ENEMY_CARDS),
        dinghuis=[0] * players,
        reward_strength=[0] * players,
        reward_strength_next=[0] * players,
        pair_type=[NOBODY] * players,
        passed=[False] * players,
    )


def columns_open(state: State) -> int:
    """Available columns (and workers) this year: 2, 3, 4, 5."""
    return workers_in(state.year)


def clockwise(players: int, start: int) -> list[int]:
    """Every seat once, clockwise from ``start``."""
    return [(start + k) % players for k in range(players)]


def others(players: int, seat: int) -> list[int]:
    """The other seats, clockwise from ``seat``'s left."""
    return [(seat + k) % players for k in range(1, players)]
