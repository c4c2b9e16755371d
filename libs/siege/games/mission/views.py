"""What one seat may know: the whole table, minus the secrets.

Secret: every hand but the viewer's own (only its size shows), every deck's order (only sizes
show, the viewer's own included) and the mission deck's order. Everything in play, stashed,
discarded or completed is open. Views are built from copies, so a view never changes when the
state moves on; derived numbers (unit strength, stashed speed, combat totals) are included so
that clients need not re-implement card texts.
"""

from __future__ import annotations

import msgspec

from siege.games.mission.missions import DIFFICULTY, POINTS
from siege.games.mission.rules.effects import (
    combat_totals,
    stashed_speed,
    strength,
    unit_strength,
)
from siege.games.mission.state import CombatResult, State
from siege.games.mission.tuning import NOBODY, PLAYERS, SLOTS


class MissionSlotView(msgspec.Struct, frozen=True, kw_only=True):
    slot: int
    mission: int  # -1 once a mission could not be replaced (the game is over then)
    difficulty: int
    points: int
    stashed: list[list[int]]  # per seat: its stashed maneuvers here
    stashed_speed: list[int]  # per seat
    units: list[list[int]]  # per seat: its units here
    unit_strength: list[list[int]]  # per seat: each of those units' strength now
    strength: list[int]  # per seat: all its units here together


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    hand_size: int
    deck_size: int
    discard: list[int]
    maneuvers: list[int]  # in play (stashed ones are at the missions)
    swerved: list[int]
    points: int
    completed: list[int]


class CombatView(msgspec.Struct, frozen=True, kw_only=True):
    slot: int
    sides: list[int]  # [attacker, defender]
    swerved: list[list[int]]
    totals: list[int]


class MissionView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    phase: str
    decision: int
    waiting: list[int]
    chance: str  # the purpose of the chance being waited for, "" when none
    turn: int
    first_player: int
    active: int
    ended: str
    hand: list[int]  # the viewer's own hand
    mission_deck_size: int
    target: int  # the slot being assaulted, -1 outside an assault
    missions: list[MissionSlotView]
    seats: list[SeatView]
    combat: CombatView | None
    result: CombatResult | None


def _slot_view(state: State, slot: int) -> MissionSlotView:
    mission = state.missions[slot]
    seats = range(PLAYERS)
    return MissionSlotView(
        slot=slot,
        mission=mission,
        difficulty=DIFFICULTY[mission] if mission != NOBODY else 0,
        points=POINTS[mission] if mission != NOBODY else 0,
        stashed=[list(state.stashes[slot][s]) for s in seats],
        stashed_speed=[stashed_speed(state, s, slot) for s in seats],
        units=[list(state.units[s][slot]) for s in seats],
        unit_strength=[[strength(state, s, card, slot) for card in state.units[s][slot]]
                       for s in seats],
        strength=[unit_strength(state, s, slot) for s in seats],
    )


def _seat_view(state: State, seat: int) -> SeatView:
    return SeatView(
        seat=seat,
        hand_size=len(state.hands[seat]),
        deck_size=len(state.decks[seat]),
        discard=list(state.discards[seat]),
        maneuvers=list(state.maneuvers[seat]),
        swerved=list(state.swerved[seat]),
        points=state.points[seat],
        completed=list(state.completed[seat]),
    )


def view_for(state: State, seat: int) -> MissionView:
    fight = state.combat
    result = state.result
    return MissionView(
        seat=seat,
        phase=state.phase,
        decision=state.decision,
        waiting=list(state.waiting),
        chance=state.chance.purpose if state.chance is not None else "",
        turn=state.turn,
        first_player=state.first,
        active=state.active,
        ended=state.ended,
        hand=list(state.hands[seat]),
        mission_deck_size=len(state.mission_deck),
        target=state.target,
        missions=[_slot_view(state, slot) for slot in range(SLOTS)],
        seats=[_seat_view(state, s) for s in range(PLAYERS)],
        combat=None if fight is None else CombatView(
            slot=fight.slot, sides=list(fight.sides),
            swerved=[list(side) for side in fight.swerved],
            totals=combat_totals(state, fight)),
        result=None if result is None else CombatResult(
            slot=result.slot, sides=list(result.sides), totals=list(result.totals),
            winner=result.winner, destroyed=list(result.destroyed)),
    )
