"""Swiss pairing for 2-player games, checked against an exhaustive search on small fields and
over simulated tournaments."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pairing_support
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pairing_support import ranking

from siege.tournament import pairing_swiss
from siege.tournament.pairing import Standing, swiss_pairs

POINTS = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0]


def fields(max_size: int = 9) -> st.SearchStrategy[list[Standing]]:
    return pairing_support.fields(POINTS, max_size)


def matchings(items: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not items:
        yield []
        return
    first = items[0]
    for i in range(1, len(items)):
        rest = items[1:i] + items[i + 1 :]
        for m in matchings(rest):
            yield [(first, items[i]), *m]


def need(s: Standing) -> int:
    """How many more times ``s`` sat first than second."""
    return 2 * s.first_seats - s.games


def objective(
    field: list[Standing], pairs: list[tuple[str, str]], bye: str | None
) -> tuple[int, int, int, float]:
    """(repeat pairs, minus the bye's rank, seat clashes, sum of score differences): smaller is
    better. A seat clash: both sat first two or more times more than second, or both less."""
    by = {s.entrant: s for s in field}
    rank = {s.entrant: i for i, s in enumerate(field)}
    repeats = sum(1 for a, b in pairs if b in by[a].opponents or a in by[b].opponents)
    clashes = sum(
        1
        for a, b in pairs
        if min(need(by[a]), need(by[b])) >= 2 or max(need(by[a]), need(by[b])) <= -2
    )
    diff = sum(abs(by[a].points - by[b].points) for a, b in pairs)
    return repeats, -rank[bye] if bye is not None else 0, clashes, diff


def optimum(field: list[Standing]) -> tuple[int, int, int, float]:
    """The best objective over every bye (among the fewest byes) and every pairing."""
    names = [s.entrant for s in field]
    if len(names) % 2 == 0:
        choices: list[str | None] = [None]
    else:
        fewest = min(s.byes for s in field)
        choices = [s.entrant for s in field if s.byes == fewest]
    return min(
        objective(field, m, bye)
        for bye in choices
        for m in matchings([e for e in names if e != bye])
    )


def check_shape(standings: list[Standing], pairs: list[tuple[str, str]], bye: str | None) -> None:
    seen = [e for p in pairs for e in p] + ([bye] if bye is not None else [])
    assert sorted(seen) == sorted(s.entrant for s in standings)
    assert (bye is None) == (len(standings) % 2 == 0)
    by = {s.entrant: s for s in standings}
    if bye is not None:
        assert by[bye].byes == min(s.byes for s in standings)
    for first, second in pairs:  # the one who sat first less often sits first
        assert need(by[first]) <= need(by[second])


@given(fields())
@settings(max_examples=400, deadline=None)
def test_small_fields_are_paired_optimally(standings: list[Standing]) -> None:
    """No repeats while avoidable, byes only to those with the fewest, the bye to the lowest
    such entrant, no seat clashes while avoidable, and cross-group pairs only when needed: all
    exactly as an exhaustive search over every bye and pairing finds."""
    pairs, bye = swiss_pairs(standings)
    check_shape(standings, pairs, bye)
    field = ranking(standings)
    assert objective(field, pairs, bye) == optimum(field)


@given(fields(max_size=12))
@settings(max_examples=100, deadline=None)
def test_first_descent_and_repair_alone_still_give_a_valid_pairing(
    standings: list[Standing],
) -> None:
    saved = pairing_swiss.SEARCH_STEPS, pairing_swiss.EXHAUSTIVE
    # No backtracking beyond the greedy first descent, and few bye tries, as on a huge field.
    pairing_swiss.SEARCH_STEPS, pairing_swiss.EXHAUSTIVE = 0, 0
    try:
        pairs, bye = swiss_pairs(standings)
    finally:
        pairing_swiss.SEARCH_STEPS, pairing_swiss.EXHAUSTIVE = saved
    check_shape(standings, pairs, bye)


def test_repair_removes_a_repeat_left_by_the_greedy(monkeypatch: pytest.MonkeyPatch) -> None:
    # The fold pairs p0-p2 and then p1-p3, who met: with no backtracking, the repair step must
    # exchange partners.
    field = [
        Standing("p0", 0.0),
        Standing("p1", 0.0, frozenset({"p3"})),
        Standing("p2", 0.0),
        Standing("p3", 0.0, frozenset({"p1"})),
    ]
    monkeypatch.setattr(pairing_swiss, "SEARCH_STEPS", 0)
    monkeypatch.setattr(pairing_swiss, "EXHAUSTIVE", 0)
    pairs, _ = swiss_pairs(field)
    assert frozenset({"p1", "p3"}) not in {frozenset(p) for p in pairs}


def test_score_groups_fold_and_float_down() -> None:
    # Three on 2 points, three on 1, two on 0: the fold within each group, the lowest of an odd
    # group floating down to the top of the next.
    field = [Standing(f"a{i}", 2.0) for i in range(3)]
    field += [Standing(f"b{i}", 1.0) for i in range(3)]
    field += [Standing(f"c{i}", 0.0) for i in range(2)]
    pairs, bye = swiss_pairs(field)
    assert bye is None
    assert {frozenset(p) for p in pairs} == {
        frozenset(p) for p in [("a0", "a1"), ("a2", "b0"), ("b1", "b2"), ("c0", "c1")]
    }


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    field = [Standing(f"p{i}", float(5 - i)) for i in range(5)]
    assert swiss_pairs(field)[1] == "p4"
    field[4] = Standing("p4", 1.0, byes=1)
    field[3] = Standing("p3", 2.0, byes=1)
    assert swiss_pairs(field)[1] == "p2"
    everyone = [Standing(s.entrant, s.points, byes=1) for s in field]
    assert swiss_pairs(everyone)[1] == "p4"  # all have one: the lowest again


def test_a_repeat_is_avoided_by_moving_the_bye_up() -> None:
    # p2 already met p1 and p0 met p1: with the bye on p2, p0-p1 would be a repeat.
    field = [
        Standing("p0", 2.0, frozenset({"p1"})),
        Standing("p1", 1.0, frozenset({"p0", "p2"})),
        Standing("p2", 0.0, frozenset({"p1"})),
    ]
    pairs, bye = swiss_pairs(field)
    assert bye == "p1"
    assert [frozenset(p) for p in pairs] == [frozenset({"p0", "p2"})]


def test_ties_in_seat_need_alternate_by_board() -> None:
    field = [Standing(f"p{i}", 0.0) for i in range(8)]
    pairs, _ = swiss_pairs(field)
    assert pairs == [("p0", "p4"), ("p5", "p1"), ("p2", "p6"), ("p7", "p3")]


def test_the_ranking_is_points_then_list_order() -> None:
    field = [Standing(f"p{i}", float(i % 3)) for i in range(9)]
    shuffled = sorted(field, key=lambda s: s.points)  # same order within equal points
    assert swiss_pairs(shuffled) == swiss_pairs(field)
    assert swiss_pairs(list(field)) == swiss_pairs(field)  # and the same input, the same pairs


def test_duplicates_are_rejected() -> None:
    with pytest.raises(ValueError):
        swiss_pairs([Standing("a", 0.0), Standing("a", 1.0)])


def test_tiny_fields() -> None:
    assert swiss_pairs([]) == ([], None)
    assert swiss_pairs([Standing("a", 0.0)]) == ([], "a")


def outcome(seed: str, *key: object) -> int:
    return hashlib.sha256(f"{seed}:{key}".encode()).digest()[0]


def simulate(entrants: int, rounds: int, seed: str) -> Iterator[tuple[list[Standing], tuple]]:
    """Play a Swiss tournament with results from SHA-256 (wins, losses and some draws); yield
    each round's standings (ranked by points, then name) and its pairing."""
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
        pairs, bye = swiss_pairs(standings)
        yield standings, (pairs, bye)
        for a, b in pairs:
            roll = outcome(seed, number, a, b)
            points[a] += 1.0 if roll < 115 else 0.5 if roll < 140 else 0.0
            points[b] += 0.0 if roll < 115 else 0.5 if roll < 140 else 1.0
            met[a].add(b)
            met[b].add(a)
            first[a] += 1
            games[a] += 1
            games[b] += 1
        if bye is not None:
            byes[bye] += 1
            points[bye] += 1.0


def float_bound(standings: list[Standing], bye: str | None) -> float:
    """The least sum of score differences of any pairing: each gap between score levels with an
    odd number of entrants above it must be crossed once."""
    values = sorted((s.points for s in standings if s.entrant != bye), reverse=True)
    levels = sorted(set(values), reverse=True)
    total = 0.0
    for high, low in zip(levels, levels[1:], strict=False):
        above = sum(1 for v in values if v >= high)
        total += (high - low) * (above % 2)
    return total


@pytest.mark.parametrize(("entrants", "rounds"), [(41, 12), (64, 9), (15, 14)])
def test_simulated_tournaments_keep_seats_balanced_and_avoid_repeats(
    entrants: int, rounds: int
) -> None:
    byes_given: list[str] = []
    for standings, (pairs, bye) in simulate(entrants, rounds, seed=f"sim-{entrants}"):
        check_shape(standings, pairs, bye)
        by = {s.entrant: s for s in standings}
        assert all(b not in by[a].opponents for a, b in pairs)
        for s in standings:  # the balance before this round
            assert abs(2 * s.first_seats - s.games) <= 2
        if bye is not None:
            byes_given.append(bye)
    assert len(byes_given) == len(set(byes_given))  # nobody got a second bye


def test_a_large_late_round_has_no_repeats_and_minimal_floats() -> None:
    *_, (standings, (pairs, bye)) = simulate(2000, 7, seed="large")
    by = {s.entrant: s for s in standings}
    assert all(b not in by[a].opponents for a, b in pairs)
    diff = sum(abs(by[a].points - by[b].points) for a, b in pairs)
    assert diff == float_bound(standings, bye)
