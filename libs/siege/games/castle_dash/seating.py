"""Who sits where, and who battles whom: tables computed once per player count.

Seats are numbered clockwise. A player's left neighbour is the next seat clockwise (seat + 1),
the way a table passes "to the left"; turn order and the first-player marker also go left.
In 4- and 6-player games a player also battles the seat across the table; in 3- and 5-player
games only the two neighbours.
"""

from __future__ import annotations

MIN_PLAYERS = 3
MAX_PLAYERS = 6

START_SOLDIERS = 11
START_COINS = 5
START_CANNONBALLS = 2
MAX_PER_PLACEMENT = 6
CARDS_PER_PLAYER = 2  # revealed each round
LOOT_THRESHOLD = 3
COINS_TO_WIN = 3


def left(players: int, seat: int) -> int:
    return (seat + 1) % players


def right(players: int, seat: int) -> int:
    return (seat - 1) % players


def has_across(players: int) -> bool:
    return players % 2 == 0


def _opponents(players: int, seat: int) -> tuple[int, ...]:
    found = [left(players, seat), right(players, seat)]
    if has_across(players):
        found.append((seat + players // 2) % players)
    # In a 3-player game left and right are different seats; no seat repeats in any count.
    return tuple(found)


OPPONENTS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(_opponents(n, seat) for seat in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
"""``OPPONENTS[players][seat]``: the seats ``seat`` battles, in the order left, right, across."""

OPPONENT_MASK: dict[int, tuple[int, ...]] = {
    n: tuple(sum(1 << o for o in OPPONENTS[n][seat]) for seat in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}

TURN_ORDER: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((start + k) % n for k in range(n)) for start in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
"""``TURN_ORDER[players][first]``: every seat once, clockwise from ``first``."""


def soldiers_in_play(players: int) -> int:
    """Soldiers a player keeps after setup: one hostage per opponent, and in 3- and 5-player
    games one more goes back in the box. Both give 8, so every count plays alike."""
    boxed = 0 if has_across(players) else 1
    return START_SOLDIERS - len(OPPONENTS[players][0]) - boxed
