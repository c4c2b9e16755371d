"""Balance measurements: the greedy bot against random play, and every warband against every
other, greedy against greedy, from both seats, with 95% Wilson intervals.

Plain functions (libs have no entry points); for example::

    .venv/bin/python -c "from siege.games.castle_assault.balance import report; \\
        print(report(200))"

Each game is a seeded playout (``siege.testing.playout``), so every figure is reproducible.
Game ``g`` of a series uses seed ``base + g``; every series has its own base, so no two series
share dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import msgspec

from siege.games.castle_assault.cards import WARBAND_CARDS
from siege.games.castle_assault.engine import CastleAssault
from siege.testing.playout import seeded_playout, wilson

WARBANDS: tuple[str, ...] = tuple(WARBAND_CARDS)
SERIES = 100_000  # seeds per series: bases are multiples of this
LIMIT = 0.65  # greedy must beat random by at least this; no warband may beat another by more


class Tally(msgspec.Struct, frozen=True, kw_only=True):
    """Games won by the side measured, with the 95% Wilson interval."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games) if self.games else (0.0, 1.0)

    def __add__(self, other: Tally) -> Tally:
        return Tally(wins=self.wins + other.wins, games=self.games + other.games)

    def cell(self) -> str:
        low, high = self.interval
        return f"{self.rate:.0%} [{low:.0%}-{high:.0%}]"


def _series(job: tuple[Sequence[str], Sequence[str], int, int, int]) -> Tally:
    """``games`` playouts of bots ``bots`` with warbands ``warbands``; wins of seat ``seat``."""
    bots, warbands, seat, games, base = job
    engine = CastleAssault()
    wins = 0
    for g in range(games):
        state, _ = seeded_playout(engine, list(bots), base + g,
                                  options={"warbands": ",".join(warbands)})
        wins += engine.ranks(state)[seat] == 1
    return Tally(wins=wins, games=games)


def _run(jobs: list[tuple[Sequence[str], Sequence[str], int, int, int]],
         workers: int) -> list[Tally]:
    if workers <= 1:
        return [_series(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_series, jobs))


def greedy_vs_random(games: int, workers: int = 1) -> dict[str, tuple[Tally, Tally]]:
    """Per warband: the greedy bot's wins against the random bot from seat 0 and from seat 1,
    ``games`` each. The random side plays the same warband (a mirror, so only play differs)."""
    jobs: list[tuple[Sequence[str], Sequence[str], int, int, int]] = []
    for k, warband in enumerate(WARBANDS):
        jobs.append((("greedy", "random"), (warband, warband), 0, games, (2 * k + 1) * SERIES))
        jobs.append((("random", "greedy"), (warband, warband), 1, games, (2 * k + 2) * SERIES))
    tallies = _run(jobs, workers)
    return {w: (tallies[2 * k], tallies[2 * k + 1]) for k, w in enumerate(WARBANDS)}


def greedy_matrix(games: int, workers: int = 1) -> dict[tuple[str, str], Tally]:
    """Every ordered pairing (seat 0's warband, seat 1's), greedy against greedy: seat 0's wins
    over ``games``."""
    pairs = [(a, b) for a in WARBANDS for b in WARBANDS]
    jobs: list[tuple[Sequence[str], Sequence[str], int, int, int]] = [
        (("greedy", "greedy"), pair, 0, games, (20 + k) * SERIES) for k, pair in enumerate(pairs)]
    return dict(zip(pairs, _run(jobs, workers), strict=True))


def head_to_head(matrix: dict[tuple[str, str], Tally], a: str, b: str) -> Tally:
    """``a``'s wins against ``b`` over both seat orders."""
    first = matrix[(a, b)]
    second = matrix[(b, a)]
    return first + Tally(wins=second.games - second.wins, games=second.games)


def report(games: int, workers: int = 2) -> str:
    """Both tables as Markdown, with the checks against the 65% limits."""
    lines = [f"Greedy against random ({games} games per seat; the random side plays the same "
             "warband):", "", "| warband | greedy in seat 0 | greedy in seat 1 | both seats |",
             "|---|---|---|---|"]
    for warband, (first, second) in greedy_vs_random(games, workers).items():
        both = first + second
        flag = "" if both.rate >= LIMIT and min(first.rate, second.rate) >= LIMIT else " (low)"
        lines.append(f"| {warband} | {first.cell()} | {second.cell()} | {both.cell()}{flag} |")
    matrix = greedy_matrix(games, workers)
    lines += ["", f"Greedy against greedy: seat 0's wins, {games} games per ordered pairing "
              "(row: seat 0's warband, column: seat 1's):", "",
              "| seat 0 \\ seat 1 | " + " | ".join(WARBANDS) + " |",
              "|---|" + "---|" * len(WARBANDS)]
    for a in WARBANDS:
        lines.append(f"| {a} | " + " | ".join(matrix[(a, b)].cell() for b in WARBANDS) + " |")
    lines += ["", f"Head to head, both seat orders combined ({2 * games} games per pair; the "
              "row warband's wins):", "", "| warband | " + " | ".join(WARBANDS) + " |",
              "|---|" + "---|" * len(WARBANDS)]
    worst = 0.0
    for a in WARBANDS:
        cells = []
        for b in WARBANDS:
            if a == b:
                cells.append("-")
                continue
            tally = head_to_head(matrix, a, b)
            worst = max(worst, tally.rate)
            cells.append(tally.cell())
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += ["", f"Highest head-to-head win rate: {worst:.1%} (limit {LIMIT:.0%})."]
    return "\n".join(lines)
