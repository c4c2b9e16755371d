"""Storm the Castle! events: what a seat chose, in the past tense, with pinned ``sc.*`` tags and
every value decided at the time (prices paid, unit ids given out).

Automatic steps (Collect, dealing, the vote count, reinforcement draws, battles' dice results,
the defenders' choices when the rules make them) are not events: they follow from earlier
events and chance answers, and ``evolve`` redoes them on every fold.
"""

from __future__ import annotations

from siege.contracts.events import GameEvent


class ArmyChosen(GameEvent, frozen=True, tag="sc.army_chosen", kw_only=True):
    """A player took a Dark Force army at set-up."""

    seat: int
    army: int


class BattlefieldChosen(GameEvent, frozen=True, tag="sc.battlefield_chosen", kw_only=True):
    """A player took the battlefield the army starts at."""

    seat: int
    battlefield: int


class DefenderPlaced(GameEvent, frozen=True, tag="sc.defender_placed", kw_only=True):
    """The controller placed the drawn defender (``swapped``: in the keep, that guard out)."""

    seat: int
    token: int
    space: int
    uid: int
    swapped: int = -1


class GoldBid(GameEvent, frozen=True, tag="sc.gold_bid", kw_only=True):
    """A player's secret gold for the Boss vote (sealed in every view until all have bid)."""

    seat: int
    gold: int


class TieBroken(GameEvent, frozen=True, tag="sc.tie_broken", kw_only=True):
    """The current Boss chose the new Boss among the players tied on votes."""

    seat: int
    boss: int


class BossCardKept(GameEvent, frozen=True, tag="sc.boss_card_kept", kw_only=True):
    """The Boss kept one Boss card on offer; the others went to the Boss discard pile."""

    seat: int
    card: int


class BossLootTaken(GameEvent, frozen=True, tag="sc.boss_loot_taken", kw_only=True):
    """The new Boss took 1 gold or 1 magic from the loot for ousting the old one."""

    seat: int
    kind: str


class TokenChosen(GameEvent, frozen=True, tag="sc.token_chosen", kw_only=True):
    """The Boss kept one of the two turn-order tokens drawn."""

    seat: int
    token: int


class UnitBought(GameEvent, frozen=True, tag="sc.unit_bought", kw_only=True):
    """A player paid for a unit and deployed it on a start space (``champion``: from the card)."""

    seat: int
    kind: int
    space: int
    cost: int
    uid: int
    champion: bool = False


class UpgradeBought(GameEvent, frozen=True, tag="sc.upgrade_bought", kw_only=True):
    """A player paid for the battlefield upgrade and built it at their battlefield."""

    seat: int
    cost: int


class PowerCardBought(GameEvent, frozen=True, tag="sc.power_card_bought", kw_only=True):
    """A player paid 1 gold to draw a power card."""

    seat: int


class GoldGiven(GameEvent, frozen=True, tag="sc.gold_given", kw_only=True):
    """The Boss gave 1 gold to another player."""

    seat: int
    to: int


class BuyingEnded(GameEvent, frozen=True, tag="sc.buying_ended", kw_only=True):
    """A player finished buying and deploying for the turn."""

    seat: int


class UnitMoved(GameEvent, frozen=True, tag="sc.unit_moved", kw_only=True):
    """A Dark Force unit moved to a space, spending ``cost`` army moves."""

    seat: int
    unit: int
    to: int
    cost: int


class TargetAttacked(GameEvent, frozen=True, tag="sc.target_attacked", kw_only=True):
    """A unit started a battle against a unit or a structure."""

    seat: int
    unit: int
    target: int = -1
    structure: int = -1


class PlayerTurnEnded(GameEvent, frozen=True, tag="sc.player_turn_ended", kw_only=True):
    """A player ended their player turn."""

    seat: int


class BattleMarched(GameEvent, frozen=True, tag="sc.battle_marched", kw_only=True):
    """The victor of a melee battle moved into the space of the unit it destroyed."""

    seat: int
    unit: int
    to: int


class PositionHeld(GameEvent, frozen=True, tag="sc.position_held", kw_only=True):
    """The victor of a melee battle stayed where it was instead of battle marching."""

    seat: int
    unit: int


class DefenderOrdered(GameEvent, frozen=True, tag="sc.defender_ordered", kw_only=True):
    """The controller activated a defender: it moved, then knocked a ladder down or attacked."""

    seat: int
    unit: int
    to: int
    target: int = -1
    spell: int = -1
    knock: int = -1


