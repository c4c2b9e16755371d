"""What standings, tie-breaks and ratings are computed from: the results a tournament recorded,
in the order its stream recorded them (that order is canonical, so a rebuild agrees)."""

from __future__ import annotations

import msgspec


class TableResult(msgspec.Struct, frozen=True, kw_only=True):
    """One finished match of a round: ``entrants[i]`` sat in seat ``i`` and got ``ranks[i]``
    (1 = first; equal ranks tie). A forfeit is an ordinary result in which the forfeiting
    entrants share the last place. A damaged match (``reason == "damaged"``, no ranks) is kept
    in the order but counts for nobody: no points, not a game played, not rated."""

    round: int
    match_id: str
    entrants: list[str]
    ranks: list[int]
    reason: str = "finished"
    timed_out: list[int] = []  # seats whose clock ran out (a forfeit): a no-show's trace

    @property
    def damaged(self) -> bool:
        return self.reason == DAMAGED


DAMAGED = "damaged"
FORFEIT = "forfeit"


class Bye(msgspec.Struct, frozen=True, kw_only=True):
    """An entrant left without a table in a round: scored as a win."""

    round: int
    entrant: str


Recorded = TableResult | Bye
