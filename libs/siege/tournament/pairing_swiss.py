"""Swiss pairing for 2-player games: score groups, no repeats, byes, first-seat balance.

The pairing of an even field is a depth-first branch and bound over the ranking. It always
pairs the highest-ranked unpaired entrant, trying partners in Swiss order: within its score
group the "fold" (top half against bottom half, the group's last entrant floating down when
the group is odd, first-seat needs breaking near-ties), then the lower groups in rank order;
new partners without a seat clash come first, partners met before last. So the first descent
is the classic greedy with float-down.

The cost is ``(repeat pairs, seat clashes, sum of score differences)``, compared in that order.
A seat clash is a pair who both sat first at least two times more than second (or both two
times less), so one of them gets further out of balance; as with FIDE's absolute colour
preferences, avoiding that comes before score groups. A lower bound on the score differences
still to come (every gap between score levels with an odd number of entrants above it must be
crossed once) prunes the search, and an unpaired set reached again at no lower cost is not
searched again. The first descent usually meets the bound, which ends the search; otherwise
backtracking (deepest choices first, where the conflicts are) goes on to the end on small
fields (so they are paired optimally) and for a bounded number of steps on large ones, which
keep the best pairing found. A repeat pair that survives is then repaired by exchanging
partners with a nearby pair.
"""

from __future__ import annotations

from itertools import chain, islice

from siege.tournament.pairing_common import Standing, meeting_sets, ranked

SEARCH_STEPS = 100_000
"""Partner candidates examined by the backtracking of a field larger than :data:`EXHAUSTIVE`
before it settles for the best found."""
EXHAUSTIVE = 14
"""Fields up to this size are searched to the end (a few thousand to tens of thousands of
steps) and try every eligible bye."""
BYE_TRIES = 4
"""Bye candidates tried on a larger field."""
SEAT_WINDOW = 6
"""How many partners at the head of the fold are reordered by first-seat needs."""
REPAIR_WINDOW = 60
"""How many pairs on either side a repeat pair looks at for an exchange of partners."""
_UNSEEN = (1 << 62, 0, 0.0)  # worse than any cost


def swiss_pairs(standings: list[Standing]) -> tuple[list[tuple[str, str]], str | None]:
    """Pair one Swiss round of a 2-player game.

    ``standings`` is the ranking (see :class:`Standing`). Returns the pairs in board order (the
    board of the higher-ranked entrants first), each with the entrant who sits first (seat 0)
    first, and the entrant given the bye (worth a win), or None for an even field.

    Priorities, most important first:

    1. a bye only for an entrant with the fewest byes (no second bye while anyone has none);
    2. as few repeat pairings as possible (none when avoidable);
    3. the bye for the lowest-ranked such entrant;
    4. as few seat clashes as possible (pairs who both need the same seat: both have sat first
       two or more times more than second, or both two or more times less);
    5. the smallest sum of score differences over the pairs (pairing within score groups,
       floating down only when needed);
    6. Swiss order within a group, first-seat needs choosing between near-equal partners.

    1-5 are exact on fields of up to :data:`EXHAUSTIVE` entrants and a best effort (usually
    exact) on larger ones. Seats: the entrant who sat first less often (``2 * first_seats -
    games`` smaller) sits first; on a tie the higher-ranked sits first on even boards (0, 2,
    ...) and second on odd ones.
    """
    field = ranked(standings)
    if len(field) % 2 == 0:
        return _seat(_Pairing(field).solve()), None
    fewest = min(s.byes for s in field)
    eligible = [i for i in reversed(range(len(field))) if field[i].byes == fewest]
    if len(field) > EXHAUSTIVE:
        eligible = eligible[:BYE_TRIES]
    best: tuple[int, list[tuple[Standing, Standing]], Standing] | None = None
    for i in eligible:
        pairing = _Pairing(field[:i] + field[i + 1 :])
        pairs = pairing.solve()
        if best is None or pairing.repeats < best[0]:
            best = (pairing.repeats, pairs, field[i])
        if pairing.repeats == 0:
            break
    assert best is not None
    return _seat(best[1]), best[2].entrant


