"""The Medieval War-Engine: Build, siege engines and the wall (our design, except the Nether
Cannon's Armor 0 and Health 1, from the glossary's Ram entry).

Engineers' Yard, Master Sappers, Bombard Crew and Siege Tower (Example 5's cards) come first,
in ``cards.py``. Siege engines require Build, Cannot Charge and have 0 or 1 Movement.
"""

from __future__ import annotations

from siege.games.castle_assault.card_model import command, unit

M = "war-engine"


def add_cards() -> None:
    unit("Nether Cannon", M, 3, 0, 3, 0, 1,
         "Requires Build 2. 0 Movement. Cannot Charge. Action: Ranged Linear (2-5).",
         needs_build=2, cannot_charge=True, ranged={"low": 2, "high": 5})
    unit("Trebuchet", M, 5, 0, 2, 0, 4,
         "Epic. Requires Build 4. 0 Movement. Cannot Charge. Action: Ranged Linear (4-9), "
         "Blunt Damage.", epic=True, needs_build=4, cannot_charge=True,
         ranged={"low": 4, "high": 9, "blunt": True})
    unit("Catapult", M, 4, 1, 2, 0, 3,
         "Requires Build 2. Cannot Charge. Action: Ranged Linear (3-6), Blunt Damage.",
         needs_build=2, cannot_charge=True, ranged={"low": 3, "high": 6, "blunt": True})
    unit("Ballista", M, 3, 0, 3, 1, 3,
         "Requires Build 2. 0 Movement. Cannot Charge. Action: Ranged Adjacent (2-5).",
         needs_build=2, cannot_charge=True, ranged={"low": 2, "high": 5, "spread": True})
    unit("Battering Ram", M, 3, 1, 3, 2, 5,
         "Requires Build 2. Cannot Charge. Ram. Action: Ranged Linear (1), Battering: it "
         "strikes the gate from the row before it when no opposing unit is in its lane.",
         needs_build=2, cannot_charge=True, ram=True,
         ranged={"low": 1, "high": 1, "battering": True})
    unit("Apprentice Wrights", M, 1, 1, 1, 0, 2, "Build 2.", build=2)
    unit("War Wagon", M, 3, 2, 2, 1, 4, "Build 2. Defense.", build=2, defense=True)
    unit("Crossbowmen", M, 2, 1, 1, 0, 2, "Action: Ranged Linear (1-3).",
         ranged={"low": 1, "high": 3})
    unit("Pikemen", M, 1, 1, 2, 0, 2, "Defense.", defense=True)
    unit("Shieldwall Sergeants", M, 2, 1, 1, 1, 4,
         "Stalwart 1: +1 Armor while it stands in its own castle area.", stalwart=1)
    unit("Armored Knights", M, 4, 2, 3, 2, 4, "Momentum Max: gains +1 Armor.", max_armor=1)
    unit("Mounted Lancers", M, 3, 3, 2, 0, 3, "Haste. Momentum Max: gains +1 Attack.",
         haste=True, max_attack=1)
    unit("Escalade Troop", M, 3, 2, 2, 1, 3,
         "Wallbreaker 2: +2 Attack while engaged with the undefended opposing castle.",
         wallbreaker=2)
    unit("Lord Marshal Edric", M, 5, 1, 3, 2, 6,
         "Lord. Build 2. Aura 2: friendly units gain +1 Attack.", lord=True, build=2,
         aura={"size": 2, "stat": "attack", "amount": 1})
    command("Boiling Oil", M, 2, "instant", "damage_wall", "", 2,
            "Instant: deal 2 damage to every opposing unit in the row in front of your castle "
            "area.")
    command("Reinforce Walls", M, 2, "command", "castle_repair", "player", 2,
            "Your castle regains up to 2 lost Health.")
    command("Supply Wagons", M, 1, "command", "ramp", "player", 1,
            "Put the top card of your deck face down as a Ready resource.")
    command("Forced March", M, 1, "command", "advance", "friendly_unit", 2,
            "A friendly unit moves 2 spaces straight ahead now (not a Charge; it may engage, "
            "with the Smash Bonus if blocked early).")
