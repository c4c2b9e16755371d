"""The defenders' non-march event cards: mending defenders, repairing walls, taxing and draining
the player whose turn it is, stunning (flipping) that player's units, levying gold from every
player and rallying flipped defenders.

These run as an automatic step when the card is turned up: every choice is fixed by the rules
(nearest the keep, then lowest unit id), so a fold of the same events always redoes the same.
"""

from __future__ import annotations

from siege.games.storm_castle.board import KEEP, NOBODY, STRUCTURES, distance, is_location
from siege.games.storm_castle.decks import EVENT_CARDS
from siege.games.storm_castle.state import State

REPAIRABLE = frozenset({"wall", "keep_wall", "building"})


def stun_targets(state: State, seat: int, count: int) -> list[int]:
    """The player's non-flipped units off the locations, nearest the keep first."""
    units = [u for u in state.units.values()
             if u.owner == seat and not u.flipped and not is_location(u.space)]
    units.sort(key=lambda u: (distance(u.space, KEEP), u.uid))
    return [u.uid for u in units[:count]]


def resolve(state: State, card: int, seat: int) -> None:
    """Applies a non-march event card turned up on ``seat``'s turn."""
    effect = EVENT_CARDS[card].effect
    for unit in state.units.values():
        if unit.is_defender:
            if effect.mend:
                unit.damage = max(0, unit.damage - effect.mend)
            if effect.rally:
                unit.flipped = False
    if effect.repair:
        for sid, structure in enumerate(STRUCTURES):
            if structure.kind in REPAIRABLE and state.standing[sid]:
                state.structure_damage[sid] = max(0, state.structure_damage[sid] - effect.repair)
    if seat != NOBODY:
        state.gold[seat] = max(0, state.gold[seat] - effect.tax)
        state.magic[seat] = max(0, state.magic[seat] - effect.drain)
        for uid in stun_targets(state, seat, effect.stun):
            state.units[uid].flipped = True
    if effect.levy:
        state.gold = [max(0, g - effect.levy) for g in state.gold]
