"""Storm the Castle! events: what a seat chose, in the past tense, with pinned ``sc.*`` tags and
every value decided at the time (prices paid, unit ids given out).

Automatic steps (Collect, dealing, the vote count, reinforcement draws, battles' dice results,
the defenders' choices when the rules make them) are not events: they follow from earlier
events and chance answers, and ``evolve`` redoes them on every fold.

Ids in these events: unit ids are the ``uid`` of the view's ``units``; spaces index ``spaces``,
structures index ``structures``, unit kinds index ``unit_kinds``, and power card ids index
``power_cards[army]`` of the game's reference data (``army`` the seat's army).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from siege.contracts.events import GameEvent

_SEAT = "Seat number (from 0) of the player who chose."
_CONTROLLER = ("Seat number (from 0) of the player who chose for the defenders: the holder of "
               "the defenders' reference card.")
_UNIT = "Unit id of the unit (`uid` in the view's `units`)."
_SPACE = "Board space id: index into `spaces` of the game's reference data."
_WALL = ("Structure id of the castle wall or keep wall (index into `structures` of the "
         "reference data).")
_POWER_CARD = ("Power card id: index into `power_cards[army]` of the reference data, `army` "
               "being the seat's army.")
_BOSS_CARD = "Boss card id: index into `boss_cards` of the reference data."


class ArmyChosen(GameEvent, frozen=True, tag="sc.army_chosen", kw_only=True):
    """A player took a Dark Force army at set-up."""

    seat: Annotated[int, Meta(description=_SEAT)]
    army: Annotated[int, Meta(description=(
        "Army id 0-3: index into `armies` of the reference data."))]


class BattlefieldChosen(GameEvent, frozen=True, tag="sc.battlefield_chosen", kw_only=True):
    """A player took the battlefield the army starts at."""

    seat: Annotated[int, Meta(description=_SEAT)]
    battlefield: Annotated[int, Meta(description=(
        "Battlefield by castle side 0-3 (0 north, 1 east, 2 south, 3 west): index into "
        "`battlefields` of the reference data."))]


class DefenderPlaced(GameEvent, frozen=True, tag="sc.defender_placed", kw_only=True):
    """The controller placed the drawn defender (``swapped``: in the keep, that guard out)."""

    seat: Annotated[int, Meta(description=(
        "Seat number (from 0) of the player who placed it: at set-up the drawing player, "
        "later the holder of the defenders' reference card."))]
    token: Annotated[int, Meta(description=(
        "Defender token id drawn from the pool: index into `defender_tokens` of the reference "
        "data, which gives its unit kind."))]
    space: Annotated[int, Meta(description=(
        _SPACE + " Where the new defender stands, or, with `swapped`, where the old keep guard "
        "moved to."))]
    uid: Annotated[int, Meta(description="Unit id given to the new defender.")]
    swapped: Annotated[int, Meta(description=(
        "Unit id of the keep's guard moved out to `space` while the new defender took the "
        "keep; -1 for no swap."))] = -1


class GoldBid(GameEvent, frozen=True, tag="sc.gold_bid", kw_only=True):
    """A player secretly bid gold in the Boss vote (sealed in every view until all have bid)."""

    seat: Annotated[int, Meta(description=_SEAT)]
    gold: Annotated[int, Meta(description=(
        "Gold bid, one vote each; paid when the bids are revealed."))]


class TieBroken(GameEvent, frozen=True, tag="sc.tie_broken", kw_only=True):
    """The current Boss chose the new Boss among the players tied on votes."""

    seat: Annotated[int, Meta(description="Seat number (from 0) of the current Boss.")]
    boss: Annotated[int, Meta(description="Seat number (from 0) chosen as the new Boss.")]


class BossCardKept(GameEvent, frozen=True, tag="sc.boss_card_kept", kw_only=True):
    """The Boss kept one Boss card on offer; the others went to the Boss discard pile."""

    seat: Annotated[int, Meta(description="Seat number (from 0) of the Boss.")]
    card: Annotated[int, Meta(description=(
        "From the offer: the Boss card id kept (index into `boss_cards` of the reference "
        "data). From the ousted Boss's hand: the position (from 0) of the card taken blind, "
        "the rest of that hand going to the Boss discard pile."))]


class BossLootTaken(GameEvent, frozen=True, tag="sc.boss_loot_taken", kw_only=True):
    """The new Boss took 1 gold or 1 magic from the loot for ousting the old one."""

    seat: Annotated[int, Meta(description="Seat number (from 0) of the new Boss.")]
    kind: Annotated[str, Meta(description="`\"gold\"` or `\"magic\"`: what was taken (1).")]


class TokenChosen(GameEvent, frozen=True, tag="sc.token_chosen", kw_only=True):
    """The Boss kept one of the two turn-order tokens drawn."""

    seat: Annotated[int, Meta(description="Seat number (from 0) of the Boss.")]
    token: Annotated[int, Meta(description=(
        "The turn-order token kept, 1 to the number of players (1 plays first)."))]


class UnitBought(GameEvent, frozen=True, tag="sc.unit_bought", kw_only=True):
    """A player paid for a unit and deployed it on a start space (``champion``: from the card)."""

    seat: Annotated[int, Meta(description=_SEAT)]
    kind: Annotated[int, Meta(description=(
        "Unit kind id bought: index into `unit_kinds` of the reference data."))]
    space: Annotated[int, Meta(description=_SPACE + " A battlefield start space.")]
    cost: Annotated[int, Meta(description=(
        "Gold paid: the kind's cost, +1 outside the player's own battlefield."))]
    uid: Annotated[int, Meta(description="Unit id given to the new unit.")]
    champion: Annotated[bool, Meta(description=(
        "True when it is the army's champion, bought by playing the champion card (power card "
        "0)."))] = False


class UpgradeBought(GameEvent, frozen=True, tag="sc.upgrade_bought", kw_only=True):
    """A player paid for the battlefield upgrade and built it at their battlefield."""

    seat: Annotated[int, Meta(description=_SEAT)]
    cost: Annotated[int, Meta(description="Gold paid (the army's `upgrade.cost`).")]


class PowerCardBought(GameEvent, frozen=True, tag="sc.power_card_bought", kw_only=True):
    """A player paid 1 gold to draw a power card."""

    seat: Annotated[int, Meta(description=_SEAT)]


class GoldGiven(GameEvent, frozen=True, tag="sc.gold_given", kw_only=True):
    """The Boss gave 1 gold to another player."""

    seat: Annotated[int, Meta(description="Seat number (from 0) of the Boss.")]
    to: Annotated[int, Meta(description="Seat number (from 0) of the player who received it.")]


class BuyingEnded(GameEvent, frozen=True, tag="sc.buying_ended", kw_only=True):
    """A player finished buying and deploying for the turn."""

    seat: Annotated[int, Meta(description=_SEAT)]


class UnitMoved(GameEvent, frozen=True, tag="sc.unit_moved", kw_only=True):
    """A Dark Force unit moved to a space, spending ``cost`` army moves."""

    seat: Annotated[int, Meta(description=_SEAT)]
    unit: Annotated[int, Meta(description=_UNIT)]
    to: Annotated[int, Meta(description=_SPACE + " Its own space for unflipping.")]
    cost: Annotated[int, Meta(description=(
        "Army moves spent, counted on the unit's own moves too: 1 per step, 2 for a long path "
        "or a location move."))]


class TargetAttacked(GameEvent, frozen=True, tag="sc.target_attacked", kw_only=True):
    """A unit started a battle against a unit or a structure."""

    seat: Annotated[int, Meta(description=_SEAT)]
    unit: Annotated[int, Meta(description="Unit id of the attacker.")]
    target: Annotated[int, Meta(description=(
        "Unit id attacked; -1 when a structure was attacked."))] = -1
    structure: Annotated[int, Meta(description=(
        "Structure id attacked (index into `structures` of the reference data); -1 when a "
        "unit was attacked."))] = -1


class PlayerTurnEnded(GameEvent, frozen=True, tag="sc.player_turn_ended", kw_only=True):
    """A player ended their player turn."""

    seat: Annotated[int, Meta(description=_SEAT)]


class BattleMarched(GameEvent, frozen=True, tag="sc.battle_marched", kw_only=True):
    """The victor of a melee battle moved into the space of the unit it destroyed."""

    seat: Annotated[int, Meta(description=(
        "Seat number (from 0) that decided: the unit's owner, or for a defender the holder of "
        "the reference card."))]
    unit: Annotated[int, Meta(description="Unit id of the victor.")]
    to: Annotated[int, Meta(description=_SPACE + " The destroyed unit's space.")]


class PositionHeld(GameEvent, frozen=True, tag="sc.position_held", kw_only=True):
    """The victor of a melee battle stayed where it was instead of battle marching."""

    seat: Annotated[int, Meta(description=(
        "Seat number (from 0) that decided: the unit's owner, or for a defender the holder of "
        "the reference card."))]
    unit: Annotated[int, Meta(description="Unit id of the victor.")]


class DefenderOrdered(GameEvent, frozen=True, tag="sc.defender_ordered", kw_only=True):
    """The controller activated a defender: it moved, then knocked a ladder down or attacked."""

    seat: Annotated[int, Meta(description=_CONTROLLER)]
    unit: Annotated[int, Meta(description="Unit id of the defender (or hero) activated.")]
    to: Annotated[int, Meta(description=_SPACE + " Where it moved (its own space: it stayed).")]
    target: Annotated[int, Meta(description=(
        "Unit id of the Dark Force unit it attacked; -1 for none."))] = -1
    spell: Annotated[int, Meta(description=(
        "Defender spell id it attacked with (index into `defender_spells` of the reference "
        "data); -1 for its own attack."))] = -1
    knock: Annotated[int, Meta(description=(
        "Structure id of the wall whose ladder it knocked down; -1 for none."))] = -1


class SpellsDrawn(GameEvent, frozen=True, tag="sc.spells_drawn", kw_only=True):
    """The controller chose a defender caster to activate; it drew ``count`` spells."""

    seat: Annotated[int, Meta(description=_CONTROLLER)]
    unit: Annotated[int, Meta(description="Unit id of the defender caster.")]
    count: Annotated[int, Meta(description=(
        "Spells it is owed from the defenders' magic deck: 1 for a Battle Mage, 2 for a "
        "Wizard Lord (fewer arrive when deck and discard run out)."))]


class SpellCast(GameEvent, frozen=True, tag="sc.spell_cast", kw_only=True):
    """A player paid ``cost`` magic and cast a spell through a unit at a target or structure."""

    seat: Annotated[int, Meta(description=_SEAT)]
    card: Annotated[int, Meta(description=_POWER_CARD + " The spell cast.")]
    unit: Annotated[int, Meta(description="Unit id the spell came from.")]
    target: Annotated[int, Meta(description=(
        "Unit id aimed at (an enemy for an attack spell, a friend for a ward); -1 when a "
        "structure was struck."))]
    cost: Annotated[int, Meta(description="Magic paid.")]
    structure: Annotated[int, Meta(description=(
        "Structure id struck (index into `structures` of the reference data); -1 when aimed "
        "at a unit."))] = -1


class CounterChosen(GameEvent, frozen=True, tag="sc.counter_chosen", kw_only=True):
    """A target's owner chose how it strikes back: an attack spell (paid) or its own attack."""

    seat: Annotated[int, Meta(description=(
        "Seat number (from 0) of the unit's owner: the target's, or in battle rounds then the "
        "starter's."))]
    card: Annotated[int, Meta(description=(
        _POWER_CARD + " The attack spell struck with; -1 for the unit's own attack."))]
    cost: Annotated[int, Meta(description="Magic paid for the spell; 0 for its own attack.")]