class SpellsDrawn(GameEvent, frozen=True, tag="sc.spells_drawn", kw_only=True):
    """The controller chose a defender caster to activate; it drew ``count`` spells."""

    seat: int
    unit: int
    count: int


class SpellCast(GameEvent, frozen=True, tag="sc.spell_cast", kw_only=True):
    """A player paid ``cost`` magic and cast a spell through a unit at a target or structure."""

    seat: int
    card: int
    unit: int
    target: int
    cost: int
    structure: int = -1


class CounterChosen(GameEvent, frozen=True, tag="sc.counter_chosen", kw_only=True):
    """A target's owner chose how it strikes back: an attack spell (paid) or its own attack."""

    seat: int
    card: int
    cost: int


class EquipmentBought(GameEvent, frozen=True, tag="sc.equipment_bought", kw_only=True):
    """A player paid for an equipment card from hand and put its token on a unit."""

    seat: int
    card: int
    unit: int
    cost: int


class LadderBought(GameEvent, frozen=True, tag="sc.ladder_bought", kw_only=True):
    """A player paid for a ladder and gave it to a unit on a start space."""

    seat: int
    unit: int
    cost: int


class EquipmentDropped(GameEvent, frozen=True, tag="sc.equipment_dropped", kw_only=True):
    """A player destroyed a piece of equipment a unit carried."""

    seat: int
    unit: int
    card: int


class LadderPlaced(GameEvent, frozen=True, tag="sc.ladder_placed", kw_only=True):
    """A unit set its ladder against the front of a wall."""

    seat: int
    unit: int
    wall: int


class LadderPickedUp(GameEvent, frozen=True, tag="sc.ladder_picked_up", kw_only=True):
    """A unit picked up the ladder standing against a wall."""

    seat: int
    unit: int
    wall: int


class UnitPushed(GameEvent, frozen=True, tag="sc.unit_pushed", kw_only=True):
    """A unit was pushed one space beyond its moves (an Attack 1 on it follows)."""

    seat: int
    unit: int
    to: int
    cost: int


class CardPlayed(GameEvent, frozen=True, tag="sc.card_played", kw_only=True):
    """A player played a remain-in-play power card."""

    seat: int
    card: int


class _CardEffects(GameEvent, frozen=True, kw_only=True):
    """The values a played card decided: gains, draws, moves, bonuses, units healed, flipped."""

    seat: int
    card: int
    gold: int = 0  # gained (after the cap)
    magic: int = 0
    drawn: int = 0  # cards taken from the top of the deck
    moves: int = 0
    fury: int = 0  # attack dice per unit until the next Collect
    guard: int = 0  # armor dice per unit until the next Collect
    heal: int = 0  # damage removed from each unit in ``healed``
    healed: list[int] = []
    flipped: list[int] = []  # defender unit ids


class PowerCardPlayed(_CardEffects, frozen=True, tag="sc.power_card_played", kw_only=True):
    """A player played an action or common power card, with the values it decided."""


class BossCardPlayed(_CardEffects, frozen=True, tag="sc.boss_card_played", kw_only=True):
    """The Boss played a Boss card, with the values it decided."""


class HeroPlaced(GameEvent, frozen=True, tag="sc.hero_placed", kw_only=True):
    """The controller put the summoned hero on a space (destroying a unit there, if any)."""

    seat: int
    kind: int
    space: int
    uid: int


class PowerCardDiscarded(GameEvent, frozen=True, tag="sc.power_card_discarded", kw_only=True):
    """A player discarded a power card down to the hand limit."""

    seat: int
    card: int


class BossCardDiscarded(GameEvent, frozen=True, tag="sc.boss_card_discarded", kw_only=True):
    """The Boss discarded a Boss card down to three."""

    seat: int
    card: int


EVENT_TYPES: tuple[type[GameEvent], ...] = (
    ArmyChosen, BattlefieldChosen, DefenderPlaced, GoldBid, TieBroken, BossCardKept,
    BossLootTaken, TokenChosen, UnitBought, UpgradeBought, PowerCardBought, GoldGiven,
    BuyingEnded, UnitMoved, TargetAttacked, PlayerTurnEnded, BattleMarched, PositionHeld,
    DefenderOrdered, PowerCardDiscarded, BossCardDiscarded, SpellsDrawn, SpellCast,
    CounterChosen, EquipmentBought, LadderBought, EquipmentDropped, LadderPlaced, LadderPickedUp,
    UnitPushed, CardPlayed, HeroPlaced, PowerCardPlayed, BossCardPlayed,
)
