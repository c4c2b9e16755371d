"""Castellum events: what happened, in the past tense, with every value decided at the time.

Automatic steps (income, dealing enemies, combat, the end of a year, a special effect resolving
once nobody cancels it) are not events: they follow from earlier events, and ``evolve`` redoes
them on every fold.
"""

from __future__ import annotations

from siege.contracts.events import GameEvent


class WorkerPlaced(GameEvent, frozen=True, tag="cm.worker_placed", kw_only=True):
    """A worker on a space other than the Vrijthof; ``gain`` lists resources of choice."""

    seat: int
    space: int
    gain: list[int] = []


class CardBought(GameEvent, frozen=True, tag="cm.card_bought", kw_only=True):
    """A worker on the Vrijthof bought face-up Line card ``card`` into ``column``."""

    seat: int
    card: int
    column: int


class AngelDiscarded(GameEvent, frozen=True, tag="cm.angel_discarded", kw_only=True):
    """Over the hand limit, ``seat`` discarded ``card`` unused (hidden from other seats)."""

    seat: int
    card: int


class EnemyPlaced(GameEvent, frozen=True, tag="cm.enemy_placed", kw_only=True):
    seat: int
    card: int
    owner: int  # whose Line
    column: int


class AngelPlaced(GameEvent, frozen=True, tag="cm.angel_placed", kw_only=True):
    """An angel card put below one of the player's columns for its strength."""

    seat: int
    card: int
    column: int


class AngelEffectChosen(GameEvent, frozen=True, tag="cm.angel_effect_chosen", kw_only=True):
    """``seat`` revealed ``card`` to use its special effect; its targets follow."""

    seat: int
    card: int


class EnemyTargeted(GameEvent, frozen=True, tag="cm.enemy_targeted", kw_only=True):
    seat: int
    owner: int
    column: int


class TroopTargeted(GameEvent, frozen=True, tag="cm.troop_targeted", kw_only=True):
    seat: int
    owner: int  # NOBODY (-1) for the face-up offer
    card: int


class ColumnTargeted(GameEvent, frozen=True, tag="cm.column_targeted", kw_only=True):
    seat: int
    column: int


class ResourcesTargeted(GameEvent, frozen=True, tag="cm.resources_targeted", kw_only=True):
    seat: int
    resources: list[int]


class CancelPlayed(GameEvent, frozen=True, tag="cm.cancel_played", kw_only=True):
    """``seat`` answered the effect on top of the stack with cancel card ``card``."""

    seat: int
    card: int


class CancelDeclined(GameEvent, frozen=True, tag="cm.cancel_declined", kw_only=True):
    seat: int


class AngelsPassed(GameEvent, frozen=True, tag="cm.angels_passed", kw_only=True):
    seat: int


class RewardOriented(GameEvent, frozen=True, tag="cm.reward_oriented", kw_only=True):
    """The chooser turned reward side ``side`` towards itself."""

    seat: int
    side: int


EVENT_TYPES: tuple[type[GameEvent], ...] = (
    WorkerPlaced,
    CardBought,
    AngelDiscarded,
    EnemyPlaced,
    AngelPlaced,
    AngelEffectChosen,
    EnemyTargeted,
    TroopTargeted,
    ColumnTargeted,
    ResourcesTargeted,
    CancelPlayed,
    CancelDeclined,
    AngelsPassed,
    RewardOriented,
)
