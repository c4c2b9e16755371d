"""The Deploy phase (our own design): up to ``DEPLOYS_PER_TURN`` times the active seat does one of
- deploy a maneuver from its hand into play, unswerved (a Relay may also move one of the seat's
  stashed maneuvers to the other mission, or not);
- deploy a unit from its hand at one of the two missions;
- regroup: every swerved maneuver of the seat becomes unswerved (only when it has one);
or it stops (``PassDeploy``), which ends the phase. A seat with nothing to deploy and nothing to
regroup is not asked: the phase ends by itself.
"""

from __future__ import annotations

from typing import Any

from siege.games.mission import actions as a
from siege.games.mission import events as e
from siege.games.mission.cards import KIND, RELAY, TYPE
from siege.games.mission.rules.nodes import close_decision, open_decision
from siege.games.mission.state import State
from siege.games.mission.tuning import SLOTS


def legal(state: State, seat: int) -> list[Any]:
    moves: list[Any] = []
    stashed = [card for slot in range(SLOTS) for card in state.stashes[slot][seat]]
    for card in sorted(state.hands[seat]):
        if KIND[card] == "unit":
            moves.extend(a.DeployUnit(card=card, slot=slot) for slot in range(SLOTS))
            continue
        moves.append(a.DeployManeuver(card=card))
        if TYPE[card] == RELAY:
            moves.extend(a.DeployManeuver(card=card, move=s) for s in stashed)
    if state.swerved[seat]:
        moves.append(a.REGROUP)
    moves.append(a.PASS)
    return moves


def can_act(state: State, seat: int) -> bool:
    """Whether the seat has anything to do besides stopping."""
    return bool(state.hands[seat] or state.swerved[seat])


def open_choice(state: State) -> bool:
    """Asks the active seat for its next deploy action; True when a decision is open."""
    if state.deploys_left > 0 and can_act(state, state.active):
        open_decision(state, state.active)
        return True
    state.phase = "draw"
    return False


def _done_one(state: State) -> None:
    close_decision(state)
    state.deploys_left -= 1


def stash_slot(state: State, seat: int, card: int) -> int:
    """The slot where ``seat``'s stashed maneuver ``card`` lies (it lies at exactly one)."""
    return next(slot for slot in range(SLOTS) if card in state.stashes[slot][seat])


def on_maneuver_deployed(state: State, event: e.ManeuverDeployed) -> None:
    _done_one(state)
    seat = event.seat
    state.hands[seat].remove(event.card)
    state.maneuvers[seat].append(event.card)
    if event.moved >= 0:
        # Relay's text names stashed maneuvers, so it may touch one. Moving never completes a
        # mission: completion is only checked in the seat's next assault there.
        here = stash_slot(state, seat, event.moved)
        state.stashes[here][seat].remove(event.moved)
        state.stashes[event.moved_to][seat].append(event.moved)


def on_unit_deployed(state: State, event: e.UnitDeployed) -> None:
    _done_one(state)
    state.hands[event.seat].remove(event.card)
    state.units[event.seat][event.slot].append(event.card)


def on_maneuvers_regrouped(state: State, event: e.ManeuversRegrouped) -> None:
    _done_one(state)
    state.swerved[event.seat] = []


def on_deploy_passed(state: State, event: e.DeployPassed) -> None:
    close_decision(state)
    state.phase = "draw"
