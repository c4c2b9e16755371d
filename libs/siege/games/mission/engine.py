"""``MissionGame``: the Sally Forth rules engine (``siege.engine.protocol.Engine``).

Pure: no I/O, no randomness. Chance (the three opening shuffles, the first-player roll and any
reshuffle of a discard pile) is a node answered by the host with ``DeckShuffled``/``DiceRolled``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from siege.contracts.events import DeckShuffled, DiceRolled, Event, GameEvent, MatchCreated
from siege.engine.protocol import (
    Action,
    IllegalActionError,
    Pending,
    ranks_from_keys,
    take_chance,
)
from siege.games.mission import actions as a
from siege.games.mission import events as e
from siege.games.mission.cards import SPEED
from siege.games.mission.rules import assault, combat, deploy, flow
from siege.games.mission.state import State
from siege.games.mission.tuning import PLAYERS
from siege.games.mission.views import MissionView, view_for


class MissionGame:
    name: ClassVar[str] = "mission"
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    event_types: ClassVar[tuple[type[GameEvent], ...]] = e.EVENT_TYPES
    action_types: ClassVar[tuple[type[Action], ...]] = a.ACTION_TYPES

    def initial_state(self, created: MatchCreated) -> State:
        if created.players != PLAYERS:
            raise ValueError(f"Sally Forth is for {PLAYERS} players, not {created.players}")
        state = State()
        flow.advance(state)
        return state

    def pending(self, state: State) -> Pending:
        if state.phase == "over":
            return Pending(decision=state.decision)
        if state.chance is not None:
            return Pending(decision=state.decision, chance=state.chance)
        return Pending(decision=state.decision, seats=frozenset(state.waiting))

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if seat not in state.waiting:
            return []
        phase = state.phase
        if phase == "assault":
            return assault.choices(state, seat)
        if phase == "combat":
            return combat.legal(state, seat)
        if phase == "stash":
            return assault.stash_choices(state, seat)
        if phase == "deploy":
            return deploy.legal(state, seat)
        return []

    def apply(self, state: State, seat: int, action: Any) -> list[GameEvent]:
        # Legality is the host's check (``action in legal_actions``); only the seat is checked.
        if seat not in state.waiting:
            raise IllegalActionError(f"seat {seat} is not asked to act")
        kind = type(action)
        if kind is a.AssaultMission:
            return [e.MissionAssaulted(seat=seat, slot=action.slot,
                                       mission=state.missions[action.slot])]
        if kind is a.SkipAssault:
            return [e.AssaultSkipped(seat=seat)]
        if kind is a.SwerveManeuver:
            return [e.ManeuverSwerved(seat=seat, card=action.card, speed=SPEED[action.card])]
        if kind is a.YieldCombat:
            return [e.CombatYielded(seat=seat)]
        if kind is a.StashManeuver:
            return [e.ManeuverStashed(seat=seat, card=action.card, slot=state.target)]
        if kind is a.DeployManeuver:
            if action.move < 0:
                return [e.ManeuverDeployed(seat=seat, card=action.card)]
            there = 1 - deploy.stash_slot(state, seat, action.move)
            return [e.ManeuverDeployed(seat=seat, card=action.card, moved=action.move,
                                       moved_to=there)]
        if kind is a.DeployUnit:
            return [e.UnitDeployed(seat=seat, card=action.card, slot=action.slot)]
        if kind is a.Regroup:
            return [e.ManeuversRegrouped(seat=seat, cards=list(state.swerved[seat]))]
        if kind is a.PassDeploy:
            return [e.DeployPassed(seat=seat)]
        raise IllegalActionError(f"not a Sally Forth action: {action!r}")

    def evolve(self, state: State, event: Event) -> State:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            return state  # core events this game does not need (requests, seeds, the end...)
        handler(state, event)
        flow.advance(state)
        return state

    def is_terminal(self, state: State) -> bool:
        return state.phase == "over"

    def ranks(self, state: State) -> list[int]:
        # Most points, then most missions completed; equal on both is a shared place.
        return ranks_from_keys([(state.points[p], len(state.completed[p]))
                                for p in range(PLAYERS)])

    def view(self, state: State, seat: int) -> MissionView:
        return view_for(state, seat)


# --- folding chance answers ------------------------------------------------------------------


def _on_dice(state: State, event: DiceRolled) -> None:
    take_chance(state, event)  # the only dice: the first player
    flow.on_first_player(state, event.values)


_SHUFFLE_HANDLERS: dict[str, Callable[..., None]] = {
    flow.MISSIONS_PURPOSE: flow.on_missions_shuffled,
    **{flow.deck_purpose(s): partial(flow.on_deck_shuffled, seat=s) for s in range(PLAYERS)},
    **{flow.reshuffle_purpose(s): partial(flow.on_reshuffled, seat=s) for s in range(PLAYERS)},
}


def _on_shuffled(state: State, event: DeckShuffled) -> None:
    _SHUFFLE_HANDLERS[take_chance(state, event)](state, order=event.order)


_HANDLERS: dict[type[Event], Callable[[State, Any], None]] = {
    DiceRolled: _on_dice,
    DeckShuffled: _on_shuffled,
    # Each game event's handler records it and closes the decision it answered.
    e.MissionAssaulted: assault.on_mission_assaulted,
    e.AssaultSkipped: assault.on_assault_skipped,
    e.ManeuverSwerved: combat.on_maneuver_swerved,
    e.CombatYielded: combat.on_combat_yielded,
    e.ManeuverStashed: assault.on_maneuver_stashed,
    e.ManeuverDeployed: deploy.on_maneuver_deployed,
    e.UnitDeployed: deploy.on_unit_deployed,
    e.ManeuversRegrouped: deploy.on_maneuvers_regrouped,
    e.DeployPassed: deploy.on_deploy_passed,
}

assert set(_HANDLERS) >= set(e.EVENT_TYPES)
