"""The card as data: the ``Card`` struct, its parts, and the builders the card lists use.

Every card list module (``cards.py`` and the ``data_*.py`` modules it calls in a fixed order)
adds its cards through these builders; a card's id is its position in the one registry, so the
order of the calls is the order of the ids and never changes.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Kind = Literal["unit", "command", "environment", "hero"]
Timing = Literal["", "command", "instant", "attachment"]
Effect = Literal[
    "", "damage", "damage_lane", "lateral", "movement", "armor", "attack", "draw",
    "grant_ranged", "grant_quick",
    # Added with the full card pool (see ``rules/effects.py``).
    "weaken", "damage_cursed", "bounce", "bounce_own", "blink", "shove", "curse_now",
    "castle_repair", "ramp", "ready", "damage_castle", "advance", "damage_wall", "push",
    "momentum_max", "panoply", "team_armor", "team_attack", "exhaust", "destroy_cheap",
    "sacrifice", "cleanse", "damage_all", "clear_ongoing", "extra_action", "recover", "ambush",
]
Target = Literal["", "enemy_unit", "friendly_unit", "lane", "castle", "player"]
EnvKind = Literal["", "immediate", "ongoing", "field"]
EnvEffect = Literal[
    "", "regain_lowest", "attack_all", "movement_all", "draw_each", "damage_middle",
    "damage_castles", "rubble", "smash_plus", "range_minus", "momentum_reset",
    "damage_castle_areas",
    # Added with the full card pool.
    "armor_all", "no_quick", "home_armor", "range_plus", "tokens_return", "resource_each",
    "rust", "quake", "momentum_underdog", "rubble_left",
]


class Aura(msgspec.Struct, frozen=True, kw_only=True):
    size: int  # squares covered (half in front, half behind)
    stat: Literal["attack", "armor"]
    amount: int
    foes: bool = False  # a Hex Aura: it changes opposing units in reach, not friendly ones


class Ranged(msgspec.Struct, frozen=True, kw_only=True):
    low: int
    high: int
    spread: bool = False  # Ranged Adjacent: neighbouring lanes too
    blast: bool = False  # hits every unit in range, friends included
    battering: bool = False  # may shoot the castle when no opposing unit stands in the lane
    blunt: bool = False  # may shoot the castle; a defender in the lane takes the shot instead


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    kind: Kind
    warband: str  # "dragons", "dwarves", "fae", "war-engine" or "neutral"
    cost: int = 0
    text: str = ""
    ours: bool = True  # Siegeworks' design; False when the rulebook names the card
    # Units.
    movement: int = 0
    attack: int = 0
    armor: int = 0
    health: int = 0
    quick: bool = False
    gigantic: bool = False
    lord: bool = False
    epic: bool = False
    aura: Aura | None = None
    ranged: Ranged | None = None  # a blue ability: shoot as a Unit Action
    build: int = 0  # Build this unit grants while in play
    needs_build: int = 0  # Build that must be available to play it (and that it then uses)
    max_attack: int = 0  # extra Attack while its side holds Momentum Max
    haste: bool = False  # may take a Unit Action the turn it enters
    defense: bool = False  # attackers get no Smash or Momentum Bonus against it
    cannot_charge: bool = False
    phase: bool = False  # passes through friendly units while moving
    ram: bool = False  # damage beyond a destroyed castle defender's Health hits the castle
    consume: bool = False  # destroying the unit it engaged, it carries on
    resurrection: bool = False  # comes back once when first destroyed
    burns: bool = False  # loses 1 Health at the end of each of its owner's turns
    marked_back: bool = False  # a different card back: anyone can tell it face down
    # Unit keywords added with the full card pool (read by ``rules/stats.py``).
    gloat: int = 0  # extra Attack while the Curse token is on an opposing unit
    blooded: int = 0  # extra Attack while it is damaged
    stalwart: int = 0  # extra Armor while it stands in its own castle area
    max_armor: int = 0  # extra Armor while its side holds Momentum Max
    wallbreaker: int = 0  # extra Attack while engaged with the undefended opposing castle
    # Commands.
    timing: Timing = ""
    effect: Effect = ""
    target: Target = ""
    amount: int = 0
    grant: Ranged | None = None  # the ability an attachment gives (Ranged Blessing)
    cannot_stack: bool = False  # may not go on a unit that already has Quick
    # Environment cards.
    env: EnvKind = ""
    env_effect: EnvEffect = ""


REGISTRY: list[Card] = []


def add(name: str, kind: Kind, warband: str, **fields: object) -> None:
    REGISTRY.append(msgspec.convert({"id": len(REGISTRY), "name": name, "kind": kind,
                                     "warband": warband, **fields}, Card))


def unit(name: str, warband: str, cost: int, move: int, attack: int, armor: int, health: int,
         text: str = "", **keywords: object) -> None:
    add(name, "unit", warband, cost=cost, movement=move, attack=attack, armor=armor,
        health=health, text=text, **keywords)


def command(name: str, warband: str, cost: int, timing: Timing, effect: Effect, target: Target,
            amount: int, text: str, **more: object) -> None:
    add(name, "command", warband, cost=cost, timing=timing, effect=effect, target=target,
        amount=amount, text=text, **more)


def environment(name: str, env: EnvKind, effect: EnvEffect, amount: int, text: str,
                **more: object) -> None:
    add(name, "environment", "neutral", env=env, env_effect=effect, amount=amount, text=text,
        **more)
