"""Swiss seating at tables of 3 to 6, checked against an exhaustive search on small fields and
over simulated tournaments."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pairing_support
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pairing_support import ranking

from siege.tournament import pairing_tables
from siege.tournament.pairing import Standing, plan_tables, swiss_tables

POINTS = [0.0, 1.0, 2.0, 3.0, 5.0]


def fields(max_size: int = 10) -> st.SearchStrategy[list[Standing]]:
    return pairing_support.fields(POINTS, max_size)


def expected_byes(field: list[Standing], count: int) -> set[str]:
    """The documented rule: fewest byes first, then the lowest-ranked."""
    order = sorted(range(len(field)), key=lambda i: (field[i].byes, -i))
    return {field[i].entrant for i in order[:count]}


def cost(by: dict[str, Standing], tables: list[list[str]]) -> tuple[int, float]:
    """(repeat meetings, sum over tables of the highest minus the lowest points)."""
    repeats = sum(
        1
        for t in tables
        for a, b in combinations(t, 2)
        if b in by[a].opponents or a in by[b].opponents
    )
    spread = sum(max(by[e].points for e in t) - min(by[e].points for e in t) for t in tables)
    return repeats, spread


def partitions(items: list[str], sizes: Counter[int]) -> Iterator[list[list[str]]]:
    """Every split of ``items`` into tables of the given sizes."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in [s for s in sizes if sizes[s]]:
        sizes[size] -= 1
        for group in combinations(rest, size - 1):
            left = [e for e in rest if e not in group]
            for more in partitions(left, sizes):
                yield [[first, *group], *more]
        sizes[size] += 1


def check_shape(
    standings: list[Standing], tables: list[list[str]], byes: list[str], size: int, low: int
) -> None:
    field = ranking(standings)
    sizes, count = plan_tables(len(field), size, low)
    assert sorted((len(t) for t in tables), reverse=True) == sizes
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= low and max(sizes) <= size
    seated = [e for t in tables for e in t]
    assert sorted(seated + byes) == sorted(s.entrant for s in standings)
    assert set(byes) == expected_byes(field, count)
    rank = {s.entrant: i for i, s in enumerate(field)}
    assert byes == sorted(byes, key=rank.__getitem__)
    by = {s.entrant: s for s in standings}
    for t in tables:  # seat 0 goes to the one furthest below a fair share of first seats
        keys = [(by[e].first_seats * len(t) - by[e].games, rank[e]) for e in t]
        assert keys == sorted(keys)


@given(fields(), st.sampled_from([(3, None), (3, 2), (4, None), (4, 3), (5, 4)]))
@settings(max_examples=300, deadline=None)
def test_small_fields_are_seated_optimally(
    standings: list[Standing], size_and_low: tuple[int, int | None]
) -> None:
    """No repeat meetings while avoidable, then tables grouped by score (least total spread):
    exactly as an exhaustive search over every split into tables of the planned sizes."""
    size, low = size_and_low
    least = size if low is None else low
    if len(standings) < least:
        if standings:
            with pytest.raises(ValueError):
                swiss_tables(standings, size, low)
        return
    tables, byes = swiss_tables(standings, size, low)
    check_shape(standings, tables, byes, size, least)
    by = {s.entrant: s for s in standings}
    seated = [s.entrant for s in ranking(standings) if s.entrant not in set(byes)]
    sizes = Counter(len(t) for t in tables)
    best = min(cost(by, split) for split in partitions(seated, sizes))
    assert cost(by, tables) == best


@given(fields(max_size=16), st.sampled_from([3, 4]))
@settings(max_examples=100, deadline=None)
def test_the_local_search_alone_never_makes_tables_worse(
    standings: list[Standing], size: int
) -> None:
    exact = pairing_tables.EXACT
    pairing_tables.EXACT = 0  # the swap passes and windows only, as on a large field
    try:
        if len(standings) < size:
            return
        tables, byes = swiss_tables(standings, size)
    finally:
        pairing_tables.EXACT = exact
    check_shape(standings, tables, byes, size, size)
    by = {s.entrant: s for s in standings}
    seated = [s for s in ranking(standings) if s.entrant not in set(byes)]
    chunks = [[s.entrant for s in seated[i : i + size]] for i in range(0, len(seated), size)]
    assert cost(by, tables) <= cost(by, chunks)


def test_a_fresh_field_sits_in_ranking_order() -> None:
    field = [Standing(f"p{i:02d}", float(20 - i)) for i in range(20)]
    tables, byes = swiss_tables(field, 4)
    assert byes == []
    assert [sorted(t) for t in tables] == [
        [f"p{i:02d}" for i in range(k, k + 4)] for k in range(0, 20, 4)
    ]