class EquipmentBought(GameEvent, frozen=True, tag="sc.equipment_bought", kw_only=True):
    """A player paid for an equipment card from hand and put its token on a unit."""

    seat: Annotated[int, Meta(description=_SEAT)]
    card: Annotated[int, Meta(description=_POWER_CARD + " The equipment card.")]
    unit: Annotated[int, Meta(description="Unit id that took it.")]
    cost: Annotated[int, Meta(description="Gold paid.")]


class LadderBought(GameEvent, frozen=True, tag="sc.ladder_bought", kw_only=True):
    """A player paid for a ladder and gave it to a unit on a start space."""

    seat: Annotated[int, Meta(description=_SEAT)]
    unit: Annotated[int, Meta(description="Unit id that carries it.")]
    cost: Annotated[int, Meta(description="Gold paid.")]


class EquipmentDropped(GameEvent, frozen=True, tag="sc.equipment_dropped", kw_only=True):
    """A player destroyed a piece of equipment a unit carried."""

    seat: Annotated[int, Meta(description=_SEAT)]
    unit: Annotated[int, Meta(description=_UNIT)]
    card: Annotated[int, Meta(description=(
        "The piece: an equipment power card id (to the discard pile), or 100 for a ladder."))]


class LadderPlaced(GameEvent, frozen=True, tag="sc.ladder_placed", kw_only=True):
    """A unit set its ladder against the front of a wall."""

    seat: Annotated[int, Meta(description=_SEAT)]
    unit: Annotated[int, Meta(description=_UNIT)]
    wall: Annotated[int, Meta(description=_WALL)]


