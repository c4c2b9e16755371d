"""The vilest ranking (trophies), counted the same way whether or not the keep fell."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from siege.games.storm_castle.armies import CHAMPION
from siege.games.storm_castle.rules.economy import upgrade_built
from siege.games.storm_castle.state import State

GOLD_PER_POINT = 3
DEFENDERS_PER_POINT = 3


class Vilest(msgspec.Struct, frozen=True, kw_only=True):
    """One player's points in the vilest ranking, part by part, counted the same whether or
    not the keep fell; the total ranks every player but the one who entered the keep."""

    walls: Annotated[int, Meta(description=(
        "1 per castle wall or keep wall the player destroyed."))]
    defenders: Annotated[int, Meta(description=(
        "1 per three defenders slain, the hero included (peasants never count), rounded "
        "down."))]
    buildings: Annotated[int, Meta(description="1 per castle building the player destroyed.")]
    champion: Annotated[int, Meta(description="1 while the player's champion is in play, else 0.")]
    upgrade: Annotated[int, Meta(description=(
        "1 while the player's battlefield upgrade stands, else 0."))]
    gold: Annotated[int, Meta(description="1 per three gold held, rounded down.")]
    boss: Annotated[int, Meta(description="1 for the player who is Boss now, else 0.")]
    total: Annotated[int, Meta(description="The sum of the other parts.")]


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
