"""The four Bonus Reward cards, one per year: our own design.

A card has a threshold (how many enemy cards all players together must defeat that year) and four
sides, one per edge of the table. The rulebook gives the kinds of reward (resources, Angel cards,
+1 strength next year, and in 1794 a pair bonus for a type of defeated enemy) but no numbers, so
these are Siegeworks' design. Thresholds depend on the player count, about half the enemies of
the year (2/3/4 players face 2, 3 or 4 times the year's column count).
"""

from __future__ import annotations

import msgspec

from siege.games.castellum.cards import ARTILLERY, CAVALRY, INFANTRY, NOBODY, SAPPERS

SIDES = 4


class RewardSide(msgspec.Struct, frozen=True, kw_only=True):
    resources: tuple[int, int, int] = (0, 0, 0)  # wood, stone, gold
    angels: int = 0
    strength: int = 0  # +strength on each of the receiver's columns next year
    pair_type: int = NOBODY  # 1794: 1 VP per defeated pair of this enemy type


class RewardCard(msgspec.Struct, frozen=True, kw_only=True):
    year: int
    threshold: dict[int, int]  # player count -> joint defeats needed
    sides: tuple[RewardSide, RewardSide, RewardSide, RewardSide]


REWARD_CARDS: tuple[RewardCard, ...] = (
    RewardCard(year=0, threshold={2: 2, 3: 3, 4: 4}, sides=(
        RewardSide(resources=(3, 0, 0)),
        RewardSide(resources=(0, 3, 0)),
        RewardSide(resources=(0, 0, 2)),
        RewardSide(angels=1),
    )),
    RewardCard(year=1, threshold={2: 3, 3: 5, 4: 6}, sides=(
        RewardSide(resources=(2, 1, 0)),
        RewardSide(resources=(0, 2, 1)),
        RewardSide(resources=(0, 0, 1), angels=1),
        RewardSide(strength=1),
    )),
    RewardCard(year=2, threshold={2: 4, 3: 6, 4: 8}, sides=(
        RewardSide(resources=(2, 2, 0)),
        RewardSide(angels=2),
        RewardSide(strength=1),
        RewardSide(resources=(0, 0, 3)),
    )),
    RewardCard(year=3, threshold={2: 5, 3: 8, 4: 10}, sides=(
        RewardSide(pair_type=INFANTRY),
        RewardSide(pair_type=CAVALRY),
        RewardSide(pair_type=ARTILLERY),
        RewardSide(pair_type=SAPPERS),
    )),
)

SEAT_OFFSETS: dict[int, tuple[int, ...]] = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
"""Which side each seat gets, counted clockwise from the chooser's side. Two players sit across
the table from each other; three take three edges in a row (the fourth edge is nobody's)."""


def side_for(players: int, chooser: int, chosen: int, seat: int) -> int:
    """The side ``seat`` receives when ``chooser`` turned side ``chosen`` towards itself."""
    offset = SEAT_OFFSETS[players][(seat - chooser) % players]
    return (chosen + offset) % SIDES
