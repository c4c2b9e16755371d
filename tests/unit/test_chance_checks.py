"""Every hosted engine refuses, before changing anything, a chance answer whose kind, count,
die range or permutation does not fit what it asked for (``check_chance``)."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest

from siege.contracts.events import DeckShuffled, DiceRolled, Event, MatchCreated
from siege.engine.local import play_local
from siege.engine.protocol import ChanceMismatchError, ChanceNeeded
from siege.engine.registry import game_names, get_engine
from siege.testing.playout import FairChance


def bad_answers(need: ChanceNeeded) -> list[Event]:
    """Answers that do not fit ``need``: the other kind at the right size, a wrong count,
    and (for dice) rolls outside 1..sides or (for shuffles) a repeated card."""
    n = need.count
    if need.kind == "dice":
        return [DeckShuffled(request=1, first_index=0, order=list(range(n))),
                DiceRolled(request=1, first_index=0, values=[1] * (n + 1)),
                DiceRolled(request=1, first_index=0, values=[0] * n),
                DiceRolled(request=1, first_index=0, values=[need.sides + 1] * n)]
    return [DiceRolled(request=1, first_index=0, values=[1] * n),
            DeckShuffled(request=1, first_index=0, order=list(range(n + 1))),
            DeckShuffled(request=1, first_index=0, order=[0] * n)]


def snapshot(state: Any) -> bytes:
    return msgspec.msgpack.encode(msgspec.to_builtins(state))


@pytest.mark.parametrize("game", game_names())
def test_every_engine_refuses_a_chance_answer_that_does_not_fit(game: str) -> None:
    engine = get_engine(game)
    fair = FairChance(b"strict", game)
    checked: set[str] = set()

    def answer(need: ChanceNeeded, request: int) -> Event:
        if need.kind not in checked:  # the first node of each kind in this game
            checked.add(need.kind)
            for bad in bad_answers(need):
                state = copy.deepcopy(live[0])
                before = snapshot(state)
                with pytest.raises(ChanceMismatchError):
                    engine.evolve(state, bad)
                assert snapshot(state) == before, (game, bad)
        return fair(need, request)

    live: list[Any] = []
    original = engine.evolve

    def choose(state: Any, seat: int, legal: list[Any]) -> Any:
        return legal[0]

    created = MatchCreated(game=game, players=engine.min_players,
                           seat_names=[f"s{i}" for i in range(engine.min_players)])
    state = engine.initial_state(created)
    live.append(state)

    class Tracking:
        """The engine, keeping ``live[0]`` on the state the playout has reached."""

        def __getattr__(self, name: str) -> Any:
            return getattr(engine, name)

        def initial_state(self, event: MatchCreated) -> Any:
            live[0] = engine.initial_state(event)
            return live[0]

        def evolve(self, state: Any, event: Event) -> Any:
            live[0] = original(state, event)
            return live[0]

    play_local(Tracking(), created, choose, answer, max_steps=5_000)  # type: ignore[arg-type]
    assert checked, f"{game} never asked for chance"
