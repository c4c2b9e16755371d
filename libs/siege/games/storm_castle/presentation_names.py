"""Storm the Castle!'s names for people, read from the game's reference data: cards, unit kinds,
spaces, structures and seats, as the board, the actions and the events all say them."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from siege.engine.presentation import Names, seat_name
from siege.games.storm_castle.reference import reference
from siege.games.storm_castle.views import StormUnitView, StormView

REF = reference()
CONST: dict[str, Any] = REF["constants"]
ARMIES: list[dict[str, Any]] = REF["armies"]
KINDS: list[dict[str, Any]] = REF["unit_kinds"]
SPACES: list[dict[str, Any]] = REF["spaces"]
STRUCTURES: list[dict[str, Any]] = REF["structures"]
POWER: list[dict[int, dict[str, Any]]] = [{card["id"]: card for card in cards}
                                          for cards in REF["power_cards"]]
BOSS: dict[int, dict[str, Any]] = {card["id"]: card for card in REF["boss_cards"]}
EVENT_CARDS: dict[int, dict[str, Any]] = {card["id"]: card for card in REF["event_cards"]}
SPELLS: dict[int, dict[str, Any]] = {spell["id"]: spell for spell in REF["defender_spells"]}
SIDE_NAMES: list[str] = [side["name"] for side in REF["sides"]]
LADDER: int = REF["ladder"]["card"]
DEFENDER_SIDE: int = REF["sentinels"]["defender_side"]
KEEP: int = REF["keep"]
LAST_TURN: int = CONST["last_turn"]
NAME_WIDTH = 9  # seat names are cut to this on the board

PHASES = {
    "setup": "set-up",
    "collect": "Collect",
    "vote": "Who's the Boss? (the vote)",
    "boss": "Who's the Boss?",
    "order": "Turn Order",
    "buy": "Let's Buy and Deploy",
    "reinforce": "Reinforcements",
    "events": "drawing event cards",
    "turns": "Players' Turns",
    "wrapup": "Wrap Up",
    "over": "game over",
}
ASKING = {
    "army": "choosing an army",
    "battlefield": "choosing a battlefield",
    "place": "placing a defender",
    "bid": "bidding gold (sealed)",
    "tie": "breaking the vote tie",
    "boss_card": "keeping a Boss card",
    "ousted_card": "taking the ousted Boss's card",
    "loot": "taking the loot",
    "token": "keeping a turn-order token",
    "buy": "buying and deploying",
    "act": "taking a turn",
    "march": "deciding a battle march",
    "order": "ordering the defenders",
    "discard": "discarding down to the hand limit",
    "boss_discard": "discarding a Boss card",
    "counter": "choosing how to strike back",
    "hero": "placing the hero",
}
SUMMONING = {
    "wall": f"the {CONST['hero_walls']}th wall fell",
    "keep": "a unit was about to enter the keep",
    "attack": "a unit was about to attack the keep's guard",
}


# --- names ------------------------------------------------------------------------------------




def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def kind_name(kind: int) -> str:
    return str(KINDS[kind]["name"]) if 0 <= kind < len(KINDS) else "a unit"


def army_name(army: int) -> str:
    return str(ARMIES[army]["name"]) if 0 <= army < len(ARMIES) else "no army yet"


def _compass(x: float, y: float) -> str:
    return ("north" if y < 3 else "south") + "-" + ("west" if x < 3 else "east")


def space_name(space: int) -> str:
    """A space in words: "north rampart 1", "the keep", "the +2 Gold location"."""
    if not 0 <= space < len(SPACES):
        return "nowhere"
    info = SPACES[space]
    kind = info["kind"]
    if kind == "tower":
        return f"the {_compass(info['x'], info['y'])} tower"
    if kind == "keep":
        return "the keep"
    if kind == "location":
        return f"the {info['name']} location"
    if kind == "ground":
        return f"{SIDE_NAMES[info['side']]} castle ground {info['col']}"
    return str(info["name"])


def structure_name(structure: int) -> str:
    if not 0 <= structure < len(STRUCTURES):
        return "a structure"
    info = STRUCTURES[structure]
    if info["kind"] == "building":
        return f"the {_compass(info['x'], info['y'])} castle building"
    return f"the {info['name']}"


def power_name(army: int, card: int) -> str:
    if card == LADDER:
        return "Ladder"
    found = POWER[army].get(card) if 0 <= army < len(POWER) else None
    return str(found["name"]) if found is not None else "a power card"


def boss_name(card: int) -> str:
    return str(BOSS[card]["name"]) if card in BOSS else "a Boss card"


def event_name(card: int) -> str:
    return str(EVENT_CARDS[card]["name"]) if card in EVENT_CARDS else "an event card"


def spell_name(card: int) -> str:
    return str(SPELLS[card]["name"]) if card in SPELLS else "a spell"


def effect_words(effect: dict[str, int]) -> str:
    """A card's effect, short: "+2 gold, draw 1, +1 attack die for your units"."""
    parts = []
    if effect.get("gold"):
        parts.append(f"+{effect['gold']} gold")
    if effect.get("magic"):
        parts.append(f"+{effect['magic']} magic")
    if effect.get("draw"):
        parts.append(f"draw {effect['draw']}")
    if effect.get("moves"):
        parts.append(f"+{plural(effect['moves'], 'army move')}")
    if effect.get("fury"):
        parts.append(f"+{effect['fury']} attack {'die' if effect['fury'] == 1 else 'dice'} "
                     "for your units")
    if effect.get("guard"):
        parts.append(f"+{effect['guard']} armor {'die' if effect['guard'] == 1 else 'dice'} "
                     "for your units")
    if effect.get("heal"):
        parts.append(f"heal {effect['heal']} on each of your units")
    if effect.get("flip"):
        parts.append(f"flip up to {plural(effect['flip'], 'defender')} near your units")
    return ", ".join(parts) or "no effect"


