"""Every card: the four warbands, the neutral commands, the Environment deck, the heroes.

The rulebook prints only a few names and figures (Soot, Drake, Dracomancer, Bronzebeard
Bulwark, Goldguard Garrison, Nether Cannon, ...); every figure it reveals is kept, and everything
else is Siegeworks' own design (``Card.ours``). A card is plain data: the rules read its fields,
never its text, and ``text`` says the same thing in words for people.

Ids are positions in ``CARDS`` and never change: this module adds the first cards (the two
warbands of the first part, Example 5's Build cards, the first Fae, neutral and Environment
cards, two heroes), then the ``data_*`` modules add the rest, always in the same order.
"""

from __future__ import annotations

import msgspec

from siege.games.castle_assault import (
    data_environment,
    data_fae,
    data_heroes,
    data_neutral,
    data_war_engine,
)
from siege.games.castle_assault.card_model import (
    REGISTRY,
    Aura,
    Card,
    Effect,
    EnvEffect,
    EnvKind,
    Kind,
    Ranged,
    Target,
    Timing,
    add,
    command,
    environment,
    unit,
)

__all__ = ["Aura", "Card", "Effect", "EnvEffect", "EnvKind", "Kind", "Ranged", "Target",
           "Timing", "CARDS", "BY_NAME", "ENVIRONMENT_CARDS", "WARBAND_CARDS", "STOCK_NEUTRALS",
           "WARBAND_NAMES", "stock_deck"]

_add, _unit, _command, _environment = add, unit, command, environment

D, W, N = "dragons", "dwarves", "neutral"
AURA_ATTACK = {"size": 2, "stat": "attack", "amount": 1}
AURA_ARMOR = {"size": 2, "stat": "armor", "amount": 1}

# --- Burning Brood Dragons (33 cards in the stock deck's warband part) -----------------------
_unit("Dracomancer", D, 1, 1, 2, 0, 1)
_unit("Drake", D, 2, 4, 1, 0, 3, "Gigantic.", gigantic=True)
_unit("Soot", D, 4, 4, 4, 0, 3, "Quick.", quick=True)
_unit("Brood Wurm", D, 2, 2, 2, 1, 4)
_unit("Dragon Welps", D, 2, 2, 1, 0, 2, "Action: Ranged Linear (1-4).",
      ranged={"low": 1, "high": 4})
_unit("Pyrexia, The Brood Queen", D, 6, 1, 4, 1, 7, "Epic. Lord. Action: Ranged Adjacent (1-6).",
      epic=True, lord=True, ranged={"low": 1, "high": 6, "spread": True})
_unit("Ember Hatchling", D, 1, 3, 1, 0, 1, "Haste.", haste=True)
_unit("Cinderscale Wyvern", D, 3, 3, 3, 0, 3, "Quick. Loses 1 Health at the End of its Turn.",
      quick=True, burns=True)
_unit("Magma Drake", D, 3, 3, 3, 1, 4, "Gigantic. Ram.", gigantic=True, ram=True)
_unit("Flamecaller Adept", D, 3, 1, 2, 0, 2,
      "Action: Burn, Ranged Linear (1-2): hits every unit in range, friend or foe.",
      ranged={"low": 1, "high": 2, "blast": True})
_unit("Wyrmlord Ignaroth", D, 5, 2, 4, 2, 5, "Lord. Aura 4: friendly units gain +1 Attack.",
      lord=True, aura={"size": 4, "stat": "attack", "amount": 1})
_unit("Scaleguard Sentinel", D, 2, 1, 2, 2, 4, "Defense.", defense=True)
_unit("Brood Matron", D, 2, 1, 1, 1, 4, "Aura 2: friendly units gain +1 Armor.",
      aura=AURA_ARMOR)
_unit("Ash Raider", D, 2, 3, 2, 0, 2, "Consume.", consume=True)
_unit("Ashborn Phoenix", D, 3, 2, 2, 0, 2, "Resurrection.", resurrection=True)
_command("Searing Breath", D, 2, "instant", "damage", "enemy_unit", 2,
         "Instant: deal 2 damage to an opposing unit.")
_command("Dragonfire Volley", D, 3, "command", "damage_lane", "lane", 2,
         "Deal 2 damage to every opposing unit in one lane.")
