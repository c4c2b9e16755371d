"""The four Dark Force armies and the Fantasy Defenders as data (our own design: the rulebook
prints no rosters or unit stats).

Each army has 13 unit tokens (5 + 4 + 3 of three kinds and its champion) and a battlefield
upgrade; the defenders have 22 unit tokens plus the four peasants of the battlefield locations.
``attack`` is the dice rolled (the Burst die, plus a Battle die per point above 1), ``health``
the damage that destroys, ``range`` 0 for melee units, ``armor`` Battle dice rolled to cancel
damage.
"""

from __future__ import annotations

import msgspec

ARMY_NAMES = ("Arcanists", "Dark Elves", "The Green Tide", "Undead Horde")
ARCANISTS, DARK_ELVES, GREEN_TIDE, UNDEAD = range(4)
DEFENDERS = 4  # the "army" of the Fantasy Defender unit kinds
PEASANTS = 5
HEROES = 6
UNITS_PER_ARMY = 13
START_GOLD = 5
START_MAGIC = 3  # Arcanists and Undead Horde only
MAGIC_ARMIES = frozenset({ARCANISTS, UNDEAD})


class UnitKind(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    army: int
    name: str
    cost: int
    attack: int
    health: int
    range: int = 0
    first_strike: bool = False
    caster: bool = False
    armor: int = 0
    tokens: int = 1
    champion: bool = False

    @property
    def ranged(self) -> bool:
        return self.range > 0


class Upgrade(msgspec.Struct, frozen=True, kw_only=True):
    army: int
    name: str
    cost: int
    health: int


_ROSTER: list[tuple[int, str, int, int, int, int, bool, bool, int, int, bool]] = [
    # army, name, cost, attack, health, range, first strike, caster, armor, tokens, champion
    (ARCANISTS, "Apprentice", 1, 1, 1, 2, False, True, 0, 5, False),
    (ARCANISTS, "Clay Golem", 2, 2, 3, 0, False, False, 0, 4, False),
    (ARCANISTS, "Battle Magus", 3, 2, 2, 3, False, True, 0, 3, False),
    (ARCANISTS, "Archmage Valdris", 5, 3, 3, 3, False, True, 1, 1, True),
    (DARK_ELVES, "Shadow Blade", 1, 1, 1, 0, True, False, 0, 5, False),
    (DARK_ELVES, "Crossbow Sister", 2, 2, 1, 3, False, False, 0, 4, False),
    (DARK_ELVES, "Blade Dancer", 3, 3, 2, 0, True, False, 0, 3, False),
    (DARK_ELVES, "Queen Nyxara", 5, 3, 4, 0, True, False, 1, 1, True),
    (GREEN_TIDE, "Goblin", 1, 1, 2, 0, False, False, 0, 5, False),
    (GREEN_TIDE, "Orc Warrior", 2, 2, 3, 0, False, False, 0, 4, False),
    (GREEN_TIDE, "Troll", 3, 3, 4, 0, False, False, 0, 3, False),
    (GREEN_TIDE, "Warboss Grukk", 5, 4, 4, 0, False, False, 1, 1, True),
    (UNDEAD, "Skeleton", 1, 1, 1, 0, False, False, 0, 5, False),
    (UNDEAD, "Ghoul", 2, 2, 2, 0, True, False, 0, 4, False),
    (UNDEAD, "Bone Archer", 3, 2, 2, 3, False, False, 0, 3, False),
    (UNDEAD, "Lich Morvane", 5, 3, 3, 2, False, True, 1, 1, True),
    (DEFENDERS, "Halfling Slinger", 0, 1, 1, 2, False, False, 0, 6, False),
    (DEFENDERS, "Dwarven Piker", 0, 2, 2, 0, True, False, 0, 4, False),
    (DEFENDERS, "Musketman", 0, 2, 1, 3, False, False, 0, 4, False),
    (DEFENDERS, "Knight", 0, 2, 3, 0, False, False, 1, 5, False),
    (DEFENDERS, "Battle Mage", 0, 2, 2, 2, False, True, 0, 2, False),
    (DEFENDERS, "Wizard Lord", 0, 3, 3, 3, False, True, 1, 1, False),
    (PEASANTS, "Peasant", 0, 1, 1, 0, False, False, 0, 4, False),
    (HEROES, "Sir Aldric the Bold", 0, 4, 4, 0, True, False, 1, 1, False),
    (HEROES, "Lady Elowen", 0, 3, 3, 3, False, False, 1, 1, False),
]

UNIT_KINDS: tuple[UnitKind, ...] = tuple(
    UnitKind(id=i, army=army, name=name, cost=cost, attack=attack, health=health, range=rng,
             first_strike=first, caster=caster, armor=armor, tokens=tokens, champion=champ)
    for i, (army, name, cost, attack, health, rng, first, caster, armor, tokens, champ)
    in enumerate(_ROSTER)
)
KIND_BY_NAME = {kind.name: kind.id for kind in UNIT_KINDS}
ARMY_KINDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k.id for k in UNIT_KINDS if k.army == army) for army in range(4))
BUYABLE_KINDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in kinds if not UNIT_KINDS[k].champion) for kinds in ARMY_KINDS)
CHAMPION: tuple[int, ...] = tuple(
    next(k for k in kinds if UNIT_KINDS[k].champion) for kinds in ARMY_KINDS)
PEASANT = KIND_BY_NAME["Peasant"]
HERO_KINDS: tuple[int, ...] = tuple(k.id for k in UNIT_KINDS if k.army == HEROES)
PIKER = KIND_BY_NAME["Dwarven Piker"]
MUSKETMAN = KIND_BY_NAME["Musketman"]

UPGRADES: tuple[Upgrade, ...] = (
    Upgrade(army=ARCANISTS, name="Arcane Spire", cost=3, health=3),
    Upgrade(army=DARK_ELVES, name="Shadow Shrine", cost=3, health=3),
    Upgrade(army=GREEN_TIDE, name="War Totem", cost=3, health=3),
    Upgrade(army=UNDEAD, name="Bone Pit", cost=3, health=3),
)

# The 22 defender tokens in id order: a token's kind is DEFENDER_TOKENS[token].
DEFENDER_TOKENS: tuple[int, ...] = tuple(
    k.id for k in UNIT_KINDS if k.army == DEFENDERS for _ in range(k.tokens))
# Introductory game: 2 musketmen and 2 dwarven pikers start on the towers (tower order of
# ``board.TOWERS``), taken out of the draw.
INTRO_TOWER_KINDS: tuple[int, ...] = (MUSKETMAN, PIKER, MUSKETMAN, PIKER)


def intro_tokens() -> tuple[int, ...]:
    """The defender tokens set on the towers in the introductory game, in tower order."""
    used: list[int] = []
    for kind in INTRO_TOWER_KINDS:
        used.append(next(t for t, k in enumerate(DEFENDER_TOKENS)
                         if k == kind and t not in used))
    return tuple(used)


INTRO_TOKENS = intro_tokens()


def generates_magic(army: int, kind: int) -> int:
    """Magic a unit in play (not flipped) makes at Collect: Arcanist casters and every Undead
    unit make 1."""
    if army == ARCANISTS:
        return 1 if UNIT_KINDS[kind].caster else 0
    return 1 if army == UNDEAD else 0
