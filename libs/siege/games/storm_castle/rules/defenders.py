"""The Fantasy Defenders: placing them (set-up and reinforcements), the reference card, and the
Onward March with its activation priorities.

Priorities (our rulings on the rulebook's "eligible target" and the keep guard):
1. while a Dark Force unit is within 3 spaces of an empty keep, the activation must bring a
   defender into the keep if any defender can get there;
2. otherwise, if any defender not yet activated can attack a Dark Force unit this activation
   (after moving up to 2 spaces), the activation must be one of those attacks;
3. otherwise any defender may move (or stay).
A defender in the keep never leaves it while a Dark Force unit is within 3 spaces, and attacks
from the keep only flipped units or units that cannot strike back.
"""

from __future__ import annotations

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import DEFENDER_TOKENS, PEASANT, UNIT_KINDS
from siege.games.storm_castle.board import (
    CASTLE,
    EDGES,
    KEEP,
    KEEP_COMPOUND,
    NOBODY,
    RAMPARTS,
    TOWERS,
    is_castle,
    is_location,
)
from siege.games.storm_castle.cards import Spell
from siege.games.storm_castle.rules import equipment, magic, terrain
from siege.games.storm_castle.rules.battle import can_counter, start_attack
from siege.games.storm_castle.rules.equipment import KNOCK_MOVES
from siege.games.storm_castle.state import DEFENDER_SIDE, UNIT_MOVES, State, Unit


def pass_reference(state: State, current: int) -> None:
    """The reference card goes clockwise, never stopping at the current player."""
    if state.ref_holder == NOBODY:
        return
    holder = (state.ref_holder + 1) % state.players
    if holder == current and state.players > 1:
        holder = (holder + 1) % state.players
    state.ref_holder = holder


def ready_reference(state: State, current: int) -> None:
    """Before the defenders act, the current player hands the card on if he holds it."""
    if state.ref_holder == current and state.players > 1:
        pass_reference(state, current)


# --- placing ----------------------------------------------------------------------------------


def placement_spaces(state: State, setup: bool) -> list[int]:
    taken = {u.space for u in state.units.values()}
    if setup:
        return [s for s in (*TOWERS, *RAMPARTS) if s not in taken]
    if terrain.dark_force_near_keep(state) and KEEP not in taken:
        return [KEEP]
    return [s for s in CASTLE if s not in taken]


def strength(kind: int, damage: int = 0) -> int:
    """How strong a defender is for the keep swap: health left plus attack and armor dice."""
    spec = UNIT_KINDS[kind]
    return spec.health - damage + spec.attack + spec.armor


def keep_guard(state: State) -> Unit | None:
    return next((u for u in state.units.values() if u.space == KEEP and u.is_defender), None)


def keep_swaps(state: State) -> list[int]:
    """Spaces the keep's guard may move out to so that the reinforcement just drawn, if it is
    stronger, takes its place (only while a Dark Force unit is near the keep): the free keep
    grounds, else any free castle space."""
    guard = keep_guard(state)
    if (not state.to_place or guard is None or not terrain.dark_force_near_keep(state)
            or strength(DEFENDER_TOKENS[state.to_place[0]]) <= strength(guard.kind, guard.damage)):
        return []
    taken = {u.space for u in state.units.values()}
    grounds = [s for s in sorted(KEEP_COMPOUND) if s != KEEP and s not in taken]
    return grounds or [s for s in CASTLE if s not in taken]


def place(state: State, token: int, space: int, uid: int) -> None:
    state.units[uid] = Unit(uid=uid, kind=DEFENDER_TOKENS[token], owner=DEFENDER_SIDE,
                            space=space, token=token)
    state.next_uid = max(state.next_uid, uid + 1)


# --- the Onward March --------------------------------------------------------------------------


def _reach(state: State, unit: Unit) -> dict[int, int]:
    """Spaces a defender may end on this activation, with the moves it spends getting there."""
    budget = UNIT_MOVES - (1 if unit.flipped else 0)
    occupied = {u.space: u for u in state.units.values() if u.uid != unit.uid}
    near = terrain.dark_force_near_keep(state)
    if unit.space == KEEP and near:
        return {KEEP: 0}
    found = {unit.space: 0}
    frontier = [unit.space]
    for step in range(1, budget + 1):
        nxt = []
        for here in frontier:
            for edge in EDGES[here]:
                to = edge.to
                if edge.cost != 1 or not is_castle(to) or not terrain.wall_open(state, edge.wall):
                    continue
                other = occupied.get(to)
                if other is not None and other.owner >= 0 and not other.flipped:
                    continue  # never through a Dark Force unit
                if to not in found:
                    found[to] = step
                    nxt.append(to)
        frontier = nxt
    return {s: c for s, c in found.items() if s == unit.space or s not in occupied}


