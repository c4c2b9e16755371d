"""Ratings that persist across tournaments: openskill's Plackett–Luce model, replayed in order.

The math is openskill's, not ours: every table — two players or a 3–6 player finishing order —
goes to :meth:`openskill.models.PlackettLuce.rate` with one single-player team per seat and the
seat's rank (equal ranks are ties, forfeiting seats share last place as recorded). Byes are not
games and change no rating; nor does a damaged match, which has no result.

A rating update depends on the ratings before it, so results are applied in one canonical order:
the order the tournaments recorded them. :func:`replay_ratings` over the same results in the same
order from the same start gives bit-for-bit the same numbers, which is how the ratings are
rebuilt from zero; a different order may give different numbers. Every
:class:`RatingChange` names the model and the openskill version that produced it, so a rebuild
can tell whether it is comparing like with like.

The model is openskill's default ``PlackettLuce()`` (mu 25, sigma 25/3, beta 25/6, tau 25/300)
and is deliberately not configurable here: a different configuration would silently give
different numbers under the same model name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec
import openskill
from openskill.models import PlackettLuce

from siege.tournament.results import Bye, TableResult

MODEL_NAME: str = PlackettLuce.__name__
"""The openskill model every rating change is computed with."""
MODEL_VERSION: str = openskill.__version__
"""The installed openskill version, recorded with every rating change."""


class RatingChange(msgspec.Struct, frozen=True):
    """One entrant's rating before and after one match, and what computed it."""

    entrant: str
    match_id: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    model: str
    version: str


class Ratings:
    """Mutable mu/sigma per entrant; entrants never rated have the model's defaults.

    ``initial`` seeds known ratings (for example those carried over from earlier tournaments).
    """

    def __init__(self, initial: Mapping[str, tuple[float, float]] | None = None) -> None:
        self._model = PlackettLuce()
        self._ratings: dict[str, tuple[float, float]] = dict(initial or {})

    @property
    def model(self) -> str:
        return MODEL_NAME

    @property
    def version(self) -> str:
        return MODEL_VERSION

    def get(self, entrant: str) -> tuple[float, float]:
        """``(mu, sigma)``; the model's defaults for an entrant never rated."""
        return self._ratings.get(entrant, (self._model.mu, self._model.sigma))

    def ordinal(self, entrant: str) -> float:
        """The conservative rating ``mu - 3 * sigma`` (openskill's ``ordinal()``)."""
        mu, sigma = self.get(entrant)
        return self._model.rating(mu=mu, sigma=sigma).ordinal()

    def snapshot(self) -> dict[str, tuple[float, float]]:
        """Every rated entrant's ``(mu, sigma)``, e.g. to persist or to seed a new ``Ratings``."""
        return dict(self._ratings)

    def copy(self) -> Ratings:
        return Ratings(self._ratings)

    def apply(self, result: TableResult | Bye) -> list[RatingChange]:
        """Rates one table and returns one change per seat, in seat order; a bye, or a damaged
        match, changes nothing.

        Raises :class:`ValueError` for a table with fewer than two seats, a repeated entrant, or
        entrants and ranks of different lengths (nothing is changed then).
        """
        if isinstance(result, Bye) or result.damaged:
            return []  # a damaged match has no result to rate
        seats = result.entrants
        if len(seats) != len(result.ranks):
            raise ValueError(
                f"match {result.match_id!r}: {len(seats)} entrants, {len(result.ranks)} ranks"
            )
        if len(seats) < 2:
            raise ValueError(f"match {result.match_id!r}: a table needs two entrants")
        if len(set(seats)) != len(seats):
            raise ValueError(f"match {result.match_id!r}: an entrant sits twice")
        before = [self.get(e) for e in seats]
        teams = [
            [self._model.rating(mu=mu, sigma=sigma, name=e)]
            for e, (mu, sigma) in zip(seats, before, strict=True)
        ]
        rated = self._model.rate(teams, ranks=[float(r) for r in result.ranks])
        changes: list[RatingChange] = []
        for e, (mu, sigma), (after,) in zip(seats, before, rated, strict=True):
            self._ratings[e] = (after.mu, after.sigma)
            changes.append(
                RatingChange(
                    entrant=e,
                    match_id=result.match_id,
                    mu_before=mu,
                    sigma_before=sigma,
                    mu_after=after.mu,
                    sigma_after=after.sigma,
                    model=MODEL_NAME,
                    version=MODEL_VERSION,
                )
            )
        return changes

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ratings):
            return NotImplemented
        return self._ratings == other._ratings

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Ratings({self._ratings!r})"


def replay_ratings(
    results_in_order: Iterable[TableResult | Bye], start: Ratings | None = None
) -> tuple[Ratings, list[RatingChange]]:
    """Applies results in the given (canonical, recorded) order to a copy of ``start`` (fresh
    defaults if ``None``); returns the ratings and every change, in order. ``start`` is not
    modified. Byes are skipped."""
    ratings = start.copy() if start is not None else Ratings()
    changes: list[RatingChange] = []
    for result in results_in_order:
        changes.extend(ratings.apply(result))
    return ratings, changes
