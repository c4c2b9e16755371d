"""What one seat may know: the whole board, minus the secrets.

Secret: every other seat's power and Boss cards (only counts show), every deck's order and the
defender pool's order (only sizes), the turn's event cards until each is turned up, the gold
bids of the Boss vote until every seat has bid (only who has bid shows), and the cards and
tokens the Boss draws to choose from (the Boss's alone), the order of the defenders' magic deck
and of the heroes not yet summoned. Everything on the board is open, and so are cast
(exhausted) spells, remain-in-play cards, equipment and the spells a defender caster drew.
Views are built from copies, so a view never changes when the state moves on. The board graph
itself is static data: :data:`siege.games.storm_castle.board.BOARD`, published with every other
table the view's ids point into as the game's reference data (``reference.py``).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from siege.engine.protocol import own
from siege.games.storm_castle.armies import DEFENDER_TOKENS, UNIT_KINDS
from siege.games.storm_castle.board import NOBODY, STRUCTURES
from siege.games.storm_castle.rules import equipment, terrain
from siege.games.storm_castle.rules.battle import structure_health
from siege.games.storm_castle.rules.economy import base_votes, held
from siege.games.storm_castle.rules.scoring import Vilest, vilest
from siege.games.storm_castle.state import State, Unit

_PER_SEAT = "One entry per seat, in seat order: "
_SPACE = "Board space id: index into `spaces` of the game's reference data."
_POWER_CARDS = ("Power card ids: indexes into `power_cards[army]` of the reference data, "
                "`army` being that seat's entry in `armies`.")


class StormUnitView(msgspec.Struct, frozen=True, kw_only=True):
    """A unit on the board (Dark Force unit, defender, peasant or hero), with its dice as they
    stand now. Every unit is open to every seat."""

    uid: Annotated[int, Meta(description=(
        "Unit id, unique in the match and never reused; the id that actions and events "
        "name."))]
    kind: Annotated[int, Meta(description=(
        "Unit kind id: index into `unit_kinds` of the reference data (cost, attack, health, "
        "range, traits)."))]
    name: Annotated[str, Meta(description="The kind's name, as in `unit_kinds`.")]
    owner: Annotated[int, Meta(description=(
        "Seat number (from 0) of the player owning it, or -2 for the defenders (defenders, "
        "peasants and the hero)."))]
    space: Annotated[int, Meta(description=_SPACE)]
    damage: Annotated[int, Meta(description=(
        "Damage taken so far; the unit is destroyed when it reaches `health`."))]
    health: Annotated[int, Meta(description="The kind's health: damage that destroys it.")]
    attack: Annotated[int, Meta(description=(
        "Attack dice now: the kind's attack plus its equipment and fury cards (a flipped unit "
        "shows the kind's attack alone). The first die is the Burst die."))]
    range: Annotated[int, Meta(description=(
        "The kind's range in spaces (board edges), 0 for melee; a defender shooter on a tower "
        "gets 1 more outside the introductory game, not shown here."))]
    flipped: Annotated[bool, Meta(description=(
        "Flipped (stunned): it cannot move, attack, strike back, cast, roll armor or hold a "
        "location, and attacks on it roll one more die."))]
    moved: Annotated[int, Meta(description=(
        "Moves the unit spent this game turn: 2 allowed, a push adds a third (a defender: "
        "in its latest activation); reset at Collect."))]
    attacked: Annotated[bool, Meta(description=(
        "It attacked this game turn (a defender: in its latest activation)."))]
    done: Annotated[bool, Meta(description=(
        "It may not move again this turn: it attacked, cast, battle marched or fought battle "
        "rounds on arrival, or another unit of its owner moved after it."))]
    countered: Annotated[bool, Meta(description=(
        "It already struck back in the current counterattack window (a player turn, an "
        "Onward March, a buy step), so it cannot again."))]
    gear: Annotated[list[int], Meta(description=(
        "Equipment carried, at most 2: equipment power card ids (14-16, in `power_cards` of "
        "the owner's army) and 100 for a ladder."))]
    ward: Annotated[int, Meta(description=(
        "Extra armor dice from a ward spell or a guard card, until the next Collect."))]
    armor: Annotated[int, Meta(description=(
        "Armor dice now: the kind's armor, its equipment and `ward` (0 while flipped); cover "
        "from walls and towers comes on top in battle."))]
    on_ladder: Annotated[int, Meta(description=(
        "Structure id of the wall whose ladder the unit is on (index into `structures` of the "
        "reference data), -1 for none."))]


class StormStructureView(msgspec.Struct, frozen=True, kw_only=True):
    """A structure (castle wall, keep wall, castle building or battlefield upgrade site): one
    per entry of `structures` in the reference data, with its state now."""

    id: Annotated[int, Meta(description=(
        "Structure id: index into `structures` of the reference data (its name, side, front "
        "and drawing position)."))]
    kind: Annotated[str, Meta(description=(
        "`\"wall\"`, `\"keep_wall\"`, `\"building\"` or `\"upgrade\"` (a battlefield upgrade "
        "site)."))]
    standing: Annotated[bool, Meta(description=(
        "True while it stands; false once destroyed, and for an upgrade site until its "
        "battlefield's owner builds the upgrade."))]
    damage: Annotated[int, Meta(description=(
        "Damage on it; it falls when damage reaches `health` (repair events remove some)."))]
    health: Annotated[int, Meta(description=(
        "Damage that destroys it: 3, or 2 for a castle wall in the introductory game."))]


class StormBattleView(msgspec.Struct, frozen=True, kw_only=True):
    """The battle under way: who fights whom, and the roll being made now."""

    attacker: Annotated[int, Meta(description=(
        "Unit id of the attacking unit (the one that started battle rounds); -1 for an "
        "Attack X outside battle (a collapsing wall, a push, a ladder knocked down)."))]
    target: Annotated[int, Meta(description=(
        "Unit id of the unit attacked; -1 when a structure is attacked."))]
    structure: Annotated[int, Meta(description=(
        "Structure id attacked (index into `structures` of the reference data); -1 when a "
        "unit is attacked."))]
    rounds: Annotated[bool, Meta(description=(
        "Battle rounds: two units in one space fight round after round until one is left."))]
    round: Annotated[int, Meta(description="Round number in battle rounds, from 0; 0 otherwise.")]
    striker: Annotated[int, Meta(description=(
        "Unit id whose strike is being rolled; -1 for an Attack X outside battle; -2 when no "
        "roll is under way."))]
    step: Annotated[str, Meta(description=(
        "The roll being made: `\"attack\"`, `\"critical\"` (the 3 extra dice of a Burst "
        "critical) or `\"defense\"` (the victim's armor and cover); `\"\"` when none (see "
        "`codes.strike_steps` of the reference data)."))]
    hits: Annotated[int, Meta(description=(
        "Hits of the strike so far: after the defense roll, the hits left once its cancels "
        "are taken off; 0 when no roll is under way."))]


class StormMarchView(msgspec.Struct, frozen=True, kw_only=True):
    """The Onward March being resolved: which defenders have acted and how many still may."""

    card: Annotated[int, Meta(description=(
        "Event card id of the Onward March (index into `event_cards` of the reference data); "
        "-1 for the hero's own Onward March 1."))]
    left: Annotated[int, Meta(description="Activations still to make.")]
    activated: Annotated[list[int], Meta(description=(
        "Unit ids of the defenders activated so far in this march, in order (each at most "
        "once)."))]
    caster: Annotated[int, Meta(description=(
        "Unit id of the defender caster whose spells were drawn and that awaits its order; "
        "-1 for none."))]


class StormLadderView(msgspec.Struct, frozen=True, kw_only=True):
    """A ladder standing against the front of a wall."""

    wall: Annotated[int, Meta(description=(
        "Structure id of the castle wall or keep wall it stands against (index into "
        "`structures` of the reference data)."))]
    owner: Annotated[int, Meta(description="Seat number (from 0) whose ladder it is.")]
    placer: Annotated[int, Meta(description=(
        "Unit id of the unit that placed it (it may since have left or been destroyed)."))]


class StormOfferView(msgspec.Struct, frozen=True, kw_only=True):
    """A battle march on offer: the victor of a melee battle may move into the emptied space."""

    unit: Annotated[int, Meta(description="Unit id of the victor.")]
    to: Annotated[int, Meta(description=_SPACE + " The space of the unit it destroyed.")]
    seat: Annotated[int, Meta(description=(
        "Seat number (from 0) who decides: the unit's owner, or for a defender the holder of "
        "the reference card."))]


class StormView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's view of a Storm the Castle! match: the whole board (every unit, structure
    and ladder), every open pile and count, and the secrets masked. Hidden: other seats' power
    and Boss cards (`hand` and `boss_hand` are this seat's own; other seats show only sizes),
    the order of every deck and of the defender pool (sizes only), this turn's event cards
    until each is turned up (`event_row_size`, `revealed`), the gold bids until every seat has
    bid (`bids_in`), the Boss's offered cards and tokens (empty except in the Boss's view) and
    the heroes not yet summoned. Per-seat lists have one entry per seat, in seat order; -1
    means none wherever a seat, unit, card or space id is expected. Ids point into the game's
    reference data (`docs/contract/games/storm-the-castle.json`)."""

    seat: Annotated[int, Meta(description=(
        "The seat this view is for (seat number from 0); -1 for a spectator (no seat: nobody's "
        "secrets, `hand`, `boss_hand` and the Boss's offer empty)."))]
    players: Annotated[int, Meta(description="Number of seats, 1 to 4.")]
    intro: Annotated[bool, Meta(description=(
        "The introductory game (match option `intro` = `\"1\"`): castle walls of health 2, "
        "towers without cover or range, no peasants, no hero, four fixed tower defenders."))]
    phase: Annotated[str, Meta(description=(
        "Phase of the game turn: `setup`, `collect`, `vote`, `boss`, `order`, `buy`, "
        "`reinforce`, `events`, `turns`, `wrapup` or `over` (meanings in `codes.phases` of "
        "the reference data)."))]
    asking: Annotated[str, Meta(description=(
        "What the open decision is about: `army`, `battlefield`, `place`, `bid`, `tie`, "
        "`boss_card`, `ousted_card`, `loot`, `token`, `buy`, `act`, `march`, `order`, "
        "`discard`, `boss_discard`, `counter`, `hero`, or `\"\"` when nobody is asked "
        "(`codes.asking` of the reference data names the actions for each)."))]
    step: Annotated[str, Meta(description=(
        "Step of the current player's turn in the `turns` phase: `begin`, `act` or `end`; "
        "`\"\"` before the first turns phase and after the last player's turn."))]
    decision: Annotated[int, Meta(description=(
        "The current decision number: it grows by one at every decision point and chance "
        "request; the Boss vote asks every seat under one number."))]
    waiting: Annotated[list[int], Meta(description=(
        "Seat numbers asked to act now (every seat not yet bid during the Boss vote, else at "
        "most one); empty while chance is awaited."))]
    chance: Annotated[str, Meta(description=(
        "Purpose of the chance answer awaited (a shuffle such as `events` or `power_0`, dice "
        "such as `attack:12`; every pattern in `codes.chance` of the reference data), `\"\"` "
        "when none."))]
    turn: Annotated[int, Meta(description="Game turn, 1 to 8; 0 during set-up.")]
    winner: Annotated[int, Meta(description=(
        "Seat number whose unit entered the keep (winning at once); -1 while nobody has."))]
    armies: Annotated[list[int], Meta(description=(
        _PER_SEAT + "army id (index into `armies` of the reference data), -1 until chosen."))]
    battlefields: Annotated[list[int], Meta(description=(
        _PER_SEAT + "battlefield by castle side 0-3 (index into `battlefields` of the "
        "reference data), -1 until chosen."))]
    setup_tokens: Annotated[list[int], Meta(description=(
        _PER_SEAT + "set-up token, 1 to `players` (1 chooses first and wins a first-vote "
        "tie); empty until they are shuffled."))]
    tokens: Annotated[list[int], Meta(description=(
        _PER_SEAT + "turn-order token of the latest deal, 1 to `players` (1 plays first); 0 "
        "before the first deal."))]
    order: Annotated[list[int], Meta(description=(
        "Seat numbers in this game turn's order (ascending turn-order token); empty before "
        "the first deal."))]
    current: Annotated[int, Meta(description=(
        "Index into `order` of the player whose buy step or player turn it is (not a seat "
        "number); -1 during set-up, 0 outside the `buy` and `turns` phases."))]
    boss: Annotated[int, Meta(description="Seat number of the Boss; -1 before the first vote.")]
    ref_holder: Annotated[int, Meta(description=(
        "Seat number holding the defenders' reference card, who makes the defenders' "
        "choices; -1 when no seat holds it (the solo game: the rules choose)."))]
    gold: Annotated[list[int], Meta(description=_PER_SEAT + "gold held, 0 to 10.")]
    magic: Annotated[list[int], Meta(description=_PER_SEAT + "magic held, 0 to 10.")]
    hand: Annotated[list[int], Meta(description=(
        "This seat's own power cards in hand, ascending. " + _POWER_CARDS))]
    hand_sizes: Annotated[list[int], Meta(description=_PER_SEAT + "power cards in hand.")]
    deck_sizes: Annotated[list[int], Meta(description=(
        _PER_SEAT + "power cards left in the deck (its order is secret)."))]
    discards: Annotated[list[list[int]], Meta(description=(
        _PER_SEAT + "the power discard pile, ascending (open). " + _POWER_CARDS))]
    boss_hand: Annotated[list[int], Meta(description=(
        "This seat's own Boss cards, ascending: Boss card ids, indexes into `boss_cards` of "
        "the reference data."))]
    boss_hand_sizes: Annotated[list[int], Meta(description=_PER_SEAT + "Boss cards held.")]
    boss_offer: Annotated[list[int], Meta(description=(
        "Boss card ids drawn for the Boss to keep one of, ascending; shown in the Boss's own "
        "view only (empty for every other seat)."))]
    boss_offer_tokens: Annotated[list[int], Meta(description=(
        "The two turn-order tokens drawn for the Boss to keep one of, ascending; shown in "
        "the Boss's own view only."))]
    boss_deck_size: Annotated[int, Meta(description="Cards left in the Boss deck.")]
    boss_discard_size: Annotated[int, Meta(description="Cards in the Boss discard pile.")]
    bids_in: Annotated[list[bool], Meta(description=(
        _PER_SEAT + "true once that seat has bid in the vote under way; the amounts stay "
        "sealed until every seat has bid."))]
    last_bids: Annotated[list[int], Meta(description=(
        _PER_SEAT + "gold bid in the latest Boss vote, revealed; empty before the first "
        "vote and in the solo game."))]
    last_votes: Annotated[list[int], Meta(description=(
        _PER_SEAT + "total votes in the latest Boss vote (base votes plus gold bid); empty "
        "before the first vote and in the solo game."))]
    base_votes: Annotated[list[int], Meta(description=(
        _PER_SEAT + "votes before gold: 1, plus walls taken, upgrade built, champion in play "
        "(unflipped), one per 3 defenders slain and 1 for a hero slain; all 0 before the "
        "deal."))]
    units: Annotated[list[StormUnitView], Meta(description=(
        "Every unit on the board (Dark Force units, defenders, peasants, the hero), by "
        "ascending unit id."))]
    structures: Annotated[list[StormStructureView], Meta(description=(
        "Every structure, one per entry of `structures` in the reference data, in id "
        "order."))]
    walls_taken: Annotated[list[int], Meta(description=(
        _PER_SEAT + "castle and keep walls that seat destroyed (its trophies)."))]
    defenders_slain: Annotated[list[int], Meta(description=(
        _PER_SEAT + "defenders that seat destroyed, the hero included, peasants never."))]
    buildings_taken: Annotated[list[int], Meta(description=(
        _PER_SEAT + "castle buildings that seat destroyed."))]
    vilest: Annotated[list[Vilest], Meta(description=(
        _PER_SEAT + "the vilest ranking's points, part by part; they rank everyone but the "
        "player who entered the keep."))]
    defender_pool_size: Annotated[int, Meta(description=(
        "Defender tokens left in the pool (its order is secret)."))]
    to_place: Annotated[list[int], Meta(description=(
        "Unit kind ids (index into `unit_kinds` of the reference data) of the defender drawn "
        "and waiting to be placed: one entry while asking `place`, else empty."))]
    event_deck_size: Annotated[int, Meta(description="Cards left in the event deck.")]
    event_discard: Annotated[list[int], Meta(description=(
        "Event card ids in the event discard pile, ascending: indexes into `event_cards` of "
        "the reference data."))]
    event_row_size: Annotated[int, Meta(description=(
        "This game turn's event cards drawn, face down and turned up alike."))]
    revealed: Annotated[list[int], Meta(description=(
        "Event card ids turned up so far this game turn, in the order they resolved."))]
    event_plan: Annotated[list[int], Meta(description=(
        "Slot code of each of this turn's event cards, in resolving order: 2i at the start "
        "and 2i+1 at the end of the turn of the player at index i of `order`."))]
    event_next: Annotated[int, Meta(description=(
        "Index into `event_plan` of the event card resolving now or next; the cards before "
        "it are done."))]
    magic_deck_size: Annotated[int, Meta(description=(
        "Cards left in the defenders' magic deck (its order is secret)."))]
    army_moves: Annotated[int, Meta(description=(
        "Army moves left to the current player this player turn: 5 at its start, +1 per War "
        "Drums in play, plus card effects."))]
    last_mover: Annotated[int, Meta(description=(
        "Unit id of the unit that moved last this player turn (moving another unit ends its "
        "movement); -1 for none."))]
    battle: Annotated[StormBattleView | None, Meta(description=(
        "The battle under way, or null."))]
    march: Annotated[StormMarchView | None, Meta(description=(
        "The Onward March being resolved, or null."))]
    offer: Annotated[StormOfferView | None, Meta(description=(
        "The battle march on offer, or null."))]
    exhausted: Annotated[list[list[int]], Meta(description=(
        _PER_SEAT + "spells cast and exhausted, back in hand at the next Collect, ascending "
        "(open). " + _POWER_CARDS))]
    in_play: Annotated[list[list[int]], Meta(description=(
        _PER_SEAT + "remain-in-play cards in front of that player, ascending (open). "
        + _POWER_CARDS))]
    held_sizes: Annotated[list[int], Meta(description=(
        _PER_SEAT + "cards counting for the hand limit: hand, exhausted and in play (limit "
        "3, 5 with the +2 Hand location, checked at wrap-up)."))]
    ladders: Annotated[list[StormLadderView], Meta(description=(
        "Ladders standing against walls, by ascending wall id."))]
    ladders_in_use: Annotated[list[int], Meta(description=(
        _PER_SEAT + "ladders carried by its units plus those it has standing, at most 3."))]
    drawn_spells: Annotated[list[int], Meta(description=(
        "Spells the active defender caster drew, face up, ascending: indexes into "
        "`defender_spells` of the reference data."))]
    magic_discard: Annotated[list[int], Meta(description=(
        "The defenders' magic discard pile, ascending: indexes into `defender_spells`."))]
    counter_spell: Annotated[int, Meta(description=(
        "In the battle under way, the attack spell the target strikes back with: a power card "
        "id of the target owner's army; -1 for none."))]
    battle_spell: Annotated[int, Meta(description=(
        "In the battle under way, the attack spell the attacker strikes with (cast, or the "
        "starter's choice in battle rounds): a power card id of its owner's army, or a "
        "`defender_spells` id for a defender; -1 for none."))]
    hero: Annotated[int, Meta(description=(
        "Unit id of the defenders' hero, -1 when not in play."))]
    hero_summoned: Annotated[bool, Meta(description=(
        "The hero has been summoned this game (it comes at most once)."))]
    summoning: Annotated[str, Meta(description=(
        "What paused the game to summon the hero: `wall` (the ninth wall fell), `keep` (a "
        "unit was about to enter the keep) or `attack` (a unit was about to attack the "
        "keep's defender); `\"\"` when nothing."))]
    heroes_slain: Annotated[list[int], Meta(description=(
        _PER_SEAT + "heroes that seat destroyed (one is worth a vote)."))]


