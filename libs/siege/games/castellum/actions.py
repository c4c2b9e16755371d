"""Castellum actions: what a seat asks to do, in the imperative.

Frozen msgspec structs, so the host can test ``action in legal_actions(...)``. Actions without a
card or column argument are shared instances from the tables below.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Annotated

import msgspec

from siege.engine.protocol import Action
from siege.games.castellum.board import SPACES
from siege.games.castellum.cards import RESOURCES
from siege.games.castellum.rewards import SIDES


class PlaceWorker(Action, frozen=True, tag="cm.place_worker", kw_only=True):
    """Place a worker on any action space but the Vrijthof and take what it gives; ``gain``
    names the resources of choice where the space offers a choice."""

    space: Annotated[int, msgspec.Meta(description=(
        "Action space: index into `spaces` of the reference data. A single-worker space that "
        "already has a worker this year is not offered; the Vrijthof is `cm.buy_card`."))]
    gain: Annotated[tuple[int, ...], msgspec.Meta(description=(
        "Resources of choice, as indexes into `resources` of the reference data (0 wood, 1 "
        "stone, 2 gold): exactly one for the Oude Brug, two in ascending order for the Markt "
        "(the same one may repeat), empty for every other space."))] = ()


class BuyCard(Action, frozen=True, tag="cm.buy_card", kw_only=True):
    """Place a worker on the Vrijthof: buy face-up Line card ``card``, paying its cost to the
    bank, into ``column`` of your Line."""

    card: Annotated[int, msgspec.Meta(description=(
        "Line card id (index into `line_cards` of the reference data) from the face-up `offer` "
        "of the view; you must be able to pay its `cost`."))]
    column: Annotated[int, msgspec.Meta(description=(
        "Column of your own Line (0-based, below the view's `columns_open`) with room for the "
        "card: no fortification yet for a fortification, fewer than two troops for a troop."))]


class DiscardAngel(Action, frozen=True, tag="cm.discard_angel", kw_only=True):
    """Discard one angel card from your hand, unused, while you hold more than the hand limit
    (`constants.hand_limit` of the reference data)."""

    card: Annotated[int, msgspec.Meta(description=(
        "Angel card id from your hand (index into `angel_cards` of the reference data); any "
        "card may go, the one just received included."))]


class PlaceEnemy(Action, frozen=True, tag="cm.place_enemy", kw_only=True):
    """Put one of the enemy cards dealt to you into a free available column of any Line, your
    own included."""

    card: Annotated[int, msgspec.Meta(description=(
        "Enemy card id from the view's `enemy_hand` (index into `enemy_cards` of the reference "
        "data)."))]
    owner: Annotated[int, msgspec.Meta(description=(
        "Seat whose Line gets the card; that seat must fight it in combat."))]
    column: Annotated[int, msgspec.Meta(description=(
        "Column of the owner's Line (0-based, below `columns_open`) that holds no enemy card "
        "yet."))]


class PlaceAngel(Action, frozen=True, tag="cm.place_angel", kw_only=True):
    """Put an angel card below one of your columns for its strength, which counts there until
    the end of the year (Angel phase only)."""

    card: Annotated[int, msgspec.Meta(description=(
        "Angel card id from your hand (index into `angel_cards` of the reference data)."))]
    column: Annotated[int, msgspec.Meta(description=(
        "Column of your own Line (0-based, below `columns_open`), manned or not."))]


class UseAngel(Action, frozen=True, tag="cm.use_angel", kw_only=True):
    """Reveal an angel card to use its special effect; the targets are chosen next, one
    decision at a time. Offered in the Angel phase for every effect but cancel that can be
    completed, and on your Building turns for the resources effect (without spending the
    turn)."""

    card: Annotated[int, msgspec.Meta(description=(
        "Angel card id from your hand (index into `angel_cards` of the reference data); its "
        "`effect` is the one played."))]


class TargetEnemy(Action, frozen=True, tag="cm.target_enemy", kw_only=True):
    """Choose an enemy card as the next target of the boost, switch or destroy effect you are
    playing (a switch asks twice: the second must be a different card)."""

    owner: Annotated[int, msgspec.Meta(description=(
        "Seat whose Line holds the enemy card; any seat for boost and switch, yourself for "
        "destroy."))]
    column: Annotated[int, msgspec.Meta(description=(
        "Column (0-based) of that Line holding the enemy card."))]


class TargetTroop(Action, frozen=True, tag="cm.target_troop", kw_only=True):
    """Choose the troop card your take effect takes; you pay its cost to its owner (to the bank
    for a card of the face-up offer)."""

    owner: Annotated[int, msgspec.Meta(description=(
        "Seat whose Line holds the troop (never yourself), or -1 for an unbought troop of the "
        "face-up offer."))]
    card: Annotated[int, msgspec.Meta(description=(
        "Line card id of the troop (index into `line_cards` of the reference data); you must "
        "be able to pay its `cost`."))]


class TargetColumn(Action, frozen=True, tag="cm.target_column", kw_only=True):
    """Choose the column of your Line that receives the troop your take effect takes."""

    column: Annotated[int, msgspec.Meta(description=(
        "Column of your own Line (0-based, below `columns_open`) holding fewer than two "
        "troops."))]


class TargetResources(Action, frozen=True, tag="cm.target_resources", kw_only=True):
    """Choose the two resources your resources effect gives."""

    resources: Annotated[tuple[int, int], msgspec.Meta(description=(
        "Two indexes into `resources` of the reference data (0 wood, 1 stone, 2 gold) in "
        "ascending order, the same one possibly twice."))]


class CancelEffect(Action, frozen=True, tag="cm.cancel_effect", kw_only=True):
    """Answer the special effect on top of the stack with a cancel card from your hand (only
    when you are asked in its response window)."""

    card: Annotated[int, msgspec.Meta(description=(
        "Angel card id from your hand whose `effect` is cancel (index into `angel_cards` of the "
        "reference data)."))]


class DeclineCancel(Action, frozen=True, tag="cm.decline_cancel", kw_only=True):
    """Let the special effect on top of the stack stand: do not cancel it. Every seat holding
    angel cards is asked, whatever it holds."""


class PassAngels(Action, frozen=True, tag="cm.pass_angels", kw_only=True):
    """Pass your Angel-phase turn. You are asked again if someone plays a card on a turn
    before every seat holding cards has passed."""


class OrientReward(Action, frozen=True, tag="cm.orient_reward", kw_only=True):
    """Turn one side of this year's reward card towards you; the other seats receive the sides
    that their places at the table give them."""

    side: Annotated[int, msgspec.Meta(description=(
        "Side you take, 0-3: index into `sides` of this year's entry in `reward_cards` of the "
        "reference data; the others' sides follow from `reward_seat_offsets`."))]


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
