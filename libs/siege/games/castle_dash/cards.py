"""The 18 Armory cards: our own design, kept as data.

The rulebook names the deck size and the blue-flag icon but prints no card texts, so this table
is Siegeworks' design (see the README). Each card is unique; the rules modules look effects up by
the ids below and read the numbers from the table, so a balance change is a one-line edit here.

Kinds:
- ``flag``: blue flag; resolved in the claim step, one at a time from the first player.
- ``battle``: played in step C of one battle (the holder's choice), then spent for the round.
- ``round``: passive; applies to every battle of its holder for the rest of the round.
"""

from __future__ import annotations

from typing import Literal

import msgspec

CardKind = Literal["flag", "battle", "round"]


class CardSpec(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    kind: CardKind
    amount: int = 0  # the card's number (bonus, cap, reduction...), 0 when it has none
    text: str


# Card ids, in table order. Flags first, then battle cards, then round cards.
POWDER_CACHE = 0
SABOTAGE = 1
SAPPERS = 2
BRIBE = 3
LOOKOUT = 4
SMOKE_SCREEN = 5
BATTERING_RAM = 6
AMBUSH = 7
LUCKY_CHARM = 8
CALTROPS = 9
RALLY = 10
STOUT_GATE = 11
TRUCE = 12
WAR_BANNER = 13
MASTER_GUNNER = 14
IRON_HELMETS = 15
PALISADE = 16
VETERAN_CAPTAINS = 17

CARDS: tuple[CardSpec, ...] = (
    CardSpec(id=POWDER_CACHE, name="Powder Cache", kind="flag", amount=2,
             text="Gain 2 cannonballs for this round."),
    CardSpec(id=SABOTAGE, name="Sabotage", kind="flag", amount=1,
             text="Choose an opponent you battle: it loses 1 cannonball this round."),
    CardSpec(id=SAPPERS, name="Sappers", kind="flag", amount=1,
             text="The soldier on this card climbs onto the wall of an opponent you battle."),
    CardSpec(id=BRIBE, name="Bribe", kind="flag", amount=1,
             text="Choose an attacker on your wall: one of its soldiers there goes home."),
    CardSpec(id=LOOKOUT, name="Lookout", kind="flag",
             text="Also take one unclaimed face-up card that has no blue flag."),
    CardSpec(id=SMOKE_SCREEN, name="Smoke Screen", kind="flag",
             text="Choose an opponent you battle: nobody fires cannonballs in that battle."),
    CardSpec(id=BATTERING_RAM, name="Battering Ram", kind="battle", amount=2,
             text="+2 to your total in this battle."),
    CardSpec(id=AMBUSH, name="Ambush", kind="battle", amount=1,
             text="Remove 1 opposing soldier from this battle."),
    CardSpec(id=LUCKY_CHARM, name="Lucky Charm", kind="battle",
             text="Roll two battle dice in this battle and keep the higher (rerolls too)."),
    CardSpec(id=CALTROPS, name="Caltrops", kind="battle", amount=2,
             text="Your opponent's battle die counts at most 2 in this battle."),
    CardSpec(id=RALLY, name="Rally", kind="battle", amount=2,
             text="Up to 2 of your soldiers knocked out by cannonballs in this battle return."),
    CardSpec(id=STOUT_GATE, name="Stout Gate", kind="battle", amount=2,
             text="If you lose this battle, 2 fewer soldiers go onto your wall."),
    CardSpec(id=TRUCE, name="Truce", kind="battle",
             text="This battle ends at once: no dice, no winner, no soldier goes onto a wall."),
    CardSpec(id=WAR_BANNER, name="War Banner", kind="round", amount=1,
             text="+1 to your total in every battle this round."),
    CardSpec(id=MASTER_GUNNER, name="Master Gunner", kind="round", amount=1,
             text="Your cannonballs hit on a roll up to the opposing soldiers + 1."),
    CardSpec(id=IRON_HELMETS, name="Iron Helmets", kind="round", amount=1,
             text="Cannonballs fired at you hit only on a roll up to your soldiers - 1."),
    CardSpec(id=PALISADE, name="Palisade", kind="round", amount=2,
             text="A battle won against you without dice puts at most 2 soldiers on your wall."),
    CardSpec(id=VETERAN_CAPTAINS, name="Veteran Captains", kind="round", amount=1,
             text="You win tied battle totals by 1 instead of rerolling."),
)

DECK_SIZE = len(CARDS)

KIND: tuple[CardKind, ...] = tuple(card.kind for card in CARDS)
AMOUNT: tuple[int, ...] = tuple(card.amount for card in CARDS)
FLAG_CARDS = frozenset(card.id for card in CARDS if card.kind == "flag")
BATTLE_CARDS = frozenset(card.id for card in CARDS if card.kind == "battle")
ROUND_CARDS = frozenset(card.id for card in CARDS if card.kind == "round")

assert [card.id for card in CARDS] == list(range(DECK_SIZE)), "ids must match table order"
