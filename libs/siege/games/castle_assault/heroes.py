"""The heroes: each seat's hero card, off the battlefield, and its Captain and Curse skills.

The rulebook names one hero (Oren Iron-Veins) and describes the Dragon hero's Captain skill in
the walkthrough; the Dragon hero's name, the Dwarf hero's skills, every Curse and the Fae and
War-Engine heroes are our design.
"""

from __future__ import annotations

import msgspec


class Hero(msgspec.Struct, frozen=True, kw_only=True):
    name: str  # also the name of its battlefield card in ``cards.CARDS``
    warband: str
    captain_text: str
    curse_text: str
    # Captain skill: on a Charge the Captain moves ``charge_movement`` further and, on a Charge
    # roll of ``charge_roll`` or more, gains ``charge_attack``; ``armor`` always.
    charge_movement: int = 0
    charge_roll: int = 7
    charge_attack: int = 0
    armor: int = 0
    attack: int = 0  # always, not only on a Charge
    # Curse skill: the cursed unit's changed Attack, Movement and Armor.
    curse_attack: int = 0
    curse_movement: int = 0
    curse_armor: int = 0


HEROES: dict[str, Hero] = {
    "dragons": Hero(
        name="Vyrax, the Ashen Tyrant", warband="dragons",
        captain_text="Captain: on a Charge, +1 Movement, and +2 Attack on a Charge roll of 5+.",
        curse_text="Curse: the cursed unit has -2 Attack.",
        charge_movement=1, charge_roll=5, charge_attack=2, curse_attack=-2),
    "dwarves": Hero(
        name="Oren Iron-Veins", warband="dwarves",
        captain_text="Captain: +1 Armor.",
        curse_text="Curse: the cursed unit has -1 Movement.",
        armor=1, curse_movement=-1),
    "fae": Hero(
        name="Morwen of the Thorned Masque", warband="fae",
        captain_text="Captain: +1 Attack.",
        curse_text="Curse: the cursed unit has -1 Attack and -1 Armor.",
        attack=1, curse_attack=-1, curse_armor=-1),
    "war-engine": Hero(
        name="Baron Aldric Gearwright", warband="war-engine",
        captain_text="Captain: +1 Armor, and +1 Attack on a Charge roll of 4+.",
        curse_text="Curse: the cursed unit has -2 Movement.",
        armor=1, charge_roll=4, charge_attack=1, curse_movement=-2),
}
