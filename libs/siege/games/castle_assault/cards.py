"""Every card of the two warbands in this game, the neutral commands and the Environment deck.

The rulebook prints only a few names and figures (see the README: Soot, Drake, Dracomancer,
Bronzebeard Bulwark, Goldguard Garrison, ...); every figure it reveals is kept, and everything
else is Siegeworks' own design. A card is plain data: the rules read its fields, never its text,
and ``text`` says the same thing in words for people.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Kind = Literal["unit", "command", "environment", "hero"]
Timing = Literal["", "command", "instant", "attachment"]
Effect = Literal["", "damage", "damage_lane", "lateral", "movement", "armor", "attack", "draw",
                 "grant_ranged", "grant_quick"]
Target = Literal["", "enemy_unit", "friendly_unit", "lane"]
EnvKind = Literal["", "immediate", "ongoing", "field"]
EnvEffect = Literal["", "regain_lowest", "attack_all", "movement_all", "draw_each",
                    "damage_middle", "damage_castles", "rubble", "smash_plus", "range_minus",
                    "momentum_reset", "damage_castle_areas"]


class Aura(msgspec.Struct, frozen=True, kw_only=True):
    size: int  # squares covered (half in front, half behind)
    stat: Literal["attack", "armor"]
    amount: int


class Ranged(msgspec.Struct, frozen=True, kw_only=True):
    low: int
    high: int
    spread: bool = False  # Ranged Adjacent: neighbouring lanes too
    blast: bool = False  # hits every unit in range, friends included
    battering: bool = False  # may shoot the castle when no opposing unit stands in the lane
    blunt: bool = False  # may shoot the castle; a defender in the lane takes the shot instead


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    kind: Kind
    warband: str  # "dragons", "dwarves" or "neutral"
    cost: int = 0
    text: str = ""
    # Units.
    movement: int = 0
    attack: int = 0
    armor: int = 0
    health: int = 0
    quick: bool = False
    gigantic: bool = False
    lord: bool = False
    epic: bool = False
    aura: Aura | None = None
    ranged: Ranged | None = None  # a blue ability: shoot as a Unit Action
    build: int = 0  # Build this unit grants while in play
    needs_build: int = 0  # Build that must be available to play it (and that it then uses)
    max_attack: int = 0  # extra Attack while its side holds Momentum Max
    haste: bool = False  # may take a Unit Action the turn it enters
    defense: bool = False  # attackers get no Smash or Momentum Bonus against it
    cannot_charge: bool = False
    phase: bool = False  # passes through friendly units while moving
    ram: bool = False  # damage beyond a destroyed castle defender's Health hits the castle
    consume: bool = False  # destroying the unit it engaged, it carries on
    resurrection: bool = False  # comes back once when first destroyed
    burns: bool = False  # loses 1 Health at the end of each of its owner's turns
    marked_back: bool = False  # a different card back: anyone can tell it face down
    # Commands.
    timing: Timing = ""
    effect: Effect = ""
    target: Target = ""
    amount: int = 0
    grant: Ranged | None = None  # the ability an attachment gives (Ranged Blessing)
    cannot_stack: bool = False  # may not go on a unit that already has Quick
    # Environment cards.
    env: EnvKind = ""
    env_effect: EnvEffect = ""


_cards: list[Card] = []


def _add(name: str, kind: Kind, warband: str, **fields: object) -> None:
    _cards.append(msgspec.convert({"id": len(_cards), "name": name, "kind": kind,
                                   "warband": warband, **fields}, Card))


def _unit(name: str, warband: str, cost: int, move: int, attack: int, armor: int, health: int,
          text: str = "", **keywords: object) -> None:
    _add(name, "unit", warband, cost=cost, movement=move, attack=attack, armor=armor,
         health=health, text=text, **keywords)


def _command(name: str, warband: str, cost: int, timing: Timing, effect: Effect, target: Target,
             amount: int, text: str, **more: object) -> None:
    _add(name, "command", warband, cost=cost, timing=timing, effect=effect, target=target,
         amount=amount, text=text, **more)


def _environment(name: str, env: EnvKind, effect: EnvEffect, amount: int, text: str) -> None:
    _add(name, "environment", "neutral", env=env, env_effect=effect, amount=amount, text=text)


D, W, N = "dragons", "dwarves", "neutral"
AURA_ATTACK = {"size": 2, "stat": "attack", "amount": 1}
AURA_ARMOR = {"size": 2, "stat": "armor", "amount": 1}

# --- Burning Brood Dragons (33 cards in the stock deck's warband part) -----------------------
_unit("Dracomancer", D, 1, 1, 2, 0, 1)
_unit("Drake", D, 2, 4, 1, 0, 2, "Gigantic.", gigantic=True)
_unit("Soot", D, 4, 4, 4, 0, 3, "Quick.", quick=True)
_unit("Brood Wurm", D, 2, 2, 2, 1, 3)
_unit("Dragon Welps", D, 2, 2, 1, 0, 2, "Action: Ranged Linear (1-4).",
      ranged={"low": 1, "high": 4})
_unit("Pyrexia, The Brood Queen", D, 6, 1, 4, 1, 7, "Epic. Lord. Action: Ranged Adjacent (1-6).",
      epic=True, lord=True, ranged={"low": 1, "high": 6, "spread": True})
_unit("Ember Hatchling", D, 1, 3, 1, 0, 1, "Haste.", haste=True)
_unit("Cinderscale Wyvern", D, 3, 3, 3, 0, 3, "Quick. Loses 1 Health at the End of its Turn.",
      quick=True, burns=True)
_unit("Magma Drake", D, 4, 3, 3, 1, 4, "Gigantic. Ram.", gigantic=True, ram=True)
_unit("Flamecaller Adept", D, 3, 1, 2, 0, 2,
      "Action: Burn, Ranged Linear (1-2): hits every unit in range, friend or foe.",
      ranged={"low": 1, "high": 2, "blast": True})
_unit("Wyrmlord Ignaroth", D, 5, 2, 4, 2, 5, "Lord. Aura 4: friendly units gain +1 Attack.",
      lord=True, aura={"size": 4, "stat": "attack", "amount": 1})
_unit("Scaleguard Sentinel", D, 2, 1, 1, 2, 3, "Defense.", defense=True)
_unit("Brood Matron", D, 3, 1, 1, 1, 4, "Aura 2: friendly units gain +1 Armor.",
      aura=AURA_ARMOR)
_unit("Ash Raider", D, 2, 3, 2, 0, 2, "Consume.", consume=True)
_unit("Ashborn Phoenix", D, 3, 2, 2, 0, 2, "Resurrection.", resurrection=True)
_command("Searing Breath", D, 2, "instant", "damage", "enemy_unit", 2,
         "Instant: deal 2 damage to an opposing unit.")
_command("Dragonfire Volley", D, 4, "command", "damage_lane", "lane", 1,
         "Deal 1 damage to every opposing unit in one lane.")
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
_unit("Stoneshield Wardens", W, 3, 1, 1, 3, 4, "Cannot Charge. Defense.", cannot_charge=True,
      defense=True)
_unit("Deepdelver Miners", W, 1, 2, 1, 0, 2, "Phase.", phase=True)
_unit("Hammerfall Berserkers", W, 3, 3, 3, 0, 3, "Ram.", ram=True)
_unit("Runepriest of the Anvil", W, 2, 1, 1, 0, 2,
      "Aura 2: friendly units gain +1 Attack. Resurrection.", aura=AURA_ATTACK, resurrection=True)
_unit("Thunderbrew Cannoneers", W, 4, 1, 2, 1, 3, "Action: Ranged Adjacent (1-3).",
      ranged={"low": 1, "high": 3, "spread": True})
_unit("Ironclad Juggernaut", W, 6, 2, 5, 2, 6, "Epic. Gigantic.", epic=True, gigantic=True)
_unit("Oathsworn Shieldbearers", W, 2, 0, 1, 1, 3, "0 Movement: holds its ground.")
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
_unit("Masked Reveller", F, 1, 2, 1, 0, 2, "A different card back.", marked_back=True)
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
_add("Vyrax, the Ashen Tyrant", "hero", D, movement=2, attack=2, armor=0, health=5,
     ranged={"low": 1, "high": 2, "spread": True}, text="Action: Ranged Adjacent (1-2).")
_add("Oren Iron-Veins", "hero", W, movement=1, attack=2, armor=1, health=6,
     ranged={"low": 1, "high": 2, "blunt": True},
     text="Action: Ranged Linear (1-2), Blunt Damage: he hurls his hammer.")

CARDS: tuple[Card, ...] = tuple(_cards)
BY_NAME: dict[str, Card] = {card.name: card for card in CARDS}
assert len(BY_NAME) == len(CARDS), "card names are unique"
ENVIRONMENT_CARDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind == "environment")

WARBAND_NAMES = {"dragons": "Burning Brood Dragons", "dwarves": "Adamantine Anvil Dwarves"}

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
}
# Neutral commands each stock deck adds (our design; the walkthrough's Dragon deck holds one).
STOCK_NEUTRALS: dict[str, tuple[tuple[str, int], ...]] = {
    "dragons": (("Shift", 2), ("Ranged Blessing", 1), ("Flight", 1)),
    "dwarves": (("Shift", 1), ("Ranged Blessing", 1)),
}


def stock_deck(warband: str) -> list[int]:
    """Card ids of the warband's stock deck, in list order (a seat's card instances)."""
    deck: list[int] = []
    for name, copies in WARBAND_CARDS[warband] + STOCK_NEUTRALS[warband]:
        deck += [BY_NAME[name].id] * copies
    return deck
