"""Final scoring, after 1794. Equal totals share their place (no tie-break)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.games.castellum.cards import IS_FORT, LINE_CARDS, NOBODY, STAR_FORTS
from siege.games.castellum.enemies import ENEMY_CARDS
from siege.games.castellum.state import State

RESOURCES_PER_POINT = 3


class Score(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's points by source under the final scoring rules; ranks follow ``total``, and
    equal totals share a place (no tie-break)."""

    enemies: Annotated[int, msgspec.Meta(description=(
        "Sum of the `points` of the seat's defeated enemy cards (destroyed ones included)."))]
    resources: Annotated[int, msgspec.Meta(description=(
        "One point per `constants.resources_per_point` (3) resources left, all kinds counted "
        "together; a remainder scores nothing."))]
    stars: Annotated[int, msgspec.Meta(description=(
        "Points of the star rules of the Line's cards: each star card scores one per card of "
        "its kind in the Line (all fortifications, or troops of one type), itself included."))]
    pairs: Annotated[int, msgspec.Meta(description=(
        "The 1794 reward: one point per two defeated enemy cards of the seat's `pair_type`; 0 "
        "without that reward."))]
    total: Annotated[int, msgspec.Meta(description=(
        "enemies + resources + stars + pairs."))]


def line_cards(state: State, seat: int) -> list[int]:
    return [card for column in state.lines[seat]
            for card in (column.fort, *column.troops) if card != NOBODY]


def star_points(cards: list[int]) -> int:
    """Each star card scores one per card of its kind in the Line, itself included."""
    points = 0
    for card in cards:
        star = LINE_CARDS[card].star
        if star == STAR_FORTS:
            points += sum(1 for other in cards if IS_FORT[other])
        elif star != NOBODY:
            points += sum(1 for other in cards
                          if not IS_FORT[other] and LINE_CARDS[other].troop_type == star)
    return points


def score(state: State, seat: int) -> Score:
    defeated = state.defeated[seat]
    enemies = sum(ENEMY_CARDS[card].points for card in defeated)
    resources = sum(state.resources[seat]) // RESOURCES_PER_POINT
    stars = star_points(line_cards(state, seat))
    kind = state.pair_type[seat]
    pairs = 0 if kind == NOBODY else sum(
        1 for card in defeated if ENEMY_CARDS[card].type == kind) // 2
    return Score(enemies=enemies, resources=resources, stars=stars, pairs=pairs,
                 total=enemies + resources + stars + pairs)
