"""Resources, unit types and the 52 Line cards (fortifications and troops): our own design.

The rulebook names the decks and the kinds of special rule but prints no card, so every number
here is Siegeworks' design (see the README). Fortifications and troops share one id space,
0-51, because both are bought from one face-up offer into the same columns. Ids 0-3 are the four
identical start fortifications; 4-19 form the fortification deck and 20-51 the troop deck, so
four years of four and eight face-up cards use both decks up exactly.
"""

from __future__ import annotations

from typing import Literal

import msgspec

# Resources are indices into a seat's ``[wood, stone, gold]`` supply.
WOOD, STONE, GOLD = 0, 1, 2
RESOURCES = (WOOD, STONE, GOLD)
RESOURCE_NAMES = ("wood", "stone", "gold")

# Unit types. Troops are infantry, cavalry or artillery; enemies may also be sappers.
INFANTRY, CAVALRY, ARTILLERY, SAPPERS = 0, 1, 2, 3
TROOP_TYPES = (INFANTRY, CAVALRY, ARTILLERY)
ENEMY_TYPES = (INFANTRY, CAVALRY, ARTILLERY, SAPPERS)
TYPE_NAMES = ("infantry", "cavalry", "artillery", "sappers")

NOBODY = -1
STAR_FORTS = 9  # a star rule that scores every fortification in the Line

CardKind = Literal["fort", "troop"]


class LineCard(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    kind: CardKind
    strength: int
    cost: tuple[int, int, int] = (0, 0, 0)  # wood, stone, gold
    troop_type: int = NOBODY  # troops only
    income: tuple[int, int, int, int] = (0, 0, 0, 0)  # wood, stone, gold, angel cards per year
    boost: int = NOBODY  # every troop of this type in the owner's Line gets +1
    star: int = NOBODY  # final scoring: 1 VP per fortification (STAR_FORTS) or troop of a type


Income = tuple[int, int, int, int]
_NO_INCOME: Income = (0, 0, 0, 0)


def _fort(i: int, name: str, strength: int, cost: tuple[int, int, int], *,
          income: Income = _NO_INCOME, boost: int = NOBODY, star: int = NOBODY) -> LineCard:
    return LineCard(id=i, name=name, kind="fort", strength=strength, cost=cost,
                    income=income, boost=boost, star=star)


def _troop(i: int, name: str, kind: int, strength: int, cost: tuple[int, int, int], *,
           income: Income = _NO_INCOME, boost: int = NOBODY, star: int = NOBODY) -> LineCard:
    return LineCard(id=i, name=name, kind="troop", troop_type=kind, strength=strength,
                    cost=cost, income=income, boost=boost, star=star)


INF, CAV, ART = INFANTRY, CAVALRY, ARTILLERY

LINE_CARDS: tuple[LineCard, ...] = (
    # Start fortifications: one per seat, dealt by seat number, never bought.
    *(_fort(i, "City Gate", 2, (0, 0, 0)) for i in range(4)),
    # Fortification deck. Plain walls are cheap in wood and stone; special ones trade strength
    # for a lasting rule.
    _fort(4, "Earthen Rampart", 2, (2, 0, 0)),
    _fort(5, "Earthen Rampart", 2, (1, 1, 0)),
    _fort(6, "Ravelin", 3, (1, 2, 0)),
    _fort(7, "Ravelin", 3, (2, 1, 0)),
    _fort(8, "Bastion", 4, (1, 3, 0)),
    _fort(9, "Bastion", 4, (0, 2, 2)),
    _fort(10, "Hornwork", 3, (0, 2, 1), star=STAR_FORTS),
    _fort(11, "Crownwork", 2, (1, 1, 1), star=STAR_FORTS),
    _fort(12, "Casemate", 2, (0, 2, 0), income=(0, 1, 0, 0)),
    _fort(13, "Timber Wharf", 2, (2, 1, 0), income=(1, 0, 0, 0)),
    _fort(14, "Treasury", 1, (0, 1, 1), income=(0, 0, 1, 0)),
    _fort(15, "Chapel", 1, (0, 1, 1), income=(0, 0, 0, 1)),
    _fort(16, "Guardhouse", 2, (1, 1, 1), boost=INF),
    _fort(17, "Stables", 2, (2, 0, 1), boost=CAV),
    _fort(18, "Powder Tower", 2, (0, 2, 1), boost=ART),
    _fort(19, "Countermine Gallery", 3, (1, 2, 1), star=ART),
    # Troop deck: 14 infantry (cheap, weak), 9 cavalry (gold), 9 artillery (stone and gold).
    *(_troop(i, "Pikemen", INF, 1, (1, 0, 1)) for i in range(20, 24)),
    *(_troop(i, "Musketeers", INF, 2, (1, 0, 2)) for i in range(24, 28)),
    _troop(28, "Sergeant", INF, 1, (0, 0, 2), boost=INF),
    _troop(29, "Civic Guard", INF, 1, (1, 0, 1), income=(0, 0, 1, 0)),
    _troop(30, "Citizen Watch", INF, 2, (1, 1, 1), star=INF),
    _troop(31, "Grenadiers", INF, 3, (1, 0, 3)),
    _troop(32, "Field Chaplain", INF, 1, (0, 0, 2), income=(0, 0, 0, 1)),
    _troop(33, "Miners", INF, 2, (0, 1, 1)),
    *(_troop(i, "Dragoons", CAV, 2, (1, 0, 2)) for i in range(34, 37)),
    *(_troop(i, "Cuirassiers", CAV, 3, (1, 0, 3)) for i in range(37, 39)),
    _troop(39, "Cavalry Captain", CAV, 2, (1, 0, 2), boost=CAV),
    _troop(40, "Hussars", CAV, 2, (2, 0, 1), star=CAV),
    _troop(41, "Foragers", CAV, 1, (0, 0, 2), income=(1, 0, 0, 0)),
    _troop(42, "Lancers", CAV, 3, (0, 1, 3)),
    *(_troop(i, "Field Gun", ART, 3, (0, 2, 1)) for i in range(43, 46)),
    *(_troop(i, "Mortar", ART, 4, (0, 3, 2)) for i in range(46, 48)),
    _troop(48, "Master Gunner", ART, 2, (0, 1, 2), boost=ART),
    _troop(49, "Gun Crew", ART, 2, (0, 2, 1), star=ART),
    _troop(50, "Powder Mill", ART, 1, (0, 2, 0), income=(0, 1, 0, 0)),
    _troop(51, "Bombardier", ART, 3, (1, 2, 1)),
)

START_FORTS = (0, 1, 2, 3)
FORT_DECK = tuple(range(4, 20))
TROOP_DECK = tuple(range(20, 52))
FORTS_PER_YEAR = 4
TROOPS_PER_YEAR = 8

IS_FORT = tuple(card.kind == "fort" for card in LINE_CARDS)

assert [card.id for card in LINE_CARDS] == list(range(52))
assert len(FORT_DECK) == FORTS_PER_YEAR * 4 and len(TROOP_DECK) == TROOPS_PER_YEAR * 4
