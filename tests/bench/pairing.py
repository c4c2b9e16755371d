"""Pairing speed: one late Swiss round of a large field (not a test; it prints figures).

    .venv/bin/python tests/bench/pairing.py [entrants] [round]

Plays rounds 1 .. round-1 of a simulated tournament with the pairing library itself (results
drawn from SHA-256 of a fixed seed, so every run has the same history), then times the pairing
of ``round`` (default 7 of 10,000 entrants): 2-player Swiss and Swiss tables of 4. Each figure
is the median of 5 repeats. Also prints how many repeat meetings the timed pairing has.
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import time
from collections.abc import Callable

from siege.tournament.pairing import Standing, swiss_pairs, swiss_tables

REPEATS = 5
SEED = b"siegeworks-pairing-bench"


def draw(*key: object) -> int:
    """A deterministic pseudo-random 64-bit number for ``key``."""
    digest = hashlib.sha256(SEED + repr(key).encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Entrant:
    def __init__(self, name: str) -> None:
        self.name = name
        self.points = 0.0
        self.opponents: set[str] = set()
        self.byes = 0
        self.first_seats = 0
        self.games = 0


def standings(field: dict[str, Entrant]) -> list[Standing]:
    """The ranking: points, then entrant id."""
    order = sorted(field.values(), key=lambda e: (-e.points, e.name))
    return [
        Standing(e.name, e.points, frozenset(e.opponents), e.byes, e.first_seats, e.games)
        for e in order
    ]


def play_pairs(field: dict[str, Entrant], number: int) -> None:
    pairs, bye = swiss_pairs(standings(field))
    for first, second in pairs:
        a, b = field[first], field[second]
        roll = draw(number, first, second) % 100
        a.points += 1.0 if roll < 45 else 0.5 if roll < 55 else 0.0
        b.points += 0.0 if roll < 45 else 0.5 if roll < 55 else 1.0
        a.first_seats += 1
        for e, other in ((a, b), (b, a)):
            e.games += 1
            e.opponents.add(other.name)
    if bye is not None:
        field[bye].byes += 1
        field[bye].points += 1.0


def play_tables(field: dict[str, Entrant], number: int, size: int) -> None:
    tables, byes = swiss_tables(standings(field), size)
    for table in tables:
        finish = sorted(table, key=lambda name: draw(number, name))
        for place, name in enumerate(finish):
            field[name].points += len(table) - 1 - place
        field[table[0]].first_seats += 1
        for name in table:
            field[name].games += 1
            field[name].opponents.update(n for n in table if n != name)
    for name in byes:
        field[name].byes += 1
        field[name].points += size - 1


def history(entrants: int, rounds: int, play: Callable[[dict[str, Entrant], int], None]):
    field = {f"e{i:05d}": Entrant(f"e{i:05d}") for i in range(entrants)}
    for number in range(1, rounds + 1):
        play(field, number)
    return standings(field)


def timed(pair: Callable[[], object]) -> tuple[float, object]:
    runs = []
    result = None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = pair()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), result


def repeat_pairs(pairs: list[tuple[str, str]], field: list[Standing]) -> int:
    met = {s.entrant: s.opponents for s in field}
    return sum(1 for a, b in pairs if b in met[a])


def repeat_meetings(tables: list[list[str]], field: list[Standing]) -> int:
    met = {s.entrant: s.opponents for s in field}
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if b in met[a])


def main() -> None:
    entrants = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    late = int(sys.argv[2]) if len(sys.argv) > 2 else 7

    field = history(entrants, late - 1, play_pairs)
    seconds, (pairs, _bye) = timed(lambda: swiss_pairs(field))
    print(
        f"2-player Swiss, round {late} of {entrants:,}: {seconds:.3f} s "
        f"(median of {REPEATS}); repeat pairs {repeat_pairs(pairs, field)}"
    )

    field = history(entrants, late - 1, lambda f, n: play_tables(f, n, 4))
    seconds, (tables, _byes) = timed(lambda: swiss_tables(field, 4))
    print(
        f"Swiss tables of 4, round {late} of {entrants:,}: {seconds:.3f} s "
        f"(median of {REPEATS}); repeat meetings {repeat_meetings(tables, field)}"
    )


if __name__ == "__main__":
    main()