_command("Wings of Fury", D, 1, "instant", "movement", "friendly_unit", 2,
         "Instant: a friendly unit gains +2 Movement this turn.")
_command("Hoard Frenzy", D, 3, "command", "draw", "", 2, "Draw 2 cards.")

# --- Adamantine Anvil Dwarves (34) ------------------------------------------------------------
_unit("Bronzebeard Bulwark", W, 2, 1, 1, 0, 4)
_unit("Ironborne Dwarf", W, 1, 1, 1, 1, 2)
_unit("Forge Master", W, 2, 1, 1, 0, 3, "Aura 2: friendly units gain +1 Armor.",
      aura=AURA_ARMOR)
_unit("Bitterbrew Batterers", W, 2, 2, 2, 0, 3, "Action: Ranged Linear (2-3), Battering.",
      ranged={"low": 2, "high": 3, "battering": True})
_unit("Dwarf Lord Grim'gor", W, 4, 1, 3, 2, 6, "Lord. Momentum Max: gains +2 Attack.",
      lord=True, max_attack=2)
_unit("Magmaton Mortar", W, 3, 1, 2, 0, 3, "Action: Ranged Linear (2-4), Blunt Damage.",
      ranged={"low": 2, "high": 4, "blunt": True})
_unit("Goldguard Garrison", W, 3, 1, 3, 2, 3)
_unit("Stoneshield Wardens", W, 3, 1, 1, 2, 4, "Cannot Charge. Defense.", cannot_charge=True,
      defense=True)
_unit("Deepdelver Miners", W, 1, 2, 1, 0, 2, "Phase.", phase=True)
_unit("Hammerfall Berserkers", W, 3, 3, 3, 0, 3, "Ram.", ram=True)
_unit("Runepriest of the Anvil", W, 2, 1, 1, 0, 2,
      "Aura 2: friendly units gain +1 Attack. Resurrection.", aura=AURA_ATTACK, resurrection=True)
_unit("Thunderbrew Cannoneers", W, 4, 1, 2, 1, 3, "Action: Ranged Adjacent (1-3).",
      ranged={"low": 1, "high": 3, "spread": True})
_unit("Ironclad Juggernaut", W, 6, 2, 5, 2, 6, "Epic. Gigantic.", epic=True, gigantic=True)
_unit("Oathsworn Shieldbearers", W, 2, 0, 1, 0, 4, "0 Movement: holds its ground.")
_command("Forge Hammer", W, 2, "attachment", "attack", "friendly_unit", 2,
         "Attachment: the unit gains +2 Attack.")
_command("Runic Plate", W, 2, "attachment", "armor", "friendly_unit", 1,
         "Attachment: the unit gains +1 Armor.")
_command("Hold the Line", W, 1, "instant", "armor", "friendly_unit", 2,
         "Instant: a friendly unit gains +2 Armor this turn.")
_command("Mountain's Wrath", W, 3, "command", "damage", "enemy_unit", 3,
         "Deal 3 damage to an opposing unit.")

# --- Medieval War-Engine: the Build cards of Example 5 (the rest of the warband comes later) --
M = "war-engine"
_unit("Engineers' Yard", M, 2, 0, 0, 1, 4, "Build 6.", build=6)
_unit("Master Sappers", M, 2, 1, 1, 0, 2, "Build 4.", build=4)
_unit("Bombard Crew", M, 3, 1, 3, 0, 3, "Requires Build 4.", needs_build=4)
_unit("Siege Tower", M, 3, 1, 2, 2, 4, "Requires Build 4.", needs_build=4)

# --- Grim Harlequinn Fae: two cards with different backs (the rest of the warband comes later)
F = "fae"
_unit("Masked Reveller", F, 1, 2, 2, 0, 2, "A different card back.", marked_back=True)
_command("Veil of Masks", F, 1, "instant", "armor", "friendly_unit", 1,
         "Instant: a friendly unit gains +1 Armor this turn. A different card back.",
         marked_back=True)

# --- Neutral commands (the ones this part of the game uses) ----------------------------------
_command("Shift", N, 1, "command", "lateral", "friendly_unit", 2,
         "Move a friendly unit 1 or 2 spaces sideways into a free square of another lane.")
