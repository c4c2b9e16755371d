"""How :func:`~siege.tournament.pairing_robin.round_robin_tables` builds a multiplayer schedule
when no exact design applies, and how it rotates seats. Entrants are numbers ``0 .. n-1``; a
round is a list of tables.

1. Greedy rounds, each seating together the pairs that have met least (see
   :func:`greedy_round`), until every pair has met (or the asked number of rounds).
2. Fewer rounds by annealing (:func:`anneal`): from the first ``R - 1`` greedy rounds, swaps of
   two entrants between tables of one round (or with the round's byes, keeping everyone's bye
   count), accepted by simulated annealing on the cost ``sum over pairs of (4 if they never
   meet else (meetings - 1) ** 2)``; while every pair still meets, try one round fewer. The
   schedule kept is then evened out the same way with ``2 * (meetings - 1) ** 3`` for a pair
   that meets, so third meetings are rare. The random stream is SHA-256 of ``seed``.
3. Seats (:func:`rotate_seats`): sweeps re-choosing each table's seat order, then Kempe
   exchanges, until each entrant's seat counts are within one of each other.
"""

from __future__ import annotations

import hashlib
import math
from itertools import combinations

SWAP_PASSES = 50
"""Bound on the improvement passes of one greedy round."""
ANNEAL_MOVES = 20_000
"""Moves tried per annealing attempt."""
ANNEAL_LIMIT = 64
"""Larger fields keep the greedy schedule."""
SEAT_SWEEPS = 6
UNMET = 4
"""Cost of a pair that never meets."""


