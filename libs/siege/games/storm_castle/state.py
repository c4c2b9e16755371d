"""The Storm the Castle! state: everything a fold of the events builds, and nothing else.

A mutable msgspec struct, so ``==`` compares whole states and ``msgspec.to_builtins`` prints
one. Per-seat tables are lists indexed by seat. Units in play live in ``units`` by unit id
(ids are handed out in order, so a replay hands out the same ones).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from siege.engine.protocol import ChanceNeeded
from siege.games.storm_castle.board import NOBODY, STRUCTURES

DEFENDER_SIDE = -2  # the owner of defender units and peasants
LAST_TURN = 8
ARMY_MOVES = 5
UNIT_MOVES = 2
CAP = 10  # most gold and most magic a player may hold

Phase = Literal["setup", "collect", "vote", "boss", "order", "buy", "reinforce", "events",
                "turns", "wrapup", "over"]
Asking = Literal["", "army", "battlefield", "place", "bid", "tie", "boss_card", "ousted_card",
                 "loot", "token", "buy", "act", "march", "order", "discard", "boss_discard",
                 "counter", "hero"]
Step = Literal["", "begin", "act", "end"]


class Unit(msgspec.Struct, kw_only=True):
    uid: int
    kind: int
    owner: int  # a seat, or DEFENDER_SIDE
    space: int
    damage: int = 0
    flipped: bool = False
    moved: int = 0  # spaces moved this game turn (defenders: this activation)
    attacked: bool = False
    done: bool = False  # may not move again this turn (another unit moved, or it attacked)
    countered: bool = False  # has counterattacked in the current window
    token: int = NOBODY  # a defender's token id
    gear: list[int] = msgspec.field(default_factory=list)  # equipment cards (LADDER: a ladder)
    ward: int = 0  # armor dice from a ward spell or a card, until the end of the game turn
    fury: int = 0  # attack dice from a card, until the end of the game turn
    pushed: bool = False  # pushed this turn (one more space)

    @property
    def is_defender(self) -> bool:
        return self.owner == DEFENDER_SIDE


class Strike(msgspec.Struct, kw_only=True):
    """One side's roll in a battle: its attack dice, a critical's extra dice, the target's
    defense dice. ``striker`` -1 is a roll that nobody makes (a collapsing wall)."""

    striker: int
    victim: int = NOBODY  # a unit id
    structure: int = NOBODY  # or a structure id
    dice: int = 1
    step: Literal["attack", "critical", "defense"] = "attack"
    hits: int = 0


class Battle(msgspec.Struct, kw_only=True):
    """A battle under way. ``stages`` are this round's strikers, stage by stage: strikers of one
    stage roll together and their damage lands together."""

    attacker: int  # a unit id, -1 for a collapsing wall
    target: int = NOBODY  # a unit id
    structure: int = NOBODY
    rounds: bool = False  # battle rounds: two units in one space, to the death
    round: int = 0
    context: Literal["attack", "deploy", "arrive", "collapse", "order", "push", "ladder"] = "attack"
    credit: int = NOBODY  # the seat credited with kills (for a collapse, the wall's destroyer)
    stages: list[list[int]] = msgspec.field(default_factory=list)
    stage: int = 0
    queue: list[int] = msgspec.field(default_factory=list)
    strike: Strike | None = None
    pending: dict[int, int] = msgspec.field(default_factory=dict)  # unit id -> damage
    structure_pending: int = 0
    target_space: int = NOBODY  # where the target stood (a battle march goes there)
    spell: int = NOBODY  # the attack spell the attacker cast (a power card, or a magic card)
    counter_spell: int = NOBODY  # the attack spell the target strikes back with
    outside: int = 0  # an Attack X outside battle (collapse, push, ladder): X
    asking: bool = False  # the target's owner chooses how to strike back
    starter_asking: bool = False  # then, in battle rounds, the starter chooses how it strikes


class March(msgspec.Struct, kw_only=True):
    """An Onward March being resolved."""

    card: int
    left: int  # activations still to make
    activated: list[int] = msgspec.field(default_factory=list)
    active: int = NOBODY  # the defender acting now (a battle or a battle march may follow)
    caster: int = NOBODY  # the defender caster whose spells were drawn, awaiting its order
    hero: bool = False  # the hero's own Onward March 1 (only the hero activates)


class Ladder(msgspec.Struct, kw_only=True):
    """A ladder placed in front of a wall: whose it is and the unit that placed it."""

    owner: int
    placer: int


class Summon(msgspec.Struct, kw_only=True):
    """The hero being summoned: what paused the game, and what resumes after the hero's own
    Onward March (``unit`` moving to ``to`` for ``cost``, or attacking ``target``)."""

    reason: Literal["wall", "keep", "attack"]
    unit: int = NOBODY
    to: int = NOBODY
    cost: int = 0
    target: int = NOBODY
    step: Literal["draw", "place", "march", "resume"] = "draw"


class MarchOffer(msgspec.Struct, kw_only=True):
    """A unit that destroyed an adjacent unit may battle march into its space."""

    unit: int
    to: int
    seat: int  # who decides: the unit's owner, or the defenders' controller


def _seats(players: int, value: int) -> list[int]:
    return [value] * players


class State(msgspec.Struct, kw_only=True):
    players: int
    intro: bool = False
    phase: Phase = "setup"
    asking: Asking = ""
    step: Step = ""
    decision: int = 0
    waiting: list[int] = msgspec.field(default_factory=list)
    chance: ChanceNeeded | None = None
    turn: int = 0
    winner: int = NOBODY  # the seat whose unit entered the keep
    sub: str = ""  # the step inside a phase (see rules/flow.py)
    dealt: bool = False
    collected: bool = False

    # Set-up: turn-order tokens drawn at set-up, armies and battlefields chosen.
    setup_tokens: list[int] = msgspec.field(default_factory=list)
    armies: list[int] = msgspec.field(default_factory=list)
    battlefields: list[int] = msgspec.field(default_factory=list)
    initial_placed: int = 0

    gold: list[int] = msgspec.field(default_factory=list)
    magic: list[int] = msgspec.field(default_factory=list)
    decks: list[list[int]] = msgspec.field(default_factory=list)  # secret order; [0] is top
    hands: list[list[int]] = msgspec.field(default_factory=list)  # secret
    discards: list[list[int]] = msgspec.field(default_factory=list)
    shuffled: list[bool] = msgspec.field(default_factory=list)
    owed_draws: list[int] = msgspec.field(default_factory=list)
    upgrade_cards: list[bool] = msgspec.field(default_factory=list)  # set aside once built

    boss: int = NOBODY
    boss_deck: list[int] = msgspec.field(default_factory=list)
    boss_discard: list[int] = msgspec.field(default_factory=list)
    boss_hands: list[list[int]] = msgspec.field(default_factory=list)  # secret
    boss_offer: list[int] = msgspec.field(default_factory=list)  # drawn, not yet chosen
    ousted: int = NOBODY  # the Boss just ousted, while the new Boss takes from his cards
    bids: list[int] = msgspec.field(default_factory=list)  # -1 until a seat has bid; sealed
    tied: list[int] = msgspec.field(default_factory=list)
    last_bids: list[int] = msgspec.field(default_factory=list)  # revealed bids of this turn
    last_votes: list[int] = msgspec.field(default_factory=list)
    elected: int = NOBODY

    token_box: list[int] = msgspec.field(default_factory=list)  # shuffled turn-order tokens
    boss_offer_tokens: list[int] = msgspec.field(default_factory=list)  # the Boss's two
    tokens: list[int] = msgspec.field(default_factory=list)  # this turn's token per seat
    order: list[int] = msgspec.field(default_factory=list)  # seats in turn order
    current: int = NOBODY  # index into ``order`` of the player whose turn (or buy) it is
    ref_holder: int = NOBODY  # the defenders' reference card (-1: the rules decide)
    provoked: list[bool] = msgspec.field(default_factory=list)  # the Boss attacked this seat

    defender_pool: list[int] = msgspec.field(default_factory=list)  # secret order of tokens
    pool_shuffled: bool = False
    to_place: list[int] = msgspec.field(default_factory=list)  # drawn tokens to be placed
    place_left: int = 0
    event_deck: list[int] = msgspec.field(default_factory=list)  # secret order
    event_discard: list[int] = msgspec.field(default_factory=list)
    events_shuffled: bool = False
    event_row: list[int] = msgspec.field(default_factory=list)  # this turn's cards, face down
    event_plan: list[int] = msgspec.field(default_factory=list)  # slot code per card: 2i / 2i+1
    events_owed: int = 0
    event_next: int = 0  # the next card of ``event_row`` to resolve
    revealed: list[int] = msgspec.field(default_factory=list)  # this turn's cards turned up
    returning: int = NOBODY  # the Onward March going back into the deck at wrap-up
    boss_shuffled: bool = False
    magic_deck: list[int] = msgspec.field(default_factory=list)  # secret order
    magic_discard: list[int] = msgspec.field(default_factory=list)
    drawn_spells: list[int] = msgspec.field(default_factory=list)  # a defender caster's, face up
    spells_owed: int = 0
    exhausted: list[list[int]] = msgspec.field(default_factory=list)  # cast spells, face up
    in_play: list[list[int]] = msgspec.field(default_factory=list)  # remain-in-play cards
    ladders: dict[int, Ladder] = msgspec.field(default_factory=dict)  # wall id -> ladder
    hero_pool: list[int] = msgspec.field(default_factory=list)  # hero kinds, secret order
    hero: int = NOBODY  # the hero's unit id while in play
    hero_summoned: bool = False
    hero_march_turn: int = 0  # the last game turn the hero made its own Onward March 1
    extra_at: int = NOBODY  # where in the event plan the hero's extra card waits to be drawn
    summon: Summon | None = None
    heroes_slain: list[int] = msgspec.field(default_factory=list)

    units: dict[int, Unit] = msgspec.field(default_factory=dict)
    next_uid: int = 0
    bought: list[list[int]] = msgspec.field(default_factory=list)  # tokens used per kind
    structure_damage: list[int] = msgspec.field(default_factory=lambda: [0] * len(STRUCTURES))
    standing: list[bool] = msgspec.field(default_factory=list)  # walls, buildings, upgrades
    walls_taken: list[int] = msgspec.field(default_factory=list)
    defenders_slain: list[int] = msgspec.field(default_factory=list)
    buildings_taken: list[int] = msgspec.field(default_factory=list)

    army_moves: int = 0
    last_mover: int = NOBODY
    battle: Battle | None = None
    march: March | None = None
    offer: MarchOffer | None = None


def new_state(players: int, intro: bool) -> State:
    standing = [s.kind != "upgrade" for s in STRUCTURES]
    return State(
        players=players,
        intro=intro,
        armies=_seats(players, NOBODY),
        battlefields=_seats(players, NOBODY),
        gold=_seats(players, 0),
        magic=_seats(players, 0),
        decks=[[] for _ in range(players)],
        hands=[[] for _ in range(players)],
        discards=[[] for _ in range(players)],
        shuffled=[False] * players,
        owed_draws=_seats(players, 0),
        upgrade_cards=[False] * players,
        exhausted=[[] for _ in range(players)],
        in_play=[[] for _ in range(players)],
        heroes_slain=_seats(players, 0),
        boss_hands=[[] for _ in range(players)],
        bids=_seats(players, NOBODY),
        tokens=_seats(players, 0),
        provoked=[False] * players,
        bought=[[0] * 32 for _ in range(players)],
        standing=standing,
        walls_taken=_seats(players, 0),
        defenders_slain=_seats(players, 0),
        buildings_taken=_seats(players, 0),
    )


def current_seat(state: State) -> int:
    return state.order[state.current] if 0 <= state.current < len(state.order) else NOBODY
