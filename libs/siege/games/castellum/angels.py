"""The 28 Angel cards: our own design.

The rulebook lists the six special effects and says each card shows a strength, but prints no
card, so the mix below is Siegeworks' design (see the README). Every card carries one strength
(used when it is placed below a column) and one special effect; the stronger the effect, the
lower the card's strength tends to be.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Effect = Literal["boost", "switch", "take", "destroy", "resources", "cancel"]
EFFECTS: tuple[Effect, ...] = ("boost", "switch", "take", "destroy", "resources", "cancel")

ANYTIME_EFFECTS: frozenset[Effect] = frozenset({"resources", "cancel"})
"""Usable outside the Angel phase too (``resources`` on the owner's Building turns, ``cancel``
in every response window)."""

HAND_LIMIT = 3
ENEMY_BOOST = 2  # the ``boost`` effect's extra enemy strength
DESTROY_COST_STONE = 1  # the ``destroy`` effect's price
EFFECT_RESOURCES = 2  # what the ``resources`` effect gives


class AngelCard(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    strength: int
    effect: Effect


_STRENGTHS: dict[Effect, tuple[int, ...]] = {
    "boost": (1, 1, 2, 2, 3),
    "switch": (1, 2, 2, 3),
    "take": (1, 1, 2, 3),
    "destroy": (1, 1, 2, 2, 3),
    "resources": (1, 2, 2, 3, 3),
    "cancel": (1, 1, 2, 2, 3),
}

ANGEL_CARDS: tuple[AngelCard, ...] = tuple(
    AngelCard(id=i, strength=strength, effect=effect)
    for i, (effect, strength) in enumerate(
        (effect, strength) for effect in EFFECTS for strength in _STRENGTHS[effect])
)
ANGEL_DECK = tuple(card.id for card in ANGEL_CARDS)

assert len(ANGEL_CARDS) == 28