def _targets_from(state: State, unit: Unit, space: int, spell: Spell | None = None) -> list[Unit]:
    here = unit.space
    unit.space = space  # look from the destination (restored below)
    try:
        out = []
        for other in state.units.values():
            if other.owner < 0 or is_location(other.space):
                continue
            if spell is not None:
                if not magic.reaches(state, unit, other.space, spell):
                    continue
            elif not terrain.can_reach(state, unit, other.space):
                continue
            if space == KEEP and not other.flipped and can_counter(state, other, unit):
                continue
            out.append(other)
        return out
    finally:
        unit.space = here


def unit_orders(state: State, unit: Unit) -> list[a.OrderDefender]:
    out = []
    budget = UNIT_MOVES - (1 if unit.flipped else 0)
    spells = [c for c in state.drawn_spells if magic.defender_spell(c).attack]
    caster = state.march is not None and state.march.caster == unit.uid
    for to, cost in sorted(_reach(state, unit).items()):
        for target in sorted(_targets_from(state, unit, to), key=lambda u: u.uid):
            out.append(a.OrderDefender(unit=unit.uid, to=to, target=target.uid))
        for card in sorted(set(spells)) if caster else ():
            spell = magic.defender_spell(card)
            for target in sorted(_targets_from(state, unit, to, spell), key=lambda u: u.uid):
                out.append(a.OrderDefender(unit=unit.uid, to=to, target=target.uid, spell=card))
        if cost + KNOCK_MOVES <= budget:
            out += [a.OrderDefender(unit=unit.uid, to=to, knock=w)
                    for w in equipment.knock_walls(state, to)]
        out.append(a.OrderDefender(unit=unit.uid, to=to))
    return out


def candidates(state: State) -> list[Unit]:
    march = state.march
    done = march.activated if march is not None else []
    if march is not None and march.hero:
        return [state.units[state.hero]] if state.hero in state.units else []
    return sorted((u for u in terrain.defenders(state)
                   if u.uid not in done and u.kind != PEASANT), key=lambda u: u.uid)


def _prioritised(state: State, everything: list[a.OrderDefender]) -> list[a.OrderDefender]:
    if terrain.dark_force_near_keep(state) and not terrain.keep_occupied(state):
        guard = [o for o in everything if o.to == KEEP]
        if guard:
            return guard
    attacks = [o for o in everything if o.target != NOBODY
               or (o.knock != NOBODY and equipment.climber(state, o.knock) is not None)]
    return attacks or everything


def orders(state: State) -> list[a.OrderDefender | a.DrawSpells]:
    """The legal activations now, after the priorities. A defender caster first draws its
    spells (``DrawSpells``), then is given its order with them."""
    march = state.march
    if march is not None and march.caster in state.units:
        return list(_prioritised(state, unit_orders(state, state.units[march.caster])))
    everything = [o for u in candidates(state) for o in unit_orders(state, u)]
    out: list[a.OrderDefender | a.DrawSpells] = []
    drawn: set[int] = set()
    for order in _prioritised(state, everything):
        unit = state.units[order.unit]
        if magic.spell_draws(unit) and (state.magic_deck or state.magic_discard):
            if unit.uid not in drawn:
                drawn.add(unit.uid)
                out.append(a.DrawSpells(unit=unit.uid))
        else:
            out.append(order)
    return out


def on_spells_drawn(state: State, unit: int) -> None:
    march = state.march
    assert march is not None
    march.caster = unit
    state.spells_owed = magic.spell_draws(state.units[unit])


def apply_order(state: State, order: a.OrderDefender) -> None:
    unit = state.units[order.unit]
    march = state.march
    assert march is not None
    march.activated.append(unit.uid)
    march.left -= 1
    march.active = unit.uid
    march.caster = NOBODY
    cost = _reach(state, unit).get(order.to, 0)
    unit.moved = cost + (1 if unit.flipped else 0)
    unit.flipped = False
    unit.attacked = False
    unit.space = order.to
    if order.knock != NOBODY:
        unit.moved += KNOCK_MOVES
        equipment.knock_down(state, order.knock)
    elif order.target != NOBODY:
        unit.attacked = True
        if order.spell != NOBODY:
            state.drawn_spells.remove(order.spell)
            state.magic_discard.append(order.spell)  # defender spells fizzle
        start_attack(state, unit.uid, target=order.target, context="order", spell=order.spell)
