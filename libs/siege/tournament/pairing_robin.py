"""Round robin: Berger tables for 2-player games, balanced table schedules for multiplayer."""

from __future__ import annotations

from functools import lru_cache

from siege.tournament.pairing_common import check_table_sizes, plan_tables
from siege.tournament.pairing_schedule import (
    ANNEAL_LIMIT,
    Stream,
    anneal,
    extend,
    fewer_rounds,
    rotate_seats,
)

# Multiplication in GF(4) = {0, 1, a, a + 1} (as 0, 1, 2, 3) with a^2 = a + 1; addition is XOR.
_GF4 = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _unique(entrants: list[str]) -> None:
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant appears twice")


def round_robin(entrants: list[str]) -> list[list[tuple[str, str] | str]]:
    """Every pairing of a 2-player round robin, round by round, as in the Berger tables.

    ``entrants[i]`` is player number ``i + 1``. Each round lists its boards in the published
    order, each pair with the entrant who sits first (white) first; with an odd count a dummy
    is player ``n + 1``, and whoever meets it has a bye, shown as a lone string on board 1.
    Everyone meets everyone exactly once in ``n - 1`` rounds (``n`` when odd), and the first
    seats of each entrant differ from their second seats by at most one (none when odd)."""
    _unique(entrants)
    players: list[str | None] = list(entrants)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n < 2:
        return []
    half = n // 2
    boards = [(i, n + 1 - i) for i in range(1, half + 1)]  # round 1: 1-n, 2-(n-1), ...
    schedule: list[list[tuple[str, str] | str]] = []
    for number in range(1, n):
        if number > 1:  # every number but n moves up by n/2 (mod n-1); n alternates seats
            step = [tuple((k - 1 + half) % (n - 1) + 1 if k != n else n for k in b) for b in boards]
            boards = []
            for a, b in step:
                if n in (a, b):
                    other = a if b == n else b
                    boards.append((n, other) if number % 2 == 0 else (other, n))
                else:
                    boards.append((a, b))
        games: list[tuple[str, str] | str] = []
        for a, b in boards:
            first, second = players[a - 1], players[b - 1]
            if first is None or second is None:
                bye = first if second is None else second
                assert bye is not None
                games.append(bye)
            else:
                games.append((first, second))
        schedule.append(games)
    return schedule


def round_robin_tables(
    entrants: list[str],
    table_size: int,
    min_table_size: int | None = None,
    rounds: int | None = None,
    seed: int = 0,
) -> list[list[list[str]]]:
    """A multiplayer round robin: per round, the tables, each in seat order (seat 0 first).
    Whoever is at no table in a round has a bye in it.

    Sizes per round follow :func:`~siege.tournament.pairing_common.plan_tables` (tables one
    seat smaller, down to ``min_table_size``, before anyone sits out); over the schedule the
    entrants' bye counts differ by at most one. Without ``rounds`` the schedule runs until every
    pair has met, in as few rounds as it finds; with ``rounds``, exactly that many, the pairs
    meeting as evenly as it finds.

    Exact designs where they exist: table_size 2 is :func:`round_robin` (Berger), and
    ``table_size ** 2`` entrants at tables of 3, 4 or 5 use the affine plane of that order
    (``table_size + 1`` rounds, every pair meets exactly once). Otherwise the schedule is
    greedy, then shortened and evened out by annealing (fields of up to 64 entrants; ``seed``
    feeds its SHA-256 stream), typically 1.2-1.6 times the lower bound ``ceil((n - 1) /
    (table_size - 1))`` rounds: see :mod:`siege.tournament.pairing_schedule`. Seats rotate:
    when every table has ``table_size`` seats, each entrant's counts per seat differ by at most
    one. Same arguments, same schedule (cached: a repeat call costs nothing)."""
    low = check_table_sizes(table_size, min_table_size)
    _unique(entrants)
    cached = _schedule(tuple(entrants), table_size, low, rounds, seed)
    return [[list(table) for table in tables] for tables in cached]


@lru_cache(maxsize=32)
def _schedule(
    entrants: tuple[str, ...], table_size: int, low: int, rounds: int | None, seed: int
) -> tuple[tuple[tuple[str, ...], ...], ...]:
    n = len(entrants)
    if n == 0 or rounds == 0:
        return ()
    sizes, bye_count = plan_tables(n, table_size, low)
    index = {e: i for i, e in enumerate(entrants)}
    design: list[list[list[int]]] = []
    seated_design = False
    if table_size == 2 and low == 2:
        for games in round_robin(list(entrants)):
            design.append([[index[e] for e in g] for g in games if isinstance(g, tuple)])
        seated_design = True  # Berger seats are kept
    elif n == table_size**2 and table_size in (3, 4, 5):
        design = _affine_plane(table_size)
    if rounds is not None and rounds <= len(design):
        schedule = design[:rounds]
    else:
        schedule = extend(n, sizes, bye_count, design, rounds)
        if rounds is None:
            lower = -(-(n - 1) // (table_size - 1))
            schedule = fewer_rounds(n, schedule, len(design), lower, seed)
        elif n <= ANNEAL_LIMIT:
            schedule, _ = anneal(n, schedule, len(design), Stream(seed))
    rotate_seats(schedule, table_size, len(design) if seated_design else 0)
    return tuple(tuple(tuple(entrants[e] for e in t) for t in tables) for tables in schedule)


def _affine_plane(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of the affine plane over GF(q) (q = 3, 4 or 5): entrant
    ``x * q + y`` is the point (x, y); each class partitions the points into q lines."""

    def add(a: int, b: int) -> int:
        return a ^ b if q == 4 else (a + b) % q

    def mul(a: int, b: int) -> int:
        return _GF4[a][b] if q == 4 else a * b % q

    classes = [
        [sorted(x * q + add(mul(m, x), c) for x in range(q)) for c in range(q)] for m in range(q)
    ]
    classes.append([[c * q + y for y in range(q)] for c in range(q)])
    return classes