class Stream:
    """Deterministic pseudo-random numbers: SHA-256 of ``seed`` and a counter."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.counter = 0
        self.buffer: list[int] = []

    def below(self, m: int) -> int:
        if not self.buffer:
            digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
            self.counter += 1
            self.buffer = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
        return self.buffer.pop() % m

    def unit(self) -> float:
        return self.below(1 << 32) / (1 << 32)


def meetings(n: int, rounds: list[list[list[int]]]) -> list[list[int]]:
    meets = [[0] * n for _ in range(n)]
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                meets[a][b] += 1
                meets[b][a] += 1
    return meets


def unmet_pairs(meets: list[list[int]]) -> int:
    return sum(1 for a in range(len(meets)) for b in range(a) if not meets[a][b])


def extend(
    n: int,
    sizes: list[int],
    bye_count: int,
    rounds: list[list[list[int]]],
    target: int | None,
) -> list[list[list[int]]]:
    """``rounds`` followed by greedy rounds until ``target`` rounds, or (without a target) until
    every pair has met. Byes go to those with the fewest byes so far, then the fewest unmet
    opponents, then the later entrant."""
    rounds = list(rounds)
    meets = meetings(n, rounds)
    byes = [0] * n
    for tables in rounds:
        seated = {e for t in tables for e in t}
        for e in range(n):
            byes[e] += e not in seated
    while (target is None and unmet_pairs(meets)) or (target is not None and len(rounds) < target):
        out = set(sorted(range(n), key=lambda e: (byes[e], -meets[e].count(0), -e))[:bye_count])
        for e in out:
            byes[e] += 1
        tables = greedy_round([e for e in range(n) if e not in out], sizes, meets)
        for table in tables:
            for a, b in combinations(table, 2):
                meets[a][b] += 1
                meets[b][a] += 1
        rounds.append(tables)
    return rounds


def greedy_round(players: list[int], sizes: list[int], meets: list[list[int]]) -> list[list[int]]:
    """Tables of the given sizes for ``players``: greedy, then the best swaps between tables
    while they lower the total of ``meets ** 2`` over seated pairs; it always seats at least one
    pair that has not met when one exists."""

    def cost(x: int, table: list[int]) -> int:
        return sum(meets[x][y] ** 2 for y in table if y != x)

    left = list(players)
    tables: list[list[int]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(range(len(left)), key=lambda i: (cost(left[i], table), i))
            table.append(left.pop(pick))
        tables.append(table)
    for _ in range(SWAP_PASSES):
        # weight[x][t]: what x pays to sit at table t (its own seat excluded)
        weight = {x: [cost(x, t) for t in tables] for t in tables for x in t}
        best = None
        for i, j in combinations(range(len(tables)), 2):
            for x in tables[i]:
                wx = weight[x]
                for y in tables[j]:
                    wy, pair = weight[y], meets[x][y] ** 2
                    delta = wx[j] - pair + wy[i] - pair - wx[i] - wy[j]
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, i, j, x, y)
        if best is None:
            break
        _, i, j, x, y = best
        tables[i] = [y if z == x else z for z in tables[i]]
        tables[j] = [x if z == y else z for z in tables[j]]
    if not any(meets[a][b] == 0 for t in tables for a, b in combinations(t, 2)):
        never = next(((a, b) for a, b in combinations(players, 2) if meets[a][b] == 0), None)
        if never is not None:
            a, b = never
            ta = next(t for t in tables if a in t)
            tb = next(t for t in tables if b in t)
            other = next(z for z in ta if z != a)
            ta[ta.index(other)], tb[tb.index(b)] = b, other
    return tables


def _cover(c: int) -> int:
    """The pair cost while looking for fewer rounds: every pair met, few repeats."""
    return UNMET if c == 0 else (c - 1) ** 2


def _even(c: int) -> int:
    """The pair cost when evening out a schedule: a third meeting is much worse than two
    second ones."""
    return UNMET if c == 0 else 2 * (c - 1) ** 3


def anneal(
    n: int,
    rounds: list[list[list[int]]],
    frozen: int,
    stream: Stream,
    until_covered: bool = False,
) -> tuple[list[list[list[int]]], int]:
    """Improve rounds ``frozen:`` by simulated annealing; returns the best schedule seen and its
    number of pairs that never meet. A move swaps two entrants of one round between tables, or
    between a table and the round's byes when that keeps everyone's bye count (the one sitting
    out has exactly one bye fewer than the one sitting in). With ``until_covered`` it stops as
    soon as every pair meets; its pair cost is :func:`_cover`, else :func:`_even`."""
    cost = [(_cover if until_covered else _even)(c) for c in range(len(rounds) + 2)]
    groups = []  # per round: its tables, then its byes
    byes = [0] * n
    for tables in rounds:
        seated = {e for t in tables for e in t}
        out = [e for e in range(n) if e not in seated]
        for e in out:
            byes[e] += 1
        groups.append([list(t) for t in tables] + [out])
    meets = meetings(n, rounds)
    total = sum(cost[meets[a][b]] for a in range(n) for b in range(a))
    unmet = unmet_pairs(meets)
    pair_count = n * (n - 1) // 2
    meetings_held = sum(len(t) * (len(t) - 1) // 2 for tables in rounds for t in tables)
    often, more = divmod(meetings_held, pair_count)  # the cost is convex: spread evenly is best
    floor = more * cost[often + 1] + (pair_count - more) * cost[often]
    movable = [r for r in range(frozen, len(groups)) if len(groups[r]) - (not groups[r][-1]) > 1]
    best = (total, [[list(t) for t in g[:-1]] for g in groups])
    if not movable or total == floor or (until_covered and not unmet):
        return best[1], unmet
    for step in range(ANNEAL_MOVES):
        temperature = 1.5 * (1 - step / ANNEAL_MOVES) + 0.05
        group = groups[movable[stream.below(len(movable))]]
        last = len(group) - 1
        count = len(group) if group[-1] else last
        i = stream.below(count)
        j = stream.below(count - 1)
        j += j >= i
        here, there = group[i], group[j]
        xi, yi = stream.below(len(here)), stream.below(len(there))
        x, y = here[xi], there[yi]
        if last in (i, j):
            sitter, leaver = (x, y) if j == last else (y, x)
            if byes[leaver] != byes[sitter] + 1:
                continue
        delta = opened = 0  # opened: pairs that stop meeting minus pairs that start
        for table, old, new, real in ((here, x, y, i != last), (there, y, x, j != last)):
            if real:
                for a in table:
                    if a != old:
                        mo, mn = meets[old][a], meets[new][a]
                        delta += cost[mo - 1] - cost[mo] + cost[mn + 1] - cost[mn]
                        opened += (mo == 1) - (mn == 0)
        if delta > 0 and stream.unit() >= math.exp(-delta / temperature):
            continue
        for table, old, new, real in ((here, x, y, i != last), (there, y, x, j != last)):
            if real:
                for a in table:
                    if a != old:
                        meets[old][a] -= 1
                        meets[a][old] -= 1
                        meets[new][a] += 1
                        meets[a][new] += 1
        if last in (i, j):
            byes[sitter] += 1
            byes[leaver] -= 1
        here[xi], there[yi] = y, x
        total += delta
        unmet += opened
        if until_covered and not unmet:
            return [g[:-1] for g in groups], 0
        if total < best[0]:
            best = (total, [[list(t) for t in g[:-1]] for g in groups])
            if total == floor:
                break
    return best[1], unmet_pairs(meetings(n, best[1]))


def fewer_rounds(
    n: int, rounds: list[list[list[int]]], frozen: int, lower: int, seed: int
) -> list[list[list[int]]]:
    """A schedule in which every pair meets, with as few rounds (down to ``lower``) as annealing
    finds; ``rounds`` is one (greedy) such schedule, its first ``frozen`` rounds kept."""
    if n > ANNEAL_LIMIT:
        return rounds
    stream = Stream(seed)
    best = rounds
    for count in range(len(rounds) - 1, max(lower, frozen + 1) - 1, -1):
        # A prefix of the greedy schedule still has every bye count within one of the others.
        shorter, unmet = anneal(n, rounds[:count], frozen, stream, until_covered=True)
        if unmet:
            break
        best = shorter
    polished, unmet = anneal(n, best, frozen, stream)  # even out the repeats
    return best if unmet else polished


def rotate_seats(rounds: list[list[list[int]]], table_size: int, frozen: int) -> None:
    """Reorder the tables of rounds ``frozen:`` in place so every entrant's seats even out.

    First sweeps give each table, in turn, the seat order that best suits its entrants' counts
    so far; then Kempe exchanges: for an entrant with seat ``a`` used at least twice more than
    seat ``b``, follow the trail "it leaves a table where it sits in ``a`` for seat ``b``, the
    one sitting in ``b`` there takes ``a`` and leaves one of its own ``a`` seats, ..." and swap
    ``a`` and ``b`` at every table on it, kept when it lowers the sum of squared counts. With
    tables all of one size this ends with every entrant's seat counts within one of each other
    (an equitable edge colouring, which always exists for these bipartite graphs)."""
    count: dict[int, list[int]] = {}
    for tables in rounds:
        for table in tables:
            for s, e in enumerate(table):
                count.setdefault(e, [0] * table_size)[s] += 1
    for _ in range(SEAT_SWEEPS):
        changed = False
        for tables in rounds[frozen:]:
            for t, table in enumerate(tables):
                for s, e in enumerate(table):
                    count[e][s] -= 1
                order = best_order(
                    [[(count[e][s] + 1) ** 2 for s in range(len(table))] for e in table]
                )
                order = [table[i] for i in order]
                for s, e in enumerate(order):
                    count[e][s] += 1
                if order != table:
                    tables[t] = order
                    changed = True
        if not changed:
            break
    where: dict[int, list[tuple[int, int]]] = {}
    for r in range(frozen, len(rounds)):
        for t, table in enumerate(rounds[r]):
            for e in table:
                where.setdefault(e, []).append((r, t))
    improved = True
    while improved:
        improved = False
        for e in sorted(where):
            seats = count[e]
            a = max(range(table_size), key=lambda s: (seats[s], -s))
            b = min(range(table_size), key=lambda s: (seats[s], s))
            if seats[a] - seats[b] >= 2 and _kempe(rounds, where, count, e, a, b):
                improved = True


def _kempe(
    rounds: list[list[list[int]]],
    where: dict[int, list[tuple[int, int]]],
    count: dict[int, list[int]],
    start: int,
    a: int,
    b: int,
) -> bool:
    """Swap seats ``a`` and ``b`` along the trail from ``start`` (see :func:`rotate_seats`) if
    that lowers the sum of squared seat counts; report whether it did."""
    used: set[tuple[int, int]] = set()
    trail: list[tuple[int, int]] = []
    change: dict[int, int] = {}  # entrant -> net seats moved from a to b
    v = start
    while True:
        step = next(
            (
                (r, t)
                for r, t in where[v]
                if (r, t) not in used and len(rounds[r][t]) > max(a, b) and rounds[r][t][a] == v
            ),
            None,
        )
        if step is None:
            break
        used.add(step)
        trail.append(step)
        table = rounds[step[0]][step[1]]
        change[v] = change.get(v, 0) + 1
        v = table[b]
        change[v] = change.get(v, 0) - 1
    gain = sum(
        (count[e][a] - m) ** 2 + (count[e][b] + m) ** 2 - count[e][a] ** 2 - count[e][b] ** 2
        for e, m in change.items()
    )
    if gain >= 0:
        return False
    for r, t in trail:
        table = rounds[r][t]
        table[a], table[b] = table[b], table[a]
    for e, m in change.items():
        count[e][a] -= m
        count[e][b] += m
    return True


def best_order(cost: list[list[int]]) -> list[int]:
    """The assignment of rows to seats (``order[s]`` = row in seat ``s``) with the least total
    ``cost[row][seat]``, the lexicographically first on a tie: a dynamic programme over the
    sets of rows already seated."""
    k = len(cost)
    layer: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for seat in range(k):
        grown: dict[int, tuple[int, tuple[int, ...]]] = {}
        for mask, (total, order) in layer.items():
            for row in range(k):
                if not mask >> row & 1:
                    option = (total + cost[row][seat], (*order, row))
                    key = mask | 1 << row
                    if key not in grown or option < grown[key]:
                        grown[key] = option
        layer = grown
    return list(layer[(1 << k) - 1][1])
