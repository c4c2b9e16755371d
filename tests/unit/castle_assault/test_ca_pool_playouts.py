"""Seeded random playouts of all 16 warband pairings: every action legal, every game ends, the
invariants hold after every event, and a replay through the wire encoding equals live play.
Also a small greedy-against-random run per warband, so the bot's rules of thumb for every
warband's cards are exercised (the full balance figures are in ``CARDS.md``)."""

from __future__ import annotations

from typing import Any

import pytest
from ca_support import ENGINE, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ca_properties import check_invariants

from siege.contracts.events import MatchCreated
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.castle_assault.balance import WARBANDS, Tally, greedy_vs_random, head_to_head
from siege.games.castle_assault.state import State
from siege.testing.playout import FairChance

PAIRINGS = [f"{a},{b}" for a in WARBANDS for b in WARBANDS]


def test_all_sixteen_pairings() -> None:
    assert len(PAIRINGS) == 16 and len(set(PAIRINGS)) == 16


@pytest.mark.parametrize("warbands", PAIRINGS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8))
def test_random_games_of_every_pairing_end_legally_and_replay(warbands: str,
                                                              seed: bytes) -> None:
    rng = BotRng(seed, "random")

    def choose(state: State, seat: int, legal: list[Any]) -> Any:
        assert legal, f"seat {seat} asked with nothing to do"
        return legal[rng.randrange(len(legal))]

    created = MatchCreated(game="castle-assault", players=2, seat_names=["a", "b"],
                           options={"warbands": warbands})
    state, events = play_local(ENGINE, created, choose, FairChance(seed, seed.hex()))
    assert ENGINE.is_terminal(state) and sorted(ENGINE.ranks(state)) == [1, 2]
    assert state.warbands == warbands.split(",")
    folded = ENGINE.initial_state(events[0])
    for event in events[1:]:
        folded = ENGINE.evolve(folded, event)
        check_invariants(folded)
    assert folded == state
    assert replay(events) == state


def test_greedy_beats_random_with_every_warband_in_a_short_run() -> None:
    results = greedy_vs_random(6)
    assert set(results) == set(WARBANDS)
    for first, second in results.values():
        assert (first + second).wins >= 9  # of 12: far above a coin's 6


def test_head_to_head_folds_both_seat_orders() -> None:
    matrix = {("a", "b"): Tally(wins=7, games=10), ("b", "a"): Tally(wins=4, games=10)}
    assert head_to_head(matrix, "a", "b") == Tally(wins=13, games=20)
    assert head_to_head(matrix, "b", "a") == Tally(wins=7, games=20)
    low, high = Tally(wins=13, games=20).interval
    assert low < 0.65 < high
