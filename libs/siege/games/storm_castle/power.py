"""Part III card data: every army's 22 power cards and the Boss deck of 9 (our own design: the
rulebook names the card types but prints no card).

A power deck holds, by id: 0 the champion card, 1 the battlefield upgrade card, 2-5 the common
cards (the same four in every army), 13 the army's own remain-in-play card, 14-16 equipment and
17 War Drums (Part II, ``cards.py``), 18-20 the spells of the two magic armies (Part II) and
the army's action cards on every other id: 6-12 and 21, plus 18-20 for the two armies without
magic. Playable cards resolve through one small vocabulary of effect kinds (``Effect``),
implemented once in ``rules/cards_play.py``; no two cards share a combination (the four
common cards are the same card in every deck).
"""

from __future__ import annotations

import msgspec

from siege.games.storm_castle.armies import ARCANISTS, DARK_ELVES, GREEN_TIDE, UNDEAD
from siege.games.storm_castle.cards import EQUIPMENT, SPELLS, WAR_DRUMS


class Effect(msgspec.Struct, frozen=True, kw_only=True):
    """What a played card does; every field is one effect kind (0: not used)."""

    gold: int = 0  # gold gained (up to the cap of 10)
    magic: int = 0  # magic gained (up to the cap)
    draw: int = 0  # power cards drawn from the top of the deck (never a reshuffle)
    moves: int = 0  # army moves added to this turn
    fury: int = 0  # attack dice added to each of your units until the next Collect
    guard: int = 0  # armor dice added to each of your units until the next Collect
    heal: int = 0  # damage removed from each of your units
    flip: int = 0  # defenders within 2 spaces of your units flipped, nearest the keep first


class Income(msgspec.Struct, frozen=True, kw_only=True):
    """A remain-in-play card's yield at every Collect while it stays in play."""

    gold: int = 0
    magic: int = 0


class PowerCard(msgspec.Struct, frozen=True, kw_only=True):
    card: int
    name: str
    kind: str  # champion, upgrade, common, action, rip, equipment, magic
    effect: Effect = Effect()
    income: Income = Income()


COMMON: tuple[PowerCard, ...] = (
    PowerCard(card=2, name="Plunder", kind="common", effect=Effect(gold=2)),
    PowerCard(card=3, name="Forced March", kind="common", effect=Effect(moves=2)),
    PowerCard(card=4, name="Field Dressing", kind="common", effect=Effect(heal=1)),
    PowerCard(card=5, name="Spy Network", kind="common", effect=Effect(draw=2)),
)

