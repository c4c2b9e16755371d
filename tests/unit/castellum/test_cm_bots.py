"""Bots: they choose legal actions from views alone, and the greedy bot beats random play."""

from __future__ import annotations

from typing import Any

import pytest
from castellum_support import ENGINE, created, replay

from siege.bots.protocol import RandomBot
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.castellum.bots import GreedyBot
from siege.games.castellum.views import CastellumView
from siege.testing.playout import FairChance, seeded_playout, wilson, win_rate

GAMES = 200


class ViewOnly:
    """Wraps a bot and records that it is only ever handed a view."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.calls = 0

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        assert isinstance(view, CastellumView)
        self.calls += 1
        return self.bot.choose(view, legal, rng)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_bot_plays_legal_moves_from_the_view(players: int) -> None:
    bots = [ViewOnly(GreedyBot() if seat % 2 == 0 else RandomBot()) for seat in range(players)]
    seed = f"legal{players}".encode()
    rngs = [BotRng(seed, f"seat{seat}") for seat in range(players)]

    def choose(state: Any, seat: int, legal: list[Any]) -> Any:
        action = bots[seat].choose(ENGINE.view(state, seat), legal, rngs[seat])
        assert action in ENGINE.legal_actions(state, seat)
        return action

    final, events = play_local(ENGINE, created(players), choose, FairChance(seed, "legal"))
    assert ENGINE.is_terminal(final)
    assert replay(events) == final
    assert all(bot.calls > 0 for bot in bots)


def test_greedy_bot_is_deterministic_for_a_seed() -> None:
    runs = [seeded_playout(ENGINE, ["greedy", "greedy", "random"], 7)[1] for _ in range(2)]
    assert runs[0] == runs[1]


def test_greedy_bot_wins_at_least_60_percent_of_200_two_player_games_against_random() -> None:
    half = GAMES // 2
    # The greedy bot sits first in half of the games and second in the other half.
    first = win_rate(ENGINE, ["greedy", "random"], hero=0, games=half)
    second = win_rate(ENGINE, ["random", "greedy"], hero=1, games=half, first_seed=half)
    wins = round(first * half) + round(second * half)
    low, high = wilson(wins, GAMES)
    print(f"greedy vs random, 2 players: {wins}/{GAMES} = {wins / GAMES:.3f} "
          f"(95% Wilson CI {low:.3f}-{high:.3f})")
    assert wins / GAMES >= 0.6


def test_the_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson(120, 200)
    assert 0.53 < low < 0.6 < high < 0.67