def _unit(state: State, unit: Unit) -> StormUnitView:
    kind = UNIT_KINDS[unit.kind]
    return StormUnitView(
        uid=unit.uid, kind=kind.id, name=kind.name, owner=unit.owner, space=unit.space,
        damage=unit.damage, health=kind.health, attack=terrain.attack_dice(unit),
        range=kind.range, flipped=unit.flipped, moved=unit.moved, attacked=unit.attacked,
        done=unit.done, countered=unit.countered, gear=list(unit.gear), ward=unit.ward,
        armor=terrain.armor(unit), on_ladder=terrain.on_ladder(state, unit))


def view_for(state: State, seat: int) -> StormView:
    n = state.players
    fight = state.battle
    march = state.march
    offer = state.offer
    is_boss = seat >= 0 and seat == state.boss  # no boss yet is NOBODY, -1, as a spectator is
    ready = state.dealt
    return StormView(
        seat=seat, players=n, intro=state.intro, phase=state.phase, asking=state.asking,
        step=state.step, decision=state.decision, waiting=list(state.waiting),
        chance=state.chance.purpose if state.chance is not None else "",
        turn=state.turn, winner=state.winner,
        armies=list(state.armies), battlefields=list(state.battlefields),
        setup_tokens=list(state.setup_tokens), tokens=list(state.tokens),
        order=list(state.order), current=state.current, boss=state.boss,
        ref_holder=state.ref_holder, gold=list(state.gold), magic=list(state.magic),
        hand=sorted(own(state.hands, seat, [])), hand_sizes=[len(h) for h in state.hands],
        deck_sizes=[len(d) for d in state.decks],
        discards=[sorted(d) for d in state.discards],
        boss_hand=sorted(own(state.boss_hands, seat, [])),
        boss_hand_sizes=[len(h) for h in state.boss_hands],
        boss_offer=sorted(state.boss_offer) if is_boss else [],
        boss_offer_tokens=sorted(state.boss_offer_tokens) if is_boss else [],
        boss_deck_size=len(state.boss_deck), boss_discard_size=len(state.boss_discard),
        bids_in=[b != NOBODY for b in state.bids], last_bids=list(state.last_bids),
        last_votes=list(state.last_votes),
        base_votes=[base_votes(state, s) if ready else 0 for s in range(n)],
        units=[_unit(state, u) for _, u in sorted(state.units.items())],
        structures=[StormStructureView(id=s.id, kind=s.kind, standing=state.standing[s.id],
                                       damage=state.structure_damage[s.id],
                                       health=structure_health(state, s.id))
                    for s in STRUCTURES],
        walls_taken=list(state.walls_taken), defenders_slain=list(state.defenders_slain),
        buildings_taken=list(state.buildings_taken),
        vilest=[vilest(state, s) for s in range(n)],
        defender_pool_size=len(state.defender_pool),
        to_place=[DEFENDER_TOKENS[t] for t in state.to_place],
        event_deck_size=len(state.event_deck), event_discard=sorted(state.event_discard),
        event_row_size=len(state.event_row), revealed=list(state.revealed),
        event_plan=list(state.event_plan), event_next=state.event_next,
        magic_deck_size=len(state.magic_deck), army_moves=state.army_moves,
        last_mover=state.last_mover,
        battle=None if fight is None else StormBattleView(
            attacker=fight.attacker, target=fight.target, structure=fight.structure,
            rounds=fight.rounds, round=fight.round,
            striker=fight.strike.striker if fight.strike is not None else -2,
            step=fight.strike.step if fight.strike is not None else "",
            hits=fight.strike.hits if fight.strike is not None else 0),
        march=None if march is None else StormMarchView(
            card=march.card, left=march.left, activated=list(march.activated),
            caster=march.caster),
        offer=None if offer is None else StormOfferView(unit=offer.unit, to=offer.to,
                                                        seat=offer.seat),
        exhausted=[sorted(x) for x in state.exhausted],
        in_play=[sorted(x) for x in state.in_play],
        held_sizes=[len(held(state, s)) for s in range(n)],
        ladders=[StormLadderView(wall=w, owner=x.owner, placer=x.placer)
                 for w, x in sorted(state.ladders.items())],
        ladders_in_use=[equipment.ladders_in_use(state, s) for s in range(n)],
        drawn_spells=sorted(state.drawn_spells), magic_discard=sorted(state.magic_discard),
        counter_spell=fight.counter_spell if fight is not None else -1,
        battle_spell=fight.spell if fight is not None else -1,
        hero=state.hero, hero_summoned=state.hero_summoned,
        summoning=state.summon.reason if state.summon is not None else "",
        heroes_slain=list(state.heroes_slain),
    )
