"""Swiss seating for games of 3 to 6 players (any ``table_size`` of 2 or more works).

Byes and table sizes come first (:func:`~siege.tournament.pairing_common.plan_tables`,
:func:`~siege.tournament.pairing_common.pick_byes`). The others are sorted by standing into
tables (the smaller tables, if any, at the bottom). A local search then swaps entrants between
neighbouring tables to remove repeat meetings: each pass visits the tables with a repeat and
makes the best swap with a table up to ``radius`` away (the best: the least added score spread,
then the most repeats removed), widening the radius over a bounded number of passes. A
tightening pass then makes the swaps between tables one or two apart that lower the score
spread without adding a repeat. Repeats that survive are attacked by an exact branch and bound
over a window of consecutive tables; a small field is searched whole, which makes it optimal.

The cost is ``(repeat meetings, score spread)`` compared in that order, where a table with
two entrants who met before counts one repeat per such pair, and the score spread is the sum
over tables of the highest minus the lowest points at the table.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from siege.tournament.pairing_common import (
    Standing,
    check_table_sizes,
    meeting_sets,
    pick_byes,
    plan_tables,
    ranked,
)

PASSES = 14
"""Swap passes of the local search, with radius 1, 1, 2, 2, 4, 4, ... up to MAX_RADIUS."""
MAX_RADIUS = 64
"""How many tables away a swap may reach at most."""
TIGHTEN_PASSES = 3
EXACT = 12
"""Fields up to this size are seated by exact search (after the local search)."""
EXACT_STEPS = 200_000
"""Bound on that search: well above the 10,000 to 35,000 splits of 12 entrants."""
WINDOW = 12
"""Entrants (at least two tables) in an exact-search window of a larger field."""
WINDOW_STEPS = 20_000


def swiss_tables(
    standings: list[Standing], table_size: int, min_table_size: int | None = None
) -> tuple[list[list[str]], list[str]]:
    """Seat one Swiss round of a multiplayer game.

    ``standings`` is the ranking (see :class:`Standing`). Returns the tables, best-ranked table
    first, each in seat order (seat 0 first), and the entrants given a bye (worth a win), in
    ranking order.

    Sizes: when the field does not divide by ``table_size``, tables one seat smaller (down to
    ``min_table_size``; default ``table_size``, i.e. never smaller) are used before anyone sits
    out, and byes go to the lowest-ranked among the entrants with the fewest byes (so nobody has
    two while someone has none). Tables: as few repeat meetings as possible, then entrants
    seated with others of similar points (exact on fields of up to :data:`EXACT` entrants, a
    local search on larger ones). Seats: the entrant furthest below a fair share of first
    seats (``first_seats * size - games`` smallest) sits first, and so on round the table; ties
    go to the higher-ranked.
    """
    low = check_table_sizes(table_size, min_table_size)
    field = ranked(standings)
    if not field:
        return [], []
    sizes, count = plan_tables(len(field), table_size, low)
    byes = pick_byes(field, count)
    out = {s.entrant for s in byes}
    seated = [s for s in field if s.entrant not in out]
    tables = _Seating(seated, sizes).solve()
    return [_seat_order(seated, t) for t in tables], [s.entrant for s in byes]


def _seat_order(field: list[Standing], table: list[int]) -> list[str]:
    size = len(table)
    order = sorted(table, key=lambda i: (field[i].first_seats * size - field[i].games, i))
    return [field[i].entrant for i in order]


class _Seating:
    """Tables over one field (ranked); entrants are their ranks."""

    def __init__(self, field: list[Standing], sizes: list[int]) -> None:
        self.pts = [s.points for s in field]
        self.met = meeting_sets(field)
        self.tables: list[list[int]] = []
        start = 0
        for size in sizes:
            self.tables.append(list(range(start, start + size)))
            start += size

    def solve(self) -> list[list[int]]:
        """The tables, best-ranked first, each in rank order."""
        self._swaps()
        self._tighten()
        if len(self.pts) <= EXACT:
            self._exact_window(0, len(self.tables), EXACT_STEPS)
        else:
            for i in range(len(self.tables)):
                if self._repeats(self.tables[i]):
                    self._around(i)
        return sorted(sorted(t) for t in self.tables)

    def _repeats(self, table: list[int]) -> int:
        met = self.met
        return sum(1 for a, b in combinations(table, 2) if b in met[a])

    def _spread(self, table: list[int]) -> float:
        values = [self.pts[i] for i in table]
        return max(values) - min(values)

    def _swaps(self) -> None:
        tables, met = self.tables, self.met
        reps = [self._repeats(t) for t in tables]
        for number in range(PASSES):
            if not any(reps):
                return
            radius = min(1 << (number // 2), MAX_RADIUS)
            changed = False
            for i, here in enumerate(tables):
                if not reps[i]:
                    continue
                best = None
                for j in range(max(0, i - radius), min(len(tables), i + radius + 1)):
                    if j == i:
                        continue
                    there = tables[j]
                    before = self._spread(here) + self._spread(there)
                    for x in here:
                        out_x = sum(1 for z in here if z in met[x])
                        into_x = sum(1 for z in there if z in met[x])
                        for y in there:
                            out_y = sum(1 for z in there if z in met[y])
                            into_y = sum(1 for z in here if z in met[y])
                            both = 2 if y in met[x] else 0
                            delta = into_x + into_y - both - out_x - out_y
                            if delta >= 0:
                                continue
                            new_here = [y if z == x else z for z in here]
                            new_there = [x if z == y else z for z in there]
                            grow = self._spread(new_here) + self._spread(new_there) - before
                            key = (grow, delta, abs(i - j))
                            if best is None or key < best[0]:
                                best = (key, j, new_here, new_there)
                if best is not None:
                    _, j, new_here, new_there = best
                    tables[i], tables[j] = new_here, new_there
                    reps[i], reps[j] = self._repeats(new_here), self._repeats(new_there)
                    here = new_here
                    changed = True
            if not changed and radius == MAX_RADIUS:
                return

    def _tighten(self) -> None:
        tables, met = self.tables, self.met
        for _ in range(TIGHTEN_PASSES):
            changed = False
            for i in range(len(tables) - 1):
                for j in (i + 1, i + 2):
                    if j >= len(tables):
                        continue
                    here, there = tables[i], tables[j]
                    before = self._spread(here) + self._spread(there)
                    if before == 0:
                        continue
                    best = None
                    for x in here:
                        out_x = sum(1 for z in here if z in met[x])
                        into_x = sum(1 for z in there if z in met[x])
                        for y in there:
                            out_y = sum(1 for z in there if z in met[y])
                            into_y = sum(1 for z in here if z in met[y])
                            delta = into_x + into_y - out_x - out_y - (2 if y in met[x] else 0)
                            if delta > 0:
                                continue
                            new_here = [y if z == x else z for z in here]
                            new_there = [x if z == y else z for z in there]
                            key = (delta, self._spread(new_here) + self._spread(new_there) - before)
                            if key < (0, 0) and (best is None or key < best[0]):
                                best = (key, new_here, new_there)
                    if best is not None:
                        tables[i], tables[j] = best[1], best[2]
                        changed = True
            if not changed:
                return

    def _around(self, i: int) -> None:
        """Exact search over consecutive tables around table ``i``: at least two, and as many
        as fit in :data:`WINDOW` seats (growing downwards first)."""
        lo, hi = i, i + 1
        seats = len(self.tables[i])
        while True:
            for j in (hi, lo - 1):
                if 0 <= j < len(self.tables) and (
                    hi - lo < 2 or seats + len(self.tables[j]) <= WINDOW
                ):
                    seats += len(self.tables[j])
                    lo, hi = min(lo, j), max(hi, j + 1)
                    break
            else:
                break
        self._exact_window(lo, hi, WINDOW_STEPS)

    def _exact_window(self, lo: int, hi: int, budget: int) -> None:
        """Replace tables ``lo:hi`` by the best regrouping of their entrants found by branch and
        bound within ``budget`` steps (exhaustive when it ends early)."""
        window = self.tables[lo:hi]
        members = sorted(i for t in window for i in t)
        start = (
            sum(self._repeats(t) for t in window),
            sum(self._spread(t) for t in window),
        )
        sizes = Counter(len(t) for t in window)
        best: list = [start, None]
        chosen: list[list[int]] = []
        steps = 0
        pts, met = self.pts, self.met

        def search(rest: list[int], repeats: int, spread: float) -> bool:
            nonlocal steps
            if not rest:
                if (repeats, spread) < best[0]:
                    best[0], best[1] = (repeats, spread), [list(t) for t in chosen]
                return best[0][0] == 0 and spread == 0
            top, others = rest[0], rest[1:]
            for size in sorted(sizes, reverse=True):
                if not sizes[size]:
                    continue
                sizes[size] -= 1
                for group in combinations(others, size - 1):
                    steps += 1
                    if steps > budget:
                        sizes[size] += 1
                        return True
                    table = [top, *group]
                    r = repeats + sum(1 for a, b in combinations(table, 2) if b in met[a])
                    s = spread + (pts[top] - pts[group[-1]] if group else 0.0)
                    if (r, s) >= best[0]:
                        continue
                    chosen.append(table)
                    left = set(group)
                    done = search([x for x in others if x not in left], r, s)
                    chosen.pop()
                    if done:
                        sizes[size] += 1
                        return True
                sizes[size] += 1
            return False

        search(members, 0, 0.0)
        if best[1] is not None:
            self.tables[lo:hi] = best[1]