_command("Ranged Blessing", N, 2, "attachment", "grant_ranged", "friendly_unit", 0,
         "Attachment: the unit gains the Action Ranged Linear (2-3).",
         grant={"low": 2, "high": 3})
_command("Flight", N, 1, "attachment", "grant_quick", "friendly_unit", 0,
         "Attachment: the unit gains Quick. Cannot Stack: not on a unit that has Quick.",
         cannot_stack=True)

# --- Environment cards (Immediate, Ongoing, and one that enters the battlefield) -------------
_environment("Local Support", "immediate", "regain_lowest", 2,
             "The player whose castle has the lowest Health regains 2 lost Health (none on a "
             "tie).")
_environment("Blistering Cold", "ongoing", "attack_all", -2, "All units have -2 Attack.")
_environment("Tailwind", "ongoing", "movement_all", 1, "All units have +1 Movement.")
_environment("Deep Mud", "ongoing", "movement_all", -1, "All units have -1 Movement.")
_environment("Supply Caravan", "immediate", "draw_each", 1, "Each player draws a card.")
_environment("Thunderstorm", "immediate", "damage_middle", 1,
             "Every unit in the two middle rows of the battlefield takes 1 damage.")
_environment("Meteor Shower", "immediate", "damage_castles", 1, "Each castle loses 1 Health.")
_environment("Fallen Colossus", "field", "rubble", 0,
             "Enters the battlefield: rubble fills the free squares of the centre lane's two "
             "middle rows and blocks every unit, until another card enters the battlefield.")
_environment("Battle Fervor", "ongoing", "smash_plus", 1, "The Smash Bonus is +2 Attack.")
_environment("Fog of War", "ongoing", "range_minus", 2,
             "Ranged abilities reach 2 spaces less far.")
_environment("Harvest Moon", "immediate", "momentum_reset", 0,
             "The Momentum Meter returns to START.")
_environment("Wildfire", "immediate", "damage_castle_areas", 1,
             "Every unit in a castle area takes 1 damage.")

# --- Heroes: the battlefield side of each hero card (skills are in ``heroes.py``) -----------
_add("Vyrax, the Ashen Tyrant", "hero", D, movement=2, attack=2, armor=0, health=6,
     ranged={"low": 1, "high": 2, "spread": True}, text="Action: Ranged Adjacent (1-2).")
_add("Oren Iron-Veins", "hero", W, movement=1, attack=2, armor=1, health=6,
     ranged={"low": 1, "high": 2, "blunt": True},
     text="Action: Ranged Linear (1-2), Blunt Damage: he hurls his hammer.")

for _more in (data_fae, data_war_engine, data_neutral, data_environment, data_heroes):
    _more.add_cards()

# Cards the rulebook names (its figures are kept; the rest of each card is ours).
RULEBOOK_NAMES = frozenset({
    "Dracomancer", "Drake", "Soot", "Brood Wurm", "Dragon Welps", "Pyrexia, The Brood Queen",
    "Bronzebeard Bulwark", "Ironborne Dwarf", "Forge Master", "Bitterbrew Batterers",
    "Dwarf Lord Grim'gor", "Magmaton Mortar", "Goldguard Garrison", "Nether Cannon",
    "Shift", "Ranged Blessing", "Flight", "Local Support", "Blistering Cold", "Oren Iron-Veins",
})
CARDS: tuple[Card, ...] = tuple(
    msgspec.structs.replace(c, ours=False) if c.name in RULEBOOK_NAMES else c for c in REGISTRY)
BY_NAME: dict[str, Card] = {card.name: card for card in CARDS}
assert len(BY_NAME) == len(CARDS), "card names are unique"
ENVIRONMENT_CARDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind == "environment")

WARBAND_NAMES = {"dragons": "Burning Brood Dragons", "dwarves": "Adamantine Anvil Dwarves",
                 "fae": "Grim Harlequinn Fae", "war-engine": "Medieval War-Engine"}

