"""Castle Assault actions: what a seat asks to do, in the imperative.

Frozen msgspec structs, so the host can test ``action in legal_actions(...)``. Cards in hand are
named by instance number, units on the battlefield by uid (see ``state``).
"""

from __future__ import annotations

from siege.engine.protocol import Action


class KeepHand(Action, frozen=True, tag="ca.keep_hand", kw_only=True):
    """Keep the five cards dealt at set-up."""


class Mulligan(Action, frozen=True, tag="ca.mulligan", kw_only=True):
    """Put the five dealt cards on the bottom of the deck and draw five new ones (once)."""


class ChooseFirst(Action, frozen=True, tag="ca.choose_first", kw_only=True):
    """As winner of the roll-off, name the seat that takes the first turn."""

    first: int


class AssignCaptain(Action, frozen=True, tag="ca.assign_captain", kw_only=True):
    """Put your hero's Captain token on one of your units: it gains the hero's Captain skill."""

    unit: int


class SkipCaptain(Action, frozen=True, tag="ca.skip_captain", kw_only=True):
    """Assign no Captain this turn."""


class CurseUnit(Action, frozen=True, tag="ca.curse_unit", kw_only=True):
    """Put the Curse token on an opposing unit: it suffers your hero's Curse."""

    unit: int


class SkipCurse(Action, frozen=True, tag="ca.skip_curse", kw_only=True):
    """Curse no unit this turn."""


class PlaceResource(Action, frozen=True, tag="ca.place_resource", kw_only=True):
    """Put a card from your hand face down as one Ready resource."""

    card: int


class PlayUnit(Action, frozen=True, tag="ca.play_unit", kw_only=True):
    """Pay a Unit card's cost and put it in a free location of your castle area."""

    card: int
    lane: int


class PlayCommand(Action, frozen=True, tag="ca.play_command", kw_only=True):
    """Pay a Command card's cost and resolve it on its target (a unit, or a lane)."""

    card: int
    unit: int = -1
    lane: int = -1


class ShiftMomentum(Action, frozen=True, tag="ca.shift_momentum", kw_only=True):
    """Global command: exhaust 1 resource to move the Momentum Meter 2 spaces toward a seat."""

    toward: int


class BuyDraw(Action, frozen=True, tag="ca.buy_draw", kw_only=True):
    """Global command: exhaust 3 resources to draw a card from your deck."""


class Charge(Action, frozen=True, tag="ca.charge", kw_only=True):
    """Unit Action: roll a die and move the unit that many spaces straight ahead."""

    unit: int


class Attack(Action, frozen=True, tag="ca.attack", kw_only=True):
    """Unit Action: an engaged unit attacks what it is engaged with (no bonuses)."""

    unit: int


class UseAbility(Action, frozen=True, tag="ca.use_ability", kw_only=True):
    """Unit Action: use the unit's Ranged ability on a target (a blast names no target)."""

    unit: int
    target: int = -1


class SummonHero(Action, frozen=True, tag="ca.summon_hero", kw_only=True):
    """Bring your hero, for free, into a free location of your castle area."""

    lane: int


class PassResponse(Action, frozen=True, tag="ca.pass_response", kw_only=True):
    """In a response window: play no Instant now."""


class EndTurn(Action, frozen=True, tag="ca.end_turn", kw_only=True):
    """End your Open Phase; the End of Turn Phase follows."""


class DiscardCard(Action, frozen=True, tag="ca.discard_card", kw_only=True):
    """Over the hand limit at your End of Turn: discard one card."""

    card: int


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
