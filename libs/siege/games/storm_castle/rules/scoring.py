"""The vilest ranking (trophies), counted the same way whether or not the keep fell."""

from __future__ import annotations

import msgspec

from siege.games.storm_castle.armies import CHAMPION
from siege.games.storm_castle.rules.economy import upgrade_built
from siege.games.storm_castle.state import State

GOLD_PER_POINT = 3
DEFENDERS_PER_POINT = 3


class Vilest(msgspec.Struct, frozen=True, kw_only=True):
    walls: int
    defenders: int  # one per three defenders slain (peasants never count)
    buildings: int
    champion: int
    upgrade: int
    gold: int  # one per three gold held
    boss: int
    total: int


def vilest(state: State, seat: int) -> Vilest:
    army = state.armies[seat]
    champion = int(army >= 0 and any(u.owner == seat and u.kind == CHAMPION[army]
                                     for u in state.units.values()))
    parts = dict(
        walls=state.walls_taken[seat],
        defenders=state.defenders_slain[seat] // DEFENDERS_PER_POINT,
        buildings=state.buildings_taken[seat],
        champion=champion,
        upgrade=int(upgrade_built(state, seat)),
        gold=state.gold[seat] // GOLD_PER_POINT,
        boss=int(state.boss == seat),
    )
    return Vilest(**parts, total=sum(parts.values()))
