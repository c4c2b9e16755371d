"""The card decks' sizes and hand limits, and the Fantasy Defenders' event deck of 54: 36
Onward Marches and 18 other events (our own design; Part III). The power and Boss cards are in
``power.py``, the defenders' magic deck in ``cards.py``.
"""

from __future__ import annotations

import msgspec

POWER_DECK_SIZE = 22  # per army
BOSS_DECK_SIZE = 9
EVENT_DECK_SIZE = 54
MAGIC_DECK_SIZE = 5
CHAMPION_CARD = 0  # in every army's power deck
UPGRADE_CARD = 1
START_HAND = 3
HAND_LIMIT = 3
HAND_BONUS = 2  # with the +2 Hand location
BOSS_HAND_LIMIT = 3
BOSS_DRAW = 2
POWER_CARD_PRICE = 1


class DefenderEffect(msgspec.Struct, frozen=True, kw_only=True):
    """What a non-march event does; each field is one effect kind (0: not used). "The player"
    is the one whose turn it is when the card is turned up."""

    mend: int = 0  # damage removed from every defender (the hero included)
    repair: int = 0  # damage removed from every standing wall, keep wall and building
    tax: int = 0  # gold the player loses
    drain: int = 0  # magic the player loses
    stun: int = 0  # the player's units flipped, nearest the keep first
    levy: int = 0  # gold every Dark Force player loses
    rally: bool = False  # every flipped defender unflips


class EventCard(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    march: int  # defenders an Onward March activates; 0 for other events
    effect: DefenderEffect = DefenderEffect()


MARCH_MIX = {1: 16, 2: 12, 3: 8}  # our design: 36 Onward Marches

_D = DefenderEffect
OTHER_EVENTS: tuple[tuple[str, DefenderEffect], ...] = (
    ("Field Surgeons", _D(mend=1)),
    ("Healing Springs", _D(mend=2)),
    ("Stonemasons", _D(repair=1)),
    ("Master Builders", _D(repair=2)),
    ("Toll Gate", _D(tax=1)),
    ("Royal Tax Collector", _D(tax=2)),
    ("Counterspell", _D(drain=1)),
    ("Anti-Magic Ward", _D(drain=2)),
    ("Blinding Flash", _D(stun=1)),
    ("Thunderclap", _D(stun=2)),
    ("War Levy", _D(levy=1)),
    ("Scorched Earth", _D(levy=2)),
    ("Trumpet Call", _D(rally=True)),
    ("Sally Forth", _D(rally=True, mend=1)),
    ("Mortar and Prayer", _D(mend=1, repair=1)),
    ("Sticky Fingers", _D(tax=1, drain=1)),
    ("Boiling Oil", _D(stun=1, tax=1)),
    ("Garrison Drill", _D(rally=True, repair=1)),
)


def _events() -> tuple[EventCard, ...]:
    marches = [n for n, count in MARCH_MIX.items() for _ in range(count)]
    cards = [EventCard(id=i, name=f"Onward March {n}", march=n) for i, n in enumerate(marches)]
    cards += [EventCard(id=len(cards) + i, name=name, march=0, effect=effect)
              for i, (name, effect) in enumerate(OTHER_EVENTS)]
    assert len(cards) == EVENT_DECK_SIZE
    return tuple(cards)


EVENT_CARDS = _events()
