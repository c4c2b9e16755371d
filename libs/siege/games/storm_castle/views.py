"""What one seat may know: the whole board, minus the secrets.

Secret: every other seat's power and Boss cards (only counts show), every deck's order and the
defender pool's order (only sizes), the turn's event cards until each is turned up, the gold
bids of the Boss vote until every seat has bid (only who has bid shows), and the cards and
tokens the Boss draws to choose from (the Boss's alone), the order of the defenders' magic deck
and of the heroes not yet summoned. Everything on the board is open, and so are cast
(exhausted) spells, remain-in-play cards, equipment and the spells a defender caster drew.
Views are built from copies, so a view never changes when the state moves on. The board graph
itself is static data: :data:`siege.games.storm_castle.board.BOARD`.
"""

from __future__ import annotations

import msgspec

from siege.games.storm_castle.armies import DEFENDER_TOKENS, UNIT_KINDS
from siege.games.storm_castle.board import NOBODY, STRUCTURES
from siege.games.storm_castle.rules import equipment, terrain
from siege.games.storm_castle.rules.battle import structure_health
from siege.games.storm_castle.rules.economy import base_votes, held
from siege.games.storm_castle.rules.scoring import Vilest, vilest
from siege.games.storm_castle.state import State, Unit


class StormUnitView(msgspec.Struct, frozen=True, kw_only=True):
    uid: int
    kind: int
    name: str
    owner: int  # a seat, or -2 for the defenders
    space: int
    damage: int
    health: int
    attack: int  # attack dice now: its own and its equipment's
    range: int
    flipped: bool
    moved: int
    attacked: bool
    done: bool
    countered: bool
    gear: list[int]  # equipment cards carried (100: a ladder)
    ward: int
    armor: int  # armor dice now (its own, equipment, ward)
    on_ladder: int  # the wall whose ladder it is on, -1 for none


class StormStructureView(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    kind: str
    standing: bool
    damage: int
    health: int


class StormBattleView(msgspec.Struct, frozen=True, kw_only=True):
    attacker: int
    target: int
    structure: int
    rounds: bool
    round: int
    striker: int  # whose roll is being made, -2 when none
    step: str
    hits: int


class StormMarchView(msgspec.Struct, frozen=True, kw_only=True):
    card: int  # -1: the hero's own Onward March 1
    left: int
    activated: list[int]
    caster: int  # the defender caster whose spells are drawn


class StormLadderView(msgspec.Struct, frozen=True, kw_only=True):
    wall: int
    owner: int
    placer: int


class StormOfferView(msgspec.Struct, frozen=True, kw_only=True):
    unit: int
    to: int
    seat: int


class StormView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    players: int
    intro: bool
    phase: str
    asking: str
    step: str
    decision: int
    waiting: list[int]
    chance: str  # the purpose of the chance being waited for, "" when none
    turn: int
    winner: int
    armies: list[int]
    battlefields: list[int]
    setup_tokens: list[int]
    tokens: list[int]
    order: list[int]
    current: int
    boss: int
    ref_holder: int
    gold: list[int]
    magic: list[int]
    hand: list[int]  # this seat's power cards
    hand_sizes: list[int]
    deck_sizes: list[int]
    discards: list[list[int]]
    boss_hand: list[int]
    boss_hand_sizes: list[int]
    boss_offer: list[int]  # the Boss's own view only
    boss_offer_tokens: list[int]  # the Boss's own view only
    boss_deck_size: int
    boss_discard_size: int
    bids_in: list[bool]
    last_bids: list[int]
    last_votes: list[int]
    base_votes: list[int]
    units: list[StormUnitView]
    structures: list[StormStructureView]
    walls_taken: list[int]
    defenders_slain: list[int]
    buildings_taken: list[int]
    vilest: list[Vilest]
    defender_pool_size: int
    to_place: list[int]  # the defender kinds drawn and waiting to be placed
    event_deck_size: int
    event_discard: list[int]
    event_row_size: int
    revealed: list[int]
    event_plan: list[int]
    event_next: int
    magic_deck_size: int
    army_moves: int
    last_mover: int
    battle: StormBattleView | None
    march: StormMarchView | None
    offer: StormOfferView | None
    exhausted: list[list[int]]  # cast spells waiting for Collect (face up)
    in_play: list[list[int]]  # remain-in-play cards (face up)
    held_sizes: list[int]  # cards counting for each hand limit
    ladders: list[StormLadderView]
    ladders_in_use: list[int]
    drawn_spells: list[int]  # a defender caster's spells (face up)
    magic_discard: list[int]
    counter_spell: int  # the spell a target strikes back with in the battle under way
    battle_spell: int
    hero: int  # the hero's unit id, -1 when not in play
    hero_summoned: bool
    summoning: str  # what paused the game for the hero, "" when nothing
    heroes_slain: list[int]


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
    is_boss = seat == state.boss
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
        hand=sorted(state.hands[seat]), hand_sizes=[len(h) for h in state.hands],
        deck_sizes=[len(d) for d in state.decks],
        discards=[sorted(d) for d in state.discards],
        boss_hand=sorted(state.boss_hands[seat]),
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
