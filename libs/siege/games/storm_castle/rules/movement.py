"""A Dark Force player's turn: army moves, unit moves (through friends, never past defenders,
move lock, long paths and battlefield locations), attacks, battle marches and the keep."""

from __future__ import annotations

from typing import Any

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import (
    EDGES,
    KEEP,
    KEEP_COMPOUND,
    LOCATION_MOVE_COST,
    LOCATIONS,
    NOBODY,
    START_SPACES,
    STRUCTURES,
    is_battlefield,
    is_castle,
    is_location,
    structure_distance,
)
from siege.games.storm_castle.cards import (
    PUSH_ATTACK,
    PUSH_MOVES,
    PUSHABLE,
    WAR_DRUMS,
    WAR_DRUMS_MOVES,
)
from siege.games.storm_castle.power import is_rip
from siege.games.storm_castle.rules import cards_play, equipment, magic, terrain
from siege.games.storm_castle.rules.battle import roll_attack, start_attack, start_rounds
from siege.games.storm_castle.state import ARMY_MOVES, UNIT_MOVES, State, Summon, Unit


def may_fight(state: State, seat: int, owner: int) -> bool:
    """Nobody may attack the Boss's units unless the Boss attacked them this turn."""
    return owner != state.boss or owner == seat or owner < 0 or state.provoked[seat]


def move_locked(state: State, unit: Unit, space: int | None = None) -> bool:
    """A Dark Force unit next to a non-flipped defender (no standing wall between) is locked."""
    here = unit.space if space is None else space
    if is_location(here):
        return False
    return any(d.is_defender and not d.flipped and terrain.adjacent_open(state, here, d.space)
               for d in state.units.values())


def can_move(state: State, unit: Unit) -> bool:
    return (not unit.attacked and not unit.done and unit.moved < UNIT_MOVES
            and state.army_moves > 0)


def destinations(state: State, unit: Unit) -> dict[int, int]:
    """Every space ``unit`` may end a move on now, with its cheapest cost in moves."""
    if not can_move(state, unit):
        return {}
    budget = min(UNIT_MOVES - unit.moved, state.army_moves)
    if unit.flipped:
        return {unit.space: 1}  # spend a move to unflip
    if move_locked(state, unit):
        return {}
    seat = unit.owner
    occupants = terrain.occupants(state)
    found: dict[int, int] = {}

    def arrive_ok(space: int) -> bool:
        """A long move into an occupied space starts battle rounds (never with one's own)."""
        there = occupants.get(space, [])
        return all(u.owner != seat and may_fight(state, seat, u.owner) for u in there)

    def visit(space: int, spent: int) -> None:
        if spent > budget:
            return
        there = occupants.get(space, [])
        if space != unit.space:
            if not there:
                if space not in found or found[space] > spent:
                    found[space] = spent
            elif any(u.is_defender and not u.flipped for u in there):
                return
        if space == KEEP or (space != unit.space and move_locked(state, unit, space)):
            return
        ladders = equipment.climbs(state, space)
        for edge in EDGES[space]:
            if edge.cost == 1 and terrain.wall_open(state, edge.wall):
                visit(edge.to, spent + 1)
            elif edge.cost == 1 and edge.to in ladders and not occupants.get(edge.to):
                visit(edge.to, spent + 1)  # over a wall by a ladder, into a free space
            elif (edge.cost > 1 and space == unit.space and spent + edge.cost <= budget
                  and (not occupants.get(edge.to) or arrive_ok(edge.to))):
                found[edge.to] = min(found.get(edge.to, 99), spent + edge.cost)

    if is_location(unit.space):
        if budget >= LOCATION_MOVE_COST:
            for start in (s for spaces in START_SPACES for s in spaces):
                if not occupants.get(start):
                    found[start] = LOCATION_MOVE_COST
    else:
        visit(unit.space, 0)
    if budget >= LOCATION_MOVE_COST and (is_battlefield(unit.space) or is_location(unit.space)):
        for loc in LOCATIONS:
            if loc != unit.space and arrive_ok(loc):
                found[loc] = LOCATION_MOVE_COST
    return found


