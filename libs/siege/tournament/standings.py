"""Standings, tie-breaks and pairing inputs: pure projections of the results a tournament recorded.

Nothing here is stored. Every function takes the registered entrants and the recorded results
(:class:`~siege.tournament.results.TableResult` and :class:`~siege.tournament.results.Bye`, in
the order the tournament's stream recorded them) and recomputes everything from scratch, so a
rebuild from the events always agrees with what was shown before.

Scoring
    * A table scores by finishing position: at a table of ``n`` seats, first gets ``n - 1``
      points, second ``n - 2``, ..., last ``0``; entrants that tie share the average of the points
      of the positions they occupy (:func:`table_points`). For two players this is the usual
      win 1, draw 0.5, loss 0.
    * A forfeit is an ordinary result: the forfeiting seats share last place, so they split the
      points of the positions they occupy like any other tie; it counts as a game played, for
      every seat at the table.
    * A damaged match (an operator's ``siege damage``: it could not finish) counts for nobody:
      no points, not a game played, no opponents met, no tie-break. Its table may be replayed
      (``siege tournament ... --replay-damaged``); the replay's result then stands for the table.
    * A bye is worth a win. In a two-player tournament that is 1 point. In a multiplayer
      tournament it is the first-place points of the largest table recorded in the bye's round
      (``n - 1`` for a table of ``n``); if that round has no table yet, the largest table
      recorded in the tournament; if there is none at all, 1 point. ``bye_points`` overrides it.

Tie-breaks (each sums over games, so meeting the same opponent twice counts twice)
    * Two-player: **Buchholz** — the sum of the final points of every opponent played;
      then **Sonneborn–Berger** — the sum, over games, of the entrant's score in that game
      (1, 0.5 or 0) times that opponent's final points.
    * Multiplayer: **opponents' points** — the sum, over tables played, of the final points of
      every other entrant at that table.
    * A bye is a win over a *virtual opponent with 0 points*: it adds its points to the entrant's
      score but 0 to every tie-break, and it is not a game played.
    * Withdrawn entrants keep their points and still count as opponents with their final points.

Ranking: by points, then the tie-breaks in the order listed above, all descending. Rows equal
on every key share a rank (competition ranking: 1, 2, 2, 4); the entrant id only orders equal
rows for display. All point values are halves of integers (an average of consecutive integers),
and tie-breaks are sums of their products with halves, so float comparisons here are exact.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec

from siege.tournament.events import REPLAY
from siege.tournament.results import FORFEIT, Bye, TableResult

BUCHHOLZ = "buchholz"
SONNEBORN_BERGER = "sonneborn_berger"
OPPONENTS_POINTS = "opponents_points"

TWO_PLAYER_TIEBREAKS: tuple[str, ...] = (BUCHHOLZ, SONNEBORN_BERGER)
"""Tie-break keys of a two-player tournament, in the order they break ties."""
MULTIPLAYER_TIEBREAKS: tuple[str, ...] = (OPPONENTS_POINTS,)
"""Tie-break keys of a multiplayer tournament, in the order they break ties."""


class StandingRow(msgspec.Struct, frozen=True):
    """One entrant's line in the standings."""

    rank: int
    """Competition ranking: rows equal on points and every tie-break share a rank."""
    entrant: str
    points: float
    tiebreaks: dict[str, float]
    """``{"buchholz": .., "sonneborn_berger": ..}`` (two-player) or ``{"opponents_points": ..}``."""
    played: int
    """Tables played (byes are not games)."""
    byes: int
    withdrawn: bool
    """Withdrawn entrants stay in the standings with this flag; they are not paired any more."""
    no_show: bool = False
    """Seated at one table or more and, at every one, their clock ran out: never there."""


class PairingInput(msgspec.Struct, frozen=True):
    """What a pairing algorithm needs to know about one active entrant."""

    entrant: str
    points: float
    opponents: frozenset[str]
    """Every entrant met at a table so far (withdrawn ones included)."""
    byes: int
    first_seats: int
    """Times this entrant sat in seat 0 (moved first)."""
    games: int
    """Tables played (byes are not games)."""


