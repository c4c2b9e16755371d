"""The 56 Enemy cards, four year decks: our own design.

Each year brings stronger enemies worth more points. A four-player year deals every card of its
deck (8, 12, 16, 20 = 4 players x 2, 3, 4, 5 columns); with fewer players the rest stay unused.
Two kinds of special rule, as the rulebook describes them:
- ``boost``: every enemy of ``boost_type`` in the same Line (this card included when it is of
  that type) gets ``boost`` more strength;
- ``penalty``: the defender discards one of this resource in combat when the card is not
  defeated (if it has one).
"""

from __future__ import annotations

import msgspec

from siege.games.castellum.cards import (
    ARTILLERY,
    CAVALRY,
    GOLD,
    INFANTRY,
    NOBODY,
    SAPPERS,
    STONE,
    WOOD,
)

YEARS = (1579, 1632, 1673, 1794)


class EnemyCard(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    year: int  # index into YEARS
    name: str
    type: int
    strength: int
    points: int
    boost_type: int = NOBODY
    boost: int = 0
    penalty: int = NOBODY  # a resource


INF, CAV, ART, SAP = INFANTRY, CAVALRY, ARTILLERY, SAPPERS
W, ST, G = WOOD, STONE, GOLD


def _e(name: str, kind: int, strength: int, points: int, *, boost: tuple[int, int] | None = None,
       penalty: int = NOBODY) -> tuple[str, int, int, int, int, int, int]:
    boost_type, amount = boost if boost is not None else (NOBODY, 0)
    return (name, kind, strength, points, boost_type, amount, penalty)


_BY_YEAR = (
    (  # 1579: Parma's Spanish army
        _e("Tercio Pikemen", INF, 2, 1),
        _e("Tercio Pikemen", INF, 3, 1),
        _e("Arquebusiers", INF, 3, 1, penalty=G),
        _e("Walloon Horse", CAV, 3, 1),
        _e("Lancers", CAV, 4, 2),
        _e("Siege Culverin", ART, 4, 2),
        _e("Miners", SAP, 2, 1, penalty=ST),
        _e("Maestre de Campo", INF, 3, 2, boost=(INF, 1)),
    ),
    (  # 1632: the States army
        _e("Musketeers", INF, 3, 1),
        _e("Musketeers", INF, 4, 2),
        _e("Pikemen", INF, 4, 2),
        _e("Cuirassiers", CAV, 4, 2),
        _e("Cuirassiers", CAV, 5, 2),
        _e("Harquebusiers", CAV, 3, 1, penalty=W),
        _e("Demi-cannon", ART, 5, 2),
        _e("Demi-cannon", ART, 6, 3),
        _e("Sappers", SAP, 3, 1, penalty=ST),
        _e("Sappers", SAP, 4, 2, boost=(SAP, 1)),
        _e("Colonel of Horse", CAV, 4, 2, boost=(CAV, 1)),
        _e("Engineer", SAP, 5, 3, penalty=G),
    ),
    (  # 1673: the French royal army
        _e("Gardes Francaises", INF, 5, 2),
        _e("Gardes Francaises", INF, 6, 3),
        _e("Musketeers of the Guard", INF, 6, 3, penalty=G),
        _e("Fusiliers", INF, 4, 2),
        _e("Gendarmes", CAV, 6, 3),
        _e("Dragoons", CAV, 5, 2),
        _e("Dragoons", CAV, 5, 2, penalty=W),
        _e("Light Horse", CAV, 7, 3),
        _e("Siege Battery", ART, 6, 3),
        _e("Siege Battery", ART, 7, 3),
        _e("Mortars", ART, 8, 4, penalty=ST),
        _e("Parallels", SAP, 5, 2, boost=(SAP, 2)),
        _e("Sappers", SAP, 4, 2),
        _e("Mine", SAP, 6, 3, penalty=ST),
        _e("Captain-Lieutenant", INF, 5, 3, boost=(INF, 1)),
        _e("Master of Artillery", ART, 5, 3, boost=(ART, 2)),
    ),
    (  # 1794: the revolutionary army
        _e("Demi-brigade", INF, 6, 3),
        _e("Demi-brigade", INF, 7, 3),
        _e("Volunteers", INF, 5, 2),
        _e("Volunteers", INF, 5, 2, penalty=G),
        _e("Grenadiers", INF, 8, 4),
        _e("Chasseurs", CAV, 6, 3),
        _e("Hussars", CAV, 7, 3, penalty=W),
        _e("Carabiniers", CAV, 8, 4),
        _e("Horse Artillery", ART, 7, 3, boost=(ART, 1)),
        _e("Howitzers", ART, 8, 4),
        _e("Siege Guns", ART, 9, 4, penalty=ST),
        _e("Siege Guns", ART, 10, 5),
        _e("Sappers", SAP, 6, 3),
        _e("Sappers", SAP, 7, 3, penalty=ST),
        _e("Pontonniers", SAP, 5, 2, penalty=W),
        _e("Miners", SAP, 8, 4),
        _e("General of Division", INF, 6, 4, boost=(INF, 2)),
        _e("Cavalry Brigade", CAV, 7, 4, boost=(CAV, 1)),
        _e("Commissioner", INF, 4, 2, penalty=G),
        _e("Engineer-General", SAP, 7, 4, boost=(SAP, 2)),
    ),
)

ENEMY_CARDS: tuple[EnemyCard, ...] = tuple(
    EnemyCard(id=i, year=year, name=name, type=kind, strength=strength, points=points,
              boost_type=boost_type, boost=amount, penalty=penalty)
    for i, (year, (name, kind, strength, points, boost_type, amount, penalty)) in enumerate(
        (year, row) for year, rows in enumerate(_BY_YEAR) for row in rows)
)

ENEMY_DECKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(card.id for card in ENEMY_CARDS if card.year == year) for year in range(len(YEARS))
)

assert [len(deck) for deck in ENEMY_DECKS] == [8, 12, 16, 20]
