"""Plays a match in memory, with no log and no bus: for engine tests and benchmarks.

The hosted path (rules and dice handlers over a log) must reach the same states; tests compare.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from siege.contracts.events import ChanceRequested, Event, MatchCreated
from siege.engine.protocol import ChanceNeeded, Engine

Chooser = Callable[[Any, int, list[Any]], Any]
"""(state, seat, legal actions) -> action"""

ChanceAnswer = Callable[[ChanceNeeded, int], Event]
"""(what is needed, request number) -> DiceRolled or DeckShuffled"""


class PlayoutTooLongError(RuntimeError):
    pass


def play_local(
    engine: Engine[Any],
    created: MatchCreated,
    choose: Chooser,
    answer: ChanceAnswer,
    max_steps: int = 200_000,
) -> tuple[Any, list[Event]]:
    """Runs to the end; returns the final state and every event in order."""
    state = engine.initial_state(created)
    events: list[Event] = [created]

    def fold(event: Event) -> None:
        nonlocal state
        events.append(event)
        state = engine.evolve(state, event)

    for _ in range(max_steps):
        if engine.is_terminal(state):
            return state, events
        pending = engine.pending(state)
        if pending.chance is not None:
            need = pending.chance
            fold(ChanceRequested(kind=need.kind, sides=need.sides, count=need.count,
                                 purpose=need.purpose))
            fold(answer(need, len(events)))
            continue
        for seat in sorted(pending.seats):
            if seat not in engine.pending(state).seats:
                continue
            action = choose(state, seat, engine.legal_actions(state, seat))
            for event in engine.apply(state, seat, action):
                fold(event)
    raise PlayoutTooLongError(f"no terminal state after {max_steps} steps")
