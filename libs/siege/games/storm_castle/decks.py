"""The card decks. Sizes follow the published component list; only the Onward March events, the
champion cards and the battlefield upgrade cards do anything in Part I. Every other card is a
placeholder (its text is Part III) that can be drawn, bought, held and discarded.
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


class EventCard(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    march: int  # defenders an Onward March activates; 0 for other events


def _events() -> tuple[EventCard, ...]:
    marches = [1] * 16 + [2] * 12 + [3] * 8  # our design: 36 Onward Marches
    cards = [EventCard(id=i, name=f"Onward March {n}", march=n) for i, n in enumerate(marches)]
    cards += [EventCard(id=len(cards) + i, name=f"Defender event {i + 1} (Part III)", march=0)
              for i in range(EVENT_DECK_SIZE - len(marches))]
    return tuple(cards)


EVENT_CARDS = _events()


def power_card_name(card: int) -> str:
    if card == CHAMPION_CARD:
        return "Champion"
    if card == UPGRADE_CARD:
        return "Battlefield Upgrade"
    return f"Power card {card} (Part III)"
