"""Elimination: seeded single-elimination brackets (2-player) and top-k-per-table rounds
(multiplayer)."""

from __future__ import annotations

from siege.tournament.pairing_common import check_table_sizes, plan_tables
from siege.tournament.results import Recorded, TableResult


def _unique(entrants: list[str]) -> None:
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant appears twice")


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) down the lines of a bracket of ``size`` (a power of two), in the
    standard order: seed 1 on the top line, seed 2 on the bottom, every first-round match
    summing to ``size + 1``, and seeds 1..2^k in different sections until the last 2^k."""
    if size < 1 or size & (size - 1):
        raise ValueError("bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        grown: list[int] = []
        for line, seed in enumerate(order):
            grown.extend((seed, total - seed) if line % 2 == 0 else (total - seed, seed))
        order = grown
    return order


def elimination_bracket(seeds: list[str]) -> list[tuple[str, str | None]]:
    """The first round of a single-elimination bracket for ``seeds`` (best first).

    The bracket has the next power of two of lines; the missing lowest seeds are byes (None),
    which fall to the top seeds. Matches are in bracket order (winners of matches 0 and 1 meet
    next, and so on), the better seed first (and seated first): for 8 seeds 1-8, 4-5, 3-6, 2-7;
    for 16 seeds 1-16, 8-9, 5-12, 4-13, 3-14, 6-11, 7-10, 2-15."""
    _unique(seeds)
    if len(seeds) < 2:
        raise ValueError("a bracket needs at least two entrants")
    size = 1
    while size < len(seeds):
        size *= 2
    order = bracket_order(size)
    matches: list[tuple[str, str | None]] = []
    for line in range(0, size, 2):
        better, worse = sorted(order[line : line + 2])
        matches.append((seeds[better - 1], seeds[worse - 1] if worse <= len(seeds) else None))
    return matches


def next_elimination_round(
    winners_in_bracket_order: list[str], seeds: list[str] | None = None
) -> list[tuple[str, str]]:
    """The next round of a bracket: the winners of matches 0 and 1 meet, then 2 and 3, and so
    on (a bye's entrant counts as its match's winner). The first named sits first: the better
    seed when ``seeds`` is given, else the one from the upper match. An empty list when only the
    champion is left."""
    winners = winners_in_bracket_order
    _unique(winners)
    if len(winners) == 1:
        return []
    if len(winners) % 2:
        raise ValueError("an elimination round needs an even number of winners")
    rank = {e: i for i, e in enumerate(seeds)} if seeds is not None else None
    matches = []
    for k in range(0, len(winners), 2):
        a, b = winners[k], winners[k + 1]
        if rank is not None and rank[b] < rank[a]:
            a, b = b, a
        matches.append((a, b))
    return matches


def top_k_tables(
    seeds: list[str], table_size: int, min_table_size: int | None = None
) -> tuple[list[list[str]], list[str]]:
    """Seat one round of multiplayer elimination: ``seeds`` are the entrants still in, best
    first.

    Sizes follow :func:`~siege.tournament.pairing_common.plan_tables` (smaller tables before
    byes); any byes (who advance without playing) go to the top seeds. The others are dealt to
    the tables in snake order (1st seed to table 0, 2nd to table 1, ..., back from the last
    table), so every table gets a fair mix of strong and weak seeds; each table is in seed
    order, the best seed in seat 0. Returns the tables and the byes."""
    _unique(seeds)
    low = check_table_sizes(table_size, min_table_size)
    sizes, count = plan_tables(len(seeds), table_size, low)
    tables: list[list[str]] = [[] for _ in sizes]
    forward = True
    pending = list(seeds[count:])
    while pending:
        lanes = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for t in lanes:
            if pending and len(tables[t]) < sizes[t]:
                tables[t].append(pending.pop(0))
        forward = not forward
    return tables, list(seeds[:count])


def top_k_advance(results: list[Recorded], advance: int, seeds: list[str]) -> list[str]:
    """Who goes through from a finished round of multiplayer elimination: from each table the
    ``advance`` best by rank (a tie across the cut goes to the better seed), and everyone with a
    bye. Returned in seed order, ready for the next :func:`top_k_tables`."""
    if advance < 1:
        raise ValueError("at least one entrant per table must advance")
    seed = {e: i for i, e in enumerate(seeds)}
    through: list[str] = []
    for result in results:
        if isinstance(result, TableResult):
            order = sorted(
                zip(result.ranks, result.entrants, strict=True),
                key=lambda r: (r[0], seed[r[1]]),
            )
            through.extend(e for _, e in order[:advance])
        else:
            through.append(result.entrant)
    _unique(through)
    return sorted(through, key=seed.__getitem__)