# The warband part of each stock deck: (name, copies). Counts as printed in the component list.
WARBAND_CARDS: dict[str, tuple[tuple[str, int], ...]] = {
    "dragons": (
        ("Dracomancer", 2), ("Drake", 2), ("Soot", 2), ("Brood Wurm", 2), ("Dragon Welps", 2),
        ("Pyrexia, The Brood Queen", 1), ("Ember Hatchling", 2), ("Cinderscale Wyvern", 2),
        ("Magma Drake", 2), ("Flamecaller Adept", 2), ("Wyrmlord Ignaroth", 1),
        ("Scaleguard Sentinel", 2), ("Brood Matron", 1), ("Ashborn Phoenix", 1),
        ("Ash Raider", 2),
        ("Searing Breath", 2), ("Dragonfire Volley", 2), ("Wings of Fury", 2),
        ("Hoard Frenzy", 1),
    ),
    "dwarves": (
        ("Bronzebeard Bulwark", 2), ("Ironborne Dwarf", 2), ("Forge Master", 2),
        ("Bitterbrew Batterers", 2), ("Dwarf Lord Grim'gor", 1), ("Magmaton Mortar", 2),
        ("Goldguard Garrison", 2), ("Stoneshield Wardens", 2), ("Deepdelver Miners", 2),
        ("Hammerfall Berserkers", 2), ("Runepriest of the Anvil", 2),
        ("Thunderbrew Cannoneers", 2), ("Ironclad Juggernaut", 1),
        ("Oathsworn Shieldbearers", 2), ("Forge Hammer", 2), ("Runic Plate", 2),
        ("Hold the Line", 2), ("Mountain's Wrath", 2),
    ),
    "fae": (
        ("Masked Reveller", 2), ("Thornling Sprite", 2), ("Grim Jester", 2), ("Hexweaver", 2),
        ("Bramble Knight", 2), ("Will-o'-Wisp", 2), ("Pixie Archers", 2), ("Moonlit Dryad", 2),
        ("Changeling", 1), ("Harlequinn Duelist", 2), ("Vaelith, the Masque Lord", 1),
        ("Nightmare Steed", 2), ("Keening Banshee", 1),
        ("Veil of Masks", 2), ("Mirror Step", 1), ("Mischief", 1), ("Vanish", 2),
        ("Wither", 2), ("Hex Bolt", 2), ("Evil Eye", 1),
    ),
    "war-engine": (
        ("Engineers' Yard", 2), ("Master Sappers", 2), ("Bombard Crew", 2), ("Siege Tower", 2),
        ("Nether Cannon", 2), ("Trebuchet", 1), ("Catapult", 2), ("Ballista", 2),
        ("Battering Ram", 2), ("Apprentice Wrights", 2), ("War Wagon", 1), ("Crossbowmen", 1),
        ("Pikemen", 2), ("Shieldwall Sergeants", 1), ("Armored Knights", 2),
        ("Mounted Lancers", 2), ("Escalade Troop", 1), ("Lord Marshal Edric", 1),
        ("Boiling Oil", 1), ("Reinforce Walls", 1), ("Supply Wagons", 1), ("Forced March", 1),
    ),
}
# Neutral commands each stock deck adds (our design; the walkthrough's Dragon deck holds one).
# Together they hold every neutral command.
STOCK_NEUTRALS: dict[str, tuple[tuple[str, int], ...]] = {
    "dragons": (("Shift", 2), ("Ranged Blessing", 1), ("Flight", 1), ("Battle Cry", 1),
                ("Sabotage the Gate", 1), ("Rallying Horn", 1)),
    "dwarves": (("Shift", 1), ("Ranged Blessing", 1), ("Shield Wall", 1), ("Repel", 1),
                ("Cut Supply Lines", 1), ("Raise the Fallen", 1)),
    "fae": (("Retreat", 1), ("Ambush", 1), ("Purify", 1), ("Battle Trance", 1),
            ("Swift Boots", 1), ("Dark Pact", 1)),
    "war-engine": (("Knight's Panoply", 1), ("Assassin's Blade", 1), ("Cataclysm", 1),
                   ("Calm Skies", 1), ("Hidden Cache", 1), ("Shift", 1)),
}


def stock_deck(warband: str) -> list[int]:
    """Card ids of the warband's stock deck, in list order (a seat's card instances)."""
    deck: list[int] = []
    for name, copies in WARBAND_CARDS[warband] + STOCK_NEUTRALS[warband]:
        deck += [BY_NAME[name].id] * copies
    return deck