_E = Effect
# army -> (champion card, upgrade card, rip card (13) and its income, action cards by id)
_ACTIONS: dict[int, dict[int, tuple[str, Effect]]] = {
    # Arcanists: scholars of magic; their tricks make magic, hold foes still and shield.
    ARCANISTS: {
        6: ("Ley Line Tap", _E(magic=3)),
        7: ("Arcane Insight", _E(draw=1, magic=1)),
        8: ("Time Stop", _E(flip=3)),
        9: ("Mana Shield", _E(guard=1, magic=1)),
        10: ("Blink", _E(moves=3)),
        11: ("Transmutation", _E(gold=4)),
        12: ("Empower", _E(fury=2, magic=1)),
        21: ("Hold Person", _E(flip=1, draw=1)),
    },
    # Dark Elves: swift assassins; they strike first and hard, slip through shadows, raid.
    DARK_ELVES: {
        6: ("Poisoned Blades", _E(fury=1)),
        7: ("Shadow Step", _E(moves=2, draw=1)),
        8: ("Ambush", _E(flip=1, fury=1)),
        9: ("Slave Raid", _E(gold=2, draw=1)),
        10: ("Veil of Night", _E(guard=1, moves=1)),
        11: ("Assassins' Mark", _E(flip=2)),
        12: ("Blood Rite", _E(fury=2, heal=1)),
        18: ("Whispered Secrets", _E(draw=2, gold=1)),
        19: ("Night Raid", _E(moves=2, fury=1)),
        20: ("Dark Tribute", _E(gold=2, heal=1)),
        21: ("Spider Venom", _E(flip=1, moves=1)),
    },
    # The Green Tide: a brawling horde; it rushes, regenerates, loots and smashes.
    GREEN_TIDE: {
        6: ("Waaagh!", _E(fury=1, moves=1)),
        7: ("Troll Regeneration", _E(heal=2)),
        8: ("Loot the Dead", _E(gold=3)),
        9: ("Stampede", _E(moves=3, fury=1)),
        10: ("Headbutt", _E(flip=1)),
        11: ("Thick Skulls", _E(guard=1)),
        12: ("Blood Frenzy", _E(fury=2)),
        18: ("Scrap Armor", _E(guard=1, heal=1)),
        19: ("Shiny Trinkets", _E(gold=2, moves=1)),
        20: ("Big Shove", _E(flip=1, fury=2)),
        21: ("Mob Rule", _E(moves=2, heal=1)),
    },
    # The Undead Horde: relentless and unfeeling; it rises again, terrifies, feeds on magic.
    UNDEAD: {
        6: ("Dark Ritual", _E(magic=4)),
        7: ("Raise the Fallen", _E(heal=2, magic=1)),
        8: ("Wail of Terror", _E(flip=1, guard=1)),
        9: ("Shambling Horde", _E(moves=2, guard=1)),
        10: ("Grave Robbing", _E(gold=2, magic=1)),
        11: ("Bone Armor", _E(guard=1, heal=2)),
        12: ("Deathly Chill", _E(flip=1, magic=1)),
        21: ("Unholy Strength", _E(fury=1, guard=1)),
    },
}
_CHAMPION_CARDS = ("Archmage Valdris", "Queen Nyxara", "Warboss Grukk", "Lich Morvane")
_UPGRADE_CARDS = ("Arcane Spire", "Shadow Shrine", "War Totem", "Bone Pit")
_RIP: dict[int, tuple[str, Income]] = {
    ARCANISTS: ("Mana Well", Income(gold=1, magic=1)),
    DARK_ELVES: ("Slave Market", Income(gold=1)),
    GREEN_TIDE: ("Loot Wagon", Income(gold=1)),
    UNDEAD: ("Crypt of Whispers", Income(magic=1)),
}


def _deck(army: int) -> dict[int, PowerCard]:
    cards: dict[int, PowerCard] = {
        0: PowerCard(card=0, name=_CHAMPION_CARDS[army], kind="champion"),
        1: PowerCard(card=1, name=_UPGRADE_CARDS[army], kind="upgrade"),
    }
    cards.update({c.card: c for c in COMMON})
    for card, (name, effect) in _ACTIONS[army].items():
        cards[card] = PowerCard(card=card, name=name, kind="action", effect=effect)
    name, income = _RIP[army]
    cards[13] = PowerCard(card=13, name=name, kind="rip", income=income)
    for card, gear in EQUIPMENT.items():
        if card < 22:
            cards[card] = PowerCard(card=card, name=gear.name, kind="equipment")
    cards[WAR_DRUMS] = PowerCard(card=WAR_DRUMS, name="War Drums", kind="rip")
    for card, spell in SPELLS.get(army, {}).items():
        cards[card] = PowerCard(card=card, name=spell.name, kind="magic")
    return dict(sorted(cards.items()))


POWER_CARDS: tuple[dict[int, PowerCard], ...] = tuple(_deck(army) for army in range(4))
PLAYABLE_KINDS = frozenset({"common", "action"})

# The Boss deck (ids 0-8): stronger combinations of the same effect kinds; played like action
# cards on the Boss's own turn, then discarded.
BOSS_CARDS: tuple[PowerCard, ...] = tuple(
    PowerCard(card=i, name=name, kind="boss", effect=effect) for i, (name, effect) in enumerate((
        ("Royal Treasury", _E(gold=5)),
        ("Forbidden Tome", _E(magic=3, draw=1)),
        ("Marching Orders", _E(moves=4)),
        ("Call to Slaughter", _E(fury=2, moves=1)),
        ("Iron Discipline", _E(guard=2)),
        ("Dark Blessing", _E(heal=3, guard=1)),
        ("Reign of Fear", _E(flip=4)),
        ("Master Plan", _E(draw=2, moves=2)),
        ("Tyrant's Due", _E(gold=2, magic=2, fury=1)),
    )))


def power_card(army: int, card: int) -> PowerCard | None:
    return POWER_CARDS[army].get(card) if 0 <= army < 4 else None


def playable(army: int, card: int) -> bool:
    found = power_card(army, card)
    return found is not None and found.kind in PLAYABLE_KINDS


def is_rip(army: int, card: int) -> bool:
    found = power_card(army, card)
    return found is not None and found.kind == "rip"