def attack_targets(state: State, unit: Unit) -> list[a.AttackTarget]:
    if unit.attacked or unit.flipped or is_location(unit.space):
        return []
    seat = unit.owner
    out: list[a.AttackTarget] = []
    for other in state.units.values():
        if other.owner == seat or is_location(other.space):
            continue
        if other.owner >= 0 and not may_fight(state, seat, other.owner):
            continue
        if terrain.can_reach(state, unit, other.space):
            out.append(a.AttackTarget(unit=unit.uid, target=other.uid))
    out += [a.AttackTarget(unit=unit.uid, structure=sid)
            for sid in structure_targets(state, unit, terrain.unit_range(state, unit))]
    return out


def structure_targets(state: State, unit: Unit, reach: int) -> list[int]:
    """Standing structures ``unit`` may attack with this reach (0: melee, from the front)."""
    seat = unit.owner
    out: list[int] = []
    for sid, structure in enumerate(STRUCTURES):
        if not state.standing[sid]:
            continue
        if structure.kind == "upgrade":
            owner = next((s for s, b in enumerate(state.battlefields) if b == structure.side),
                         NOBODY)
            if owner == seat or (owner >= 0 and not may_fight(state, seat, owner)):
                continue
        elif structure.kind == "wall" and is_castle(unit.space):
            continue  # walls are attacked from the front only
        elif structure.kind == "keep_wall" and unit.space in KEEP_COMPOUND:
            continue
        if reach:
            ok = structure_distance(unit.space, sid) <= reach
        else:
            ok = unit.space in structure.front
        if ok:
            out.append(sid)
    return out


def spell_structure_options(state: State, seat: int) -> list[a.CastSpell]:
    """Attack spells at structures, reached like a ranged (or melee, range 0) attack."""
    out: list[a.CastSpell] = []
    mine = sorted((u for u in state.units.values() if u.owner == seat), key=lambda u: u.uid)
    casters = [u for u in mine if magic.may_cast(state, u) and not is_location(u.space)]
    for spell in magic.castable(state, seat):
        if not spell.attack:
            continue
        for caster in casters:
            out += [a.CastSpell(card=spell.card, unit=caster.uid, target=NOBODY, structure=sid)
                    for sid in structure_targets(state, caster, spell.range)]
    return out


def push_destinations(state: State, unit: Unit) -> list[int]:
    """A pushable unit that spent its two moves may be pushed one free space further (never
    into the keep), once a turn, for one army move."""
    if (unit.kind not in PUSHABLE or unit.pushed or unit.moved < UNIT_MOVES or unit.flipped
            or unit.attacked or unit.done or state.army_moves < PUSH_MOVES
            or move_locked(state, unit) or is_location(unit.space)):
        return []
    taken = {u.space for u in state.units.values()}
    ladders = equipment.climbs(state, unit.space)
    return sorted(e.to for e in EDGES[unit.space]
                  if e.cost == 1 and e.to != KEEP and e.to not in taken
                  and (terrain.wall_open(state, e.wall) or e.to in ladders))


def legal(state: State, seat: int) -> list[Any]:
    out: list[Any] = []
    for unit in sorted(state.units.values(), key=lambda u: u.uid):
        if unit.owner != seat:
            continue
        for to, _cost in sorted(destinations(state, unit).items()):
            out.append(a.MoveUnit(unit=unit.uid, to=to))
        out.extend(attack_targets(state, unit))
        out.extend(a.PushUnit(unit=unit.uid, to=to) for to in push_destinations(state, unit))
    out.extend(magic.cast_options(state, seat, may_fight))
    out.extend(spell_structure_options(state, seat))
    out.extend(equipment.ladder_options(state, seat))
    out.extend(equipment.drop_options(state, seat))
    army = state.armies[seat]
    out.extend(a.PlayCard(card=c) for c in sorted(set(state.hands[seat])) if is_rip(army, c))
    out.extend(cards_play.play_options(state, seat))
    out.append(a.END_TURN)
    return out


