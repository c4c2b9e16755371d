"""The defenders' hero: the three triggers that pause the game (the ninth wall down; a Dark
Force unit about to enter the keep; a Dark Force unit about to attack a defender in the keep),
the random hero, its placement priorities, its own Onward March 1, the extra event card, and
the hero's Onward March 1 before the first event of every later turn.

Rulings (see the README): one hero per game (the first trigger summons it, later triggers do
nothing); the paused move or attack goes ahead after the hero's march only if it is still legal
(otherwise it is called off and nothing is spent). Placement: the keep if free; else a free keep
ground; else onto a Dark Force unit on a keep ground (destroying it); else (the keep grounds
held by defenders: the text's fourth choice asks for a Dark Force unit in the keep grounds,
which cannot exist then) a free castle ground from which the hero could attack a Dark Force
unit, else any free castle ground; else onto a Dark Force unit on a castle ground; else any
free castle space.
"""

from __future__ import annotations

from siege.games.storm_castle.armies import HERO_KINDS
from siege.games.storm_castle.board import CASTLE, KEEP, NOBODY, SPACES
from siege.games.storm_castle.rules import defenders, movement, policy, terrain
from siege.games.storm_castle.rules.battle import destroy_unit
from siege.games.storm_castle.rules.nodes import open_decision, shuffle
from siege.games.storm_castle.state import DEFENDER_SIDE, March, State, Unit, current_seat

KEEP_GROUNDS = tuple(s.id for s in SPACES if s.kind == "keep_ground")
GROUNDS = tuple(s.id for s in SPACES if s.kind == "ground")


def hero_spaces(state: State) -> list[int]:
    """Where the hero may be placed, after the priorities."""
    taken = {u.space: u for u in state.units.values()}
    if KEEP not in taken:
        return [KEEP]
    free = [g for g in KEEP_GROUNDS if g not in taken]
    if free:
        return free
    dark = [g for g in KEEP_GROUNDS if taken[g].owner >= 0]
    if dark:
        return dark
    free = [g for g in GROUNDS if g not in taken]
    if free:
        kind = state.hero_pool[0] if state.hero_pool else HERO_KINDS[0]
        probe = Unit(uid=NOBODY, kind=kind, owner=DEFENDER_SIDE, space=NOBODY)
        striking = []
        for space in free:
            probe.space = space
            if any(u.owner >= 0 and terrain.can_reach(state, probe, u.space)
                   for u in state.units.values()):
                striking.append(space)
        return striking or free
    dark = [g for g in GROUNDS if taken[g].owner >= 0]
    if dark:
        return dark
    return [s for s in CASTLE if s not in taken]


def step(state: State) -> bool:
    """Runs the summoning; True when a decision or chance is open."""
    summon = state.summon
    assert summon is not None
    if summon.step == "draw":
        summon.step = "place"
        shuffle(state, len(HERO_KINDS), "heroes")
        return True
    if summon.step == "place":
        spaces = hero_spaces(state)
        if not spaces:  # a castle full of defenders: the hero stays away (never happens)
            state.hero_summoned = True
            summon.step = "resume"
            return False
        defenders.ready_reference(state, current_seat(state))
        if state.ref_holder == NOBODY:
            on_placed(state, policy.place(state, spaces), state.next_uid)
            return False
        open_decision(state, [state.ref_holder], "hero")
        return True
    _resume(state)  # the hero's march (state.march) is run by flow.advance first
    return False


def on_shuffled(state: State, order: list[int]) -> None:
    state.hero_pool = [HERO_KINDS[i] for i in order]


def on_placed(state: State, space: int, uid: int) -> None:
    """The hero arrives (a Dark Force unit on its space is destroyed) and marches at once."""
    for unit in [u for u in state.units.values() if u.space == space]:
        destroy_unit(state, unit.uid, NOBODY)
    kind = state.hero_pool.pop(0)
    state.units[uid] = Unit(uid=uid, kind=kind, owner=DEFENDER_SIDE, space=space)
    state.next_uid = max(state.next_uid, uid + 1)
    state.hero = uid
    state.hero_summoned = True
    state.hero_march_turn = state.turn
    if state.summon is not None:
        state.summon.step = "march"
    start_march(state)


def start_march(state: State) -> None:
    """The hero's own Onward March 1 (the hero alone activates)."""
    state.march = March(card=NOBODY, left=1, hero=True)
    for unit in state.units.values():
        if unit.is_defender:
            unit.countered = False


def march_done(state: State) -> None:
    defenders.pass_reference(state, current_seat(state))
    if state.summon is not None:
        state.summon.step = "resume"


def _resume(state: State) -> None:
    """The paused move or attack goes ahead if still legal; an extra event card is added."""
    summon = state.summon
    assert summon is not None
    state.summon = None
    unit = state.units.get(summon.unit)
    if unit is not None and summon.reason == "keep":
        if summon.cost < 0:
            if not terrain.keep_occupied(state):
                movement.on_battle_marched(state, unit.uid, KEEP)
        else:
            cost = movement.destinations(state, unit).get(KEEP)
            if cost is not None:
                movement.on_moved(state, unit.uid, KEEP, cost)
    elif unit is not None and summon.reason == "attack":
        legal = movement.attack_targets(state, unit)
        if any(x.target == summon.target for x in legal):
            movement.on_attacked(state, unit.owner, unit.uid, summon.target, NOBODY)
    if state.phase == "turns" and state.winner == NOBODY:
        add_extra_event(state)


def add_extra_event(state: State) -> None:
    """The summoned hero's extra card: resolved at the end of the current player's turn,
    after the cards already due there (drawn by ``turns`` before anything else happens)."""
    code = 2 * state.current + 1
    pos = state.event_next
    while pos < len(state.event_plan) and state.event_plan[pos] <= code:
        pos += 1
    state.event_plan.insert(pos, code)
    state.extra_at = pos
