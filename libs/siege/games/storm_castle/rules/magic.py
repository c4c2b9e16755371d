"""Magic: casting spells (magic costs, exhausting, fizzling, refreshing at Collect), who may cast
(Arcanist casters only; any Undead unit), attack spells as battles and as the way a target
strikes back, and the spells defender casters draw when they activate.

Rulings (see the README): an attack spell is a battle of its own, fought like a ranged (range
above 0) or melee battle with the spell's attack; it ends the caster's movement but is not the
unit's one attack, so a caster may attack and cast, and cast several different spells. A target
that may strike back and whose army casts chooses before the dice how it strikes back: its own
attack or an attack spell that reaches. In battle rounds that choice is made once, in the first
round (the target first, then the unit that started the rounds), and a spell chosen stays the
unit's attack until the rounds end.
"""

from __future__ import annotations

from typing import Any

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import ARCANISTS, UNDEAD, UNIT_KINDS
from siege.games.storm_castle.board import NOBODY, distance, is_location
from siege.games.storm_castle.cards import DEFENDER_SPELLS, SPELL_DRAWS, Spell, spell_of
from siege.games.storm_castle.rules import terrain
from siege.games.storm_castle.rules.nodes import shuffle
from siege.games.storm_castle.state import Battle, State, Unit


def may_cast(state: State, unit: Unit) -> bool:
    """Arcanists cast through their casters only; every Undead unit may cast. Never flipped."""
    if unit.owner < 0 or unit.flipped or state.armies[unit.owner] not in (ARCANISTS, UNDEAD):
        return False
    return state.armies[unit.owner] != ARCANISTS or UNIT_KINDS[unit.kind].caster


def castable(state: State, seat: int) -> list[Spell]:
    """Spells in ``seat``'s hand (not exhausted) that its magic pays for."""
    army = state.armies[seat]
    out = []
    for card in sorted(set(state.hands[seat])):
        spell = spell_of(army, card)
        if spell is not None and spell.cost <= state.magic[seat]:
            out.append(spell)
    return out


def reaches(state: State, unit: Unit, space: int, spell: Spell) -> bool:
    """A spell's reach from ``unit``: its range in spaces, or melee adjacency for range 0."""
    if is_location(unit.space) or is_location(space):
        return unit.space == space
    if spell.range:
        return distance(unit.space, space) <= spell.range
    return terrain.melee_adjacent(state, unit.space, space)


def cast_options(state: State, seat: int, may_fight: Any) -> list[a.CastSpell]:
    out: list[a.CastSpell] = []
    spells = castable(state, seat)
    if not spells:
        return out
    mine = sorted((u for u in state.units.values() if u.owner == seat), key=lambda u: u.uid)
    casters = [u for u in mine if may_cast(state, u) and not is_location(u.space)]
    for spell in spells:
        for caster in casters:
            if spell.ward:
                out += [a.CastSpell(card=spell.card, unit=caster.uid, target=u.uid)
                        for u in mine if not u.flipped]
                continue
            for other in sorted(state.units.values(), key=lambda u: u.uid):
                if other.owner == seat or is_location(other.space):
                    continue
                if other.owner >= 0 and not may_fight(state, seat, other.owner):
                    continue
                if reaches(state, caster, other.space, spell):
                    out.append(a.CastSpell(card=spell.card, unit=caster.uid, target=other.uid))
    return out


def pay(state: State, seat: int, card: int, cost: int) -> Spell:
    """Pays a spell and exhausts it (or discards it: a fizzle)."""
    spell = spell_of(state.armies[seat], card)
    assert spell is not None
    state.magic[seat] -= cost
    state.hands[seat].remove(card)
    (state.discards[seat] if spell.fizzle else state.exhausted[seat]).append(card)
    return spell


def refresh(state: State) -> None:
    """Collect: exhausted cards go back into their hands."""
    for seat in range(state.players):
        state.hands[seat].extend(state.exhausted[seat])
        state.exhausted[seat] = []


# --- striking back with a spell ---------------------------------------------------------------


def counter_spells(state: State, target: Unit, attacker: Unit) -> list[Spell]:
    """Attack spells the target could strike back with (same space: battle rounds, range 1)."""
    if not may_cast(state, target):
        return []
    same = target.space == attacker.space
    return [s for s in castable(state, target.owner)
            if s.attack and (same or reaches(state, target, attacker.space, s))]


def counter_options(state: State, battle: Battle) -> list[a.CounterWithSpell]:
    """Its own attack (when it reaches, or in battle rounds) or any attack spell that does; for
    the unit that started battle rounds, its own attack or any of its attack spells."""
    target, attacker = state.units[battle.target], state.units[battle.attacker]
    if battle.starter_asking:
        return [a.CounterWithSpell(card=NOBODY)] + [
            a.CounterWithSpell(card=s.card) for s in counter_spells(state, attacker, target)]
    own = battle.rounds or terrain.can_reach(state, target, attacker.space)
    return [a.CounterWithSpell(card=NOBODY)] * own + [
        a.CounterWithSpell(card=s.card) for s in counter_spells(state, target, attacker)]


# --- defender casters -------------------------------------------------------------------------


def defender_spell(card: int) -> Spell:
    return DEFENDER_SPELLS[card]


def spell_draws(unit: Unit) -> int:
    return SPELL_DRAWS.get(unit.kind, 0)


def settle_spell_draws(state: State) -> bool:
    """Draws the defender caster's owed spells; True when the discards must be shuffled."""
    while state.spells_owed > 0:
        if not state.magic_deck:
            if state.magic_discard:
                shuffle(state, len(state.magic_discard), "remagic")
                return True
            state.spells_owed = 0
            break
        state.drawn_spells.append(state.magic_deck.pop(0))
        state.spells_owed -= 1
    return False


def on_magic_reshuffled(state: State, order: list[int]) -> None:
    cards = sorted(state.magic_discard)
    state.magic_deck = [cards[i] for i in order]
    state.magic_discard = []


def discard_drawn(state: State) -> None:
    state.magic_discard.extend(state.drawn_spells)
    state.drawn_spells = []
