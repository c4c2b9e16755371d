"""Shared by the pairing tests: random fields of standings, and the ranking pairing assumes."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from hypothesis import strategies as st

from siege.tournament.pairing import Standing


@st.composite
def fields(draw: st.DrawFn, points: Sequence[float], max_size: int) -> list[Standing]:
    """A field in some order, with random points, byes, seat history and earlier meetings (of a
    random density, up to everyone having met everyone)."""
    n = draw(st.integers(0, max_size))
    names = [f"p{i}" for i in range(n)]
    density = draw(st.integers(0, 10))
    met: dict[int, set[str]] = {i: set() for i in range(n)}
    for a, b in combinations(range(n), 2):
        if draw(st.integers(0, 9)) < density:
            met[a].add(names[b])
            met[b].add(names[a])
    field = []
    for i in range(n):
        games = draw(st.integers(0, 6))
        field.append(
            Standing(
                names[i],
                draw(st.sampled_from(list(points))),
                frozenset(met[i]),
                draw(st.integers(0, 2)),
                draw(st.integers(0, games)),
                games,
            )
        )
    return draw(st.permutations(field))


def ranking(standings: list[Standing]) -> list[Standing]:
    """The documented ranking: points, highest first, the given order between equal points."""
    return sorted(standings, key=lambda s: -s.points)