def power_words(army: int, card: int) -> str:
    """What a power card does, in a few words."""
    found = POWER[army].get(card) if 0 <= army < len(POWER) else None
    if found is None:
        return ""
    kind = found["kind"]
    if kind in ("action", "common"):
        return effect_words(found["effect"])
    if kind == "rip":  # "Remain in play: +1 gold at every Collect. Counts towards ..."
        return str(found["text"]).split(": ", 1)[-1].split(".")[0]
    if kind == "equipment":
        gear = found["equipment"]
        bonus = [f"+{gear[what]} {what} die" for what in ("armor", "attack") if gear[what]]
        return f"{gear['cost']} gold, {' and '.join(bonus)}"
    if kind == "magic":
        spell = found["spell"]
        if spell["attack"]:
            reach = "melee" if spell["range"] == 0 else f"range {spell['range']}"
            return f"{spell['cost']} magic, Attack {spell['attack']} at {reach}"
        return f"{spell['cost']} magic, +{spell['ward']} armor die for a unit of yours"
    return str(found["text"]).rstrip(".")


# --- unit letters -------------------------------------------------------------------------------


def _letters() -> dict[int, str]:
    """One letter per unit kind, unique among the kinds that share an owner's mark (an army's
    four, or every defender, peasant and hero), taken from the name's capitals first."""
    out: dict[int, str] = {}
    groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for kind in KINDS:
        groups[min(kind["group"], len(ARMIES))].append(kind)
    for kinds in groups.values():
        used: set[str] = set()
        for kind in kinds:
            name = str(kind["name"])
            capitals = [c for c in name if c.isupper()]
            others = [c.upper() for c in name if c.isalpha() and not c.isupper()]
            letter = next(c for c in [*capitals, *others] if c not in used)
            used.add(letter)
            out[kind["id"]] = letter
    return out


LETTERS = _letters()


def unit_mark(unit: StormUnitView) -> str:
    """Owner's mark and kind letter: "2T" (seat 2's Troll), "dK" (a defenders' Knight)."""
    owner = str(unit.owner + 1) if unit.owner >= 0 else "d"
    letter = LETTERS.get(unit.kind, "?")
    return owner + (letter.lower() if unit.flipped else letter)


def unit_words(view: StormView, names: Names, uid: int, cut: bool = True) -> str:
    """A unit in words, with its id: "Red's Troll #12", "your Goblin #3", "Knight #30" (a
    defender); ``cut`` shortens the seat's name as the board does."""
    unit = next((u for u in view.units if u.uid == uid), None)
    if unit is None:
        return f"unit #{uid}"
    if unit.owner >= 0 and unit.owner == view.seat:
        return f"your {unit.name} #{uid}"
    if unit.owner >= 0:
        owner = seat_name(names, unit.owner)
        return f"{short(owner) if cut else owner}'s {unit.name} #{uid}"
    return f"{unit.name} #{uid}"


def short(name: str) -> str:
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "~"
