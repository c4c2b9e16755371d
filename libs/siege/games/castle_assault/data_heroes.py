"""The battlefield side of the Fae and War-Engine heroes (skills in ``heroes.py``); ours."""

from __future__ import annotations

from siege.games.castle_assault.card_model import add


def add_cards() -> None:
    add("Morwen of the Thorned Masque", "hero", "fae", movement=2, attack=2, armor=0, health=6,
        ranged={"low": 1, "high": 3}, text="Action: Ranged Linear (1-3).")
    add("Baron Aldric Gearwright", "hero", "war-engine", movement=1, attack=2, armor=1,
        health=6, build=2, ranged={"low": 2, "high": 4, "battering": True},
        text="Build 2. Action: Ranged Linear (2-4), Battering.")
