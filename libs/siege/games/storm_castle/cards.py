"""The cards Part II needs to exercise its rules (our own design). Power cards keep their ids in
each army's 22-card deck (cards 14-20 here; the rest of every deck is Part III, ``power.py``).

- Spells (Arcanists and Undead Horde, cards 18-20): an attack spell that exhausts, an attack
  spell that fizzles, and a non-attack spell (a ward of +1 armor until the end of the turn).
- Equipment (every army): cards 14 and 15 are two "Iron Helm" (+1 armor; two copies, so the
  different-names rule can bite), card 16 a "Sharpened Blade" (+1 attack). Ladders need no card.
- A remain-in-play card (every army): card 17 "War Drums" (+1 army move on your turns).
- The defenders' magic deck (5 cards, drawn by defender casters when they activate).
- Pushing: the Green Tide's Goblins and Orc Warriors may be pushed for one more space.
"""

from __future__ import annotations

import msgspec

from siege.games.storm_castle.armies import ARCANISTS, KIND_BY_NAME, UNDEAD


class Spell(msgspec.Struct, frozen=True, kw_only=True):
    card: int
    name: str
    cost: int  # magic
    attack: int = 0  # 0: not an attack spell
    range: int = 0  # 0: melee (adjacent); otherwise spaces, like a ranged attack
    fizzle: bool = False  # discarded when cast (otherwise exhausted)
    ward: int = 0  # armor dice added to a friendly unit until the end of the game turn


class Equipment(msgspec.Struct, frozen=True, kw_only=True):
    card: int  # LADDER for ladders
    name: str
    cost: int  # gold
    armor: int = 0
    attack: int = 0


LADDER = 100  # the ladder's "card" in a unit's gear (ladders are bought without a card)
LADDERS_PER_ARMY = 3
GEAR_LIMIT = 2  # equipment per unit, all with different names

_SPELLS = (
    Spell(card=18, name="Arcane Bolt", cost=2, attack=2, range=3),
    Spell(card=19, name="Chain Lightning", cost=3, attack=4, range=2, fizzle=True),
    Spell(card=20, name="Stone Ward", cost=1, ward=1),
)
_UNDEAD_SPELLS = (
    Spell(card=18, name="Grave Bolt", cost=2, attack=2, range=2),
    Spell(card=19, name="Soul Rend", cost=3, attack=4, range=0, fizzle=True),
    Spell(card=20, name="Bone Ward", cost=1, ward=1),
)
SPELLS: dict[int, dict[int, Spell]] = {
    ARCANISTS: {s.card: s for s in _SPELLS},
    UNDEAD: {s.card: s for s in _UNDEAD_SPELLS},
}

EQUIPMENT: dict[int, Equipment] = {
    14: Equipment(card=14, name="Iron Helm", cost=2, armor=1),
    15: Equipment(card=15, name="Iron Helm", cost=2, armor=1),
    16: Equipment(card=16, name="Sharpened Blade", cost=2, attack=1),
    LADDER: Equipment(card=LADDER, name="Ladder", cost=1),
}
WAR_DRUMS = 17  # remain in play: +1 army move on each of its holder's turns
WAR_DRUMS_MOVES = 1

# The defenders' magic deck: ids 0-4 (our design). Defender spells cost nothing.
DEFENDER_SPELLS: tuple[Spell, ...] = (
    Spell(card=0, name="Fireball", cost=0, attack=3, range=2, fizzle=True),
    Spell(card=1, name="Fireball", cost=0, attack=3, range=2, fizzle=True),
    Spell(card=2, name="Lightning Bolt", cost=0, attack=4, range=3, fizzle=True),
    Spell(card=3, name="Holy Smite", cost=0, attack=3, range=0, fizzle=True),
    Spell(card=4, name="Holy Smite", cost=0, attack=3, range=0, fizzle=True),
)
SPELL_DRAWS: dict[int, int] = {KIND_BY_NAME["Battle Mage"]: 1, KIND_BY_NAME["Wizard Lord"]: 2}

PUSHABLE = frozenset({KIND_BY_NAME["Goblin"], KIND_BY_NAME["Orc Warrior"]})
PUSH_MOVES = 1  # one more space than the unit's two
PUSH_ATTACK = 1


def spell_of(army: int, card: int) -> Spell | None:
    return SPELLS.get(army, {}).get(card)


def card_name(army: int, card: int) -> str:
    spell = spell_of(army, card)
    if spell is not None:
        return spell.name
    if card in EQUIPMENT:
        return EQUIPMENT[card].name
    if card == WAR_DRUMS:
        return "War Drums"
    return ""
