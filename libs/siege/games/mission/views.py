"""What one seat may know: the whole table, minus the secrets.

Secret: every hand but the viewer's own (only its size shows), every deck's order (only sizes
show, the viewer's own included) and the mission deck's order. Everything in play, stashed,
discarded or completed is open. Views are built from copies, so a view never changes when the
state moves on; derived numbers (unit strength, stashed speed, combat totals) are included so
that clients need not re-implement card texts.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.engine.protocol import own
from siege.games.mission.events import MISSION
from siege.games.mission.missions import DIFFICULTY, POINTS
from siege.games.mission.rules.effects import (
    combat_totals,
    stashed_speed,
    strength,
    unit_strength,
)
from siege.games.mission.state import CombatResult, State
from siege.games.mission.tuning import NOBODY, PLAYERS, SLOTS

_PER_SEAT = "One entry per seat, index = seat number: "


class MissionSlotView(msgspec.Struct, frozen=True, kw_only=True):
    """One of the two mission slots, with everything at it: the mission in play, both seats'
    stashed maneuvers and units there, and the derived numbers (card texts applied). Units
    belong to the slot, not to the mission card: they stay when the mission is replaced."""

    slot: Annotated[int, msgspec.Meta(description=(
        "The slot, 0 or 1 (also this entry's index in `missions`)."))]
    mission: Annotated[int, msgspec.Meta(description=(
        MISSION + " -1 before the missions are dealt, and once a completed mission could not "
        "be replaced (the game is over then)."))]
    difficulty: Annotated[int, msgspec.Meta(description=(
        "The mission's difficulty: the stashed speed a seat needs here to complete it; 0 when "
        "`mission` is -1."))]
    points: Annotated[int, msgspec.Meta(description=(
        "Points for completing the mission; 0 when `mission` is -1."))]
    stashed: Annotated[list[list[int]], msgspec.Meta(description=(
        _PER_SEAT + "card numbers of its maneuvers stashed here, in the order they arrived "
        "(stashed, or moved here by a Relay). Open to both seats."))]
    stashed_speed: Annotated[list[int], msgspec.Meta(description=(
        _PER_SEAT + "the printed speeds of its maneuvers stashed here, added up."))]
    units: Annotated[list[list[int]], msgspec.Meta(description=(
        _PER_SEAT + "card numbers of its units here, in the order deployed."))]
    unit_strength: Annotated[list[list[int]], msgspec.Meta(description=(
        _PER_SEAT + "each of its units' strength now (printed strength plus Outriders, Drill "
        "Sergeant and Tunnellers), in the order of `units`."))]
    strength: Annotated[list[int], msgspec.Meta(description=(
        _PER_SEAT + "all its units here together: what they add to its side in a close combat "
        "here."))]


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's open information: sizes of its secret hand and deck, its discard pile, its
    maneuvers in play, its points and completed missions."""

    seat: Annotated[int, msgspec.Meta(description=(
        "The seat, 0 or 1 (also this entry's index in `seats`)."))]
    hand_size: Annotated[int, msgspec.Meta(description=(
        "Cards in its hand; the cards themselves show only to their owner (the view's "
        "`hand`)."))]
    deck_size: Annotated[int, msgspec.Meta(description=(
        "Cards left in its deck; the order is hidden from both seats, the owner included."))]
    discard: Annotated[list[int], msgspec.Meta(description=(
        "Card numbers in its discard pile, in the order they arrived (destroyed units, "
        "stashes of completed missions); emptied when it is shuffled into a new deck."))]
    maneuvers: Annotated[list[int], msgspec.Meta(description=(
        "Card numbers of its maneuvers in play, swerved or not, in the order deployed; "
        "stashed maneuvers are not in play (they are in `missions[].stashed`)."))]
    swerved: Annotated[list[int], msgspec.Meta(description=(
        "The swerved ones among `maneuvers`, in the order they were swerved; the rest are "
        "unswerved."))]
    points: Annotated[int, msgspec.Meta(description=(
        "Points scored: completed missions' points plus close-combat wins. Reaching "
        "`constants.win_points` of the reference data ends the game."))]
    completed: Annotated[list[int], msgspec.Meta(description=(
        "Mission card ids it has completed, in the order completed (indexes into `missions` "
        "of the reference data)."))]


