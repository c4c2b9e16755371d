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
    """Put the drawn defender on a free castle space (``keep``: into the keep, its guard out)."""

    space: int
    keep: bool = False


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
    """Activate a defender: move to ``to``, then knock down ``knock`` or attack ``target``."""

    unit: int
    to: int
    target: int = -1
    spell: int = -1
    knock: int = -1


class DrawSpells(Action, frozen=True, tag="sc.draw_spells", kw_only=True):
    """Choose this defender caster to activate next: it first draws its spells."""

    unit: int


class CastSpell(Action, frozen=True, tag="sc.cast_spell", kw_only=True):
    """Cast a spell through ``unit`` at ``target`` (foe; friend to ward) or at ``structure``."""

    card: int
    unit: int
    target: int
    structure: int = -1


class CounterWithSpell(Action, frozen=True, tag="sc.counter_with_spell", kw_only=True):
    """Strike back with this attack spell (``card`` -1: with the unit's own attack)."""

    card: int


class BuyEquipment(Action, frozen=True, tag="sc.buy_equipment", kw_only=True):
    """Buy an equipment card from hand and put its token on one of your units."""

    card: int
    unit: int


class BuyLadder(Action, frozen=True, tag="sc.buy_ladder", kw_only=True):
    """Buy a ladder for a unit of yours on a battlefield start space."""

    unit: int


class DropEquipment(Action, frozen=True, tag="sc.drop_equipment", kw_only=True):
    """Destroy a piece of equipment (``card``; 100 for a ladder) a unit of yours carries."""

    unit: int
    card: int


class PlaceLadder(Action, frozen=True, tag="sc.place_ladder", kw_only=True):
    """Set the ladder a unit carries against the front of a wall (a free action)."""

    unit: int
    wall: int


class PickUpLadder(Action, frozen=True, tag="sc.pick_up_ladder", kw_only=True):
    """Pick up the ladder standing against a wall with a unit in front of it (a free action)."""

    unit: int
    wall: int


class PushUnit(Action, frozen=True, tag="sc.push_unit", kw_only=True):
    """Push a unit one space beyond its moves; it takes an Attack 1 first."""

    unit: int
    to: int


class PlayCard(Action, frozen=True, tag="sc.play_card", kw_only=True):
    """Play a remain-in-play power card from hand; it stays in front of you."""

    card: int


class PlayPowerCard(Action, frozen=True, tag="sc.play_power_card", kw_only=True):
    """Play an action or common power card from hand for its effect; it is then discarded."""

    card: int


class PlayBossCard(Action, frozen=True, tag="sc.play_boss_card", kw_only=True):
    """Play a Boss card from the Boss hand for its effect; it is then discarded."""

    card: int


class PlaceHero(Action, frozen=True, tag="sc.place_hero", kw_only=True):
    """Put the summoned hero on this space (after the placement priorities)."""

    space: int


class DiscardPowerCard(Action, frozen=True, tag="sc.discard_power_card", kw_only=True):
    """Discard a power card (held, exhausted or in play) at wrap-up, down to the hand limit."""

    card: int


class DiscardBossCard(Action, frozen=True, tag="sc.discard_boss_card", kw_only=True):
    """Discard a Boss card at wrap-up, down to three."""

    card: int


ACTION_TYPES: tuple[type[Action], ...] = (
    ChooseArmy, ChooseBattlefield, PlaceDefender, BidGold, BreakTie, KeepBossCard, TakeBossLoot,
    ChooseToken, BuyUnit, BuyChampion, BuyUpgrade, BuyPowerCard, GiveGold, EndBuying, MoveUnit,
    AttackTarget, EndPlayerTurn, BattleMarch, HoldPosition, OrderDefender, DiscardPowerCard,
    DiscardBossCard, DrawSpells, CastSpell, CounterWithSpell, BuyEquipment, BuyLadder,
    DropEquipment, PlaceLadder, PickUpLadder, PushUnit, PlayCard, PlaceHero,
    PlayPowerCard, PlayBossCard,
)

BUY_UPGRADE = BuyUpgrade()
BUY_POWER_CARD = BuyPowerCard()
END_BUYING = EndBuying()
END_TURN = EndPlayerTurn()
MARCH = BattleMarch()
HOLD = HoldPosition()
