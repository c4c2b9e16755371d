"""Bots: they pick legal actions from views alone, and the greedy bot beats random play."""

from __future__ import annotations

from typing import Any

from castle_dash_support import (
    ENGINE,
    ChanceAnswers,
    bot_chooser,
    bot_rng,
    checked,
    created,
    replay,
)

from siege.bots.protocol import RandomBot
from siege.engine.local import play_local
from siege.games.castle_dash.bots import GreedyBot
from siege.games.castle_dash.views import CastleDashView

GAMES = 200


class ViewOnly:
    """Wraps a bot and records that it is only ever handed a view."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.calls = 0

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        assert isinstance(view, CastleDashView)
        self.calls += 1
        return self.bot.choose(view, legal, rng)


def test_greedy_bot_plays_legal_moves_from_the_view_in_every_player_count() -> None:
    for players in (3, 4, 5, 6):
        bots = [ViewOnly(GreedyBot() if seat % 2 == 0 else RandomBot())
                for seat in range(players)]
        seed = f"legal{players}".encode()
        final, events = play_local(ENGINE, created(players),
                                   checked(bot_chooser(bots, seed)), ChanceAnswers(seed))
        assert ENGINE.is_terminal(final)
        assert replay(events) == final
        assert all(bot.calls > 0 for bot in bots)


def test_greedy_bot_is_deterministic_for_a_given_rng() -> None:
    seed = b"same"
    runs = []
    for _ in range(2):
        bots = [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()]
        _, events = play_local(ENGINE, created(4), bot_chooser(bots, seed), ChanceAnswers(seed))
        runs.append(events)
    assert runs[0] == runs[1]


def test_greedy_bot_wins_at_least_half_of_200_four_player_games_against_random_bots() -> None:
    wins = 0
    for game in range(GAMES):
        seed = f"greedy-vs-random:{game}".encode()
        seat = game % 4  # the greedy bot takes every seat in turn
        bots: list[Any] = [RandomBot() for _ in range(4)]
        bots[seat] = GreedyBot()
        final, _ = play_local(ENGINE, created(4), bot_chooser(bots, seed), ChanceAnswers(seed))
        if ENGINE.ranks(final)[seat] == 1:  # a shared first place counts as a win
            wins += 1
    rate = wins / GAMES
    print(f"greedy win rate against 3 random bots: {rate:.3f}")
    assert rate >= 0.5


def test_bot_rngs_repeat_per_seed_and_label_and_differ_between_labels() -> None:
    def draws(label: str) -> list[int]:
        rng = bot_rng(b"x", label)
        return [rng.randrange(1000) for _ in range(8)]

    assert draws("a") == draws("a")
    assert draws("a") != draws("b")
    assert all(0 <= value < 1000 for value in draws("a"))
