"""Sally Forth bots. They see only a seat's view and its legal actions, like any outside client.

:class:`GreedyBot` plays one move deep with a few rules of thumb:
- Assault where the stash completes the most points, counting a close combat there as won
  (units already stronger), paid for (one spare maneuver is enough) or lost; then closest to
  completion. Without maneuvers, assault only where its own units already beat the defenders.
- In close combat, swerve the cheapest maneuver that gets ahead, but never the one it means to
  stash, and never a fast one just to save a point; otherwise yield.
- Stash the slowest maneuver that completes the mission, else the fastest (keeping Outriders,
  whose text only works in play).
- Deploy: regroup when everything is swerved; a unit that makes it the stronger side where the
  opponent guards; maneuvers until two are ready (a Relay move that brings a mission closer
  first); then units guarding the mission the opponent is closest to completing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from siege.bots.protocol import RandomBot, Rng
from siege.games.mission.actions import (
    AssaultMission,
    DeployManeuver,
    DeployUnit,
    PassDeploy,
    Regroup,
    SkipAssault,
    StashManeuver,
    SwerveManeuver,
    YieldCombat,
)
from siege.games.mission.cards import OUTRIDERS, SPEED, STRENGTH, TYPE
from siege.games.mission.views import MissionView

T = TypeVar("T")

MAX_SWERVE = 3  # the fastest maneuver worth burning in a close combat
READY = 2  # unswerved maneuvers the bot likes to have in play


class GreedyBot:
    name = "greedy"

    def choose(self, view: MissionView, legal: Sequence[T], rng: Rng) -> T:
        first = legal[0]
        pick: Any = None
        if isinstance(first, AssaultMission | SkipAssault):
            pick = _assault(view, legal)
        elif isinstance(first, SwerveManeuver | YieldCombat):
            pick = _combat(view, legal)
        elif isinstance(first, StashManeuver):
            pick = _stash(view, legal)
        elif isinstance(first, DeployManeuver | DeployUnit | Regroup | PassDeploy):
            pick = _deploy(view, legal)
        return pick if pick is not None else RandomBot().choose(view, legal, rng)


def _ready(view: MissionView, seat: int) -> list[int]:
    mine = view.seats[seat]
    return [card for card in mine.maneuvers if card not in mine.swerved]


def _need(view: MissionView, seat: int, slot: int) -> int:
    here = view.missions[slot]
    return here.difficulty - here.stashed_speed[seat]


def _stash_pick(view: MissionView, slot: int, cards: list[int]) -> int:
    """The maneuver to stash at ``slot``: the slowest that completes, else the fastest."""
    need = _need(view, view.seat, slot)
    finishing = [c for c in cards if SPEED[c] >= need]
    if finishing:
        return min(finishing, key=lambda c: (SPEED[c], TYPE[c] == OUTRIDERS))
    return max(cards, key=lambda c: (SPEED[c], TYPE[c] != OUTRIDERS))


def _assault(view: MissionView, legal: Sequence[Any]) -> Any:
    me = view.seat
    other = 1 - me
    ready = _ready(view, me)
    slots = [x for x in legal if isinstance(x, AssaultMission)]
    if not ready:  # optional: fight only a combat we already win
        good = [x for x in slots
                if view.missions[x.slot].strength[me] > view.missions[x.slot].strength[other]]
        return good[0] if good else next(x for x in legal if isinstance(x, SkipAssault))

    def score(action: AssaultMission) -> tuple[float, int]:
        slot = action.slot
        here = view.missions[slot]
        spare = list(ready)
        keep = _stash_pick(view, slot, spare)
        spare.remove(keep)
        value = float(here.points if SPEED[keep] >= _need(view, me, slot) else 0)
        if here.units[other]:
            gap = here.strength[other] - here.strength[me] + 1
            if gap <= 0:
                value += 1 + len(here.units[other])  # a won combat: a point, units destroyed
            elif any(gap <= SPEED[c] <= MAX_SWERVE for c in spare):
                value += 0.5  # won at the cost of a maneuver
            else:
                value -= 1 + len(here.units[me])  # a lost combat: their point, our units
        return (value, -_need(view, me, slot))

    return max(slots, key=score)


def _combat(view: MissionView, legal: Sequence[Any]) -> Any:
    fight = view.combat
    if fight is None:
        return None
    me = view.seat
    side = fight.sides.index(me)
    gap = fight.totals[1 - side] - fight.totals[side] + (1 if side == 0 else 0)
    options = [x.card for x in legal if isinstance(x, SwerveManeuver)]
    if side == 0:  # keep the maneuver we mean to stash
        if len(options) < 2:
            options = []
        else:
            options.remove(_stash_pick(view, fight.slot, options))
    enough = [c for c in options if SPEED[c] >= gap and SPEED[c] <= MAX_SWERVE]
    if enough:
        return SwerveManeuver(card=min(enough, key=lambda c: SPEED[c]))
    return next(x for x in legal if isinstance(x, YieldCombat))


def _stash(view: MissionView, legal: Sequence[Any]) -> Any:
    cards = [x.card for x in legal]
    return StashManeuver(card=_stash_pick(view, view.target, cards))


def _deploy(view: MissionView, legal: Sequence[Any]) -> Any:
    me = view.seat
    other = 1 - me
    ready = _ready(view, me)
    regroup = next((x for x in legal if isinstance(x, Regroup)), None)
    maneuvers = [x for x in legal if isinstance(x, DeployManeuver)]
    units = [x for x in legal if isinstance(x, DeployUnit)]
    if regroup is not None and not ready and len(view.seats[me].swerved) >= 2:
        return regroup
    breakers = [x for x in units if _breaks_guard(view, x)]
    if breakers:  # next turn's assault there wins the combat
        return min(breakers, key=lambda x: STRENGTH[x.card])
    best_maneuver = max(maneuvers, key=lambda x: (_relay_gain(view, x), SPEED[x.card]),
                        default=None)
    if best_maneuver is not None and len(ready) < READY:
        return best_maneuver
    if units:
        # Guard the mission the opponent is closest to completing.
        return max(units, key=lambda x: (-_need(view, other, x.slot), STRENGTH[x.card]))
    if best_maneuver is not None:
        return best_maneuver
    if regroup is not None:
        return regroup
    return next(x for x in legal if isinstance(x, PassDeploy))


def _breaks_guard(view: MissionView, action: DeployUnit) -> bool:
    """True when this unit makes ours the stronger side where the opponent has units."""
    me = view.seat
    here = view.missions[action.slot]
    if not here.units[1 - me]:
        return False
    mine = here.strength[me] + STRENGTH[action.card]
    return here.strength[me] <= here.strength[1 - me] < mine


def _relay_gain(view: MissionView, action: DeployManeuver) -> int:
    """How much closer a Relay's move brings our nearest mission (0 without a move)."""
    me = view.seat
    if action.move < 0:
        return 0
    here = next(s for s in (0, 1) if action.move in view.missions[s].stashed[me])
    there = 1 - here
    before = min(_need(view, me, 0), _need(view, me, 1))
    after_there = _need(view, me, there) - SPEED[action.move]
    after_here = _need(view, me, here) + SPEED[action.move]
    return before - min(after_there, after_here)
