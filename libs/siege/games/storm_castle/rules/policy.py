"""The defenders' default policy: how the rules themselves make every choice they give the
defenders' controller, used when no seat holds the reference card (the one-player game) and
documented in the README. Deterministic: it reads the state only, so a replay redoes it.

- Placing a defender: the keep when it must; otherwise the free space closest to the Dark
  Force unit nearest the keep (at set-up: towers first, then ramparts), lowest id on ties.
- The keep swap: a reinforcement stronger than the keep's guard (while a Dark Force unit is
  near the keep) always takes its place, the guard moving out to the free keep ground (else
  castle space) that the placing rule picks.
- Activating: the attack most likely to destroy its target (least health left, then the
  target nearest the keep); without attacks, the defender and move that end closest to the
  Dark Force unit nearest the keep; lowest ids on ties.
- Battle march: always, when the rules allow it.
- A defender caster that may act draws its spells first; without an attack, a defender knocks
  down a ladder if it can; the hero goes on the placement space closest to the leading unit.
"""

from __future__ import annotations

from typing import Any

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import UNIT_KINDS
from siege.games.storm_castle.board import KEEP, NOBODY, SPACES, distance
from siege.games.storm_castle.state import State


def _leader_space(state: State) -> int:
    """The Dark Force unit nearest the keep (lowest unit id on ties), -1 without any."""
    units = [u for u in state.units.values()
             if u.owner >= 0 and SPACES[u.space].kind != "location"]
    if not units:
        return NOBODY
    return min(units, key=lambda u: (distance(u.space, KEEP), u.uid)).space


def place(state: State, spaces: list[int]) -> int:
    target = _leader_space(state)
    if target == NOBODY:
        return min(spaces, key=lambda s: (SPACES[s].kind != "tower", s))
    return min(spaces, key=lambda s: (distance(s, target), s))


def order(state: State, options: list[Any]) -> Any:
    draws = [o for o in options if isinstance(o, a.DrawSpells)]
    if draws:
        return draws[0]  # a caster that may act draws its spells first
    knocks = [o for o in options if o.knock != NOBODY]
    attacks = [o for o in options if o.target != NOBODY]
    if knocks and not attacks:
        return knocks[0]
    if attacks:
        def left(o: a.OrderDefender) -> tuple[int, int, int, int]:
            victim = state.units[o.target]
            return (UNIT_KINDS[victim.kind].health - victim.damage,
                    distance(victim.space, KEEP), o.unit, o.to)
        return min(attacks, key=left)
    target = _leader_space(state)
    if target == NOBODY:
        return options[0]
    return min(options, key=lambda o: (distance(o.to, target), o.unit, o.to))
