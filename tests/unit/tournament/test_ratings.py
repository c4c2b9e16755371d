"""Ratings: openskill's Plackett-Luce applied in the recorded order, so a rebuild is identical."""

from __future__ import annotations

import importlib.metadata

import msgspec
import openskill
import pytest
from openskill.models import PlackettLuce

from siege.tournament.ratings import (
    MODEL_NAME,
    MODEL_VERSION,
    RatingChange,
    Ratings,
    replay_ratings,
)
from siege.tournament.results import Bye, TableResult


def t(match_id: str, entrants: list[str], ranks: list[int], rnd: int = 1) -> TableResult:
    return TableResult(round=rnd, match_id=match_id, entrants=entrants, ranks=ranks)


# Two tournaments' results, in the order they were recorded.
TOURNAMENT_1 = [
    t("a1", ["ann", "bob", "cat", "dan"], [1, 2, 3, 4]),
    t("a2", ["eve", "fay", "gus"], [2, 1, 3]),
    t("a3", ["ann", "eve", "dan", "hal"], [2, 1, 2, 4], rnd=2),
    t("a4", ["bob", "cat", "fay", "gus", "hal", "ivy"], [6, 1, 2, 3, 4, 5], rnd=2),
]
TOURNAMENT_2 = [
    t("b1", ["ann", "bob"], [1, 2]),
    t("b2", ["cat", "dan"], [1, 1]),
    t("b3", ["ann", "cat"], [2, 1], rnd=2),
    t("b4", ["ivy", "jo", "kim", "lee", "max"], [3, 1, 5, 2, 3], rnd=2),
]


def test_defaults_come_from_the_model() -> None:
    ratings = Ratings()
    model = PlackettLuce()
    assert ratings.get("nobody") == (model.mu, model.sigma) == (25.0, 25.0 / 3)
    assert ratings.ordinal("nobody") == pytest.approx(0.0)  # 25 - 3 * 25/3
    seeded = Ratings({"ann": (30.0, 2.0)})
    assert seeded.get("ann") == (30.0, 2.0)
    assert seeded.ordinal("ann") == pytest.approx(30.0 - 3 * 2.0)


def test_four_players_winner_up_last_down() -> None:
    ratings = Ratings()
    changes = ratings.apply(t("m", ["ann", "bob", "cat", "dan"], [3, 1, 4, 2]))
    assert [c.entrant for c in changes] == ["ann", "bob", "cat", "dan"]  # seat order
    mu = {c.entrant: c.mu_after for c in changes}
    assert mu["bob"] > 25.0 > mu["cat"]  # winner up, last down
    assert mu["bob"] > mu["dan"] > mu["ann"] > mu["cat"]  # follows the finishing order
    for c in changes:
        assert (c.mu_before, c.sigma_before) == (25.0, 25.0 / 3)
        assert c.sigma_after < c.sigma_before  # more certain after a game
        assert ratings.get(c.entrant) == (c.mu_after, c.sigma_after)
    assert ratings.ordinal("bob") > ratings.ordinal("cat")


def test_changes_are_openskills_plackett_luce() -> None:
    start = Ratings({"ann": (28.0, 5.0), "bob": (22.0, 7.0)})
    ranks = [2, 1, 2, 3]
    seats = ["ann", "bob", "cat", "dan"]
    _, changes = replay_ratings([t("m", seats, ranks)], start)
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in map(start.get, seats)]
    expected = model.rate(teams, ranks=ranks)
    assert [(c.mu_after, c.sigma_after) for c in changes] == [(r.mu, r.sigma) for (r,) in expected]


def test_equal_ranks_are_ties() -> None:
    tied = Ratings().apply(t("m", ["ann", "bob", "cat", "dan"], [1, 2, 2, 4]))
    # bob and cat started equal and tied: they end equal
    assert (tied[1].mu_after, tied[1].sigma_after) == (tied[2].mu_after, tied[2].sigma_after)
    # ... and that is not what the strict order gives to either of them
    strict = Ratings().apply(t("m", ["ann", "bob", "cat", "dan"], [1, 2, 3, 4]))
    assert strict[1].mu_after > tied[1].mu_after
    for seat in (1, 2):
        assert (tied[seat].mu_after, tied[seat].sigma_after) not in {
            (strict[s].mu_after, strict[s].sigma_after) for s in (1, 2)
        }
    # a two-player draw between equals moves neither mu
    draw = Ratings().apply(t("d", ["ann", "bob"], [1, 1]))
    assert [c.mu_after for c in draw] == [25.0, 25.0]
    assert draw[0].sigma_after == draw[1].sigma_after < 25.0 / 3


