"""What a game engine is: pure functions over a state, no I/O and no randomness.

The shape follows OpenSpiel: at any point either a set of seats may act, or the game waits for
chance. A decision point has a number; a command names the decision it answers, and simultaneous
choices share one number, so one seat acting never makes another seat's pending command stale.

Chance is a node: :meth:`Engine.pending` returns a :class:`ChanceNeeded`, the host appends a
``ChanceRequested`` event, the dice service answers with ``DiceRolled`` or ``DeckShuffled``, and
:meth:`Engine.evolve` consumes that answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal, Protocol, TypeVar

import msgspec

from siege.contracts.events import DeckShuffled, DiceRolled, Event, GameEvent, MatchCreated

T = TypeVar("T")


class ChanceNeeded(msgspec.Struct, frozen=True, kw_only=True):
    kind: Literal["dice", "shuffle"]
    count: int
    sides: int = 0
    purpose: str


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """Who the game waits for. ``seats`` is empty when it waits for chance or is over."""

    decision: int
    seats: frozenset[int] = frozenset()
    chance: ChanceNeeded | None = None


class Action(msgspec.Struct, frozen=True, tag_field="t", kw_only=True):
    """Base of every game's actions (a command's payload)."""


class IllegalActionError(ValueError):
    """``apply`` was given an action that is not legal now (the host checks legality first)."""


class ChanceMismatchError(ValueError):
    """A chance outcome that does not answer what the state waits for."""


def check_chance(need: ChanceNeeded | None, answer: Event) -> ChanceNeeded:
    """The one check every engine makes before it folds a chance answer: the answer must be of
    the kind asked for, with the count asked for, every die within 1..sides and every shuffle a
    permutation. Raises :class:`ChanceMismatchError` (the caller has changed nothing yet);
    returns the request it answers."""
    if need is None:
        raise ChanceMismatchError(f"a chance answer while no chance is pending: {answer!r}")
    if isinstance(answer, DiceRolled):
        values = answer.values
        if need.kind != "dice" or len(values) != need.count:
            raise ChanceMismatchError(f"{len(values)} dice answer {need!r}")
        if not all(1 <= v <= need.sides for v in values):
            raise ChanceMismatchError(f"a roll outside 1-{need.sides}: {values!r}")
    elif isinstance(answer, DeckShuffled):
        order = answer.order
        if need.kind != "shuffle" or len(order) != need.count:
            raise ChanceMismatchError(f"a shuffle of {len(order)} answers {need!r}")
        if sorted(order) != list(range(len(order))):
            raise ChanceMismatchError(f"a shuffle answer that is not a permutation: {order!r}")
    else:
        raise ChanceMismatchError(f"not a chance answer: {answer!r}")
    return need


class ChanceHolder(Protocol):
    chance: ChanceNeeded | None


def take_chance(state: ChanceHolder, answer: Event) -> str:
    """Closes the state's chance node once ``answer`` fits it (:func:`check_chance`, before any
    change) and returns the request's purpose: the fold every engine does first."""
    purpose = check_chance(state.chance, answer).purpose
    state.chance = None
    return purpose


S = TypeVar("S")


class Engine(Protocol[S]):
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    event_types: ClassVar[tuple[type[GameEvent], ...]]
    action_types: ClassVar[tuple[type[Action], ...]]

    def initial_state(self, created: MatchCreated) -> S:
        """The state right after ``MatchCreated``, before any chance or decision."""

    def pending(self, state: S) -> Pending:
        """Who may act now: seats, chance, or nobody once terminal."""

    def legal_actions(self, state: S, seat: int) -> list[Any]:
        """Every action ``seat`` may take now (empty when it may not act)."""

    def apply(self, state: S, seat: int, action: Any) -> list[GameEvent]:
        """The events that record a legal ``action``; does not change ``state``."""

    def evolve(self, state: S, event: Event) -> S:
        """Folds one event (game events and chance outcomes); may mutate and return ``state``."""

    def is_terminal(self, state: S) -> bool: ...

    def ranks(self, state: S) -> list[int]:
        """Full ranking with ties: ``ranks[seat]`` is 1 for winners, equal values tie."""

    def view(self, state: S, seat: int) -> msgspec.Struct:
        """What ``seat`` may know. States differing only in another seat's secrets give equal
        views (byte-identical once encoded). ``seat`` :data:`SPECTATOR` is someone at no seat:
        what every seat may know, nobody's secrets (the view of ``siege watch`` and
        ``siege replay --text``)."""


SPECTATOR = -1
"""The seat of a spectator's view (see :meth:`Engine.view`)."""


def own(per_seat: Sequence[T], seat: int, nobody: T) -> T:
    """``per_seat[seat]``, or ``nobody`` for the spectator: a view must never index a per-seat
    list with :data:`SPECTATOR`, which Python reads as the last seat."""
    return per_seat[seat] if 0 <= seat < len(per_seat) else nobody


def ranks_from_keys(keys: list[Any]) -> list[int]:
    """Competition ranking (1, 1, 3, ...) from per-seat sort keys, higher key = better."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]
