"""Seeded playouts: every action legal, every game ends, replays equal live play, apply is pure."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mission_support import ENGINE, replay

from siege.contracts.events import DeckShuffled, DiceRolled, Event, GameEvent
from siege.games.mission import cards
from siege.games.mission.events import ManeuverStashed
from siege.games.mission.state import State
from siege.games.mission.tuning import SLOTS, TURN_LIMIT
from siege.testing.playout import seeded_playout

PACKAGE = Path(cards.__file__).parent
LINEUPS = [["random", "random"], ["greedy", "random"], ["greedy", "greedy"]]


def legal_only(state: State, seat: int, action: Any) -> None:
    assert seat in ENGINE.pending(state).seats
    assert action in ENGINE.legal_actions(state, seat)


def check_cards(state: State) -> None:
    """Every card of each seat is in exactly one place once its deck has been shuffled."""
    for seat in range(2):
        if not (state.decks[seat] or state.hands[seat]):
            continue
        places = (state.decks[seat] + state.hands[seat] + state.discards[seat]
                  + state.maneuvers[seat]
                  + [c for slot in range(SLOTS) for c in state.units[seat][slot]]
                  + [c for slot in range(SLOTS) for c in state.stashes[slot][seat]])
        assert sorted(places) == list(range(cards.DECK_SIZE))
        assert set(state.swerved[seat]) <= set(state.maneuvers[seat])
        assert all(cards.KIND[c] == "unit" for slot in range(SLOTS)
                   for c in state.units[seat][slot])


def completions(state: State) -> int:
    return sum(len(done) for done in state.completed)


def replay_checked(events: list[Event]) -> State:
    """Folds from scratch, checking card conservation, the decision numbers (every game event
    and chance answer closes a point, so the next one has a higher number), that missions are
    completed only by a stash (in the Assault phase) and that two missions are always in play."""
    state = ENGINE.initial_state(events[0])
    for event in events[1:]:
        before = ENGINE.pending(state).decision
        done = completions(state)
        state = ENGINE.evolve(state, event)
        check_cards(state)
        if completions(state) != done:
            assert isinstance(event, ManeuverStashed)
        if state.turn and not ENGINE.is_terminal(state):
            assert -1 not in state.missions
        after = ENGINE.pending(state).decision
        if isinstance(event, GameEvent | DiceRolled | DeckShuffled) and not ENGINE.is_terminal(
                state):
            assert after > before
        else:
            assert after >= before
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), lineup=st.sampled_from(LINEUPS))
def test_seeded_playouts_end_with_only_legal_actions_and_replay_to_the_live_state(
        seed: int, lineup: list[str]) -> None:
    live, events = seeded_playout(ENGINE, lineup, seed, on_action=legal_only)
    assert ENGINE.is_terminal(live) and live.ended in ("points", "missions", "turns")
    assert live.turn <= TURN_LIMIT
    assert sorted(ENGINE.ranks(live))[0] == 1
    assert ENGINE.legal_actions(live, 0) == ENGINE.legal_actions(live, 1) == []
    replayed = replay(events)  # through the event codec
    assert replayed == live
    assert msgspec.to_builtins(replayed) == msgspec.to_builtins(live)
    assert replay_checked(events) == live


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), cut=st.floats(0.0, 1.0))
def test_apply_never_changes_the_state(seed: int, cut: float) -> None:
    _, events = seeded_playout(ENGINE, ["random", "random"], seed)
    state = replay(events[: max(1, int(len(events) * cut))])
    before = msgspec.msgpack.encode(state)
    for seat in ENGINE.pending(state).seats:
        for action in ENGINE.legal_actions(state, seat):
            ENGINE.apply(state, seat, action)
            assert msgspec.msgpack.encode(state) == before


def test_every_kind_of_event_happens_across_a_few_playouts() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(12):
        for lineup in LINEUPS:
            _, events = seeded_playout(ENGINE, lineup, seed)
            kinds.update(type(x).__name__ for x in events)
    assert set(kinds) >= {t.__name__ for t in ENGINE.event_types}


def test_the_package_never_imports_random() -> None:
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(alias.name.split(".")[0] != "random" for alias in node.names), path
            elif isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] != "random", path
