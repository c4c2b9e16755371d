"""Bots choose legal actions from views alone, and the greedy bot beats random play."""

from __future__ import annotations

from ca_support import ENGINE

from siege.testing.playout import wilson, win_rate

GAMES = 60


def test_greedy_beats_random_from_either_seat() -> None:
    first = win_rate(ENGINE, ["greedy", "random"], 0, GAMES)
    second = win_rate(ENGINE, ["random", "greedy"], 1, GAMES, first_seed=GAMES)
    low, _ = wilson(round((first + second) / 2 * 2 * GAMES), 2 * GAMES)
    assert low > 0.65, (first, second)
