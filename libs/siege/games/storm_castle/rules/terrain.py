"""The board with the state on it: who stands where, open walls, adjacency for battle, ranges,
cover, control of the battlefield locations and of the keep's surroundings."""

from __future__ import annotations

from siege.games.storm_castle.armies import UNIT_KINDS
from siege.games.storm_castle.board import (
    CASTLE_KINDS,
    EDGES,
    KEEP,
    KEEP_COMPOUND,
    LOCATIONS,
    NOBODY,
    SPACES,
    STRUCTURES,
    distance,
    is_castle,
    is_location,
    near_keep,
)
from siege.games.storm_castle.cards import EQUIPMENT
from siege.games.storm_castle.state import DEFENDER_SIDE, State, Unit

TOWER_COVER = 2
WALL_COVER = 1
TOWER_RANGE = 1


def occupants(state: State) -> dict[int, list[Unit]]:
    found: dict[int, list[Unit]] = {}
    for unit in state.units.values():
        found.setdefault(unit.space, []).append(unit)
    return found


def wall_open(state: State, wall: int) -> bool:
    return wall == NOBODY or not state.standing[wall]


def adjacent_open(state: State, a: int, b: int) -> bool:
    """Neighbours with no standing wall between (one-move edges only: not the long paths)."""
    return any(e.to == b and e.cost == 1 and wall_open(state, e.wall) for e in EDGES[a])


def melee_adjacent(state: State, a: int, b: int) -> bool:
    """Neighbours that may fight in melee: no standing wall between, or a ladder on it."""
    return any(e.to == b and e.cost == 1 and (wall_open(state, e.wall) or e.wall in state.ladders)
               for e in EDGES[a])


def on_ladder(state: State, unit: Unit) -> int:
    """The wall whose ladder ``unit`` is on, -1 for none. A castle wall's ladder stands on its
    front space; a keep wall's before all three castle grounds in front of it, where the unit
    that placed it is on it while it stays there, else the lowest unit id of its owner's."""
    if unit.owner < 0:
        return NOBODY
    for wall, ladder in state.ladders.items():
        front = STRUCTURES[wall].front
        if unit.space not in front:
            continue
        there = sorted(u.uid for u in state.units.values() if u.owner >= 0 and u.space in front)
        placer = state.units.get(ladder.placer)
        if placer is not None and placer.space in front:
            return wall if placer.uid == unit.uid else NOBODY
        return wall if there and there[0] == unit.uid else NOBODY
    return NOBODY


def unit_range(state: State, unit: Unit) -> int:
    base = UNIT_KINDS[unit.kind].range
    if base and unit.is_defender and not state.intro and SPACES[unit.space].kind == "tower":
        return base + TOWER_RANGE
    return base


def is_ranged(unit: Unit) -> bool:
    return UNIT_KINDS[unit.kind].range > 0


def can_reach(state: State, striker: Unit, space: int) -> bool:
    """Whether ``striker`` may fight a unit on ``space`` from where it stands."""
    if is_location(striker.space) or is_location(space):
        return striker.space == space
    if is_ranged(striker):
        return distance(striker.space, space) <= unit_range(state, striker)
    return melee_adjacent(state, striker.space, space)


def cover(state: State, victim: Unit, attacker_space: int, ladder: int = NOBODY) -> int:
    """Cover dice of a defender behind a standing wall or on a tower, against an attacker on
    the far side; an attacker on the ladder of that wall negates the wall's cover."""
    if not victim.is_defender or victim.flipped or attacker_space == NOBODY:
        return 0
    if ladder != NOBODY and victim.space in STRUCTURES[ladder].inner:
        return 0
    kind = SPACES[victim.space].kind
    outside_castle = not is_castle(attacker_space)
    if kind == "tower":
        return TOWER_COVER if outside_castle and not state.intro else 0
    if kind == "rampart" and outside_castle:
        wall = next(s.id for s in STRUCTURES if s.kind == "wall" and victim.space in s.inner)
        return WALL_COVER if state.standing[wall] else 0
    if kind == "keep_ground" and attacker_space not in KEEP_COMPOUND:
        wall = next(s.id for s in STRUCTURES if s.kind == "keep_wall" and victim.space in s.inner)
        return WALL_COVER if state.standing[wall] else 0
    return 0


def gear_bonus(unit: Unit, field: str) -> int:
    return sum(getattr(EQUIPMENT[card], field) for card in unit.gear)


def armor(unit: Unit) -> int:
    """Armor dice: the unit's own, its equipment's and a ward's (none while flipped)."""
    if unit.flipped:
        return 0
    return UNIT_KINDS[unit.kind].armor + gear_bonus(unit, "armor") + unit.ward


def attack_dice(unit: Unit) -> int:
    """Attack dice: the unit's own, its equipment's and a card's fury (none while flipped)."""
    if unit.flipped:
        return UNIT_KINDS[unit.kind].attack
    return UNIT_KINDS[unit.kind].attack + gear_bonus(unit, "attack") + unit.fury


def defense_dice(state: State, victim: Unit, attacker_space: int, ladder: int = NOBODY) -> int:
    if victim.flipped:
        return 0
    return armor(victim) + cover(state, victim, attacker_space, ladder)


def dark_force_near_keep(state: State) -> bool:
    return any(u.owner >= 0 and near_keep(u.space) for u in state.units.values())


def keep_occupied(state: State) -> bool:
    return any(u.space == KEEP for u in state.units.values())


def controls(state: State, seat: int, location: int) -> bool:
    """A player holds a location with a non-flipped unit there and nobody else."""
    space = LOCATIONS[location]
    here = [u for u in state.units.values() if u.space == space]
    return len(here) == 1 and here[0].owner == seat and not here[0].flipped


def defenders(state: State) -> list[Unit]:
    return [u for u in state.units.values()
            if u.owner == DEFENDER_SIDE and SPACES[u.space].kind in CASTLE_KINDS]


def keep_reachable(state: State, moving: int, to: int, moves: int = 4) -> bool:
    """Whether some Dark Force unit could walk into an empty keep within ``moves`` steps (two
    turns of two moves) if defender ``moving`` stood on ``to``: paths go through open walls (and
    over ladders) and around non-flipped defenders."""
    blocked = {(to if u.uid == moving else u.space) for u in state.units.values()
               if u.is_defender and not u.flipped}
    if KEEP in blocked:
        return False
    starts = [u.space for u in state.units.values() if u.owner >= 0 and not is_location(u.space)]
    frontier = {s: 0 for s in starts}
    queue = list(starts)
    while queue:
        here = queue.pop(0)
        if here == KEEP:
            return True
        if frontier[here] >= moves:
            continue
        for edge in EDGES[here]:
            passable = wall_open(state, edge.wall) or edge.wall in state.ladders
            if edge.cost != 1 or not passable or edge.to in blocked:
                continue
            if edge.to not in frontier:
                frontier[edge.to] = frontier[here] + 1
                queue.append(edge.to)
    return False
