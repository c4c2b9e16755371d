"""The battlefield: three lanes between two castle areas, ten rows from castle to castle.

Rows are absolute: seat 0's castle area is row 0, seat 1's is row 9, and the eight battlefield
rows 1-8 lie between (the README derives the length from the walkthrough). Lanes are absolute
too, numbered 0-2 from seat 0's left, so both seats name a lane alike. A unit of seat 0 moves
toward higher rows, one of seat 1 toward lower rows. There are no diagonals anywhere.
"""

from __future__ import annotations

LANES = 3
BATTLEFIELD_ROWS = 8
ROWS = BATTLEFIELD_ROWS + 2
CASTLE_ROW = (0, ROWS - 1)  # each seat's castle-area row
LANE_NAMES = ("left", "centre", "right")  # as seat 0 sees them
CASTLE_HEALTH = 10
CASTLE_ARMOR = 0

Square = tuple[int, int]  # (lane, row)


def forward(seat: int) -> int:
    """The row step toward the opposing castle."""
    return 1 if seat == 0 else -1


def castle_row(seat: int) -> int:
    return CASTLE_ROW[seat]


def front_row(seat: int) -> int:
    """The last battlefield row before ``seat``'s opponent's castle area."""
    return CASTLE_ROW[1 - seat] - forward(seat)


def on_board(lane: int, row: int) -> bool:
    return 0 <= lane < LANES and 0 <= row < ROWS


def distance_to_front(seat: int, row: int) -> int:
    """Spaces a unit of ``seat`` at ``row`` must move to stand at its front row."""
    return (front_row(seat) - row) * forward(seat)


def ahead(seat: int, lane: int, row: int, steps: int) -> Square:
    return lane, row + steps * forward(seat)


def ranged_squares(seat: int, lane: int, row: int, low: int, high: int,
                   spread: bool) -> list[Square]:
    """Squares a shot from (lane, row) reaches: ``low``-``high`` spaces ahead in its own lane
    (Ranged Linear), or, with ``spread`` (Ranged Adjacent), every square at that distance that is
    not behind the shooter, counting a lane change as one space (no diagonals)."""
    found: list[Square] = []
    step = forward(seat)
    for other in range(LANES):
        side = abs(other - lane)
        if side and not spread:
            continue
        for depth in range(0, high + 1):
            dist = side + depth
            if depth == 0 and side == 0:
                continue
            if low <= dist <= high:
                r = row + depth * step
                if on_board(other, r):
                    found.append((other, r))
    return found


def aura_squares(lane: int, row: int, size: int) -> list[Square]:
    """An Aura of ``size`` squares covers half of them in front of the unit and half behind, in
    its own lane (an Aura of 2 is the square in front and the square behind)."""
    reach = max(1, size // 2)
    return [(lane, row + d) for d in range(-reach, reach + 1)
            if d != 0 and on_board(lane, row + d)]
