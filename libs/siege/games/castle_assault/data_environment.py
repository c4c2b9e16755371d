"""The ten Environment cards after the first twelve (in ``cards.py``): all our design."""

from __future__ import annotations

from siege.games.castle_assault.card_model import environment


def add_cards() -> None:
    environment("Acid Rain", "ongoing", "armor_all", -1, "All units have -1 Armor.")
    environment("Gale", "ongoing", "no_quick", 0, "Quick has no effect.")
    environment("Stout Walls", "ongoing", "home_armor", 1,
                "Units in their own castle area have +1 Armor.")
    environment("Keen Winds", "ongoing", "range_plus", 1,
                "Ranged abilities reach 1 space further.")
    environment("Eclipse", "immediate", "tokens_return", 0,
                "Every Captain token and the Curse token return to the heroes.")
    environment("Windfall", "immediate", "resource_each", 1,
                "Each player puts the top card of their deck face down as a Ready resource.")
    environment("Rusting Mist", "immediate", "rust", 0,
                "Every attachment on the battlefield is discarded.")
    environment("Earthquake", "immediate", "quake", 1,
                "Every unit with 0 Armor takes 1 damage.")
    environment("War Drums", "immediate", "momentum_underdog", 2,
                "The Momentum Meter moves 2 spaces toward the player whose castle has less "
                "Health (none on a tie).")
    environment("Broken Bridge", "field", "rubble_left", 0,
                "Enters the battlefield: rubble fills the free squares of the left lane's two "
                "middle rows and blocks every unit, until another card enters the battlefield.")
