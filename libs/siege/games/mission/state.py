"""The Sally Forth state: everything a fold of the events builds, and nothing else.

A mutable msgspec struct, so ``==`` compares whole states and ``msgspec.to_builtins`` prints one.
Per-seat tables are lists indexed by seat; per-mission tables by slot (0 or 1). Card numbers are
positions in :data:`siege.games.mission.cards.DECKLIST`; whose card it is follows from the table
it sits in.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from siege.engine.protocol import ChanceNeeded
from siege.games.mission.tuning import NOBODY, PLAYERS, SLOTS

Phase = Literal[
    "setup",  # shuffles and the first-player roll
    "start",  # a turn is about to begin
    "assault",  # the active seat picks a mission (or may skip, when that is allowed)
    "combat",  # close combat at the assaulted mission
    "stash",  # the active seat stashes one unswerved maneuver
    "deploy",  # the active seat plays up to two cards or regroups, or stops
    "draw",  # the active seat draws (reshuffling its discard pile when its deck is empty)
    "over",
]
EndReason = Literal["", "points", "missions", "turns"]


def _per_seat() -> list[list[int]]:
    return [[] for _ in range(PLAYERS)]


def _per_slot_and_seat() -> list[list[list[int]]]:
    return [[[] for _ in range(PLAYERS)] for _ in range(SLOTS)]


class Combat(msgspec.Struct, kw_only=True):
    """The close combat under way. Side 0 is the assaulting seat, side 1 the defender."""

    slot: int
    sides: list[int]
    swerved: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])


class CombatResult(msgspec.Struct, kw_only=True):
    """How the last close combat ended, kept for views and tests (it follows from the events).
    It lasts until the next assault or the start of the next turn."""

    slot: Annotated[int, msgspec.Meta(description=(
        "Mission slot (0 or 1) where the combat was fought."))]
    sides: Annotated[list[int], msgspec.Meta(description=(
        "The two seats: [attacker (the assaulting seat), defender]."))]
    totals: Annotated[list[int], msgspec.Meta(description=(
        "Final totals in `sides` order: the strength of the side's units at that mission "
        "plus the speed it swerved in this combat."))]
    winner: Annotated[int, msgspec.Meta(description=(
        "Seat number of the winner, the side ahead (the defender on equal totals); it scored "
        "`constants.combat_points` of the reference data."))]
    destroyed: Annotated[list[int], msgspec.Meta(description=(
        "Card numbers (indexes into `cards` of the reference data) of the loser's units at "
        "that mission, destroyed and now in its discard pile; in the order they were "
        "deployed."))]


class State(msgspec.Struct, kw_only=True):
    phase: Phase = "setup"
    decision: int = 0
    waiting: list[int] = msgspec.field(default_factory=list)
    chance: ChanceNeeded | None = None
    turn: int = 0  # turns begun in the whole game
    first: int = NOBODY
    active: int = NOBODY
    ended: EndReason = ""

    # Missions: ``mission_deck[0]`` is the top; ``missions[slot]`` is the card in play there.
    mission_deck: list[int] = msgspec.field(default_factory=list)
    missions: list[int] = msgspec.field(default_factory=lambda: [NOBODY] * SLOTS)
    completed: list[list[int]] = msgspec.field(default_factory=_per_seat)

    # Each seat's own cards: ``decks[s][0]`` is its top card. Hands and deck order are secret.
    decks: list[list[int]] = msgspec.field(default_factory=_per_seat)
    hands: list[list[int]] = msgspec.field(default_factory=_per_seat)
    discards: list[list[int]] = msgspec.field(default_factory=_per_seat)
    maneuvers: list[list[int]] = msgspec.field(default_factory=_per_seat)  # in play, not stashed
    swerved: list[list[int]] = msgspec.field(default_factory=_per_seat)  # a subset of maneuvers
    units: list[list[list[int]]] = msgspec.field(default_factory=_per_slot_and_seat)  # [seat][slot]
    stashes: list[list[list[int]]] = msgspec.field(
        default_factory=_per_slot_and_seat)  # [slot][seat]
    points: list[int] = msgspec.field(default_factory=lambda: [0] * PLAYERS)

    target: int = NOBODY  # the slot being assaulted this turn
    deploys_left: int = 0  # deploy actions the active seat may still take this turn
    combat: Combat | None = None
    result: CombatResult | None = None


def unswerved(state: State, seat: int) -> list[int]:
    """The seat's unswerved maneuvers in play, in the order they were deployed."""
    bent = state.swerved[seat]
    return [card for card in state.maneuvers[seat] if card not in bent]


def opponent(seat: int) -> int:
    return 1 - seat
