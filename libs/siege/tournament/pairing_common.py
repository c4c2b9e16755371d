"""What every pairing function shares: the per-entrant input (:class:`Standing`), the ranking,
the plan of table sizes and the choice of byes. Import the public names from
:mod:`siege.tournament.pairing`."""

from __future__ import annotations

import msgspec


class Standing(msgspec.Struct, frozen=True):
    """One entrant as seen by the pairing of a round.

    The list passed to a pairing function is the ranking: it is ordered by ``points`` (highest
    first) and, between equal points, by the list order, which the caller sets from its
    tie-breaks (or, without tie-breaks, by entrant id). The same list always gives the same
    pairing.
    """

    entrant: str
    points: float
    opponents: frozenset[str] = frozenset()
    """Everyone met so far (at a 2-player match or at a shared table)."""
    byes: int = 0
    """Byes received so far."""
    first_seats: int = 0
    """Times seated first (seat 0) so far."""
    games: int = 0
    """Matches played so far (byes not counted)."""


def ranked(standings: list[Standing]) -> list[Standing]:
    """The standings by points, highest first, keeping the given order between equal points.

    Raises ValueError when an entrant appears twice."""
    seen: set[str] = set()
    for s in standings:
        if s.entrant in seen:
            raise ValueError(f"entrant {s.entrant!r} appears twice")
        seen.add(s.entrant)
    return sorted(standings, key=lambda s: -s.points)


def check_table_sizes(table_size: int, min_table_size: int | None) -> int:
    """Validate ``table_size`` and ``min_table_size``; return the effective minimum (default:
    ``table_size``, i.e. no smaller tables)."""
    if table_size < 2:
        raise ValueError("table_size must be at least 2")
    low = table_size if min_table_size is None else min_table_size
    if not 2 <= low <= table_size:
        raise ValueError("min_table_size must be between 2 and table_size")
    return low


def plan_tables(n: int, table_size: int, min_table_size: int) -> tuple[list[int], int]:
    """How ``n`` entrants sit: the table sizes (largest first) and the number of byes.

    The rule: the fewest byes such that the others fill ``ceil(seated / table_size)`` tables
    whose sizes differ by at most one and are all at least ``min_table_size``. With
    ``min_table_size == table_size`` that is ``n % table_size`` byes and full tables; with a
    smaller minimum some tables are one seat (or more) smaller instead of anyone sitting out.
    Raises ValueError when ``n < min_table_size`` (no table can be seated)."""
    if n < min_table_size:
        raise ValueError(f"{n} entrants cannot fill a table of {min_table_size}")
    for byes in range(n):
        seated = n - byes
        tables = -(-seated // table_size)
        small = seated // tables
        if small >= min_table_size:
            big = seated - small * tables
            return [small + 1] * big + [small] * (tables - big), byes
    raise AssertionError("unreachable: n >= min_table_size always seats one table")


def pick_byes(field: list[Standing], count: int) -> list[Standing]:
    """The ``count`` entrants who sit out: fewest byes so far first (so nobody gets a second bye
    while someone has none), and among those the lowest-ranked. ``field`` is ranked; the
    result is in ranking order."""
    if count == 0:
        return []
    order = sorted(range(len(field)), key=lambda i: (field[i].byes, -i))
    return [field[i] for i in sorted(order[:count])]


def meeting_sets(field: list[Standing]) -> list[set[int]]:
    """``met[i]``: the positions in ``field`` of everyone entrant ``i`` has met (symmetric)."""
    rank = {s.entrant: i for i, s in enumerate(field)}
    met: list[set[int]] = [set() for _ in field]
    for i, s in enumerate(field):
        for other in s.opponents:
            j = rank.get(other)
            if j is not None and j != i:
                met[i].add(j)
                met[j].add(i)
    return met
