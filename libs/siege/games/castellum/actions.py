"""Castellum actions: what a seat asks to do, in the imperative.

Frozen msgspec structs, so the host can test ``action in legal_actions(...)``. Actions without a
card or column argument are shared instances from the tables below.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from siege.engine.protocol import Action
from siege.games.castellum.board import SPACES
from siege.games.castellum.cards import RESOURCES
from siege.games.castellum.rewards import SIDES


class PlaceWorker(Action, frozen=True, tag="cm.place_worker", kw_only=True):
    """A worker on any space but the Vrijthof; ``gain`` are the resources of choice."""

    space: int
    gain: tuple[int, ...] = ()


class BuyCard(Action, frozen=True, tag="cm.buy_card", kw_only=True):
    """A worker on the Vrijthof: buy face-up Line card ``card`` into ``column``."""

    card: int
    column: int


class DiscardAngel(Action, frozen=True, tag="cm.discard_angel", kw_only=True):
    card: int


class PlaceEnemy(Action, frozen=True, tag="cm.place_enemy", kw_only=True):
    card: int
    owner: int
    column: int


class PlaceAngel(Action, frozen=True, tag="cm.place_angel", kw_only=True):
    """Put an angel card below one of your columns for its strength."""

    card: int
    column: int


class UseAngel(Action, frozen=True, tag="cm.use_angel", kw_only=True):
    """Reveal an angel card to use its special effect; the targets are chosen next."""

    card: int


class TargetEnemy(Action, frozen=True, tag="cm.target_enemy", kw_only=True):
    owner: int
    column: int


class TargetTroop(Action, frozen=True, tag="cm.target_troop", kw_only=True):
    owner: int  # -1 for the face-up offer
    card: int


class TargetColumn(Action, frozen=True, tag="cm.target_column", kw_only=True):
    column: int


class TargetResources(Action, frozen=True, tag="cm.target_resources", kw_only=True):
    resources: tuple[int, int]


class CancelEffect(Action, frozen=True, tag="cm.cancel_effect", kw_only=True):
    card: int


class DeclineCancel(Action, frozen=True, tag="cm.decline_cancel", kw_only=True):
    pass


class PassAngels(Action, frozen=True, tag="cm.pass_angels", kw_only=True):
    pass


class OrientReward(Action, frozen=True, tag="cm.orient_reward", kw_only=True):
    side: int


ACTION_TYPES: tuple[type[Action], ...] = (
    PlaceWorker,
    BuyCard,
    DiscardAngel,
    PlaceEnemy,
    PlaceAngel,
    UseAngel,
    TargetEnemy,
    TargetTroop,
    TargetColumn,
    TargetResources,
    CancelEffect,
    DeclineCancel,
    PassAngels,
    OrientReward,
)

PAIRS: tuple[tuple[int, int], ...] = tuple(combinations_with_replacement(RESOURCES, 2))
"""The six unordered pairs of resources (two of choice)."""

PLACE_WORKER: tuple[tuple[PlaceWorker, ...], ...] = tuple(
    tuple(PlaceWorker(space=space.id, gain=gain) for gain in (
        [(r,) for r in RESOURCES] if space.choices == 1
        else PAIRS if space.choices == 2
        else [()]))
    for space in SPACES
)
"""``PLACE_WORKER[space]``: every way to place a worker there (one per choice of resources)."""

TARGET_RESOURCES = tuple(TargetResources(resources=pair) for pair in PAIRS)
DECLINE = DeclineCancel()
PASS = PassAngels()
ORIENT = tuple(OrientReward(side=side) for side in range(SIDES))