def table_points(ranks: list[int]) -> list[float]:
    """Points per seat for one table, from each seat's finishing rank (1 = first, equal = tied).

    At a table of ``n`` the positions are worth ``n - 1, n - 2, ..., 0``; seats with equal ranks
    occupy consecutive positions and each gets their average. Only the order of the ranks
    matters, so ``[1, 1, 3]`` and ``[1, 1, 2]`` score alike::

        table_points([2, 1])        == [0.0, 1.0]
        table_points([1, 1])        == [0.5, 0.5]
        table_points([1, 2, 3, 4])  == [3.0, 2.0, 1.0, 0.0]
        table_points([1, 2, 2, 4])  == [3.0, 1.5, 1.5, 0.0]
        table_points([1, 2, 3, 3])  == [3.0, 2.0, 0.5, 0.5]   # two forfeits share last
    """
    if any(r < 1 for r in ranks):
        raise ValueError(f"ranks start at 1: {ranks}")
    n = len(ranks)
    order = sorted(range(n), key=lambda seat: ranks[seat])
    points = [0.0] * n
    start = 0
    while start < n:
        end = start
        while end + 1 < n and ranks[order[end + 1]] == ranks[order[start]]:
            end += 1
        # positions start..end (0-based) are worth n-1-start .. n-1-end; the average of those
        # consecutive integers is the mean of the first and last.
        share = ((n - 1 - start) + (n - 1 - end)) / 2
        for position in range(start, end + 1):
            points[order[position]] = share
        start = end + 1
    return points


@dataclass
class _Tally:
    points: float = 0.0
    byes: int = 0
    first_seats: int = 0
    timed_out: int = 0  # tables at which this entrant's clock ran out
    # one (opponents at the table, own score at the table) per game, in recorded order
    games: list[tuple[tuple[str, ...], float]] = field(default_factory=list)


def _bye_points_by_round(
    recorded: Sequence[TableResult | Bye], two_player: bool
) -> dict[int, float]:
    if two_player:
        return defaultdict(lambda: 1.0)
    largest: dict[int, int] = {}
    for item in recorded:
        if isinstance(item, TableResult):
            largest[item.round] = max(largest.get(item.round, 0), len(item.entrants))
    overall = max(largest.values(), default=2)
    return defaultdict(
        lambda: float(overall - 1), {rnd: float(n - 1) for rnd, n in largest.items()}
    )


def _tally(
    entrants: list[str],
    recorded: Sequence[TableResult | Bye],
    two_player: bool,
    withdrawn: frozenset[str],
    bye_points: float | None,
) -> dict[str, _Tally]:
    if len(set(entrants)) != len(entrants):
        raise ValueError("duplicate entrant ids")
    tallies = {e: _Tally() for e in entrants}
    unknown = withdrawn - tallies.keys()
    if unknown:
        raise ValueError(f"withdrawn entrants not registered: {sorted(unknown)}")
    per_round_bye = _bye_points_by_round(recorded, two_player)
    seen_matches: set[str] = set()
    for item in recorded:
        if isinstance(item, Bye):
            if item.entrant not in tallies:
                raise ValueError(f"bye for an unregistered entrant: {item.entrant!r}")
            tally = tallies[item.entrant]
            tally.byes += 1
            tally.points += per_round_bye[item.round] if bye_points is None else bye_points
            continue
        if item.match_id in seen_matches:
            raise ValueError(f"match {item.match_id!r} recorded twice")
        seen_matches.add(item.match_id)
        if item.damaged:
            continue  # counts for nobody (see the module docstring)
        seats = item.entrants
        if len(seats) != len(item.ranks):
            raise ValueError(
                f"match {item.match_id!r}: {len(seats)} entrants, {len(item.ranks)} ranks"
            )
        if len(set(seats)) != len(seats):
            raise ValueError(f"match {item.match_id!r}: an entrant sits twice")
        if two_player and len(seats) != 2:
            raise ValueError(f"match {item.match_id!r}: {len(seats)} seats in a two-player event")
        if len(seats) < 2:
            raise ValueError(f"match {item.match_id!r}: a table needs two entrants")
        for seat in seats:
            if seat not in tallies:
                raise ValueError(f"match {item.match_id!r}: unregistered entrant {seat!r}")
        scores = table_points(item.ranks)
        for i, (seat, score) in enumerate(zip(seats, scores, strict=True)):
            tally = tallies[seat]
            tally.points += score
            if i == 0:
                tally.first_seats += 1
            tally.timed_out += i in item.timed_out
            tally.games.append((tuple(s for s in seats if s != seat), score))
    return tallies