class CombatView(msgspec.Struct, frozen=True, kw_only=True):
    """The close combat under way at the assaulted mission; lists of two are in `sides`
    order, the attacker first."""

    slot: Annotated[int, msgspec.Meta(description=(
        "Mission slot (0 or 1) where the combat is fought."))]
    sides: Annotated[list[int], msgspec.Meta(description=(
        "The two seats: [attacker (the active seat), defender]."))]
    swerved: Annotated[list[list[int]], msgspec.Meta(description=(
        "Per side: card numbers of the maneuvers it swerved in this combat, in order."))]
    totals: Annotated[list[int], msgspec.Meta(description=(
        "Per side, now: its units' strength at that mission plus the speed it swerved in this "
        "combat. The side not ahead (the attacker on a tie) is the one asked."))]


class MissionView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat sees: the whole table except the secrets. Hidden: the other seat's hand
    (only `seats[].hand_size` shows), the order of every deck, the viewer's own included
    (only sizes show), and the mission deck's order (`mission_deck_size`). Cards in play,
    units, stashes, discard piles and completed missions are open."""

    seat: Annotated[int, msgspec.Meta(description=(
        "The seat this view is for, 0 or 1; -1 for a spectator (no seat: `hand` empty)."))]
    phase: Annotated[str, msgspec.Meta(description=(
        "Where the turn stands: one of `setup`, `start`, `assault`, `combat`, `stash`, "
        "`deploy`, `draw`, `over` (explained in `phases` of the reference data)."))]
    decision: Annotated[int, msgspec.Meta(description=(
        "The current decision number: it grows by one each time a decision point or chance "
        "request opens."))]
    waiting: Annotated[list[int], msgspec.Meta(description=(
        "The seat that must act now (at most one); empty while a chance is awaited or the "
        "game is over."))]
    chance: Annotated[str, msgspec.Meta(description=(
        "The purpose of the chance being waited for (`missions`, `deck_0`, `deck_1`, "
        "`first_player`, `reshuffle_0`, `reshuffle_1`; see `chance_purposes` of the "
        "reference data); empty string when none."))]
    turn: Annotated[int, msgspec.Meta(description=(
        "Turns begun in the whole game, both seats' counted (1 is the first player's first "
        "turn); 0 before the first. The game ends after `constants.turn_limit` of the "
        "reference data."))]
    first_player: Annotated[int, msgspec.Meta(description=(
        "The seat that took the first turn; -1 before the first-player roll."))]
    active: Annotated[int, msgspec.Meta(description=(
        "The seat whose turn it is (turns alternate); -1 before the first-player roll."))]
    ended: Annotated[str, msgspec.Meta(description=(
        "Why the game ended: `points`, `missions` or `turns` (see `end_reasons` of the "
        "reference data); empty string while it goes on."))]
    hand: Annotated[list[int], msgspec.Meta(description=(
        "The viewer's own hand: card numbers (indexes into `cards` of the reference data), in "
        "the order drawn."))]
    mission_deck_size: Annotated[int, msgspec.Meta(description=(
        "Mission cards left in the shared mission deck; their order is hidden."))]
    target: Annotated[int, msgspec.Meta(description=(
        "The slot (0 or 1) being assaulted, during the combat and stash of an assault; -1 "
        "otherwise."))]
    missions: Annotated[list[MissionSlotView], msgspec.Meta(description=(
        "The two mission slots, in slot order."))]
    seats: Annotated[list[SeatView], msgspec.Meta(description=(
        "Both seats' open information, in seat order."))]
    combat: Annotated[CombatView | None, msgspec.Meta(description=(
        "The close combat under way; null when none."))]
    result: Annotated[CombatResult | None, msgspec.Meta(description=(
        "How this turn's close combat ended; null before it, when there was none, and from "
        "the start of the next turn."))]


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
        hand=list(own(state.hands, seat, [])),
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