def test_smaller_tables_or_byes() -> None:
    field = [Standing(f"p{i:02d}", float(10 - i)) for i in range(10)]
    tables, byes = swiss_tables(field, 4, min_table_size=3)
    assert sorted(len(t) for t in tables) == [3, 3, 4] and byes == []
    tables, byes = swiss_tables(field, 4)
    assert sorted(len(t) for t in tables) == [4, 4] and byes == ["p08", "p09"]
    field[9] = Standing("p09", 1.0, byes=1)
    assert swiss_tables(field, 4)[1] == ["p07", "p08"]  # p09 already had one
    with pytest.raises(ValueError):
        swiss_tables(field[:2], 4, min_table_size=3)
    with pytest.raises(ValueError):
        swiss_tables(field, 4, min_table_size=5)


def test_a_repeat_costs_the_least_extra_spread() -> None:
    field = [Standing(f"p{i}", float(8 - i)) for i in range(8)]
    field[0] = Standing("p0", 8.0, frozenset({"p1"}))
    field[1] = Standing("p1", 7.0, frozenset({"p0"}))
    tables, _ = swiss_tables(field, 4)
    assert all({"p0", "p1"} - set(t) for t in tables)
    pts = {s.entrant: s.points for s in field}
    spread = sum(max(pts[e] for e in t) - min(pts[e] for e in t) for t in tables)
    # The least spread apart: {8, 6, 5, 4} and {7, 3, 2, 1}, or {8, 3, 2, 1} and {7, 6, 5, 4}.
    assert spread == 10.0


def outcome(seed: str, *key: object) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{key}".encode()).digest()[:4], "big")


def simulate(
    entrants: int, rounds: int, size: int, seed: str
) -> Iterator[tuple[list[Standing], list[list[str]], list[str]]]:
    """Play Swiss rounds at tables with places drawn from SHA-256 (``size - 1 - place``
    points, a bye worth a win); yield each round's standings and seating."""
    names = [f"e{i:04d}" for i in range(entrants)]
    points = dict.fromkeys(names, 0.0)
    met: dict[str, set[str]] = {e: set() for e in names}
    byes = dict.fromkeys(names, 0)
    first = dict.fromkeys(names, 0)
    games = dict.fromkeys(names, 0)
    for number in range(1, rounds + 1):
        standings = [
            Standing(e, points[e], frozenset(met[e]), byes[e], first[e], games[e])
            for e in sorted(names, key=lambda e: (-points[e], e))
        ]
        tables, out = swiss_tables(standings, size)
        yield standings, tables, out
        for table in tables:
            finish = sorted(table, key=lambda e: outcome(seed, number, e))
            for place, e in enumerate(finish):
                points[e] += len(table) - 1 - place
            first[table[0]] += 1
            for e in table:
                games[e] += 1
                met[e].update(x for x in table if x != e)
        for e in out:
            byes[e] += 1
            points[e] += size - 1


@pytest.mark.parametrize(("entrants", "rounds", "size"), [(102, 7, 4), (90, 5, 6), (400, 8, 4)])
def test_simulated_tournaments_avoid_repeats_and_group_by_score(
    entrants: int, rounds: int, size: int
) -> None:
    byes_given: list[str] = []
    for standings, tables, out in simulate(entrants, rounds, size, seed=f"t{entrants}"):
        check_shape(standings, tables, out, size, size)
        by = {s.entrant: s for s in standings}
        assert cost(by, tables)[0] == 0
        seated = [s for s in standings if s.entrant not in set(out)]
        chunks = [[s.entrant for s in seated[i : i + size]] for i in range(0, len(seated), size)]
        # Grouped by score: removing the repeats costs some spread over the plain ranking order
        # (up to about 5 times with tables of 6 late on, where your near neighbours in the
        # standings are the ones you met), and nobody moves far from their ranking's table.
        # (A seating ignoring points spreads every table over most of the field.)
        assert cost(by, tables)[1] <= 6 * cost(by, chunks)[1] + size
        rank = {s.entrant: i // size for i, s in enumerate(seated)}  # the table by ranking
        ordered = sorted(tables, key=lambda t: min(rank[e] for e in t))
        assert all(abs(rank[e] - k) <= 10 for k, t in enumerate(ordered) for e in t)
        first_share = [s.first_seats * size - s.games for s in standings]
        assert max(first_share) - min(first_share) <= 2 * size
        byes_given += out
    assert len(byes_given) == len(set(byes_given))


def test_same_input_same_tables() -> None:
    *_, (standings, tables, out) = simulate(60, 4, 4, seed="again")
    assert swiss_tables(list(standings), 4) == (tables, out)
