"""Pairing for tournaments: pure functions over plain data, deterministic (no randomness).

- :func:`round_robin` (2-player; Berger tables) and :func:`round_robin_tables` (multiplayer).
- :func:`swiss_pairs` (2-player) and :func:`swiss_tables` (multiplayer), from a
  :class:`Standing` per entrant.
- :func:`elimination_bracket` and :func:`next_elimination_round` (2-player, seeded), and
  :func:`top_k_tables` with :func:`top_k_advance` (multiplayer: each table's top k advance).

The implementations live in the ``pairing_*`` modules next to this one.
"""

from __future__ import annotations

from siege.tournament.pairing_common import Standing, plan_tables
from siege.tournament.pairing_elimination import (
    elimination_bracket,
    next_elimination_round,
    top_k_advance,
    top_k_tables,
)
from siege.tournament.pairing_robin import round_robin, round_robin_tables
from siege.tournament.pairing_swiss import swiss_pairs
from siege.tournament.pairing_tables import swiss_tables

__all__ = [
    "Standing",
    "elimination_bracket",
    "next_elimination_round",
    "plan_tables",
    "round_robin",
    "round_robin_tables",
    "swiss_pairs",
    "swiss_tables",
    "top_k_advance",
    "top_k_tables",
]
