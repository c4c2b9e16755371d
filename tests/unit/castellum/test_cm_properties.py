"""Seeded random playouts: every action legal, every game ends, replays equal live play."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from castellum_support import ENGINE, created, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siege.contracts.events import Event
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.castellum import cards
from siege.games.castellum.angels import ANGEL_CARDS, HAND_LIMIT
from siege.games.castellum.events import AngelEffectChosen, CancelPlayed
from siege.games.castellum.state import State
from siege.testing.playout import FairChance

PACKAGE = Path(cards.__file__).parent
MAX_LEGAL = 100  # the longest possible: a four-player 1794 Siege turn, 5 cards x 20 columns


def angel_cards_in_play(state: State) -> list[int]:
    found = state.angel_deck + state.angel_discard + sum(state.hands, [])
    found += [card for line in state.lines for col in line for card in col.angels]
    found += [play.card for play in state.stack]
    if state.draft is not None:
        found.append(state.draft.card)
    return found


def check_invariants(state: State) -> None:
    if state.phase != "setup":
        assert sorted(angel_cards_in_play(state)) == list(range(len(ANGEL_CARDS)))
    line_cards = [c for line in state.lines for col in line for c in (col.fort, *col.troops)
                  if c != -1]
    everywhere = line_cards + state.offer + state.fort_deck + state.troop_deck
    assert len(everywhere) == len(set(everywhere))
    enemies = [col.enemy for line in state.lines for col in line if col.enemy != -1]
    enemies += sum(state.defeated, []) + sum(state.enemy_hands, []) + sum(state.enemy_decks, [])
    assert len(enemies) == len(set(enemies))
    for seat in range(state.players):
        assert min(state.resources[seat]) >= 0
        assert state.workers[seat] >= 0
        if seat not in state.discards:
            assert len(state.hands[seat]) <= HAND_LIMIT
        for col in state.lines[seat]:
            assert len(col.troops) <= 2
            assert col.fort == -1 or cards.IS_FORT[col.fort]
            assert all(not cards.IS_FORT[t] for t in col.troops)


def random_play(players: int, seed: bytes, sizes: list[int] | None = None
                ) -> tuple[State, list[Event]]:
    rng = BotRng(seed, "random")

    def choose(state: State, seat: int, legal: list[Any]) -> Any:
        assert legal, f"seat {seat} asked with nothing to do"
        assert ENGINE.pending(state).seats == {seat}
        if sizes is not None:
            sizes.append(len(legal))
        action = legal[rng.randrange(len(legal))]
        assert action in ENGINE.legal_actions(state, seat)
        return action

    return play_local(ENGINE, created(players), choose, FairChance(seed, seed.hex()))


def replay_checked(events: list[Event]) -> State:
    """Folds from scratch, checking invariants and that decision numbers never go back."""
    state = ENGINE.initial_state(events[0])
    decision = ENGINE.pending(state).decision
    for event in events[1:]:
        state = ENGINE.evolve(state, event)
        check_invariants(state)
        now = ENGINE.pending(state).decision
        assert now >= decision
        decision = now
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8))
def test_random_playouts_end_legally_and_replay_through_the_codec_to_the_live_state(
        players: int, seed: bytes) -> None:
    sizes: list[int] = []
    live, events = random_play(players, seed, sizes)
    assert ENGINE.is_terminal(live) and live.year == 3
    assert max(sizes) <= MAX_LEGAL
    ranks = ENGINE.ranks(live)
    assert len(ranks) == players and min(ranks) == 1
    assert all(ENGINE.legal_actions(live, seat) == [] for seat in range(players))
    assert replay(events) == live
    replayed = replay_checked(events)
    assert msgspec.to_builtins(replayed) == msgspec.to_builtins(live)


def test_every_special_effect_and_the_cancel_get_played_across_a_few_playouts() -> None:
    used: Counter[str] = Counter()
    for players in (2, 3, 4):
        for k in range(4):
            _, events = random_play(players, f"effects{players}:{k}".encode())
            for event in events:
                if isinstance(event, AngelEffectChosen):
                    used[ANGEL_CARDS[event.card].effect] += 1
                elif isinstance(event, CancelPlayed):
                    used["cancel"] += 1
    assert set(used) == {"boost", "switch", "take", "destroy", "resources", "cancel"}


def test_a_new_decision_point_always_gets_a_new_number() -> None:
    live, events = random_play(3, b"numbers")
    state = ENGINE.initial_state(events[0])
    seen: set[int] = set()
    last = None
    for event in events[1:]:
        state = ENGINE.evolve(state, event)
        pending = ENGINE.pending(state)
        point = (pending.decision, pending.seats, pending.chance)
        if point != last and (pending.seats or pending.chance):
            assert pending.decision not in seen
            seen.add(pending.decision)
        last = point
    assert len(seen) > 50


def test_apply_does_not_change_the_state() -> None:
    _, events = random_play(4, b"pure")
    for cut in range(30, len(events), 11):
        state = replay(events[:cut])
        before = msgspec.msgpack.encode(state)
        for seat in ENGINE.pending(state).seats:
            for action in ENGINE.legal_actions(state, seat):
                ENGINE.apply(state, seat, action)
        assert msgspec.msgpack.encode(state) == before


def test_the_package_never_imports_random() -> None:
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert all(alias.name.split(".")[0] != "random" for alias in node.names), path
            elif isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] != "random", path
