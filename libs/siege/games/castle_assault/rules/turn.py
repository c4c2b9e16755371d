"""The game as a machine: runs every automatic step until a seat or chance is needed.

Event handlers record what their event says and close the decision it answered; :func:`advance`
then moves the game on. A turn: Environment Meter (between turns) -> momentum die -> ready,
draw -> Captain -> Curse -> movement window -> Move Units -> Open Phase -> Quick moves, units
that burn, the hand limit -> next seat. Whenever a movement or a combat is under way (or a
response window open), it is resolved first and the step it interrupted carries on.
"""

from __future__ import annotations

from siege.games.castle_assault.rules import environment, setup, start
from siege.games.castle_assault.rules.combat import damage_unit, remove_destroyed
from siege.games.castle_assault.rules.ending import TURN_LIMIT, check_fallen, compare, out_of_play
from siege.games.castle_assault.rules.hand import draw, over_limit
from siege.games.castle_assault.rules.movement import (
    drive,
    queue_move_units,
    queue_quick_moves,
    start_charge,
)
from siege.games.castle_assault.rules.nodes import open_chance, open_decision
from siege.games.castle_assault.rules.stats import MOMENTUM_MAX, card_of
from siege.games.castle_assault.rules.windows import open_window
from siege.games.castle_assault.state import NOBODY, State, find_unit, opponent, seat_of

MOMENTUM_PURPOSE = "momentum"


def advance(state: State) -> None:
    while not state.waiting and state.chance is None:
        phase = state.phase
        if phase in ("over", "final"):
            return
        if phase == "setup":
            setup.setup_step(state)
        elif phase == "rolloff":
            setup.rolloff_step(state)
        elif phase == "turn":
            if check_fallen(state):
                continue
            if state.window is not None:
                open_decision(state, [state.window.to_act], "respond")
                continue
            if (state.fight or state.motion or state.queue or state.returning) and (
                    state.step != "resolve"):
                state.resume = state.step  # resolve what is under way, then carry on
                state.step = "resolve"
            _turn_step(state)
        else:  # "mulligan" and "first" only wait for their decisions
            return


def _turn_step(state: State) -> None:
    step = state.step
    seat = state.active
    if step == "resolve":
        if not drive(state):
            state.step = state.resume
    elif step == "opening":
        state.step = "begin"
        environment.reveal(state)  # the deck was just shuffled: it cannot be empty here
    elif step == "env":
        state.step = "reveal" if environment.move_meter(state) else "begin"
    elif step == "reveal":
        if not environment.reveal(state):
            state.step = "begin"
    elif step == "begin":
        _begin_turn(state)
    elif step == "captain":
        if start.captain_candidates(state, seat):
            open_decision(state, [seat], "captain")
        else:
            state.step = "curse"
    elif step == "curse":
        if start.curse_candidates(state, seat):
            open_decision(state, [seat], "curse")
        else:
            state.step = "move"
    elif step == "move":
        state.step = "queue"
        open_window(state, "movement")  # Instants before the units move
    elif step == "queue":
        queue_move_units(state, seat)
        state.resume, state.step = "open", "resolve"
    elif step == "open":
        open_decision(state, [seat], "open")
    elif step == "end":
        queue_quick_moves(state, seat)
        state.resume, state.step = "burn", "resolve"
    elif step == "burn":
        _burn(state, seat)
        state.step = "discard"
    elif step == "discard":
        if over_limit(state, seat):
            open_decision(state, [seat], "discard")
        else:
            _finish_turn(state)


def _burn(state: State, seat: int) -> None:
    """End of Turn: units that lose 1 Health a turn do so (nobody draws for them)."""
    burning = [u for u in state.units if u.seat == seat and card_of(u).burns]
    for unit in burning:
        damage_unit(state, unit, 1)
    if burning:
        remove_destroyed(state)


def _begin_turn(state: State) -> None:
    state.turn += 1
    state.seat_turns[state.active] += 1
    state.placed = 0
    state.unit_played = False
    state.acted = []
    state.clashes = []
    state.step = "captain"
    open_chance(state, "dice", 1, 6, MOMENTUM_PURPOSE)


def on_momentum_roll(state: State, value: int) -> None:
    """Toward the active seat's castle, stopping at Max; then payday and the turn's draw."""
    seat = state.active
    step = value if seat == 0 else -value
    state.momentum = max(-MOMENTUM_MAX, min(MOMENTUM_MAX, state.momentum + step))
    state.exhausted[seat] = 0
    draw(state, seat)


def on_charge_roll(state: State, value: int) -> None:
    unit = find_unit(state, state.charging)
    state.charging = NOBODY
    state.step = "open"
    if unit is not None:
        start_charge(state, unit, value)


def _finish_turn(state: State) -> None:
    seat = state.active
    state.boosts = []  # "this turn" effects end with the turn
    if state.curse != NOBODY and seat_of(state.curse) == seat:
        state.curse = NOBODY  # the Curse lasted one turn of its victim's side
        state.curse_by = NOBODY
        state.curse_holder = seat
    if out_of_play(state):
        compare(state, "cards")
        return
    if state.turn >= TURN_LIMIT:
        compare(state, "turn_limit")
        return
    state.active = opponent(seat)
    state.step = "env"
