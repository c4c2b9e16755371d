"""Storm the Castle! actions: what a seat asks to do, in the imperative, with pinned ``sc.*``
tags. Frozen structs, so the host can test ``action in legal_actions(...)``.

Ids in these actions: unit ids are the ``uid`` of the view's ``units``; spaces index
``spaces``, structures index ``structures``, unit kinds index ``unit_kinds``, and power card
ids index ``power_cards[army]`` of the game's reference data (``army`` the acting seat's).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from siege.engine.protocol import Action

_MY_UNIT = "Unit id (`uid` in the view's `units`) of one of your own units."
_SPACE = "Board space id: index into `spaces` of the game's reference data."
_WALL = ("Structure id of a castle wall or keep wall (index into `structures` of the "
         "reference data) whose front space the unit stands on.")
_POWER_CARD = ("Power card id: index into `power_cards[army]` of the reference data, `army` "
               "being your army (the view's `armies[seat]`).")


class ChooseArmy(Action, frozen=True, tag="sc.choose_army", kw_only=True):
    """Take one of the four Dark Force armies at set-up."""

    army: Annotated[int, Meta(description=(
        "Army id 0-3: index into `armies` of the reference data (0 Arcanists, 1 Dark Elves, "
        "2 The Green Tide, 3 Undead Horde); one no other seat has taken."))]


class ChooseBattlefield(Action, frozen=True, tag="sc.choose_battlefield", kw_only=True):
    """Take the battlefield (castle side 0-3) the army starts at."""

    battlefield: Annotated[int, Meta(description=(
        "Battlefield, by castle side 0-3 clockwise (0 north, 1 east, 2 south, 3 west; index "
        "into `battlefields` of the reference data); one no other seat has taken."))]


class PlaceDefender(Action, frozen=True, tag="sc.place_defender", kw_only=True):
    """Put the drawn defender on a free castle space (``keep``: into the keep, its guard out)."""

    space: Annotated[int, Meta(description=(
        "Board space id (index into `spaces` of the reference data): where the drawn defender "
        "goes; with `keep`, where the keep's guard moves out to instead. At set-up a free "
        "tower or rampart; later a free castle space, or only the keep while a Dark Force unit "
        "is within 3 spaces of an empty keep."))]
    keep: Annotated[bool, Meta(description=(
        "True for the keep swap: the drawn defender (stronger than the guard) enters the keep "
        "and the guard moves to `space`. False: the defender goes on `space`."))] = False


class BidGold(Action, frozen=True, tag="sc.bid_gold", kw_only=True):
    """Secretly add gold to the Boss vote, one vote per gold (lost whatever happens)."""

    gold: Annotated[int, Meta(description=(
        "Gold bid, from 0 to all the gold you hold; each gold is one more vote and is paid "
        "when the bids are revealed."))]


class BreakTie(Action, frozen=True, tag="sc.break_tie", kw_only=True):
    """As the current Boss, choose which of the tied players becomes Boss."""

    seat: Annotated[int, Meta(description=(
        "Seat number (from 0) of the new Boss: one of the seats tied on most votes."))]


class KeepBossCard(Action, frozen=True, tag="sc.keep_boss_card", kw_only=True):
    """Keep this one of the Boss cards on offer; the others are discarded."""

    card: Annotated[int, Meta(description=(
        "When asked `boss_card`: the Boss card id kept (index into `boss_cards` of the "
        "reference data), one of the view's `boss_offer`. When asked `ousted_card`: the "
        "position, from 0, of the card taken blind from the ousted Boss's hand."))]


class TakeBossLoot(Action, frozen=True, tag="sc.take_boss_loot", kw_only=True):
    """Having ousted the Boss, take 1 gold ("gold") or 1 magic ("magic") from the loot."""

    kind: Annotated[str, Meta(description=(
        "`\"gold\"` for 1 gold or `\"magic\"` for 1 magic (either up to the cap of 10)."))]


class ChooseToken(Action, frozen=True, tag="sc.choose_token", kw_only=True):
    """As Boss, keep one of the two turn-order tokens drawn (the other goes back)."""

    token: Annotated[int, Meta(description=(
        "The turn-order token kept, 1 to the number of players (1 plays first): one of the "
        "view's `boss_offer_tokens`."))]


class BuyUnit(Action, frozen=True, tag="sc.buy_unit", kw_only=True):
    """Buy a unit of this kind and deploy it on a battlefield start space."""

    kind: Annotated[int, Meta(description=(
        "Unit kind id (index into `unit_kinds` of the reference data): one of your army's "
        "`buyable_kinds` (not the champion) with a token left."))]
    space: Annotated[int, Meta(description=(
        "Board space id of a battlefield start space (`start_spaces` of the reference data's "
        "`battlefields`); +1 gold outside your own battlefield."))]


class BuyChampion(Action, frozen=True, tag="sc.buy_champion", kw_only=True):
    """Play the champion card from hand: pay and deploy the champion on a start space."""

    space: Annotated[int, Meta(description=(
        "Board space id of a battlefield start space for the champion; +1 gold outside your "
        "own battlefield."))]


class BuyUpgrade(Action, frozen=True, tag="sc.buy_upgrade", kw_only=True):
    """Play the battlefield upgrade card from hand: pay and build it at your battlefield."""


class BuyPowerCard(Action, frozen=True, tag="sc.buy_power_card", kw_only=True):
    """Pay 1 gold to draw a power card."""


class GiveGold(Action, frozen=True, tag="sc.give_gold", kw_only=True):
    """As Boss, give 1 gold to another player."""

    seat: Annotated[int, Meta(description="Seat number (from 0) of the player receiving it.")]


class EndBuying(Action, frozen=True, tag="sc.end_buying", kw_only=True):
    """Stop buying and deploying for this turn."""


class MoveUnit(Action, frozen=True, tag="sc.move_unit", kw_only=True):
    """Move a unit to a space it can reach (its own space: spend a move to unflip it)."""

    unit: Annotated[int, Meta(description=_MY_UNIT)]
    to: Annotated[int, Meta(description=(
        "Board space id the unit ends on (index into `spaces` of the reference data); the "
        "unit's own space when it is flipped (1 move unflips it)."))]


class AttackTarget(Action, frozen=True, tag="sc.attack_target", kw_only=True):
    """Attack with a unit: another unit (``target``) or a structure (``structure``)."""

    unit: Annotated[int, Meta(description=_MY_UNIT + " It attacks once a turn.")]
    target: Annotated[int, Meta(description=(
        "Unit id of the unit attacked (a defender or another player's unit); -1 when "
        "attacking a structure."))] = -1
    structure: Annotated[int, Meta(description=(
        "Structure id attacked (index into `structures` of the reference data); -1 when "
        "attacking a unit."))] = -1


class EndPlayerTurn(Action, frozen=True, tag="sc.end_player_turn", kw_only=True):
    """End your player turn (unused army moves are lost)."""


class BattleMarch(Action, frozen=True, tag="sc.battle_march", kw_only=True):
    """Move the unit that just destroyed an adjacent unit into the emptied space."""


class HoldPosition(Action, frozen=True, tag="sc.hold_position", kw_only=True):
    """Decline the battle march: the unit stays where it is."""


class OrderDefender(Action, frozen=True, tag="sc.order_defender", kw_only=True):
    """Activate a defender: move to ``to``, then knock down ``knock`` or attack ``target``."""

    unit: Annotated[int, Meta(description=(
        "Unit id of the defender (or hero) activated, one not yet activated in this Onward "
        "March."))]
    to: Annotated[int, Meta(description=(
        "Board space id it moves to, up to 2 spaces inside the castle; its own space to stay "
        "(index into `spaces` of the reference data)."))]
    target: Annotated[int, Meta(description=(
        "Unit id of the Dark Force unit it then attacks; -1 for no attack."))] = -1
    spell: Annotated[int, Meta(description=(
        "Defender spell id it attacks `target` with (index into `defender_spells` of the "
        "reference data, one of the view's `drawn_spells`); -1 to use its own attack."))] = -1
    knock: Annotated[int, Meta(description=(
        "Structure id of a wall whose ladder it knocks down from behind the wall; -1 for "
        "none."))] = -1


class DrawSpells(Action, frozen=True, tag="sc.draw_spells", kw_only=True):
    """Choose this defender caster to activate next: it first draws its spells."""

    unit: Annotated[int, Meta(description=(
        "Unit id of the defender caster (Battle Mage draws 1 spell, Wizard Lord 2: "
        "`spell_draws` in `unit_kinds` of the reference data)."))]


class CastSpell(Action, frozen=True, tag="sc.cast_spell", kw_only=True):
    """Cast a spell through ``unit`` at ``target`` (foe; friend to ward) or at ``structure``."""

    card: Annotated[int, Meta(description=(
        _POWER_CARD + " A spell (kind `magic`, ids 18-20) in your hand whose magic cost you "
        "can pay."))]
    unit: Annotated[int, Meta(description=(
        "Unit id of your unit the spell comes from (an Arcanist caster, or any Undead unit); "
        "range counts from its space."))]
    target: Annotated[int, Meta(description=(
        "Unit id aimed at: an enemy unit for an attack spell, one of your own unflipped units "
        "for a ward; -1 when the spell strikes a structure."))]
    structure: Annotated[int, Meta(description=(
        "Structure id an attack spell strikes (index into `structures` of the reference "
        "data); -1 when it is aimed at a unit."))] = -1


class CounterWithSpell(Action, frozen=True, tag="sc.counter_with_spell", kw_only=True):
    """Strike back with this attack spell (``card`` -1: with the unit's own attack)."""

    card: Annotated[int, Meta(description=(
        _POWER_CARD + " An attack spell in your hand that reaches the other unit; -1 to "
        "strike with the unit's own attack."))]


class BuyEquipment(Action, frozen=True, tag="sc.buy_equipment", kw_only=True):
    """Buy an equipment card from hand and put its token on one of your units."""

    card: Annotated[int, Meta(description=(
        _POWER_CARD + " An equipment card (kind `equipment`, ids 14-16) in your hand."))]
    unit: Annotated[int, Meta(description=(
        "Unit id of your unit on a battlefield space that takes it (at most 2 pieces, "
        "different names)."))]


class BuyLadder(Action, frozen=True, tag="sc.buy_ladder", kw_only=True):
    """Buy a ladder for a unit of yours on a battlefield start space."""

    unit: Annotated[int, Meta(description=(
        "Unit id of your unit on a start space that carries the ladder."))]


class DropEquipment(Action, frozen=True, tag="sc.drop_equipment", kw_only=True):
    """Destroy a piece of equipment (``card``; 100 for a ladder) a unit of yours carries."""

    unit: Annotated[int, Meta(description=_MY_UNIT)]
    card: Annotated[int, Meta(description=(
        "The piece, from the unit's `gear`: an equipment power card id, or 100 for a "
        "ladder."))]


class PlaceLadder(Action, frozen=True, tag="sc.place_ladder", kw_only=True):
    """Set the ladder a unit carries against the front of a wall (a free action)."""

    unit: Annotated[int, Meta(description=_MY_UNIT + " It carries a ladder.")]
    wall: Annotated[int, Meta(description=_WALL + " The wall stands and has no ladder yet.")]


class PickUpLadder(Action, frozen=True, tag="sc.pick_up_ladder", kw_only=True):
    """Pick up the ladder standing against a wall with a unit in front of it (a free action)."""

    unit: Annotated[int, Meta(description=_MY_UNIT + " It takes the ladder into its gear.")]
    wall: Annotated[int, Meta(description=_WALL + " A ladder stands against it.")]


class PushUnit(Action, frozen=True, tag="sc.push_unit", kw_only=True):
    """Push a unit one space beyond its moves; it takes an Attack 1 first."""

    unit: Annotated[int, Meta(description=(
        _MY_UNIT + " A pushable kind (Goblin, Orc Warrior) that has spent both its moves."))]
    to: Annotated[int, Meta(description=(
        "Board space id of the free neighbouring space it is pushed to (never the keep)."))]


class PlayCard(Action, frozen=True, tag="sc.play_card", kw_only=True):
    """Play a remain-in-play power card from hand; it stays in front of you."""

    card: Annotated[int, Meta(description=(
        _POWER_CARD + " A remain-in-play card (kind `rip`: 13 or 17) in your hand."))]


class PlayPowerCard(Action, frozen=True, tag="sc.play_power_card", kw_only=True):
    """Play an action or common power card from hand for its effect; it is then discarded."""

    card: Annotated[int, Meta(description=(
        _POWER_CARD + " An action or common card in your hand."))]


class PlayBossCard(Action, frozen=True, tag="sc.play_boss_card", kw_only=True):
    """Play a Boss card from the Boss hand for its effect; it is then discarded."""

    card: Annotated[int, Meta(description=(
        "Boss card id (index into `boss_cards` of the reference data) in your `boss_hand`."))]


class PlaceHero(Action, frozen=True, tag="sc.place_hero", kw_only=True):
    """Put the summoned hero on this space (after the placement priorities)."""

    space: Annotated[int, Meta(description=(
        _SPACE + " One the placement priorities allow (the keep first when it is free); a "
        "Dark Force unit there is destroyed."))]


class DiscardPowerCard(Action, frozen=True, tag="sc.discard_power_card", kw_only=True):
    """Discard a power card (held, exhausted or in play) at wrap-up, down to the hand limit."""

    card: Annotated[int, Meta(description=(
        _POWER_CARD + " A card in your hand, exhausted or in play."))]


class DiscardBossCard(Action, frozen=True, tag="sc.discard_boss_card", kw_only=True):
    """Discard a Boss card at wrap-up, down to three."""

    card: Annotated[int, Meta(description=(
        "Boss card id (index into `boss_cards` of the reference data) in your `boss_hand`."))]


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
