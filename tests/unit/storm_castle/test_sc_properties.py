"""Seeded random playouts: every action legal, every game ends by turn 8, replays equal live
play; decision numbers only grow; apply is pure; chance answers that do not fit are refused."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storm_support import ENGINE, Table, created, replay

from siege.contracts.events import ChanceRequested, DeckShuffled, DiceRolled, Event
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.engine.protocol import ChanceMismatchError
from siege.games.storm_castle import actions, board, events
from siege.games.storm_castle.armies import UNIT_KINDS, UNITS_PER_ARMY
from siege.games.storm_castle.cards import LADDER
from siege.games.storm_castle.decks import POWER_DECK_SIZE
from siege.games.storm_castle.state import LAST_TURN, State
from siege.testing.playout import FairChance, seeded_playout

PACKAGE = Path(board.__file__).parent


def check_invariants(state: State) -> None:
    spaces: dict[int, int] = {}
    for unit in state.units.values():
        spaces[unit.space] = spaces.get(unit.space, 0) + 1
        assert unit.damage < UNIT_KINDS[unit.kind].health or state.battle is not None
    if state.battle is None:
        assert all(n == 1 for n in spaces.values()), spaces
    for seat in range(state.players):
        assert 0 <= state.gold[seat] <= 10 and 0 <= state.magic[seat] <= 10
        if state.shuffled[seat] and state.dealt:
            gear = [c for u in state.units.values() if u.owner == seat for c in u.gear
                    if c != LADDER]
            cards = (state.decks[seat] + state.hands[seat] + state.discards[seat]
                     + state.exhausted[seat] + state.in_play[seat] + gear)
            assert len(cards) + int(state.upgrade_cards[seat]) == POWER_DECK_SIZE
        assert sum(state.bought[seat]) == sum(1 for u in state.units.values()
                                              if u.owner == seat) <= UNITS_PER_ARMY


def random_play(players: int, seed: bytes, intro: bool = False) -> tuple[State, list[Event]]:
    rng = BotRng(seed, "random")

    def choose(state: State, seat: int, legal: list[Any]) -> Any:
        assert legal, f"seat {seat} asked with nothing to do ({state.asking})"
        return legal[rng.randrange(len(legal))]

    return play_local(ENGINE, created(players, intro), choose, FairChance(seed, seed.hex()))


def replay_checked(events_: list[Event]) -> State:
    state = ENGINE.initial_state(events_[0])
    decision = ENGINE.pending(state).decision
    for event in events_[1:]:
        state = ENGINE.evolve(state, event)
        check_invariants(state)
        now = ENGINE.pending(state).decision
        assert now >= decision
        decision = now
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8), intro=st.booleans())
def test_random_playouts_end_legally_and_replay_through_the_codec_to_the_live_state(
        players: int, seed: bytes, intro: bool) -> None:
    live, history = random_play(players, seed, intro)
    assert ENGINE.is_terminal(live)
    assert live.winner >= 0 or live.turn == LAST_TURN
    ranks = ENGINE.ranks(live)
    assert len(ranks) == players and min(ranks) == 1
    assert all(ENGINE.legal_actions(live, seat) == [] for seat in range(players))
    assert replay(history) == live
    assert msgspec.to_builtins(replay_checked(history)) == msgspec.to_builtins(live)


@pytest.mark.parametrize("players", [1, 4])
def test_greedy_playouts_end_and_replay(players: int) -> None:
    live, history = seeded_playout(ENGINE, ["greedy"] * players, seed=3)
    assert ENGINE.is_terminal(live) and replay(history) == live


def test_a_new_decision_point_always_gets_a_new_number() -> None:
    _, history = random_play(3, b"numbers")
    state = ENGINE.initial_state(history[0])
    seen: set[int] = set()
    last = None
    for event in history[1:]:
        state = ENGINE.evolve(state, event)
        pending = ENGINE.pending(state)
        point = (pending.decision, pending.seats, pending.chance)
        if point != last and (pending.seats or pending.chance):
            assert pending.decision not in seen or pending.decision == last[0]  # type: ignore[index]
            seen.add(pending.decision)
        last = point
    assert len(seen) > 100


def test_apply_does_not_change_the_state() -> None:
    _, history = random_play(4, b"pure")
    for cut in range(30, len(history), 37):
        state = replay(history[:cut])
        before = msgspec.msgpack.encode(state)
        for seat in ENGINE.pending(state).seats:
            for action in ENGINE.legal_actions(state, seat):
                ENGINE.apply(state, seat, action)
        assert msgspec.msgpack.encode(state) == before


def test_chance_answers_that_do_not_fit_are_refused_before_anything_changes() -> None:
    table = Table(2)
    need = table.need()
    before = msgspec.msgpack.encode(table.state)
    request = ChanceRequested(kind="shuffle", count=need.count, purpose=need.purpose)
    table.fold(request)
    for bad in (DeckShuffled(request=2, first_index=0, order=[0]),
                DeckShuffled(request=2, first_index=0, order=[0, 0]),
                DiceRolled(request=2, first_index=0, values=[1, 2])):
        with pytest.raises(ChanceMismatchError):
            ENGINE.evolve(table.state, bad)
        assert msgspec.msgpack.encode(table.state) == before
    # A battle roll of the wrong size or out of range is refused too.
    _, history = random_play(2, b"dice")
    cut = next(i for i, ev in enumerate(history) if isinstance(ev, DiceRolled))
    state = replay(history[:cut])
    wanted = ENGINE.pending(state).chance
    assert wanted is not None
    snapshot = msgspec.msgpack.encode(state)
    for values in ([7] * wanted.count, [1] * (wanted.count + 1), [0] * wanted.count):
        with pytest.raises(ChanceMismatchError):
            ENGINE.evolve(state, DiceRolled(request=1, first_index=0, values=values))
        assert msgspec.msgpack.encode(state) == snapshot


def test_every_action_and_event_has_a_one_line_description() -> None:
    for cls in (*actions.ACTION_TYPES, *events.EVENT_TYPES):
        doc = inspect.getdoc(cls) or ""
        assert doc and "\n" not in doc.strip(), cls.__name__
    tags = [cls.__struct_config__.tag for cls in (*actions.ACTION_TYPES, *events.EVENT_TYPES)]
    assert all(str(t).startswith("sc.") for t in tags) and len(set(tags)) == len(tags)


def test_the_package_never_imports_random() -> None:
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert all(alias.name.split(".")[0] != "random" for alias in node.names), path
            elif isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] != "random", path
