"""Castellum events: what happened, in the past tense, with every value decided at the time.

Automatic steps (income, dealing enemies, combat, the end of a year, a special effect resolving
once nobody cancels it) are not events: they follow from earlier events, and ``evolve`` redoes
them on every fold.

Indexes in the field descriptions point into the game's reference data
(``docs/contract/games/castellum.json``, built by ``reference.py``): seats are numbered 0 to
players - 1 clockwise, and a column is a 0-based index into a Line's five columns.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.contracts.events import GameEvent


class WorkerPlaced(GameEvent, frozen=True, tag="cm.worker_placed", kw_only=True):
    """A seat put a worker on an action space other than the Vrijthof and took what the space
    gives; ``gain`` lists the resources it chose where the space lets it choose."""

    seat: Annotated[int, msgspec.Meta(description="Seat that placed the worker.")]
    space: Annotated[int, msgspec.Meta(description=(
        "Action space: index into `spaces` of the reference data. Never the Vrijthof: a worker "
        "sent there shows as `cm.card_bought`."))]
    gain: Annotated[list[int], msgspec.Meta(description=(
        "Resources of choice taken, as indexes into `resources` of the reference data (0 wood, "
        "1 stone, 2 gold): one for the Oude Brug, two in ascending order for the Markt (the "
        "same one may appear twice), empty for every other space."))] = []


class CardBought(GameEvent, frozen=True, tag="cm.card_bought", kw_only=True):
    """A seat's worker on the Vrijthof bought the face-up Line card ``card``, paying its cost to
    the bank, and put it into ``column`` of the buyer's own Line."""

    seat: Annotated[int, msgspec.Meta(description="Seat that bought the card.")]
    card: Annotated[int, msgspec.Meta(description=(
        "Line card id (index into `line_cards` of the reference data) taken from the face-up "
        "offer; the buyer paid its `cost`."))]
    column: Annotated[int, msgspec.Meta(description=(
        "Column of the buyer's own Line (0-based, one of this year's available columns) that "
        "received the card: as its fortification, or as one of its at most two troops."))]


class AngelDiscarded(GameEvent, frozen=True, tag="cm.angel_discarded", kw_only=True):
    """Over the angel hand limit, a seat discarded one angel card unused. The card went face
    down to the discard pile: other seats' views never show which card it was."""

    seat: Annotated[int, msgspec.Meta(description="Seat that was over the hand limit.")]
    card: Annotated[int, msgspec.Meta(description=(
        "Angel card id (index into `angel_cards` of the reference data) discarded; other seats' "
        "views only show the discard pile grow by one."))]


class EnemyPlaced(GameEvent, frozen=True, tag="cm.enemy_placed", kw_only=True):
    """During the Siege a seat put one of the enemy cards dealt to it into a free available
    column of a Line, its own or another seat's."""

    seat: Annotated[int, msgspec.Meta(description=(
        "Seat that placed the card (it came from this seat's dealt enemy cards)."))]
    card: Annotated[int, msgspec.Meta(description=(
        "Enemy card id: index into `enemy_cards` of the reference data."))]
    owner: Annotated[int, msgspec.Meta(description=(
        "Seat whose Line received the enemy card (the Line's owner defends against it); may be "
        "the placing seat itself."))]
    column: Annotated[int, msgspec.Meta(description=(
        "Column of the owner's Line (0-based, an available column that held no enemy card) "
        "the card went into."))]


class AngelPlaced(GameEvent, frozen=True, tag="cm.angel_placed", kw_only=True):
    """A seat put an angel card below one of its own columns; the card's strength counts for
    that column until the end of the year (it cannot be cancelled)."""

    seat: Annotated[int, msgspec.Meta(description="Seat that played the angel card.")]
    card: Annotated[int, msgspec.Meta(description=(
        "Angel card id (index into `angel_cards` of the reference data); its `strength` is "
        "added to the column."))]
    column: Annotated[int, msgspec.Meta(description=(
        "Column of the seat's own Line (0-based, one of this year's available columns) the "
        "card went below."))]


