"""Castle Assault events: what a seat did, in the past tense, with every value decided then.

Automatic steps (the momentum move, readying, drawing, Move Units and every combat it causes,
Quick moves, the Environment Meter and its cards) are not events: they follow from earlier
events and chance answers, and ``evolve`` redoes them on every fold.
"""

from __future__ import annotations

from siege.contracts.events import GameEvent


class HandKept(GameEvent, frozen=True, tag="ca.hand_kept", kw_only=True):
    """A seat kept its opening hand."""

    seat: int


class HandMulliganed(GameEvent, frozen=True, tag="ca.hand_mulliganed", kw_only=True):
    """A seat put its opening hand under its deck and drew five new cards."""

    seat: int


class FirstPlayerChosen(GameEvent, frozen=True, tag="ca.first_player_chosen", kw_only=True):
    """The roll-off winner named the seat that starts."""

    seat: int
    first: int


class CaptainAssigned(GameEvent, frozen=True, tag="ca.captain_assigned", kw_only=True):
    """A seat made one of its units its Captain."""

    seat: int
    unit: int


class CaptainSkipped(GameEvent, frozen=True, tag="ca.captain_skipped", kw_only=True):
    """A seat assigned no Captain this turn."""

    seat: int


class UnitCursed(GameEvent, frozen=True, tag="ca.unit_cursed", kw_only=True):
    """A seat put the Curse token on an opposing unit."""

    seat: int
    unit: int


class CurseSkipped(GameEvent, frozen=True, tag="ca.curse_skipped", kw_only=True):
    """A seat cursed no unit this turn."""

    seat: int


class ResourcePlaced(GameEvent, frozen=True, tag="ca.resource_placed", kw_only=True):
    """A seat put a card from its hand face down as a resource (other seats see no card)."""

    seat: int
    card: int


class UnitPlayed(GameEvent, frozen=True, tag="ca.unit_played", kw_only=True):
    """A seat paid for a unit and put it in its castle area in a lane."""

    seat: int
    card: int
    lane: int


class CommandPlayed(GameEvent, frozen=True, tag="ca.command_played", kw_only=True):
    """A seat paid for a command and resolved it on a unit or a lane."""

    seat: int
    card: int
    unit: int = -1
    lane: int = -1


class MomentumShifted(GameEvent, frozen=True, tag="ca.momentum_shifted", kw_only=True):
    """A seat paid 1 resource to move the Momentum Meter 2 spaces toward a seat."""

    seat: int
    toward: int


class DrawBought(GameEvent, frozen=True, tag="ca.draw_bought", kw_only=True):
    """A seat paid 3 resources to draw a card."""

    seat: int


class UnitCharged(GameEvent, frozen=True, tag="ca.unit_charged", kw_only=True):
    """A unit began a Charge; the die that follows says how far it goes."""

    seat: int
    unit: int


class UnitAttacked(GameEvent, frozen=True, tag="ca.unit_attacked", kw_only=True):
    """An engaged unit attacked what it is engaged with."""

    seat: int
    unit: int


class AbilityUsed(GameEvent, frozen=True, tag="ca.ability_used", kw_only=True):
    """A unit used its Ranged ability: on ``target`` (-2: the opposing castle), or on all in
    range for a blast (-1)."""

    seat: int
    unit: int
    target: int = -1


class HeroSummoned(GameEvent, frozen=True, tag="ca.hero_summoned", kw_only=True):
    """A seat brought its hero onto the battlefield, in its castle area."""

    seat: int
    lane: int


class ResponsePassed(GameEvent, frozen=True, tag="ca.response_passed", kw_only=True):
    """A seat played no Instant in a response window."""

    seat: int


class TurnEnded(GameEvent, frozen=True, tag="ca.turn_ended", kw_only=True):
    """A seat ended its Open Phase."""

    seat: int


class CardDiscarded(GameEvent, frozen=True, tag="ca.card_discarded", kw_only=True):
    """Over the hand limit at its End of Turn, a seat discarded a card."""

    seat: int
    card: int


EVENT_TYPES: tuple[type[GameEvent], ...] = (
    HandKept, HandMulliganed, FirstPlayerChosen, CaptainAssigned, CaptainSkipped, UnitCursed,
    CurseSkipped, ResourcePlaced, UnitPlayed, CommandPlayed, MomentumShifted, DrawBought,
    UnitCharged, UnitAttacked, AbilityUsed, HeroSummoned, ResponsePassed, TurnEnded,
    CardDiscarded,
)
