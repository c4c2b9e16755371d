"""How :func:`~siege.tournament.pairing_robin.round_robin_tables` builds a multiplayer schedule
when no exact design applies, and how it rotates seats. Entrants are numbers ``0 .. n-1``; a
round is a list of tables.

1. Greedy rounds, each seating together the pairs that have met least (see
   :func:`greedy_round`), until every pair has met (or the asked number of rounds).
2. Fewer rounds by annealing (:func:`anneal`): from the first ``R - 1`` greedy rounds, swaps of
   two entrants between tables of one round, accepted by simulated annealing on the cost
   ``sum over pairs of (4 if they never meet else (meetings - 1) ** 2)``; while every pair
   still meets, try one round fewer. The random stream comes from SHA-256 of ``seed``.
3. Seats (:func:`rotate_seats`): sweeps re-choosing each table's seat order to minimise the sum
   over entrants of the squares of their per-seat counts.
"""

from __future__ import annotations

import hashlib
import math
from itertools import combinations, permutations

SWAP_PASSES = 50
"""Bound on the improvement passes of one greedy round."""
ANNEAL_MOVES = 30_000
"""Moves tried per annealing attempt."""
ANNEAL_LIMIT = 64
"""Larger fields keep the greedy schedule."""
SEAT_SWEEPS = 6
UNMET = 4
"""Cost of a pair that never meets (a pair meeting c >= 1 times costs (c - 1) ** 2)."""


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

    def cost(x: int, table: list[int], skip: int = -1) -> int:
        return sum(meets[x][y] ** 2 for y in table if y != x and y != skip)

    left = list(players)
    tables: list[list[int]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(range(len(left)), key=lambda i: (cost(left[i], table), i))
            table.append(left.pop(pick))
        tables.append(table)
    for _ in range(SWAP_PASSES):
        best = None
        for i, j in combinations(range(len(tables)), 2):
            for x in tables[i]:
                stay_x = cost(x, tables[i])
                for y in tables[j]:
                    delta = (
                        cost(x, tables[j], skip=y)
                        + cost(y, tables[i], skip=x)
                        - stay_x
                        - cost(y, tables[j])
                    )
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, i, j, x, y)
        if best is None:
            break
        _, i, j, x, y = best
        tables[i] = [y if z == x else z for z in tables[i]]
        tables[j] = [x if z == y else z for z in tables[j]]
    if not any(meets[a][b] == 0 for t in tables for a, b in combinations(t, 2)):
        pair = next(((a, b) for a, b in combinations(players, 2) if meets[a][b] == 0), None)
        if pair is not None:
            a, b = pair
            ta = next(t for t in tables if a in t)
            tb = next(t for t in tables if b in t)
            other = next(z for z in ta if z != a)
            ta[ta.index(other)], tb[tb.index(b)] = b, other
    return tables


def _cost(c: int) -> int:
    return UNMET if c == 0 else (c - 1) * (c - 1)


def anneal(
    n: int, rounds: list[list[list[int]]], frozen: int, stream: Stream
) -> tuple[list[list[list[int]]], int]:
    """Improve rounds ``frozen:`` by simulated annealing over swaps within a round; returns the
    best schedule seen and its number of pairs that never meet."""
    rounds = [[list(t) for t in tables] for tables in rounds]
    meets = meetings(n, rounds)
    total = sum(_cost(meets[a][b]) for a in range(n) for b in range(a))
    pairs = n * (n - 1) // 2
    seats = sum(len(t) * (len(t) - 1) // 2 for t in rounds[0]) * len(rounds) if rounds else 0
    floor = max(0, seats - pairs)  # every pair once, the extra meetings all second ones
    movable = [r for r in range(frozen, len(rounds)) if len(rounds[r]) > 1]
    best = (total, [[list(t) for t in tables] for tables in rounds])
    if not movable or total == floor:
        return best[1], unmet_pairs(meets)
    for step in range(ANNEAL_MOVES):
        temperature = 1.5 * (1 - step / ANNEAL_MOVES) + 0.05
        tables = rounds[movable[stream.below(len(movable))]]
        i = stream.below(len(tables))
        j = stream.below(len(tables) - 1)
        j += j >= i
        here, there = tables[i], tables[j]
        xi, yi = stream.below(len(here)), stream.below(len(there))
        x, y = here[xi], there[yi]
        delta = 0
        for a in here:
            if a != x:
                mx, my = meets[x][a], meets[y][a]
                delta += _cost(mx - 1) - _cost(mx) + _cost(my + 1) - _cost(my)
        for b in there:
            if b != y:
                my, mx = meets[y][b], meets[x][b]
                delta += _cost(my - 1) - _cost(my) + _cost(mx + 1) - _cost(mx)
        if delta > 0 and stream.unit() >= math.exp(-delta / temperature):
            continue
        for a in here:
            if a != x:
                meets[x][a] -= 1
                meets[a][x] -= 1
                meets[y][a] += 1
                meets[a][y] += 1
        for b in there:
            if b != y:
                meets[y][b] -= 1
                meets[b][y] -= 1
                meets[x][b] += 1
                meets[b][x] += 1
        here[xi], there[yi] = y, x
        total += delta
        if total < best[0]:
            best = (total, [[list(t) for t in tables] for tables in rounds])
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
    best, unmet = anneal(n, rounds, frozen, stream)
    if unmet:
        best = rounds
    for count in range(len(rounds) - 1, max(lower, frozen + 1) - 1, -1):
        shorter, unmet = anneal(n, best[:count], frozen, stream)
        if unmet:
            break
        best = shorter
    return best


def rotate_seats(rounds: list[list[list[int]]], table_size: int, frozen: int) -> None:
    """Reorder the tables of rounds ``frozen:`` in place so every entrant's seats even out."""
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
                order = min(
                    permutations(table),
                    key=lambda p: sum((count[e][s] + 1) ** 2 for s, e in enumerate(p)),
                )
                for s, e in enumerate(order):
                    count[e][s] += 1
                if list(order) != table:
                    tables[t] = list(order)
                    changed = True
        if not changed:
            return