class AngelEffectChosen(GameEvent, frozen=True, tag="cm.angel_effect_chosen", kw_only=True):
    """A seat revealed an angel card to use its special effect; the effect's targets follow as
    ``cm.*_targeted`` events, then the other seats may cancel it."""

    seat: Annotated[int, msgspec.Meta(description="Seat playing the special effect.")]
    card: Annotated[int, msgspec.Meta(description=(
        "Angel card id (index into `angel_cards` of the reference data); its `effect` is the "
        "one being played (never cancel, which only answers another effect)."))]


class EnemyTargeted(GameEvent, frozen=True, tag="cm.enemy_targeted", kw_only=True):
    """The seat playing a boost, switch or destroy effect chose an enemy card as its next
    target (a switch takes two of these)."""

    seat: Annotated[int, msgspec.Meta(description="Seat playing the special effect.")]
    owner: Annotated[int, msgspec.Meta(description=(
        "Seat whose Line holds the targeted enemy card; for destroy always the player itself."))]
    column: Annotated[int, msgspec.Meta(description=(
        "Column (0-based) of that Line holding the targeted enemy card."))]


class TroopTargeted(GameEvent, frozen=True, tag="cm.troop_targeted", kw_only=True):
    """The seat playing a take effect chose the troop card it takes (and will pay for)."""

    seat: Annotated[int, msgspec.Meta(description="Seat playing the take effect.")]
    owner: Annotated[int, msgspec.Meta(description=(
        "Seat whose Line holds the troop, who is paid its cost; -1 for an unbought troop of "
        "the face-up offer, paid to the bank."))]
    card: Annotated[int, msgspec.Meta(description=(
        "Line card id of the troop: index into `line_cards` of the reference data."))]


class ColumnTargeted(GameEvent, frozen=True, tag="cm.column_targeted", kw_only=True):
    """The seat playing a take effect chose the column of its own Line that receives the taken
    troop (its last target)."""

    seat: Annotated[int, msgspec.Meta(description="Seat playing the take effect.")]
    column: Annotated[int, msgspec.Meta(description=(
        "Column of the player's own Line (0-based, an available column with fewer than two "
        "troops)."))]


class ResourcesTargeted(GameEvent, frozen=True, tag="cm.resources_targeted", kw_only=True):
    """The seat playing a resources effect chose the two resources it gets."""

    seat: Annotated[int, msgspec.Meta(description="Seat playing the resources effect.")]
    resources: Annotated[list[int], msgspec.Meta(description=(
        "Two indexes into `resources` of the reference data (0 wood, 1 stone, 2 gold), in "
        "ascending order, the same one possibly twice; one of each is gained when the effect "
        "resolves."))]


class CancelPlayed(GameEvent, frozen=True, tag="cm.cancel_played", kw_only=True):
    """A seat asked in a response window answered the special effect on top of the stack with
    a cancel card; the cancel goes on the stack and may itself be cancelled."""

    seat: Annotated[int, msgspec.Meta(description="Seat that played the cancel card.")]
    card: Annotated[int, msgspec.Meta(description=(
        "Angel card id (index into `angel_cards` of the reference data) of a card whose "
        "`effect` is cancel."))]


class CancelDeclined(GameEvent, frozen=True, tag="cm.cancel_declined", kw_only=True):
    """A seat asked in a response window let the special effect on top of the stack stand."""

    seat: Annotated[int, msgspec.Meta(description="Seat that declined to cancel.")]


class AngelsPassed(GameEvent, frozen=True, tag="cm.angels_passed", kw_only=True):
    """A seat passed its Angel-phase turn. The pass is not final: the seat is asked again if
    another card is played on a turn before every seat holding cards has passed."""

    seat: Annotated[int, msgspec.Meta(description="Seat that passed.")]


class RewardOriented(GameEvent, frozen=True, tag="cm.reward_oriented", kw_only=True):
    """The seat with most defeats this year turned side ``side`` of the year's reward card
    towards itself, and every seat received the side facing it."""

    seat: Annotated[int, msgspec.Meta(description="Seat that oriented the card (the chooser).")]
    side: Annotated[int, msgspec.Meta(description=(
        "Side the chooser took, 0-3: index into `sides` of this year's entry in `reward_cards` "
        "of the reference data. The other seats' sides follow from `reward_seat_offsets`."))]


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
