"""Round robin: the published Berger tables, and the multiplayer schedules."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from siege.tournament import pairing_robin
from siege.tournament.pairing import plan_tables, round_robin, round_robin_tables

# FIDE Handbook C.05, Annex 1 (Berger tables); the first named has white (the first seat).
BERGER_4 = ["1-4 2-3", "4-3 1-2", "2-4 3-1"]
BERGER_6 = ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]
BERGER_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]


def published(rows: list[str]) -> list[list[tuple[str, str]]]:
    return [[tuple(board.split("-")) for board in row.split()] for row in rows]  # type: ignore[misc]


def numbered(n: int) -> list[str]:
    return [str(i) for i in range(1, n + 1)]


@pytest.mark.parametrize("rows", [BERGER_4, BERGER_6, BERGER_8])
def test_round_robin_matches_the_published_berger_tables(rows: list[str]) -> None:
    table = published(rows)
    assert round_robin(numbered(len(table) + 1)) == table


@pytest.mark.parametrize("rows", [BERGER_4, BERGER_6, BERGER_8])
def test_an_odd_field_gets_byes_from_the_dummy(rows: list[str]) -> None:
    n = len(rows)  # one fewer than the table's players: the last is the dummy
    dummy = str(n + 1)
    expected = [
        [(a if b == dummy else b) if dummy in (a, b) else (a, b) for a, b in row]
        for row in published(rows)
    ]
    assert round_robin(numbered(n)) == expected


@pytest.mark.parametrize("n", range(2, 18))
def test_round_robin_everyone_meets_once_and_seats_balance(n: int) -> None:
    names = [f"p{i}" for i in range(n)]
    schedule = round_robin(names)
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    met: Counter[frozenset[str]] = Counter()
    first, games, byes = Counter(), Counter(), Counter()
    for games_of_round in schedule:
        seen = [e for g in games_of_round for e in ((g,) if isinstance(g, str) else g)]
        assert sorted(seen) == sorted(names)  # everyone exactly once a round
        for g in games_of_round:
            if isinstance(g, str):
                byes[g] += 1
            else:
                met[frozenset(g)] += 1
                first[g[0]] += 1
                games.update(g)
    assert set(met) == {frozenset(p) for p in combinations(names, 2)}
    assert set(met.values()) == {1}
    assert all(byes[e] == n % 2 for e in names)
    imbalance = max(abs(2 * first[e] - games[e]) for e in names)
    assert imbalance == (1 if n % 2 == 0 else 0)


def test_round_robin_of_fewer_than_two_is_empty() -> None:
    assert round_robin([]) == []
    assert round_robin(["solo"]) == [["solo"]]  # one round, a bye


def test_round_robin_rejects_duplicates() -> None:
    with pytest.raises(ValueError):
        round_robin(["a", "b", "a"])


def audit(
    names: list[str], schedule: list[list[list[str]]], table_size: int, low: int
) -> tuple[Counter, dict[str, Counter], Counter]:
    """Check every round's shape; return pair meetings, seat counts and byes."""
    sizes, bye_count = plan_tables(len(names), table_size, low)
    met: Counter[frozenset[str]] = Counter()
    seats: dict[str, Counter] = {e: Counter() for e in names}
    byes: Counter[str] = Counter()
    for tables in schedule:
        seated = [e for t in tables for e in t]
        assert len(seated) == len(set(seated))
        assert set(seated) <= set(names)
        assert sorted((len(t) for t in tables), reverse=True) == sizes
        assert len(names) - len(seated) == bye_count
        byes.update(set(names) - set(seated))
        for t in tables:
            for s, e in enumerate(t):
                seats[e][s] += 1
            met.update(frozenset(p) for p in combinations(t, 2))
    return met, seats, byes


@pytest.mark.parametrize("q", [3, 4, 5])
def test_square_fields_use_the_affine_plane(q: int) -> None:
    names = [f"p{i}" for i in range(q * q)]
    schedule = round_robin_tables(names, q)
    assert len(schedule) == q + 1
    met, seats, _ = audit(names, schedule, q, q)
    assert set(met) == {frozenset(p) for p in combinations(names, 2)}
    assert set(met.values()) == {1}
    for e in names:
        assert max(seats[e][s] for s in range(q)) - min(seats[e][s] for s in range(q)) <= 1


