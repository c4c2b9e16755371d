"""The game as a machine: runs every automatic step until a seat or chance is needed.

Event handlers record what their event says and close the decision it answered; :func:`advance`
then moves the game on. A turn: Environment Meter (between turns) -> momentum die -> ready,
draw -> Captain -> Curse -> Move Units -> Open Phase (Charges wait for their die) -> Quick
moves -> hand limit -> next seat.
"""

from __future__ import annotations

from siege.games.castle_assault.rules import environment, setup, start
from siege.games.castle_assault.rules.ending import TURN_LIMIT, check_castles, compare, out_of_play
from siege.games.castle_assault.rules.hand import draw, over_limit
from siege.games.castle_assault.rules.movement import charge, move_units, quick_moves
from siege.games.castle_assault.rules.nodes import open_chance, open_decision
from siege.games.castle_assault.rules.stats import MOMENTUM_MAX
from siege.games.castle_assault.state import NOBODY, State, find_unit, opponent

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
            if check_castles(state):
                continue
            _turn_step(state)
        else:  # "mulligan" and "first" only wait for their decisions
            return


def _turn_step(state: State) -> None:
    step = state.step
    seat = state.active
    if step == "opening":
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
        move_units(state, seat)
        state.step = "open"
    elif step == "open":
        open_decision(state, [seat], "open")
    elif step == "end":
        quick_moves(state, seat)
        state.step = "discard"
    elif step == "discard":
        if over_limit(state, seat):
            open_decision(state, [seat], "discard")
        else:
            _finish_turn(state)


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
        charge(state, unit, value)


def _finish_turn(state: State) -> None:
    state.boosts = []  # "this turn" effects end with the turn
    if out_of_play(state):
        compare(state, "cards")
        return
    if state.turn >= TURN_LIMIT:
        compare(state, "turn_limit")
        return
    state.active = opponent(state.active)
    state.step = "env"

