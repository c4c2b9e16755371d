"""Bots: they choose legal actions from views alone, and the greedy bot beats random play."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from storm_support import ENGINE, created, replay

from siege.bots.protocol import RandomBot
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.storm_castle.bots import GreedyBot
from siege.games.storm_castle.views import StormView
from siege.testing.playout import FairChance, rotated_win_rate, seeded_playout

GAMES = 24
BAR = 0.65


class ViewOnly:
    """Wraps a bot and records that it is only ever handed a view."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.calls = 0

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        assert isinstance(view, StormView)
        self.calls += 1
        return self.bot.choose(view, legal, rng)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_greedy_bot_plays_legal_moves_from_the_view(players: int) -> None:
    bots = [ViewOnly(GreedyBot() if seat % 2 == 0 else RandomBot()) for seat in range(players)]
    seed = f"legal{players}".encode()
    rngs = [BotRng(seed, f"seat{seat}") for seat in range(players)]

    def choose(state: Any, seat: int, legal: list[Any]) -> Any:
        action = bots[seat].choose(ENGINE.view(state, seat), legal, rngs[seat])
        assert action in ENGINE.legal_actions(state, seat)
        return action

    final, history = play_local(ENGINE, created(players), choose, FairChance(seed, "legal"))
    assert ENGINE.is_terminal(final)
    assert replay(history) == final
    assert all(bot.calls > 0 for bot in bots)


def test_greedy_bot_is_deterministic_for_a_seed() -> None:
    runs = [seeded_playout(ENGINE, ["greedy", "random", "random"], 7)[1] for _ in range(2)]
    assert runs[0] == runs[1]


def test_one_greedy_seat_rotated_over_four_seats_ranks_first_most_of_the_time() -> None:
    rate = rotated_win_rate(ENGINE, players=4, games=GAMES)
    assert rate >= BAR, rate


def test_greedy_bots_use_magic_equipment_and_ladders() -> None:
    used: Counter[str] = Counter()
    for seed in (0, 1):
        live, history = seeded_playout(ENGINE, ["greedy"] * 4, seed)
        assert ENGINE.is_terminal(live)
        used.update(type(event).__name__ for event in history)
    for kind in ("SpellCast", "LadderBought", "LadderPlaced", "EquipmentBought", "HeroPlaced"):
        assert used[kind] > 0, kind