# (entrants, table size, smallest table): fields with and without byes or smaller tables.
CASES = [
    (5, 3, 3),
    (7, 3, 2),
    (13, 3, 3),
    (6, 4, 4),
    (10, 4, 3),
    (13, 4, 4),
    (7, 5, 5),
    (11, 5, 4),
    (8, 6, 6),
    (13, 6, 5),
    (18, 6, 6),
]


@pytest.mark.parametrize(("n", "k", "low"), CASES)
def test_table_round_robin_meets_everyone_with_even_byes_and_seats(
    n: int, k: int, low: int
) -> None:
    names = [f"p{i}" for i in range(n)]
    schedule = round_robin_tables(names, k, low)
    met, seats, byes = audit(names, schedule, k, low)
    assert set(met) == {frozenset(p) for p in combinations(names, 2)}
    assert max(byes[e] for e in names) - min(byes[e] for e in names) <= 1
    sizes, bye_count = plan_tables(n, k, low)
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    lower = max(-(-(n - 1) // (k - 1)), -(-(n * (n - 1) // 2) // per_round))
    assert len(schedule) <= 2 * lower + 1
    if set(sizes) == {k}:
        for e in names:
            counts = [seats[e][s] for s in range(k)]
            assert max(counts) - min(counts) <= 1


def test_table_round_robin_shortens_the_greedy_schedule() -> None:
    # 12 entrants at tables of 4 need at least 4 rounds (11 opponents, 3 a round); the greedy
    # rounds alone took 8, annealing finds 5.
    names = [f"p{i}" for i in range(12)]
    assert len(round_robin_tables(names, 4)) <= 5


def test_table_round_robin_with_a_round_count() -> None:
    names = [f"p{i}" for i in range(10)]
    schedule = round_robin_tables(names, 4, rounds=3)
    assert len(schedule) == 3
    met, _, byes = audit(names, schedule, 4, 4)
    # The four who never sit out cannot avoid some repeats (an exhaustive search over the
    # balanced byes finds none without), but no pair needs a third meeting.
    assert max(met.values()) == 2
    assert max(byes.values()) - min(byes[e] for e in names) <= 1
    nine = [f"p{i}" for i in range(9)]
    design = round_robin_tables(nine, 3)  # the affine plane: 4 rounds
    longer = round_robin_tables(nine, 3, rounds=6)
    assert len(longer) == 6
    assert [{frozenset(t) for t in r} for r in longer[:4]] == [
        {frozenset(t) for t in r} for r in design
    ]
    met, _, _ = audit(nine, longer, 3, 3)
    assert len(met) == 36 and max(met.values()) == 2


def test_table_round_robin_of_two_is_the_berger_table() -> None:
    names = numbered(7)
    expected = [[list(g) for g in games if not isinstance(g, str)] for games in round_robin(names)]
    assert round_robin_tables(names, 2) == expected


def test_table_round_robin_is_deterministic() -> None:
    names = [f"p{i}" for i in range(11)]
    first = round_robin_tables(names, 4)
    pairing_robin._schedule.cache_clear()  # computed again, not served from the cache
    assert round_robin_tables(names, 4) == first
    other = round_robin_tables(names, 4, seed=7)  # another annealing stream, as valid
    met, _, _ = audit(names, other, 4, 4)
    assert len(met) == 55


def test_table_round_robin_edges() -> None:
    assert round_robin_tables([], 4) == []
    assert round_robin_tables(["a", "b", "c"], 4, 3) == [[["a", "b", "c"]]]
    with pytest.raises(ValueError):
        round_robin_tables(["a", "b"], 4)  # fewer than a table
    with pytest.raises(ValueError):
        round_robin_tables(["a", "b", "c", "d"], 4, min_table_size=5)
    with pytest.raises(ValueError):
        round_robin_tables(["a", "a", "b", "c"], 3)
