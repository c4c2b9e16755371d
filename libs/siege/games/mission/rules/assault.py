"""The Assault phase: the excerpt's rules, the first phase of every turn.

- With no unswerved maneuver in play the phase is optional: the seat may skip it, or assault a
  mission where the opponent has units (only a close combat could happen there). With no such
  mission there is nothing an assault could do, and the phase is skipped without a decision.
- Otherwise it is mandatory: the seat must pick one of the two missions (no skip is offered).
- Opponent units at the picked mission start close combat at once (no decision).
- After combat, whatever its outcome, the seat must stash exactly one unswerved maneuver there,
  chosen even when only one is left. With none left (all swerved in combat) the phase ends.
- After a stash, and only then, the seat's stashed speed there is compared with the mission's
  difficulty; reaching it completes the mission. A stash moved there earlier (Relay) therefore
  completes it only at the seat's next assault there.
"""

from __future__ import annotations

from typing import Any

from siege.games.mission import actions as a
from siege.games.mission import events as e
from siege.games.mission.missions import DIFFICULTY, POINTS
from siege.games.mission.rules import combat
from siege.games.mission.rules.effects import stashed_speed
from siege.games.mission.rules.nodes import close_decision, open_decision
from siege.games.mission.state import State, opponent, unswerved
from siege.games.mission.tuning import NOBODY, SLOTS


def choices(state: State, seat: int) -> list[Any]:
    """The assault choices of ``seat`` at the start of its turn (empty: skipped outright)."""
    if unswerved(state, seat):
        return [a.AssaultMission(slot=slot) for slot in range(SLOTS)]
    defended = [slot for slot in range(SLOTS) if state.units[opponent(seat)][slot]]
    if not defended:
        return []
    return [a.SKIP, *(a.AssaultMission(slot=slot) for slot in defended)]


def open_choice(state: State) -> bool:
    """Asks the active seat to pick a mission; True when a decision is open."""
    if choices(state, state.active):
        open_decision(state, state.active)
        return True
    state.phase = "deploy"
    return False


def stash_choices(state: State, seat: int) -> list[Any]:
    return [a.StashManeuver(card=card) for card in unswerved(state, seat)]


def open_stash(state: State) -> bool:
    """Asks for the stash; with every maneuver swerved the phase ends right after combat."""
    if unswerved(state, state.active):
        open_decision(state, state.active)
        return True
    end(state)
    return False


def end(state: State) -> None:
    state.target = NOBODY
    state.phase = "deploy"


def on_mission_assaulted(state: State, event: e.MissionAssaulted) -> None:
    close_decision(state)
    slot = event.slot
    state.target = slot
    state.result = None
    if state.units[opponent(event.seat)][slot]:
        combat.begin(state, slot)  # automatic: no choice is asked
    else:
        state.phase = "stash"


def on_assault_skipped(state: State, event: e.AssaultSkipped) -> None:
    close_decision(state)
    end(state)


def on_maneuver_stashed(state: State, event: e.ManeuverStashed) -> None:
    close_decision(state)
    seat, slot = event.seat, event.slot
    state.maneuvers[seat].remove(event.card)
    state.stashes[slot][seat].append(event.card)
    # The check, then the phase is over either way (ended first, so that a game over set by
    # ``complete`` stands).
    end(state)
    if stashed_speed(state, seat, slot) >= DIFFICULTY[state.missions[slot]]:
        complete(state, seat, slot)


def complete(state: State, seat: int, slot: int) -> None:
    """Scores the mission and replaces it; every stash there (both seats') is discarded.
    Units stay where they are: they hold the place, whatever mission comes next."""
    mission = state.missions[slot]
    state.points[seat] += POINTS[mission]
    state.completed[seat].append(mission)
    for owner, stash in enumerate(state.stashes[slot]):
        state.discards[owner].extend(stash)
        stash.clear()
    if state.mission_deck:
        state.missions[slot] = state.mission_deck.pop(0)
    else:
        # Two missions must always be in play; when none can replace it, the game is over.
        state.missions[slot] = NOBODY
        state.phase = "over"
        state.ended = "missions"
