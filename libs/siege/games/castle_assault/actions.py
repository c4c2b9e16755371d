"""Castle Assault actions: what a seat asks to do, in the imperative.

Frozen msgspec structs, so the host can test ``action in legal_actions(...)``. Cards in hand are
named by instance number, units on the battlefield by uid (see ``state``; the reference data's
``decks`` and ``codes.uid`` explain both).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.engine.protocol import Action

_INSTANCE = ("Card instance: the card's position in your deck list (see `decks` in the reference "
             "data); the view's `hand` lists yours and `hand_cards` their card ids.")
_LANE = ("Lane 0, 1 or 2 (left, centre, right as seat 0 sees them: `lanes` in the reference "
         "data)")
_MY_UNIT = ("Uid of one of your units on the battlefield (seat * 100 + instance, the hero "
            "seat * 100 + 99), as the view's `units[].uid` gives it")


class KeepHand(Action, frozen=True, tag="ca.keep_hand", kw_only=True):
    """Keep the five cards dealt at set-up."""


class Mulligan(Action, frozen=True, tag="ca.mulligan", kw_only=True):
    """Put the five dealt cards on the bottom of the deck and draw five new ones (once)."""


class ChooseFirst(Action, frozen=True, tag="ca.choose_first", kw_only=True):
    """As winner of the roll-off, name the seat that takes the first turn."""

    first: Annotated[int, msgspec.Meta(description=(
        "The seat (0 or 1, yourself or your opponent) that takes the first turn."))]


class AssignCaptain(Action, frozen=True, tag="ca.assign_captain", kw_only=True):
    """Put your hero's Captain token on one of your units: it gains the hero's Captain skill."""

    unit: Annotated[int, msgspec.Meta(description=(
        f"{_MY_UNIT}; never a Lord, an Epic or the hero. Its skill is `captain_text` of your "
        "hero in `heroes` of the reference data."))]


class SkipCaptain(Action, frozen=True, tag="ca.skip_captain", kw_only=True):
    """Assign no Captain this turn."""


class CurseUnit(Action, frozen=True, tag="ca.curse_unit", kw_only=True):
    """Put the Curse token on an opposing unit: it suffers your hero's Curse."""

    unit: Annotated[int, msgspec.Meta(description=(
        "Uid of an opposing unit on the battlefield (its hero included), as the view's "
        "`units[].uid` gives it. The Curse is `curse_text` of your hero in `heroes` of the "
        "reference data."))]


class SkipCurse(Action, frozen=True, tag="ca.skip_curse", kw_only=True):
    """Curse no unit this turn."""


class PlaceResource(Action, frozen=True, tag="ca.place_resource", kw_only=True):
    """Put a card from your hand face down as one Ready resource."""

    card: Annotated[int, msgspec.Meta(description=f"{_INSTANCE} Any card in hand may be placed.")]


class PlayUnit(Action, frozen=True, tag="ca.play_unit", kw_only=True):
    """Pay a Unit card's cost and put it in a free location of your castle area."""

    card: Annotated[int, msgspec.Meta(description=f"{_INSTANCE} It must be a Unit card.")]
    lane: Annotated[int, msgspec.Meta(description=(
        f"{_LANE} whose location in your castle area is free: the unit enters there."))]


class PlayCommand(Action, frozen=True, tag="ca.play_command", kw_only=True):
    """Pay a Command card's cost and resolve it on its target (a unit, or a lane)."""

    card: Annotated[int, msgspec.Meta(description=(
        f"{_INSTANCE} It must be a Command card (only an Instant in a response window)."))]
    unit: Annotated[int, msgspec.Meta(description=(
        "Uid of the unit the command targets, or -1 when it targets no unit; which effects "
        "take a unit is `effects[].play_command` in the reference data."))] = -1
    lane: Annotated[int, msgspec.Meta(description=(
        "The lane (0-2) the command names, or -1: the lane hit for a lane effect, the lane the "
        "unit moves to for a sideways move (`effects` in the reference data)."))] = -1


class ShiftMomentum(Action, frozen=True, tag="ca.shift_momentum", kw_only=True):
    """Global command: exhaust 1 resource to move the Momentum Meter 2 spaces toward a seat."""

    toward: Annotated[int, msgspec.Meta(description=(
        "The seat (0 or 1) whose side the meter moves toward: 0 adds 2 to the view's "
        "`momentum`, 1 subtracts 2, stopping at Max; not offered when already at that Max."))]


class BuyDraw(Action, frozen=True, tag="ca.buy_draw", kw_only=True):
    """Global command: exhaust 3 resources to draw a card from your deck."""


class Charge(Action, frozen=True, tag="ca.charge", kw_only=True):
    """Unit Action: roll a die and move the unit that many spaces straight ahead, plus its
    Movement bonuses (never its printed Movement)."""

    unit: Annotated[int, msgspec.Meta(description=(
        f"{_MY_UNIT}: a unit that may act, is not engaged and does not have Cannot Charge."))]


class Attack(Action, frozen=True, tag="ca.attack", kw_only=True):
    """Unit Action: an engaged unit attacks what it is engaged with (no bonuses)."""

    unit: Annotated[int, msgspec.Meta(description=(
        f"{_MY_UNIT}: an engaged unit that may act; it strikes the unit or castle straight "
        "ahead."))]


class UseAbility(Action, frozen=True, tag="ca.use_ability", kw_only=True):
    """Unit Action: use the unit's Ranged ability on a target (a blast names no target)."""

    unit: Annotated[int, msgspec.Meta(description=(
        f"{_MY_UNIT}: a unit that may act and has a Ranged ability (printed or attached)."))]
    target: Annotated[int, msgspec.Meta(description=(
        "Uid of the opposing unit shot at; -1 for a blast, which hits every unit in reach; "
        "-2 (`constants.castle_target` in the reference data) for a shot at the opposing "
        "castle (Battering or Blunt Damage)."))] = -1


class SummonHero(Action, frozen=True, tag="ca.summon_hero", kw_only=True):
    """Bring your hero, for free, into a free location of your castle area (once a game)."""

    lane: Annotated[int, msgspec.Meta(description=(
        f"{_LANE} whose location in your castle area is free: the hero enters there."))]


class PassResponse(Action, frozen=True, tag="ca.pass_response", kw_only=True):
    """In a response window: play no Instant now."""


class EndTurn(Action, frozen=True, tag="ca.end_turn", kw_only=True):
    """End your Open Phase; the End of Turn Phase follows."""


class DiscardCard(Action, frozen=True, tag="ca.discard_card", kw_only=True):
    """Over the hand limit at your End of Turn: discard one card."""

    card: Annotated[int, msgspec.Meta(description=(
        f"{_INSTANCE} The card goes to your discard pile."))]


KEEP_HAND = KeepHand()
MULLIGAN = Mulligan()
SKIP_CAPTAIN = SkipCaptain()
SKIP_CURSE = SkipCurse()
BUY_DRAW = BuyDraw()
END_TURN = EndTurn()
PASS_RESPONSE = PassResponse()
CASTLE_TARGET = -2  # UseAbility's target for a shot at the opposing castle

ACTION_TYPES: tuple[type[Action], ...] = (
    KeepHand, Mulligan, ChooseFirst, AssignCaptain, SkipCaptain, CurseUnit, SkipCurse,
    PlaceResource, PlayUnit, PlayCommand, ShiftMomentum, BuyDraw, Charge, Attack, UseAbility,
    SummonHero, PassResponse, EndTurn, DiscardCard,
)