class LadderPickedUp(GameEvent, frozen=True, tag="sc.ladder_picked_up", kw_only=True):
    """A unit picked up the ladder standing against a wall."""

    seat: Annotated[int, Meta(description=_SEAT)]
    unit: Annotated[int, Meta(description=_UNIT)]
    wall: Annotated[int, Meta(description=_WALL)]


class UnitPushed(GameEvent, frozen=True, tag="sc.unit_pushed", kw_only=True):
    """A unit was pushed one space beyond its moves (an Attack 1 on it follows)."""

    seat: Annotated[int, Meta(description=_SEAT)]
    unit: Annotated[int, Meta(description=_UNIT)]
    to: Annotated[int, Meta(description=(
        _SPACE + " Where it goes if it survives the Attack 1."))]
    cost: Annotated[int, Meta(description="Army moves spent (1).")]


class CardPlayed(GameEvent, frozen=True, tag="sc.card_played", kw_only=True):
    """A player played a remain-in-play power card."""

    seat: Annotated[int, Meta(description=_SEAT)]
    card: Annotated[int, Meta(description=_POWER_CARD + " Now in the player's `in_play`.")]


class _CardEffects(GameEvent, frozen=True, kw_only=True):
    """The values a played card decided: gains, draws, moves, bonuses, units healed, flipped."""

    seat: Annotated[int, Meta(description=_SEAT)]
    card: Annotated[int, Meta(description=(
        "The card played: in PowerCardPlayed a power card id (index into "
        "`power_cards[army]` of the reference data), in BossCardPlayed a Boss card id "
        "(index into `boss_cards`)."))]
    gold: Annotated[int, Meta(description="Gold gained (after the cap of 10).")] = 0
    magic: Annotated[int, Meta(description="Magic gained (after the cap of 10).")] = 0
    drawn: Annotated[int, Meta(description=(
        "Power cards taken from the top of the player's deck (which ones stays secret)."))] = 0
    moves: Annotated[int, Meta(description="Army moves added to this player turn.")] = 0
    fury: Annotated[int, Meta(description=(
        "Attack dice added to each of the player's units until the next Collect."))] = 0
    guard: Annotated[int, Meta(description=(
        "Armor dice added to each of the player's units until the next Collect."))] = 0
    heal: Annotated[int, Meta(description=(
        "Damage removed from each unit in `healed` (never below 0)."))] = 0
    healed: Annotated[list[int], Meta(description=(
        "Unit ids of the player's damaged units that were healed, ascending."))] = []
    flipped: Annotated[list[int], Meta(description=(
        "Unit ids of the defenders flipped, nearest the keep first."))] = []


