"""Elimination: seeded brackets and top-k-per-table rounds."""

from __future__ import annotations

import pytest

from siege.tournament.pairing import (
    elimination_bracket,
    next_elimination_round,
    top_k_advance,
    top_k_tables,
)
from siege.tournament.pairing_elimination import bracket_order
from siege.tournament.results import Bye, TableResult


def seeds(n: int) -> list[str]:
    return [str(i) for i in range(1, n + 1)]


def numbers(matches: list[tuple[str, str | None]]) -> list[tuple[int, int | None]]:
    return [(int(a), None if b is None else int(b)) for a, b in matches]


def test_eight_seeds() -> None:
    assert numbers(elimination_bracket(seeds(8))) == [(1, 8), (4, 5), (3, 6), (2, 7)]


def test_sixteen_seeds() -> None:
    assert numbers(elimination_bracket(seeds(16))) == [
        (1, 16),
        (8, 9),
        (5, 12),
        (4, 13),
        (3, 14),
        (6, 11),
        (7, 10),
        (2, 15),
    ]


def test_twelve_entrants_give_the_top_four_seeds_byes() -> None:
    assert numbers(elimination_bracket(seeds(12))) == [
        (1, None),
        (8, 9),
        (5, 12),
        (4, None),
        (3, None),
        (6, 11),
        (7, 10),
        (2, None),
    ]


def play_out(n: int) -> list[list[tuple[int, int]]]:
    """Every round of a bracket in which the better seed always wins."""
    first = elimination_bracket(seeds(n))
    rounds = [[(int(a), int(b)) for a, b in first if b is not None]]
    winners = [a for a, _ in first]  # the better seed is named first and wins (or had a bye)
    while len(winners) > 1:
        matches = next_elimination_round(winners, seeds(n))
        rounds.append([(int(a), int(b)) for a, b in matches])
        winners = [a for a, _ in matches]
    return rounds


@pytest.mark.parametrize("n", range(2, 70))
def test_brackets_keep_the_top_seeds_apart_and_byes_on_top(n: int) -> None:
    first = elimination_bracket(seeds(n))
    size = 2 * len(first)
    assert size >= n > size // 2
    assert sorted(int(e) for m in first for e in m if e is not None) == list(range(1, n + 1))
    assert sorted(int(a) for a, b in first if b is None) == list(range(1, size - n + 1))
    rounds = play_out(n)
    assert len(rounds[-1]) == 1 and set(rounds[-1][0]) == {1, 2}  # the two best meet last
    for r, matches in enumerate(rounds[1:], start=1):
        width = size >> r  # seeds in play after r rounds; each match sums to width + 1
        assert all(a + b == width + 1 for a, b in matches)


def test_bracket_order_is_a_palindrome_of_sums() -> None:
    assert bracket_order(4) == [1, 4, 3, 2]
    with pytest.raises(ValueError):
        bracket_order(6)


def test_next_round_pairs_neighbours_and_seats_the_better_seed_first() -> None:
    assert next_elimination_round(["a", "b", "c", "d"]) == [("a", "b"), ("c", "d")]
    assert next_elimination_round(["b", "a", "c", "d"], ["a", "b", "c", "d"]) == [
        ("a", "b"),
        ("c", "d"),
    ]
    assert next_elimination_round(["champion"]) == []
    with pytest.raises(ValueError):
        next_elimination_round(["a", "b", "c"])
    with pytest.raises(ValueError):
        elimination_bracket(["solo"])
    with pytest.raises(ValueError):
        elimination_bracket(["a", "a"])


def test_top_k_tables_snake_the_seeds() -> None:
    tables, byes = top_k_tables(seeds(16), 4)
    assert byes == []
    assert [[int(e) for e in t] for t in tables] == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]


def test_top_k_tables_use_smaller_tables_then_byes_to_the_top_seeds() -> None:
    tables, byes = top_k_tables(seeds(11), 4, min_table_size=3)
    assert byes == [] and sorted(len(t) for t in tables) == [3, 4, 4]
    tables, byes = top_k_tables(seeds(11), 4)
    assert byes == ["1", "2", "3"] and [len(t) for t in tables] == [4, 4]
    assert sorted(e for t in tables for e in t) == sorted(seeds(11)[3:])
    with pytest.raises(ValueError):
        top_k_tables(seeds(2), 4, min_table_size=3)


def test_top_k_advance_takes_each_tables_best_and_the_byes() -> None:
    order = seeds(9)
    results = [
        TableResult(round=1, match_id="m0", entrants=["2", "7", "9", "5"], ranks=[3, 1, 2, 4]),
        TableResult(round=1, match_id="m1", entrants=["3", "6", "8", "4"], ranks=[2, 1, 2, 4]),
        Bye(round=1, entrant="1"),
    ]
    # Table m0: 7 and 9 go through. Table m1: 6, then 3 and 8 tie for second: the better seed
    # (3) goes through.
    assert top_k_advance(results, 2, order) == ["1", "3", "6", "7", "9"]
    assert top_k_advance(results, 1, order) == ["1", "6", "7"]
    with pytest.raises(ValueError):
        top_k_advance(results, 0, order)


def test_a_multiplayer_elimination_runs_to_a_final_table() -> None:
    field = seeds(40)
    rounds = 0
    while len(field) > 4:
        tables, byes = top_k_tables(field, 4, min_table_size=3)
        results: list[TableResult | Bye] = [Bye(round=rounds, entrant=e) for e in byes]
        for t, table in enumerate(tables):  # the best seed wins, and so on
            ranks = sorted(range(len(table)), key=lambda i: int(table[i]))
            results.append(
                TableResult(
                    round=rounds,
                    match_id=f"m{t}",
                    entrants=table,
                    ranks=[ranks.index(i) + 1 for i in range(len(table))],
                )
            )
        field = top_k_advance(results, 2, field)
        rounds += 1
    assert field == ["1", "2", "3", "4"]
    assert rounds == 4  # 40 -> 20 -> 10 -> 6 (10 at tables of 4, 3 and 3) -> 4