def _seat(pairs: list[tuple[Standing, Standing]]) -> list[tuple[str, str]]:
    """Order each pair (higher-ranked first on input) so the first-seat balance evens out."""
    seated = []
    for board, (a, b) in enumerate(pairs):
        need_a = 2 * a.first_seats - a.games
        need_b = 2 * b.first_seats - b.games
        if need_a < need_b or (need_a == need_b and board % 2 == 0):
            seated.append((a.entrant, b.entrant))
        else:
            seated.append((b.entrant, a.entrant))
    return seated


class _Pairing:
    """The search over one even field (ranked); indices are ranks."""

    def __init__(self, field: list[Standing]) -> None:
        self.field = field
        n = len(field)
        levels = sorted({s.points for s in field}, reverse=True)
        level_of = {p: i for i, p in enumerate(levels)}
        self.level = [level_of[s.points] for s in field]
        self.gap = [levels[g] - levels[g + 1] for g in range(len(levels) - 1)]
        self.need = [2 * s.first_seats - s.games for s in field]
        self.met = meeting_sets(field)
        # Search state: the unpaired, lowest rank first (so the top is popped off the end).
        self.rest = list(range(n - 1, -1, -1))
        self.count = [0] * len(levels)
        for lv in self.level:
            self.count[lv] += 1
        self.odd = [0] * len(self.gap)  # parity of the unpaired above each gap
        above = 0
        for g in range(len(self.gap)):
            above += self.count[g]
            self.odd[g] = above % 2
        self.bound = sum(w for w, o in zip(self.gap, self.odd, strict=True) if o)
        # (repeats, seat clashes, score differences + lower bound of the rest)
        self.cost: tuple[int, int, float] = (0, 0, self.bound)
        self.best: tuple[int, int, float] | None = None
        self.best_pairs: list[tuple[int, int]] = []
        self.steps = 0
        self.repeats = 0
        self.key = (1 << n) - 1  # the unpaired, as a bit set
        self.seen: dict[int, tuple[int, int, float]] = {}

    def solve(self) -> list[tuple[Standing, Standing]]:
        """The best pairing found, in board order, the higher-ranked of each pair first."""
        if self.rest:
            self._search()
            self._repair()
        self.repeats = sum(1 for a, b in self.best_pairs if b in self.met[a])
        return [(self.field[a], self.field[b]) for a, b in sorted(self.best_pairs)]

    def _search(self) -> None:
        rest, pairs = self.rest, []
        frames: list[list] = [[rest[-1], self._partners(), None]]
        optimum = (0, 0, self.bound)
        limit = SEARCH_STEPS if len(self.field) > EXHAUSTIVE else float("inf")
        while frames:
            frame = frames[-1]
            if frame[2] is not None:
                self._undo(frame[0], frame[2])
                pairs.pop()
                frame[2] = None
            if self.best is not None and (self.steps >= limit or self.best == optimum):
                return
            move = next(frame[1], None)
            if move is None:
                frames.pop()
                continue
            frame[2] = self._apply(frame[0], move)
            pairs.append((frame[0], frame[2][1]))
            if rest:
                # The same unpaired set reached again at no lower cost has nothing new to give.
                if self.seen.get(self.key, _UNSEEN) <= self.cost:
                    continue
                self.seen[self.key] = self.cost
                frames.append([rest[-1], self._partners(), None])
            elif self.best is None or self.cost < self.best:
                self.best = self.cost
                self.best_pairs = list(pairs)

    def _partners(self):
        """Moves ``(position, repeat, clash, extra)`` for the top unpaired entrant, best first:
        its partner is ``rest[-1 - position]``, ``clash`` says whether both need the same seat,
        ``extra`` is what pairing them adds to the bound. New partners without a clash come
        first, then new ones with a clash, then partners met before."""
        top = self.rest[-1]
        need = self.need[top]
        for repeat, clash in ((False, False), (False, True), (True, False), (True, True)):
            for p in self._order(top):
                self.steps += 1
                partner = self.rest[-1 - p]
                if (partner in self.met[top]) != repeat or (self._clash(need, p) == 2) != clash:
                    continue
                extra = self._extra(top, partner)
                if self.best is not None and (
                    (self.cost[0] + repeat, self.cost[1] + clash, self.cost[2] + extra) >= self.best
                ):
                    break  # the extra only grows along the order
                yield p, repeat, clash, extra

    def _order(self, top: int):
        """Positions of the partners of ``top`` in Swiss order: the fold of its score group (the
        head reordered by first-seat needs), the group's floater, then the lower groups."""
        size = self.count[self.level[top]]
        even = size - size % 2
        fold = even // 2
        need = self.need[top]
        order = chain(range(fold, even), range(fold - 1, 0, -1))
        head = sorted(islice(order, SEAT_WINDOW), key=lambda p: self._clash(need, p))
        return chain(head, order, range(max(even, 1), len(self.rest)))

    def _clash(self, need: int, position: int) -> int:
        """0 if the two can take different seats as they need, 1 if both lean the same way, 2
        if both must (a difference of two or more)."""
        other = self.need[self.rest[-1 - position]]
        if need * other <= 0:
            return 0
        return 2 if abs(need) >= 2 and abs(other) >= 2 else 1

    def _extra(self, top: int, partner: int) -> float:
        return 2 * sum(
            self.gap[g] for g in range(self.level[top], self.level[partner]) if not self.odd[g]
        )

    def _apply(
        self, top: int, move: tuple[int, bool, bool, float]
    ) -> tuple[int, int, bool, bool, float]:
        position, repeat, clash, extra = move
        rest = self.rest
        index = len(rest) - 1 - position
        rest.pop()
        partner = rest.pop(index)
        self.count[self.level[top]] -= 1
        self.count[self.level[partner]] -= 1
        for g in range(self.level[top], self.level[partner]):
            self.odd[g] ^= 1
        self.cost = (self.cost[0] + repeat, self.cost[1] + clash, self.cost[2] + extra)
        self.key ^= (1 << top) | (1 << partner)
        return index, partner, repeat, clash, extra

    def _undo(self, top: int, applied: tuple[int, int, bool, bool, float]) -> None:
        index, partner, repeat, clash, extra = applied
        self.rest.insert(index, partner)
        self.rest.append(top)
        self.count[self.level[top]] += 1
        self.count[self.level[partner]] += 1
        for g in range(self.level[top], self.level[partner]):
            self.odd[g] ^= 1
        self.cost = (self.cost[0] - repeat, self.cost[1] - clash, self.cost[2] - extra)
        self.key ^= (1 << top) | (1 << partner)

    def _repair(self) -> None:
        """Exchange partners between a repeat pair and a nearby pair while that removes
        repeats, choosing the exchange that adds the least score difference."""
        pairs = sorted(self.best_pairs)
        pts = [s.points for s in self.field]
        met = self.met
        improved = True
        while improved:
            improved = False
            for i, (a, b) in enumerate(pairs):
                if b not in met[a]:
                    continue
                best = None
                lo, hi = max(0, i - REPAIR_WINDOW), min(len(pairs), i + REPAIR_WINDOW + 1)
                for j in range(lo, hi):
                    c, d = pairs[j]
                    if j == i:
                        continue
                    fixed = 1 + (d in met[c])
                    old = abs(pts[a] - pts[b]) + abs(pts[c] - pts[d])
                    for x, y in ((c, d), (d, c)):
                        if x in met[a] or y in met[b]:
                            continue
                        key = (-fixed, abs(pts[a] - pts[x]) + abs(pts[b] - pts[y]) - old)
                        if best is None or key < best[0]:
                            best = (key, j, x, y)
                if best is not None:
                    _, j, x, y = best
                    pairs[i] = (min(a, x), max(a, x))
                    pairs[j] = (min(b, y), max(b, y))
                    improved = True
        self.best_pairs = pairs