class PowerCardPlayed(_CardEffects, frozen=True, tag="sc.power_card_played", kw_only=True):
    """A player played an action or common power card, with the values it decided."""


class BossCardPlayed(_CardEffects, frozen=True, tag="sc.boss_card_played", kw_only=True):
    """A player played a Boss card from their Boss hand, with the values it decided."""


class HeroPlaced(GameEvent, frozen=True, tag="sc.hero_placed", kw_only=True):
    """The controller put the summoned hero on a space (destroying a unit there, if any)."""

    seat: Annotated[int, Meta(description=_CONTROLLER)]
    kind: Annotated[int, Meta(description=(
        "Unit kind id of the hero drawn: index into `unit_kinds` of the reference data (one "
        "of `heroes`)."))]
    space: Annotated[int, Meta(description=_SPACE)]
    uid: Annotated[int, Meta(description="Unit id given to the hero.")]


class PowerCardDiscarded(GameEvent, frozen=True, tag="sc.power_card_discarded", kw_only=True):
    """A player discarded a power card down to the hand limit."""

    seat: Annotated[int, Meta(description=_SEAT)]
    card: Annotated[int, Meta(description=(
        _POWER_CARD + " Taken from the hand, the exhausted spells or the cards in play."))]


class BossCardDiscarded(GameEvent, frozen=True, tag="sc.boss_card_discarded", kw_only=True):
    """A player holding more than three Boss cards at wrap-up discarded one (down to three)."""

    seat: Annotated[int, Meta(description=_SEAT)]
    card: Annotated[int, Meta(description=_BOSS_CARD)]


EVENT_TYPES: tuple[type[GameEvent], ...] = (
    ArmyChosen, BattlefieldChosen, DefenderPlaced, GoldBid, TieBroken, BossCardKept,
    BossLootTaken, TokenChosen, UnitBought, UpgradeBought, PowerCardBought, GoldGiven,
    BuyingEnded, UnitMoved, TargetAttacked, PlayerTurnEnded, BattleMarched, PositionHeld,
    DefenderOrdered, PowerCardDiscarded, BossCardDiscarded, SpellsDrawn, SpellCast,
    CounterChosen, EquipmentBought, LadderBought, EquipmentDropped, LadderPlaced, LadderPickedUp,
    UnitPushed, CardPlayed, HeroPlaced, PowerCardPlayed, BossCardPlayed,
)
