"""Castle Assault events: what a seat did, in the past tense, with every value decided then.

Automatic steps (the momentum move, readying, drawing, Move Units and every combat it causes,
Quick moves, the Environment Meter and its cards) are not events: they follow from earlier
events and chance answers, and ``evolve`` redoes them on every fold.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.contracts.events import GameEvent

_SEAT = "The seat (0 or 1) that acted."
_INSTANCE = ("Card instance: the card's position in the acting seat's deck list (see `decks` "
             "in the reference data; the deck lists come from the match options).")
_UNIT = ("Uid of the unit (seat * 100 + instance; a hero is seat * 100 + 99), as the view's "
         "`units[].uid` gives it.")
_LANE = "Lane 0, 1 or 2 (left, centre, right as seat 0 sees them: `lanes` in the reference data)."

Seat = Annotated[int, msgspec.Meta(description=_SEAT)]


class HandKept(GameEvent, frozen=True, tag="ca.hand_kept", kw_only=True):
    """A seat kept its opening hand."""

    seat: Seat


class HandMulliganed(GameEvent, frozen=True, tag="ca.hand_mulliganed", kw_only=True):
    """A seat put its opening hand under its deck and drew five new cards."""

    seat: Seat


class FirstPlayerChosen(GameEvent, frozen=True, tag="ca.first_player_chosen", kw_only=True):
    """The roll-off winner named the seat that starts."""

    seat: Annotated[int, msgspec.Meta(description="The roll-off winner, who chose.")]
    first: Annotated[int, msgspec.Meta(description="The seat (0 or 1) that takes the first turn.")]


class CaptainAssigned(GameEvent, frozen=True, tag="ca.captain_assigned", kw_only=True):
    """A seat made one of its units its Captain."""

    seat: Seat
    unit: Annotated[int, msgspec.Meta(description=(
        f"The new Captain, one of the seat's units. {_UNIT}"))]


class CaptainSkipped(GameEvent, frozen=True, tag="ca.captain_skipped", kw_only=True):
    """A seat assigned no Captain this turn."""

    seat: Seat


class UnitCursed(GameEvent, frozen=True, tag="ca.unit_cursed", kw_only=True):
    """A seat put the Curse token on an opposing unit."""

    seat: Seat
    unit: Annotated[int, msgspec.Meta(description=f"The opposing unit cursed. {_UNIT}")]


class CurseSkipped(GameEvent, frozen=True, tag="ca.curse_skipped", kw_only=True):
    """A seat cursed no unit this turn."""

    seat: Seat


class ResourcePlaced(GameEvent, frozen=True, tag="ca.resource_placed", kw_only=True):
    """A seat put a card from its hand face down as a resource (the other seat's view shows
    only how many resources it has, not which card)."""

    seat: Seat
    card: Annotated[int, msgspec.Meta(description=(
        f"The card placed, from the seat's hand. {_INSTANCE}"))]


class UnitPlayed(GameEvent, frozen=True, tag="ca.unit_played", kw_only=True):
    """A seat paid for a unit and put it in its castle area in a lane."""

    seat: Seat
    card: Annotated[int, msgspec.Meta(description=(
        f"The Unit card played, from the seat's hand. {_INSTANCE} The unit's uid is "
        "seat * 100 + this instance."))]
    lane: Annotated[int, msgspec.Meta(description=(
        f"{_LANE} The unit entered that lane's location of the seat's castle area."))]


class CommandPlayed(GameEvent, frozen=True, tag="ca.command_played", kw_only=True):
    """A seat paid for a command and resolved it on a unit or a lane (in its Open Phase, or an
    Instant in a response window)."""

    seat: Seat
    card: Annotated[int, msgspec.Meta(description=(
        f"The Command card played, from the seat's hand. {_INSTANCE}"))]
    unit: Annotated[int, msgspec.Meta(description=(
        "Uid of the unit it targeted, or -1 for none (`effects[].play_command` in the "
        "reference data says which effects take a unit)."))] = -1
    lane: Annotated[int, msgspec.Meta(description=(
        "The lane (0-2) it named, or -1: the lane hit for a lane effect, the lane the unit "
        "moved to for a sideways move."))] = -1


class MomentumShifted(GameEvent, frozen=True, tag="ca.momentum_shifted", kw_only=True):
    """A seat paid 1 resource to move the Momentum Meter 2 spaces toward a seat."""

    seat: Seat
    toward: Annotated[int, msgspec.Meta(description=(
        "The seat (0 or 1) whose side the meter moved toward (0: `momentum` up by 2, 1: down "
        "by 2, stopping at Max)."))]


class DrawBought(GameEvent, frozen=True, tag="ca.draw_bought", kw_only=True):
    """A seat paid 3 resources to draw a card."""

    seat: Seat


class UnitCharged(GameEvent, frozen=True, tag="ca.unit_charged", kw_only=True):
    """A unit began a Charge; the die that follows says how far it goes."""

    seat: Seat
    unit: Annotated[int, msgspec.Meta(description=f"The charging unit, one of the seat's. {_UNIT}")]


class UnitAttacked(GameEvent, frozen=True, tag="ca.unit_attacked", kw_only=True):
    """An engaged unit attacked what it is engaged with."""

    seat: Seat
    unit: Annotated[int, msgspec.Meta(description=(
        f"The attacking unit, one of the seat's. {_UNIT}"))]


class AbilityUsed(GameEvent, frozen=True, tag="ca.ability_used", kw_only=True):
    """A unit used its Ranged ability: on ``target`` (-2: the opposing castle), or on all in
    range for a blast (-1)."""

    seat: Seat
    unit: Annotated[int, msgspec.Meta(description=f"The shooting unit, one of the seat's. {_UNIT}")]
    target: Annotated[int, msgspec.Meta(description=(
        "Uid of the opposing unit shot at; -1: a blast at every unit in reach; -2 "
        "(`constants.castle_target` in the reference data): the opposing castle."))] = -1


class HeroSummoned(GameEvent, frozen=True, tag="ca.hero_summoned", kw_only=True):
    """A seat brought its hero onto the battlefield, in its castle area."""

    seat: Seat
    lane: Annotated[int, msgspec.Meta(description=(
        f"{_LANE} The hero (uid seat * 100 + 99) entered that lane's location of the seat's "
        "castle area."))]


class ResponsePassed(GameEvent, frozen=True, tag="ca.response_passed", kw_only=True):
    """A seat played no Instant in a response window."""

    seat: Seat


class TurnEnded(GameEvent, frozen=True, tag="ca.turn_ended", kw_only=True):
    """A seat ended its Open Phase."""

    seat: Seat


class CardDiscarded(GameEvent, frozen=True, tag="ca.card_discarded", kw_only=True):
    """Over the hand limit at its End of Turn, a seat discarded a card."""

    seat: Seat
    card: Annotated[int, msgspec.Meta(description=(
        f"The card discarded from the seat's hand. {_INSTANCE}"))]


EVENT_TYPES: tuple[type[GameEvent], ...] = (
    HandKept, HandMulliganed, FirstPlayerChosen, CaptainAssigned, CaptainSkipped, UnitCursed,
    CurseSkipped, ResourcePlaced, UnitPlayed, CommandPlayed, MomentumShifted, DrawBought,
    UnitCharged, UnitAttacked, AbilityUsed, HeroSummoned, ResponsePassed, TurnEnded,
    CardDiscarded,
)
