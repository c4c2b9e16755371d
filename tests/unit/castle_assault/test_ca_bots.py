"""Bots choose legal actions from views alone, and the greedy bot beats random play."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ca_support import ENGINE

from siege.games.castle_assault import actions as a
from siege.testing.playout import seeded_playout, wilson, win_rate

GAMES = 60


def test_greedy_beats_random_from_either_seat() -> None:
    first = win_rate(ENGINE, ["greedy", "random"], 0, GAMES)
    second = win_rate(ENGINE, ["random", "greedy"], 1, GAMES, first_seed=GAMES)
    low, _ = wilson(round((first + second) / 2 * 2 * GAMES), 2 * GAMES)
    assert low > 0.65, (first, second)


def test_greedy_summons_its_hero_and_answers_in_response_windows() -> None:
    used: Counter[str] = Counter()

    def watch(state: Any, seat: int, action: Any) -> None:
        if seat != 0:
            return
        if isinstance(action, a.SummonHero):
            used["hero"] += 1
        elif state.asking == "respond" and isinstance(action, a.PlayCommand):
            used["instant"] += 1
        elif state.asking == "respond":
            used["pass"] += 1

    for seed in range(40):
        seeded_playout(ENGINE, ["greedy", "random"], seed=seed, on_action=watch)
    assert used["hero"] > 0 and used["instant"] > 0 and used["pass"] > used["instant"]