def move_cost(state: State, unit: Unit, to: int) -> int:
    return destinations(state, unit)[to]


def hero_due(state: State) -> bool:
    """The hero may still be summoned (never in the introductory game, once per game)."""
    return not state.intro and not state.hero_summoned and state.summon is None


def on_moved(state: State, unit_id: int, to: int, cost: int) -> None:
    """Moves the unit; a long move into an occupied space starts battle rounds. A unit that
    declares it enters the keep first pauses the game for the hero."""
    unit = state.units[unit_id]
    if to == KEEP and hero_due(state):
        state.summon = Summon(reason="keep", unit=unit_id, to=to, cost=cost)
        return
    if state.last_mover not in (NOBODY, unit_id) and state.last_mover in state.units:
        state.units[state.last_mover].done = True
    state.last_mover = unit_id
    state.army_moves -= cost
    unit.moved += cost
    if to == unit.space and unit.flipped:
        unit.flipped = False
        return
    there = [u for u in state.units.values() if u.space == to]
    unit.space = to
    if to == KEEP:
        state.winner = unit.owner
        return
    if there:
        unit.done = True
        start_rounds(state, unit_id, there[0].uid, "arrive")


def on_pushed(state: State, unit_id: int, to: int, cost: int) -> None:
    """The push's Attack 1 comes first; a unit that survives moves on (see battle)."""
    unit = state.units[unit_id]
    if state.last_mover not in (NOBODY, unit_id) and state.last_mover in state.units:
        state.units[state.last_mover].done = True
    state.last_mover = unit_id
    state.army_moves -= cost
    unit.pushed = True
    roll_attack(state, unit_id, PUSH_ATTACK, NOBODY, "push")
    assert state.battle is not None
    state.battle.target_space = to


def on_cast(state: State, seat: int, card: int, unit_id: int, target: int, cost: int,
            structure: int = NOBODY) -> None:
    spell = magic.pay(state, seat, card, cost)
    caster = state.units[unit_id]
    caster.done = True  # casting ends the caster's movement
    if structure != NOBODY:
        start_attack(state, unit_id, structure=structure, spell=card)
        return
    if spell.ward:
        state.units[target].ward += spell.ward
        return
    owner = state.units[target].owner
    if seat == state.boss and owner >= 0:
        state.provoked[owner] = True
    start_attack(state, unit_id, target=target, spell=card)


def on_attacked(state: State, seat: int, unit_id: int, target: int, structure: int) -> None:
    unit = state.units[unit_id]
    if target != NOBODY and state.units[target].space == KEEP and hero_due(state):
        state.summon = Summon(reason="attack", unit=unit_id, target=target)
        return
    unit.attacked = True
    unit.done = True
    if target != NOBODY:
        owner = state.units[target].owner
        if seat == state.boss and owner >= 0:
            state.provoked[owner] = True
    start_attack(state, unit_id, target=target, structure=structure)


def begin_turn(state: State) -> None:
    seat = state.order[state.current]
    state.army_moves = ARMY_MOVES + WAR_DRUMS_MOVES * state.in_play[seat].count(WAR_DRUMS)
    state.last_mover = NOBODY
    for unit in state.units.values():
        unit.countered = False


def on_battle_marched(state: State, unit_id: int, to: int) -> None:
    unit = state.units[unit_id]
    state.offer = None
    if to == KEEP and unit.owner >= 0 and hero_due(state):
        state.summon = Summon(reason="keep", unit=unit_id, to=to, cost=-1)
        return
    unit.space = to
    unit.moved += 1
    unit.done = True
    if unit.owner >= 0:
        state.army_moves -= 1
        if to == KEEP:
            state.winner = unit.owner
    state.offer = None