def test_two_player_game() -> None:
    changes = Ratings().apply(t("m", ["ann", "bob"], [2, 1]))
    assert changes[0].mu_after < 25.0 < changes[1].mu_after


def test_model_and_version_are_openskills() -> None:
    (change, *_) = Ratings().apply(t("m", ["ann", "bob", "cat"], [1, 2, 3]))
    assert change.model == MODEL_NAME == PlackettLuce.__name__ == "PlackettLuce"
    assert change.version == MODEL_VERSION == openskill.__version__
    assert change.version == importlib.metadata.version("openskill")
    assert Ratings().model == change.model and Ratings().version == change.version


def test_byes_change_nothing() -> None:
    ratings = Ratings({"ann": (27.0, 4.0)})
    assert ratings.apply(Bye(round=1, entrant="ann")) == []
    assert ratings.get("ann") == (27.0, 4.0)
    replayed, changes = replay_ratings([Bye(round=1, entrant="ann"), *TOURNAMENT_1])
    assert replayed == replay_ratings(TOURNAMENT_1)[0]
    assert changes == replay_ratings(TOURNAMENT_1)[1]


def test_same_order_gives_identical_ratings() -> None:
    first, first_changes = replay_ratings(TOURNAMENT_1 + TOURNAMENT_2)
    second, second_changes = replay_ratings(list(TOURNAMENT_1 + TOURNAMENT_2))
    assert first.snapshot() == second.snapshot()  # exact, not approximate
    assert first_changes == second_changes


def test_order_matters() -> None:
    results = [t("m1", ["ann", "bob"], [1, 2]), t("m2", ["bob", "cat"], [1, 2])]
    forward, _ = replay_ratings(results)
    backward, _ = replay_ratings(results[::-1])
    assert forward.get("bob") != backward.get("bob")
    assert forward.snapshot() != backward.snapshot()


def test_rebuild_from_zero_equals_incremental_application() -> None:
    incremental = Ratings()
    changes: list[RatingChange] = []
    for result in TOURNAMENT_1 + TOURNAMENT_2:
        changes.extend(incremental.apply(result))
    rebuilt, rebuilt_changes = replay_ratings(TOURNAMENT_1 + TOURNAMENT_2)
    assert rebuilt == incremental
    assert rebuilt_changes == changes
    # ratings persist across tournaments: carrying over equals replaying both
    after_first, _ = replay_ratings(TOURNAMENT_1)
    carried, _ = replay_ratings(TOURNAMENT_2, start=Ratings(after_first.snapshot()))
    assert carried == rebuilt
    # the start is not modified
    assert after_first == replay_ratings(TOURNAMENT_1)[0]


def test_changes_chain_per_entrant() -> None:
    _, changes = replay_ratings(TOURNAMENT_1 + TOURNAMENT_2)
    last: dict[str, tuple[float, float]] = {}
    for c in changes:
        assert (c.mu_before, c.sigma_before) == last.get(c.entrant, (25.0, 25.0 / 3))
        last[c.entrant] = (c.mu_after, c.sigma_after)
    assert [c.match_id for c in changes][:4] == ["a1"] * 4


def test_rating_change_round_trips_through_msgspec() -> None:
    _, changes = replay_ratings(TOURNAMENT_1)
    encoded = msgspec.json.encode(changes)
    assert msgspec.json.decode(encoded, type=list[RatingChange]) == changes


@pytest.mark.parametrize(
    "bad",
    [
        t("m", ["ann"], [1]),
        t("m", ["ann", "bob"], [1]),
        t("m", ["ann", "ann"], [1, 2]),
    ],
)
def test_bad_tables_are_rejected_and_change_nothing(bad: TableResult) -> None:
    ratings = Ratings()
    with pytest.raises(ValueError):
        ratings.apply(bad)
    assert ratings.snapshot() == {}
