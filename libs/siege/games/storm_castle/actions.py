"""Storm the Castle! actions: what a seat asks to do, in the imperative, with pinned ``sc.*``
tags. Frozen structs, so the host can test ``action in legal_actions(...)``."""

from __future__ import annotations

from siege.engine.protocol import Action


class ChooseArmy(Action, frozen=True, tag="sc.choose_army", kw_only=True):
    """Take one of the four Dark Force armies at set-up."""

    army: int


class ChooseBattlefield(Action, frozen=True, tag="sc.choose_battlefield", kw_only=True):
    """Take the battlefield (castle side 0-3) the army starts at."""

    battlefield: int


class PlaceDefender(Action, frozen=True, tag="sc.place_defender", kw_only=True):
    """Put the defender token just drawn on a free castle space (as the defenders' hand)."""

    space: int


class BidGold(Action, frozen=True, tag="sc.bid_gold", kw_only=True):
    """Secretly add gold to the Boss vote, one vote per gold (lost whatever happens)."""

    gold: int


class BreakTie(Action, frozen=True, tag="sc.break_tie", kw_only=True):
    """As the current Boss, choose which of the tied players becomes Boss."""

    seat: int


class KeepBossCard(Action, frozen=True, tag="sc.keep_boss_card", kw_only=True):
    """Keep this one of the Boss cards on offer; the others are discarded."""

    card: int


class TakeBossLoot(Action, frozen=True, tag="sc.take_boss_loot", kw_only=True):
    """Having ousted the Boss, take 1 gold ("gold") or 1 magic ("magic") from the loot."""

    kind: str


class ChooseToken(Action, frozen=True, tag="sc.choose_token", kw_only=True):
    """As Boss, keep one of the two turn-order tokens drawn (the other goes back)."""

    token: int


class BuyUnit(Action, frozen=True, tag="sc.buy_unit", kw_only=True):
    """Buy a unit of this kind and deploy it on a battlefield start space."""

    kind: int
    space: int


class BuyChampion(Action, frozen=True, tag="sc.buy_champion", kw_only=True):
    """Play the champion card from hand: pay and deploy the champion on a start space."""

    space: int


class BuyUpgrade(Action, frozen=True, tag="sc.buy_upgrade", kw_only=True):
    """Play the battlefield upgrade card from hand: pay and build it at your battlefield."""


class BuyPowerCard(Action, frozen=True, tag="sc.buy_power_card", kw_only=True):
    """Pay 1 gold to draw a power card."""


class GiveGold(Action, frozen=True, tag="sc.give_gold", kw_only=True):
    """As Boss, give 1 gold to another player."""

    seat: int


class EndBuying(Action, frozen=True, tag="sc.end_buying", kw_only=True):
    """Stop buying and deploying for this turn."""


class MoveUnit(Action, frozen=True, tag="sc.move_unit", kw_only=True):
    """Move a unit to a space it can reach (its own space: spend a move to unflip it)."""

    unit: int
    to: int


class AttackTarget(Action, frozen=True, tag="sc.attack_target", kw_only=True):
    """Attack with a unit: another unit (``target``) or a structure (``structure``)."""

    unit: int
    target: int = -1
    structure: int = -1


class EndPlayerTurn(Action, frozen=True, tag="sc.end_player_turn", kw_only=True):
    """End your player turn (unused army moves are lost)."""


class BattleMarch(Action, frozen=True, tag="sc.battle_march", kw_only=True):
    """Move the unit that just destroyed an adjacent unit into the emptied space."""


class HoldPosition(Action, frozen=True, tag="sc.hold_position", kw_only=True):
    """Decline the battle march: the unit stays where it is."""


class OrderDefender(Action, frozen=True, tag="sc.order_defender", kw_only=True):
    """Activate a defender: move it to ``to`` (or stay) and attack ``target`` (-1: none)."""

    unit: int
    to: int
    target: int = -1


class DiscardPowerCard(Action, frozen=True, tag="sc.discard_power_card", kw_only=True):
    """Discard a power card at wrap-up, down to the hand limit."""

    card: int


class DiscardBossCard(Action, frozen=True, tag="sc.discard_boss_card", kw_only=True):
    """Discard a Boss card at wrap-up, down to three."""

    card: int


ACTION_TYPES: tuple[type[Action], ...] = (
    ChooseArmy, ChooseBattlefield, PlaceDefender, BidGold, BreakTie, KeepBossCard, TakeBossLoot,
    ChooseToken, BuyUnit, BuyChampion, BuyUpgrade, BuyPowerCard, GiveGold, EndBuying, MoveUnit,
    AttackTarget, EndPlayerTurn, BattleMarch, HoldPosition, OrderDefender, DiscardPowerCard,
    DiscardBossCard,
)

BUY_UPGRADE = BuyUpgrade()
BUY_POWER_CARD = BuyPowerCard()
END_BUYING = EndBuying()
END_TURN = EndPlayerTurn()
MARCH = BattleMarch()
HOLD = HoldPosition()
