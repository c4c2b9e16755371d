"""The Castle Assault state: everything a fold of the events builds, and nothing else.

A mutable msgspec struct, so ``==`` compares whole states and ``msgspec.to_builtins`` prints one.
Each seat's cards are *instances* 0..n-1 of its deck list (``cards[seat][i]`` is the card id of
instance ``i``); a unit on the battlefield is named by ``uid = seat * 100 + instance``.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from siege.engine.protocol import ChanceNeeded

NOBODY = -1
UID_BASE = 100

Phase = Literal["setup", "mulligan", "rolloff", "first", "turn", "final", "over"]
Step = Literal["", "opening", "env", "reveal", "begin", "captain", "curse", "move", "queue",
               "resolve", "open", "charge", "end", "burn", "discard"]
Asking = Literal["", "mulligan", "first", "captain", "curse", "open", "respond", "discard"]
EndReason = Literal["", "castle", "hero", "castles", "cards", "turn_limit"]
HERO_INSTANCE = 99  # a hero on the battlefield is uid seat * 100 + 99


def uid_of(seat: int, instance: int) -> int:
    return seat * UID_BASE + instance


def seat_of(uid: int) -> int:
    return uid // UID_BASE


def instance_of(uid: int) -> int:
    return uid % UID_BASE


class Unit(msgspec.Struct, kw_only=True):
    uid: int
    seat: int
    card: int
    lane: int
    row: int
    entered: int  # the turn number it entered the battlefield
    damage: int = 0
    attachments: list[int] = msgspec.field(default_factory=list)  # card ids


class Motion(msgspec.Struct, kw_only=True):
    """A unit part-way through a movement (Move Units, a Charge, a Quick move, Consume)."""

    uid: int
    left: int  # spaces still to go
    roll: int = 0  # the Charge die, 0 when it is not a Charge
    auras: dict[str, int] = msgspec.field(default_factory=dict)  # kept from the start


class Fight(msgspec.Struct, kw_only=True):
    """An engagement about to resolve, once its response window has closed."""

    uid: int  # the attacker
    smash: bool = False
    roll: int = 0
    auras: dict[str, int] = msgspec.field(default_factory=dict)
    windowed: bool = False  # its window has been offered


class Window(msgspec.Struct, kw_only=True):
    """A response window: seats may play Instants, the other seat answering each one, until
    both have passed since the last one."""

    kind: Literal["movement", "combat"]
    to_act: int
    passed: list[bool] = msgspec.field(default_factory=lambda: [False, False])


class Boost(msgspec.Struct, kw_only=True):
    """A change that lasts until the end of the current turn (an Instant's)."""

    uid: int
    stat: Literal["attack", "armor", "movement"]
    amount: int


class Clash(msgspec.Struct, kw_only=True):
    """One combat, shot or card effect that dealt damage (0 included) since the turn began, for
    views and tests: melee combats, Ranged shots, castle hits, damage from commands and units
    that burn."""

    source: Annotated[int, msgspec.Meta(description=(
        "The uid of the unit that dealt it (seat * 100 + instance; a hero seat * 100 + 99), or "
        "-1 for damage from a card (a command or an Environment card) or from burning."))]
    target: Annotated[int, msgspec.Meta(description=(
        "The uid of the unit hit, or -1 - seat for that seat's castle: -1 seat 0's castle, -2 "
        "seat 1's."))]
    damage: Annotated[int, msgspec.Meta(description=(
        "Damage dealt to the target, in Health, after Armor (damage from cards ignores "
        "Armor)."))]
    returned: Annotated[int, msgspec.Meta(description=(
        "Counter-attack damage the target dealt back to `source`, after Armor; 0 for shots, "
        "castle hits and card damage."))] = 0
    smash: Annotated[bool, msgspec.Meta(description=(
        "Whether the attacker got the Smash Bonus (it was blocked with distance left and "
        "the defender lacks Defense)."))] = False
    momentum: Annotated[bool, msgspec.Meta(description=(
        "Whether the attacker also got the Momentum Bonus (+1 Attack: a Charge with a Smash "
        "while the meter stood in its seat's Charging Smash area)."))] = False
    destroyed: Annotated[list[int], msgspec.Meta(description=(
        "Uids of the units this melee combat destroyed, either side's; left empty for shots "
        "and card damage, even when they destroyed a unit."))] = msgspec.field(
        default_factory=list)


def _per_seat() -> list[list[int]]:
    return [[], []]


class State(msgspec.Struct, kw_only=True):
    warbands: list[str]
    cards: list[list[int]]
    hero_keys: list[str] = msgspec.field(default_factory=list)  # whose hero each seat plays
    phase: Phase = "setup"
    step: Step = ""
    asking: Asking = ""
    decision: int = 0
    waiting: list[int] = msgspec.field(default_factory=list)
    chance: ChanceNeeded | None = None

    mulligan: list[int] = msgspec.field(default_factory=lambda: [NOBODY, NOBODY])  # 0 kept, 1 not
    rolls: list[int] = msgspec.field(default_factory=list)  # the last roll-off
    rolloff_winner: int = NOBODY
    first: int = NOBODY
    active: int = NOBODY
    turn: int = 0  # turns begun in the whole game
    seat_turns: list[int] = msgspec.field(default_factory=lambda: [0, 0])

    decks: list[list[int]] = msgspec.field(default_factory=_per_seat)  # [0] is the top
    hands: list[list[int]] = msgspec.field(default_factory=_per_seat)
    discards: list[list[int]] = msgspec.field(default_factory=_per_seat)
    resources: list[list[int]] = msgspec.field(default_factory=_per_seat)  # face down
    exhausted: list[int] = msgspec.field(default_factory=lambda: [0, 0])
    placed: int = 0  # resources placed by the active seat this turn
    unit_played: bool = False  # the active seat played a unit this turn

    units: list[Unit] = msgspec.field(default_factory=list)
    acted: list[int] = msgspec.field(default_factory=list)  # uids with a Unit Action this turn
    boosts: list[Boost] = msgspec.field(default_factory=list)
    charging: int = NOBODY  # the uid whose Charge waits for its die
    queue: list[int] = msgspec.field(default_factory=list)  # uids still to move this step
    quick: bool = False  # the queue is End of Turn's Quick moves (engaged units stay)
    motion: Motion | None = None
    fight: Fight | None = None
    window: Window | None = None
    resume: Step = ""  # the step after the movement or combat under way resolves
    resurrected: list[int] = msgspec.field(default_factory=list)  # uids that came back once
    returning: list[Unit] = msgspec.field(default_factory=list)  # resurrecting, to be placed
    heroes: list[int] = msgspec.field(default_factory=lambda: [0, 0])  # 1 once summoned
    castle_damage: list[int] = msgspec.field(default_factory=lambda: [0, 0])
    momentum: int = 0  # > 0 toward seat 0's castle, < 0 toward seat 1's

    env_deck: list[int] = msgspec.field(default_factory=list)  # card ids, [0] is the top
    env_discard: list[int] = msgspec.field(default_factory=list)
    env_meter: int = 0  # 0 is START, 1-4 are T1-T4
    ongoing: int = NOBODY  # the Ongoing Environment card in effect
    field: int = NOBODY  # the Environment card on the battlefield
    rubble: list[list[int]] = msgspec.field(default_factory=list)  # [lane, row] squares
    revealed: int = NOBODY  # the last Environment card revealed

    captain: list[int] = msgspec.field(default_factory=lambda: [NOBODY, NOBODY])  # uids
    curse: int = NOBODY  # the uid carrying the one Curse token
    curse_by: int = NOBODY
    curse_holder: int = NOBODY  # the seat whose hero may place the token next (NOBODY: either)

    clashes: list[Clash] = msgspec.field(default_factory=list)  # this turn's
    ended: EndReason = ""
    ranks: list[int] = msgspec.field(default_factory=list)


def opponent(seat: int) -> int:
    return 1 - seat


def find_unit(state: State, uid: int) -> Unit | None:
    for unit in state.units:
        if unit.uid == uid:
            return unit
    return None


def unit_at(state: State, lane: int, row: int) -> Unit | None:
    for unit in state.units:
        if unit.lane == lane and unit.row == row:
            return unit
    return None


def ready_resources(state: State, seat: int) -> int:
    return len(state.resources[seat]) - state.exhausted[seat]
