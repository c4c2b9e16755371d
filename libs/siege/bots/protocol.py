"""The bot interface and the game-independent random bot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Rng(Protocol):
    """Deterministic randomness for bots (see ``siege.dice.fair.BotRng``)."""

    def randrange(self, n: int) -> int: ...


class Bot(Protocol):
    name: str

    def choose(self, view: Any, legal: Sequence[T], rng: Rng) -> T:
        """Pick one of ``legal`` (never empty) from what the seat's ``view`` shows."""


class RandomBot:
    name = "random"

    def choose(self, view: Any, legal: Sequence[T], rng: Rng) -> T:
        return legal[rng.randrange(len(legal))]
