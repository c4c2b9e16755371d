"""The balance measurement (``balance.py``): forced armies, the rotated greedy seat and the
four-greedy table add up (the full figures are in the README, measured with 200 games)."""

from __future__ import annotations

from siege.games.storm_castle.armies import UNDEAD
from siege.games.storm_castle.balance import (
    ENGINE,
    ArmyGreedy,
    RandomAvoiding,
    Rate,
    four_greedy,
    greedy_vs_random,
    play,
)


def test_the_greedy_seat_plays_the_army_it_is_given() -> None:
    final = play([RandomAvoiding(UNDEAD), RandomAvoiding(UNDEAD), ArmyGreedy(UNDEAD),
                  RandomAvoiding(UNDEAD)], 1, "test")
    assert ENGINE.is_terminal(final) and final.armies[2] == UNDEAD


def test_greedy_vs_random_counts_games_and_wins() -> None:
    rate = greedy_vs_random(UNDEAD, games=2)
    assert rate.games == 2 and 0 <= rate.wins <= 2
    assert Rate(3, 4).text() == "75.0% (30.1–95.4)"


def test_the_four_greedy_table_has_one_keep_entrant_or_a_defender_win_per_game() -> None:
    games = 2
    table = four_greedy(games)
    assert sum(table.keep) + table.defenders == games
    assert sum(table.first) >= games and sum(table.vilest) >= games
    assert all(0 <= n <= games for n in table.keep + table.vilest + table.first)
