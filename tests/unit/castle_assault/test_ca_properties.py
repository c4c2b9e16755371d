"""Seeded random playouts of every warband pairing: every action legal, every game ends,
decision numbers never go back, and a replay through the wire encoding equals live play."""

from __future__ import annotations

from typing import Any

import pytest
from ca_support import ENGINE, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siege.contracts.events import MatchCreated
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.state import HERO_INSTANCE, State, instance_of
from siege.testing.playout import FairChance

PAIRINGS = ["dragons,dwarves", "dwarves,dragons", "dragons,dragons", "dwarves,dwarves"]


def check_invariants(state: State) -> None:
    for seat in (0, 1):
        on_board = [instance_of(u.uid) for u in state.units + state.returning
                    if u.seat == seat and instance_of(u.uid) != HERO_INSTANCE]
        attached = [i for u in state.units if u.seat == seat for i in u.attachments]
        every = (state.decks[seat] + state.hands[seat] + state.discards[seat]
                 + state.resources[seat] + on_board + attached)
        if state.phase != "setup":
            assert sorted(every) == list(range(len(state.cards[seat])))
        assert 0 <= state.exhausted[seat] <= len(state.resources[seat])
    squares = [(u.lane, u.row) for u in state.units]
    assert len(squares) == len(set(squares))
    assert all(CARDS[u.card].health - u.damage > 0 for u in state.units)
    assert -4 <= state.momentum <= 4


@pytest.mark.parametrize("warbands", PAIRINGS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8))
def test_random_games_end_legally_and_replay_to_the_live_state(warbands: str,
                                                               seed: bytes) -> None:
    rng = BotRng(seed, "random")

    def choose(state: State, seat: int, legal: list[Any]) -> Any:
        assert legal, f"seat {seat} asked with nothing to do"
        return legal[rng.randrange(len(legal))]

    created = MatchCreated(game="castle-assault", players=2, seat_names=["a", "b"],
                           options={"warbands": warbands})
    state, events = play_local(ENGINE, created, choose, FairChance(seed, seed.hex()))
    assert ENGINE.is_terminal(state) and sorted(ENGINE.ranks(state)) == [1, 2]
    folded = ENGINE.initial_state(events[0])
    decision = ENGINE.pending(folded).decision
    for event in events[1:]:
        folded = ENGINE.evolve(folded, event)
        check_invariants(folded)
        assert ENGINE.pending(folded).decision >= decision
        decision = ENGINE.pending(folded).decision
    assert folded == state
    assert replay(events) == state


def test_an_unknown_warband_is_refused() -> None:
    with pytest.raises(ValueError, match="warbands"):
        ENGINE.initial_state(MatchCreated(game="castle-assault", players=2,
                                          seat_names=["a", "b"], options={"warbands": "elves"}))