def _tiebreaks(tallies: dict[str, _Tally], two_player: bool) -> dict[str, dict[str, float]]:
    final = {e: t.points for e, t in tallies.items()}
    out: dict[str, dict[str, float]] = {}
    for entrant, tally in tallies.items():
        if two_player:
            buchholz = 0.0
            sonneborn_berger = 0.0
            for (opponent,), score in tally.games:
                buchholz += final[opponent]
                sonneborn_berger += score * final[opponent]
            out[entrant] = {BUCHHOLZ: buchholz, SONNEBORN_BERGER: sonneborn_berger}
        else:
            total = sum(final[o] for others, _ in tally.games for o in others)
            out[entrant] = {OPPONENTS_POINTS: float(total)}
    return out


def standings(
    entrants: list[str],
    recorded: Sequence[TableResult | Bye],
    two_player: bool,
    withdrawn: frozenset[str] = frozenset(),
    *,
    bye_points: float | None = None,
) -> list[StandingRow]:
    """The standings after ``recorded``: one row per registered entrant, best first.

    Sorted by points, then the tie-breaks (:data:`TWO_PLAYER_TIEBREAKS` or
    :data:`MULTIPLAYER_TIEBREAKS`), all descending; rows equal on all of them share a rank and
    are listed by entrant id. Withdrawn entrants stay, flagged. ``bye_points`` overrides what a
    bye is worth (see the module docstring for the default). Raises :class:`ValueError` for
    results that name unregistered entrants, repeat a match id, or do not fit ``two_player``.
    """
    tallies = _tally(entrants, recorded, two_player, withdrawn, bye_points)
    breaks = _tiebreaks(tallies, two_player)
    order = TWO_PLAYER_TIEBREAKS if two_player else MULTIPLAYER_TIEBREAKS

    def key(entrant: str) -> tuple[float, ...]:
        return (tallies[entrant].points, *(breaks[entrant][k] for k in order))

    ordered = sorted(entrants, key=lambda e: (tuple(-v for v in key(e)), e))
    rows: list[StandingRow] = []
    rank = 0
    previous: tuple[float, ...] | None = None
    for position, entrant in enumerate(ordered, start=1):
        k = key(entrant)
        if k != previous:
            rank, previous = position, k
        tally = tallies[entrant]
        rows.append(
            StandingRow(
                rank=rank,
                entrant=entrant,
                points=tally.points,
                tiebreaks=breaks[entrant],
                played=len(tally.games),
                byes=tally.byes,
                withdrawn=entrant in withdrawn,
                no_show=bool(tally.games) and tally.timed_out == len(tally.games),
            )
        )
    return rows


class RoundCounts(msgspec.Struct, frozen=True):
    """How one round's matches ended: the standings' footer."""

    round: int
    matches: int
    """Matches recorded in the round, replays included."""
    forfeited: int
    """Forfeits: counted as played, the forfeiting seats last."""
    damaged: int
    """Damaged matches: counted for nobody."""
    replayed: int
    """Of the matches, replays of a damaged table."""


def round_counts(recorded: Sequence[TableResult | Bye]) -> list[RoundCounts]:
    """Per round (ascending), how many recorded matches were forfeits, damaged or replays."""
    tally: dict[int, list[int]] = {}
    for item in recorded:
        if isinstance(item, Bye):
            continue
        counts = tally.setdefault(item.round, [0, 0, 0, 0])
        counts[0] += 1
        counts[1] += item.reason == FORFEIT
        counts[2] += item.damaged
        counts[3] += REPLAY in item.match_id
    return [RoundCounts(rnd, *c) for rnd, c in sorted(tally.items())]


COUNTING_RULE = ("a forfeit counts as played (the forfeiting seats last); a damaged match "
                 "counts for nobody (no points, not played) and its table may be replayed "
                 "(--replay-damaged); a bye is a win, not a game played")
"""The rule in one line, for the standings' footer."""


def pairing_inputs(
    entrants: list[str],
    recorded: Sequence[TableResult | Bye],
    two_player: bool,
    withdrawn: frozenset[str] = frozenset(),
    *,
    bye_points: float | None = None,
) -> dict[str, PairingInput]:
    """What a pairing algorithm needs, from the same results the standings come from.

    One entry per entrant that can still be paired — withdrawn entrants are left out (they may
    still appear in others' ``opponents``) — in the order of ``entrants``. Points are scored
    exactly as in :func:`standings`.
    """
    tallies = _tally(entrants, recorded, two_player, withdrawn, bye_points)
    return {
        e: PairingInput(
            entrant=e,
            points=t.points,
            opponents=frozenset(o for others, _ in t.games for o in others),
            byes=t.byes,
            first_seats=t.first_seats,
            games=len(t.games),
        )
        for e, t in tallies.items()
        if e not in withdrawn
    }
