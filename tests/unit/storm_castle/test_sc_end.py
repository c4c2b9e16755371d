"""The end: turn 8, the vilest ranking, the keep's winner first."""

from __future__ import annotations

from storm_support import ENGINE, put, start

from siege.games.storm_castle.board import START_SPACES
from siege.games.storm_castle.rules.flow import advance
from siege.games.storm_castle.rules.scoring import vilest


def test_the_vilest_ranking_counts_every_trophy_and_holding() -> None:
    table = start(3, armies=(2, 1, 3))
    state = table.state
    state.walls_taken = [2, 0, 1]
    state.defenders_slain = [5, 6, 0]
    state.buildings_taken = [0, 1, 0]
    state.gold = [8, 2, 3]
    state.boss = 1
    state.units = {}
    put(table, 0, "Warboss Grukk", START_SPACES[0][0])
    score = vilest(state, 0)
    assert (score.walls, score.defenders, score.champion, score.gold, score.total) == (
        2, 1, 1, 2, 6)
    assert vilest(state, 1).total == 0 + 2 + 1 + 0 + 1  # slain 6, building, boss
    assert vilest(state, 2).total == 2
    assert ENGINE.ranks(state) == [1, 2, 3]


def test_equal_vilest_totals_share_a_place() -> None:
    table = start(3)
    state = table.state
    state.units = {}
    state.gold = [3, 3, 0]
    state.boss = 2
    assert ENGINE.ranks(state) == [1, 1, 1]
    state.boss = -1
    assert ENGINE.ranks(state) == [1, 1, 3]


def test_the_game_ends_after_the_wrapup_of_turn_eight() -> None:
    table = start(2)
    state = table.state
    state.waiting = []
    state.turn = 8
    state.phase = "wrapup"
    state.sub = ""
    state.order = [0, 1]
    advance(state)
    assert ENGINE.is_terminal(state) and state.turn == 8
    assert all(ENGINE.legal_actions(state, s) == [] for s in range(2))
    state.turn = 7
    state.phase = "wrapup"
    advance(state)
    assert state.turn == 8 and not ENGINE.is_terminal(state)


def test_the_player_who_enters_the_keep_ranks_first_whatever_the_trophies() -> None:
    table = start(3)
    state = table.state
    state.walls_taken = [5, 0, 0]
    state.winner = 2
    ranks = ENGINE.ranks(state)
    assert ranks[2] == 1 and ranks[0] == 2
