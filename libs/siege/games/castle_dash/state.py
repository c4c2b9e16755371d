"""The Castle Dash state: everything a fold of the events builds, and nothing else.

A mutable msgspec struct, so ``==`` compares whole states and ``msgspec.to_builtins`` prints one.
Per-seat tables are plain lists indexed by seat; "which opponents" sets are bitmasks (bit ``o``
for seat ``o``) because they are tested on every legal-action call.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from siege.engine.protocol import ChanceNeeded
from siege.games.castle_dash.cards import DECK_SIZE
from siege.games.castle_dash.seating import (
    OPPONENTS,
    START_CANNONBALLS,
    START_COINS,
    soldiers_in_play,
)

Phase = Literal["setup", "reveal", "place", "claim", "battle", "loot", "over"]

BattleStep = Literal[
    "cannon_open",  # step B about to ask for cannonball counts
    "cannon_wait",  # waiting for the sealed counts
    "cannon_fire",  # counts known: spend them and roll
    "cannon_roll",  # waiting for the d6s
    "cards",  # step C: ``card_side`` may play battle cards
    "dice",  # step D: about to ask for the d4s
    "dice_roll",  # waiting for the d4s
]


class Battle(msgspec.Struct, kw_only=True):
    """The contested battle being resolved. Index 0 is the active player, 1 the opponent."""

    sides: list[int]
    step: BattleStep = "cannon_open"
    shots: list[int] = msgspec.field(default_factory=lambda: [-1, -1])  # -1: not chosen yet
    knocked: list[int] = msgspec.field(default_factory=lambda: [0, 0])  # hit by cannonballs
    played: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])
    card_side: int = 0  # whose turn it is in step C


class Outcome(msgspec.Struct, kw_only=True):
    """How the last battle of this round with soldiers in it ended, kept for views and tests
    (it follows from the events). It covers one-sided battles settled without dice too."""

    sides: Annotated[list[int], msgspec.Meta(description=(
        "The two seats of the battle: [active battler (whose battle turn it was), its "
        "opponent]."))]
    totals: Annotated[list[int] | None, msgspec.Meta(description=(
        "Battle totals of the deciding roll, in `sides` order: battle die (d4) plus soldiers "
        "still in the battle plus card bonuses. null when no dice were rolled (one side had "
        "no soldiers, or a Truce). Equal totals mean Veteran Captains broke the tie."))] = None
    winner: Annotated[int, msgspec.Meta(description=(
        "Seat number of the winner; -1 for nobody (a Truce, or both sides wiped out)."))] = -1
    placed: Annotated[int, msgspec.Meta(description=(
        "Soldiers the winner moved from the battle onto the loser's wall (0 or more)."))] = 0


class State(msgspec.Struct, kw_only=True):
    players: int
    phase: Phase = "setup"
    decision: int = 0
    waiting: list[int] = msgspec.field(default_factory=list)
    chance: ChanceNeeded | None = None
    round: int = 0
    first: int = -1
    turn: int = -1  # the placer in step 2; the last seat that acted otherwise

    # Armory cards: ids 0..17. ``deck[0]`` is the top card.
    deck: list[int] = msgspec.field(default_factory=list)
    discard: list[int] = msgspec.field(default_factory=list)
    face_up: list[int] = msgspec.field(default_factory=list)
    holder: list[int] = msgspec.field(default_factory=lambda: [-1] * DECK_SIZE)
    claim_order: list[int] = msgspec.field(default_factory=list)
    spent: list[int] = msgspec.field(default_factory=list)  # battle cards used this round

    supply: list[int]  # soldiers in hand, free to place
    cannonballs: list[int]
    coins: list[int]  # each castle's own coins still at home
    stolen: list[int]  # coins each player has stolen
    rescued: list[int]  # captives each player has rescued
    hostages: list[list[int]]  # hostages[holder]: owners of the captives it still holds
    troops: list[list[int]]  # troops[p][o]: p's soldiers in the battle against o
    placed: list[int]  # bitmask: battles p has placed soldiers in this round
    resolved: list[int]  # bitmask: p's battles already resolved this round
    smoke: list[int]  # bitmask: p's battles with no cannonballs (Smoke Screen)
    walls: list[list[int]]  # walls[castle][attacker]

    queue: list[list[int]] = msgspec.field(default_factory=list)  # flags or loots to settle
    current: list[int] = msgspec.field(default_factory=list)  # the flag or loot awaiting a choice
    actives: list[int] = msgspec.field(default_factory=list)  # battle step: seats yet to act
    battle: Battle | None = None
    outcome: Outcome | None = None


def new_state(players: int) -> State:
    """The table after setup, before the deck is shuffled and the first player chosen."""
    opponents = OPPONENTS[players]
    return State(
        players=players,
        supply=[soldiers_in_play(players)] * players,
        cannonballs=[START_CANNONBALLS] * players,
        coins=[START_COINS] * players,
        stolen=[0] * players,
        rescued=[0] * players,
        # Each player gave one soldier to every opponent, so it holds one of each of theirs.
        hostages=[sorted(opponents[seat]) for seat in range(players)],
        troops=[[0] * players for _ in range(players)],
        placed=[0] * players,
        resolved=[0] * players,
        smoke=[0] * players,
        walls=[[0] * players for _ in range(players)],
    )


def owned(state: State, seat: int) -> int:
    """Soldiers a player has in play: those left after setup plus the captives it rescued."""
    return soldiers_in_play(state.players) + state.rescued[seat]
