"""The player cards: our own design, kept as data (the excerpt prints no card at all).

Both players play the same 18-card deck. A player's cards are numbered 0..17 by their position in
:data:`DECKLIST` (the two players' card 3 are different physical cards, told apart by owner).
Rules modules look a card's printed values up through :data:`SPEED`, :data:`STRENGTH` and
:data:`TYPE`, so a balance change is a one-line edit here.

Kinds:
- ``maneuver``: deployed into play unswerved; swerved in close combat for its speed, or stashed
  at a mission for its speed. Its text applies only while it is in play (never once stashed).
- ``unit``: deployed at one of the two missions; fights in close combat with its strength.
"""

from __future__ import annotations

from typing import Literal

import msgspec

CardKind = Literal["maneuver", "unit"]


class CardSpec(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    kind: CardKind
    speed: int = 0  # maneuvers
    strength: int = 0  # units: printed strength, before card texts
    text: str = ""


# Card types, in table order: plain maneuvers, maneuvers with text, then units.
SCRAMBLE = 0
FORCED_MARCH = 1
CHARGE = 2
BREAKNECK_RIDE = 3
OUTRIDERS = 4
RELAY = 5
PIKEMEN = 6
KNIGHTS = 7
DRILL_SERGEANT = 8
TUNNELLERS = 9

CARD_TYPES: tuple[CardSpec, ...] = (
    CardSpec(id=SCRAMBLE, name="Scramble", kind="maneuver", speed=1),
    CardSpec(id=FORCED_MARCH, name="Forced March", kind="maneuver", speed=2),
    CardSpec(id=CHARGE, name="Charge", kind="maneuver", speed=3),
    CardSpec(id=BREAKNECK_RIDE, name="Breakneck Ride", kind="maneuver", speed=4),
    CardSpec(id=OUTRIDERS, name="Outriders", kind="maneuver", speed=2,
             text="While this maneuver is in play, each of your units gets +1 strength."),
    CardSpec(id=RELAY, name="Relay", kind="maneuver", speed=1,
             text="When you deploy this, you may move one of your stashed maneuvers from its "
                  "mission to the other mission."),
    CardSpec(id=PIKEMEN, name="Pikemen", kind="unit", strength=2),
    CardSpec(id=KNIGHTS, name="Knights", kind="unit", strength=3),
    CardSpec(id=DRILL_SERGEANT, name="Drill Sergeant", kind="unit", strength=0,
             text="+1 strength for each of your maneuvers in play."),
    CardSpec(id=TUNNELLERS, name="Tunnellers", kind="unit", strength=1,
             text="+1 strength for each of your stashed maneuvers at this unit's mission."),
)

# One player's deck: 13 maneuvers (speed 27 in all) and 5 units.
DECKLIST: tuple[int, ...] = (
    SCRAMBLE, SCRAMBLE,
    FORCED_MARCH, FORCED_MARCH, FORCED_MARCH,
    CHARGE, CHARGE, CHARGE,
    BREAKNECK_RIDE,
    OUTRIDERS, OUTRIDERS,
    RELAY, RELAY,
    PIKEMEN, PIKEMEN,
    KNIGHTS,
    DRILL_SERGEANT,
    TUNNELLERS,
)
DECK_SIZE = len(DECKLIST)

# Per card number (0..DECK_SIZE-1): read on every legal-action call, so plain tuples.
TYPE: tuple[int, ...] = DECKLIST
KIND: tuple[CardKind, ...] = tuple(CARD_TYPES[t].kind for t in DECKLIST)
SPEED: tuple[int, ...] = tuple(CARD_TYPES[t].speed for t in DECKLIST)
STRENGTH: tuple[int, ...] = tuple(CARD_TYPES[t].strength for t in DECKLIST)
MANEUVERS = frozenset(c for c in range(DECK_SIZE) if KIND[c] == "maneuver")
UNITS = frozenset(c for c in range(DECK_SIZE) if KIND[c] == "unit")


def cards_of(card_type: int) -> tuple[int, ...]:
    """The card numbers of every copy of ``card_type`` in a deck."""
    return tuple(c for c in range(DECK_SIZE) if TYPE[c] == card_type)


assert [spec.id for spec in CARD_TYPES] == list(range(len(CARD_TYPES))), "ids follow table order"
