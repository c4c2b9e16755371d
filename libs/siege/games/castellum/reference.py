"""Castellum reference data: what a client needs to read the views, as plain JSON-ready data.

Everything is built from the game's data modules (cards, enemies, angels, board, rewards) and
its rules constants, so it cannot drift from what the engine plays. The contract publishes it
as ``docs/contract/games/castellum.json``; the field descriptions of the events, actions and
view point into it by key (``line_cards``, ``enemy_cards``, ``angel_cards``, ``spaces``, ...).
The card texts are generated here from the numbers, in our own words.
"""

from __future__ import annotations

from typing import Any, get_args

from siege.engine.protocol import Action
from siege.games.castellum import actions as a
from siege.games.castellum.angels import (
    ANGEL_CARDS,
    ANGEL_DECK,
    ANYTIME_EFFECTS,
    DESTROY_COST_STONE,
    EFFECT_RESOURCES,
    EFFECTS,
    ENEMY_BOOST,
    HAND_LIMIT,
    AngelCard,
    Effect,
)
from siege.games.castellum.board import (
    SPACES,
    START_RESOURCES,
    START_WORKERS_ON_WALL,
    UNLIMITED,
    WORKERS,
    Space,
    workers_in,
)
from siege.games.castellum.cards import (
    FORT_DECK,
    FORTS_PER_YEAR,
    LINE_CARDS,
    NOBODY,
    RESOURCE_NAMES,
    STAR_FORTS,
    START_FORTS,
    TROOP_DECK,
    TROOP_TYPES,
    TROOPS_PER_YEAR,
    TYPE_NAMES,
    LineCard,
)
from siege.games.castellum.enemies import ENEMY_CARDS, ENEMY_DECKS, YEARS, EnemyCard
from siege.games.castellum.engine import MAX_PLAYERS, MIN_PLAYERS
from siege.games.castellum.rewards import REWARD_CARDS, SEAT_OFFSETS, SIDES, RewardSide
from siege.games.castellum.rules.combat import DEFEATED, HELD_OUT, NO_ENEMY
from siege.games.castellum.rules.effects import TARGETS_NEEDED, TROOPS_PER_COLUMN
from siege.games.castellum.rules.flow import (
    ANGEL_RESHUFFLE_PURPOSE,
    FIRST_PLAYER_PURPOSE,
    SETUP_SHUFFLES,
)
from siege.games.castellum.rules.scoring import RESOURCES_PER_POINT
from siege.games.castellum.state import MAX_COLUMNS, Asking, Phase

FORTS_PER_COLUMN = 1  # a column holds one fortification (see ``rules.building.room``)

_PHASE_TEXT: dict[str, str] = {
    "setup": "Before the first year: the die picks the first player, then the seven decks are "
             "shuffled and the first offer is turned up.",
    "year_start": "A year begins: the angel discard pile is shuffled under the deck (a chance "
                  "node), then every Line card with an income pays its owner.",
    "building": "Phase 1: seats place one worker per turn, clockwise from the first player, "
                "until all of this year's workers are placed.",
    "siege": "Phase 2: enemy cards are dealt in secret and placed one per turn, clockwise from "
             "the first player, until every available column holds one.",
    "angels": "Phase 3: clockwise from the first player, seats holding angel cards place one "
              "below a column, start a special effect, or pass. Combat follows on its own "
              "when everyone has passed: it has no phase or decision of its own.",
    "reward": "After combat: if the year's threshold was met, the seat with most defeats "
              "orients the reward card. Then the year ends.",
    "over": "The game ended after 1794; the view's scores are final.",
}

def _tags(*types: type[Action]) -> str:
    return ", ".join(f"`{kind.__struct_config__.tag}`" for kind in types)


_ASKING_TEXT: dict[str, str] = {
    "": "Nobody is asked: chance is awaited, or the game is over.",
    "discard": "A seat over the angel hand limit chooses a card to discard: "
               f"{_tags(a.DiscardAngel)}.",
    "respond": "A seat may cancel the special effect on top of the stack: "
               f"{_tags(a.CancelEffect, a.DeclineCancel)}.",
    "target": "The seat playing the draft effect chooses its next target: "
              f"{_tags(a.TargetEnemy, a.TargetTroop, a.TargetColumn, a.TargetResources)}.",
    "worker": "A Building turn: "
              f"{_tags(a.PlaceWorker, a.BuyCard)}, or {_tags(a.UseAngel)} for a resources "
              "effect (which does not spend the turn).",
    "enemy": f"A Siege turn: {_tags(a.PlaceEnemy)}.",
    "angel": f"An Angel-phase turn: {_tags(a.PlaceAngel, a.UseAngel, a.PassAngels)}.",
    "reward": f"The seat with most defeats orients the reward card: {_tags(a.OrientReward)}.",
}

_EFFECT_TEXT: dict[Effect, str] = {
    "boost": f"Give one enemy card in any Line +{ENEMY_BOOST} strength until the end of the "
             "year; the bonus stays with the card if it is switched.",
    "switch": "Swap two enemy cards between their columns, in the same Line or in two Lines.",
    "take": "Move a troop from an opponent's Line, or an unbought face-up troop, into one of "
            "your available columns with troop room, paying its cost to its owner (to the "
            "bank for the offer).",
    "destroy": f"Pay {DESTROY_COST_STONE} stone to defeat an enemy card in your own Line, even "
               "in an empty column; needs a troop somewhere in your Line. It counts as a "
               "defeat (points and this year's defeats).",
    "resources": f"Gain {EFFECT_RESOURCES} resources of your choice (the same twice allowed). "
                 "May also be used on your Building turns without spending the turn.",
    "cancel": "Stop the special effect on top of the stack when you are asked in its response "
              "window; both cards go to the discard pile. A cancel may itself be cancelled.",
}

_EFFECT_TARGETS: dict[Effect, list[str]] = {
    "boost": ["owner", "column"],
    "switch": ["owner", "column", "owner", "column"],
    "take": ["owner (-1: face-up offer)", "troop card id", "own column"],
    "destroy": ["owner (the player)", "column"],
    "resources": ["resource", "resource"],
    "cancel": [],
}

_RESULT_TEXT: dict[int, str] = {
    NO_ENEMY: "No enemy card was in the column (or it is not available).",
    HELD_OUT: "The enemy held out: not defeated; its penalty, if any, was charged.",
    DEFEATED: "The column defeated its enemy, which joined the Line owner's collection.",
}


def _amounts(values: tuple[int, ...], names: tuple[str, ...]) -> str:
    parts = [f"{amount} {name}" for amount, name in zip(values, names, strict=False) if amount]
    return ", ".join(parts)


_INCOME_NAMES = (*RESOURCE_NAMES, "angel card")


def _line_text(card: LineCard) -> str:
    if card.kind == "fort":
        head = f"Fortification, strength {card.strength}"
    else:
        head = f"{TYPE_NAMES[card.troop_type].capitalize()} troop, strength {card.strength}"
    if card.id in START_FORTS:
        sentences = [f"{head}. Start fortification of seat {START_FORTS.index(card.id)}, in "
                     "its first column from the beginning; never for sale."]
    else:
        sentences = [f"{head}, costs {_amounts(card.cost, RESOURCE_NAMES) or 'nothing'}."]
    if any(card.income):
        sentences.append(f"Income: {_amounts(card.income, _INCOME_NAMES)} at the start of "
                         "every later Building phase.")
    if card.boost != NOBODY:
        sentences.append(f"Every {TYPE_NAMES[card.boost]} troop in its owner's Line gets +1 "
                         "strength (boosts add up).")
    if card.star == STAR_FORTS:
        sentences.append("Final scoring: 1 point per fortification in its owner's Line, "
                         "itself included.")
    elif card.star != NOBODY:
        itself = ", itself included" if card.troop_type == card.star else ""
        sentences.append(f"Final scoring: 1 point per {TYPE_NAMES[card.star]} troop in its "
                         f"owner's Line{itself}.")
    if len(sentences) == 1:
        sentences.append("No special rule.")
    return " ".join(sentences)


def _line_card(card: LineCard) -> dict[str, Any]:
    if card.id in START_FORTS:
        deck = "start"
    elif card.id in FORT_DECK:
        deck = "fort_deck"
    else:
        deck = "troop_deck"
    return {
        "id": card.id,
        "name": card.name,
        "kind": card.kind,
        "deck": deck,
        "strength": card.strength,
        "cost": list(card.cost),
        "troop_type": card.troop_type,
        "income": list(card.income),
        "boost": card.boost,
        "star": card.star,
        "text": _line_text(card),
    }


def _enemy_text(card: EnemyCard) -> str:
    sentences = [f"{TYPE_NAMES[card.type].capitalize()} enemy of {YEARS[card.year]}, strength "
                 f"{card.strength}; worth {card.points} point"
                 f"{'s' if card.points != 1 else ''} to the seat that defeats it."]
    if card.boost_type != NOBODY:
        itself = ", this card included," if card.boost_type == card.type else ""
        sentences.append(f"Every {TYPE_NAMES[card.boost_type]} enemy card in the same Line"
                         f"{itself} gets +{card.boost} strength.")
    if card.penalty != NOBODY:
        sentences.append(f"If it is not defeated in combat, its defender loses 1 "
                         f"{RESOURCE_NAMES[card.penalty]} (nothing if it has none).")
    return " ".join(sentences)


def _enemy_card(card: EnemyCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "year": card.year,
        "name": card.name,
        "type": card.type,
        "strength": card.strength,
        "points": card.points,
        "boost_type": card.boost_type,
        "boost": card.boost,
        "penalty": card.penalty,
        "text": _enemy_text(card),
    }


def _angel_card(card: AngelCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": f"{card.effect.capitalize()} angel ({card.strength})",
        "strength": card.strength,
        "effect": card.effect,
        "text": f"Placed below one of your columns: +{card.strength} strength there until the "
                f"end of the year. Or use its special effect ({card.effect}): "
                f"{_EFFECT_TEXT[card.effect]}",
    }


def _space_text(space: Space) -> str:
    if space.kind == "resources":
        gives = f"Gain {_amounts(space.resources, RESOURCE_NAMES)}."
    elif space.kind == "choice":
        gives = (f"Gain {space.choices} resource{'s' if space.choices != 1 else ''} of your "
                 "choice" + (" (the same twice allowed)." if space.choices > 1 else "."))
    elif space.kind == "dinghuis":
        gives = "+1 strength on each of your columns for the rest of the year."
    elif space.kind == "angel":
        gives = "Draw 1 angel card (nothing if the deck is empty)."
    else:
        gives = ("Buy one face-up fortification or troop card you can pay, into one of your "
                 "available columns with room.")
    room = ("Takes any number of workers, several of one seat too." if space.capacity == UNLIMITED
            else f"Takes {space.capacity} worker a year in all.")
    return f"{gives} {room}"


def _space(space: Space) -> dict[str, Any]:
    return {
        "id": space.id,
        "name": space.name,
        "kind": space.kind,
        "capacity": space.capacity,
        "unlimited": space.capacity == UNLIMITED,
        "resources": list(space.resources),
        "choices": space.choices,
        "text": _space_text(space),
    }


def _reward_side_text(side: RewardSide) -> str:
    parts = []
    if any(side.resources):
        parts.append(f"gain {_amounts(side.resources, RESOURCE_NAMES)}")
    if side.angels:
        parts.append(f"draw {side.angels} angel card{'s' if side.angels != 1 else ''}")
    if side.strength:
        parts.append(f"+{side.strength} strength on each of your columns for the whole next "
                     "year")
    if side.pair_type != NOBODY:
        parts.append(f"final scoring: 1 point per pair of defeated {TYPE_NAMES[side.pair_type]} "
                     "enemy cards")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def _reward_card(year: int) -> dict[str, Any]:
    card = REWARD_CARDS[year]
    return {
        "year": card.year,
        "threshold": {str(players): need for players, need in sorted(card.threshold.items())},
        "sides": [
            {"side": k, "resources": list(side.resources), "angels": side.angels,
             "strength": side.strength, "pair_type": side.pair_type,
             "text": _reward_side_text(side)}
            for k, side in enumerate(card.sides)
        ],
    }


def _chance_purposes() -> list[dict[str, Any]]:
    purposes: list[dict[str, Any]] = [{
        "code": FIRST_PLAYER_PURPOSE, "kind": "dice", "count": 1,
        "text": "One die with a side per player picks the first player: face f gives seat "
                "f - 1."}]
    purposes += [{
        "code": purpose, "kind": "shuffle", "count": len(cards),
        "text": f"Setup shuffle of {len(cards)} cards (ids {min(cards)}-{max(cards)}); "
                "order[k] is the index, in ascending id order, of the card that becomes k-th "
                "from the top."}
        for purpose, cards in SETUP_SHUFFLES]
    purposes.append({
        "code": ANGEL_RESHUFFLE_PURPOSE, "kind": "shuffle",
        "text": "At a year's start, the angel discard pile is shuffled and put under the deck "
                "(count: the pile's size then); order[k] is the index, in ascending id order "
                "of the discarded cards, of the card that becomes k-th of those."})
    return purposes


def reference() -> dict[str, Any]:
    """The reference data of Castellum: plain JSON (str keys, lists, str, int, bool)."""
    return {
        "game": "castellum",
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "seats": "Seats are numbered 0 to players - 1 clockwise: the next seat clockwise is "
                 "seat + 1 (mod players). Per-seat lists in the view are in seat order.",
        "years": list(YEARS),
        "resources": list(RESOURCE_NAMES),
        "unit_types": list(TYPE_NAMES),
        "troop_types": list(TROOP_TYPES),
        "phases": [{"code": code, "text": _PHASE_TEXT[code]} for code in get_args(Phase)],
        "asking": [{"code": code, "text": _ASKING_TEXT[code]} for code in get_args(Asking)],
        "chance_purposes": _chance_purposes(),
        "combat_results": [{"code": code, "text": text} for code, text in
                           sorted(_RESULT_TEXT.items())],
        "effects": [
            {"name": effect, "targets": _EFFECT_TARGETS[effect],
             "anytime": effect in ANYTIME_EFFECTS, "text": _EFFECT_TEXT[effect]}
            for effect in EFFECTS
        ],
        "spaces": [_space(space) for space in SPACES],
        "line_cards": [_line_card(card) for card in LINE_CARDS],
        "enemy_cards": [_enemy_card(card) for card in ENEMY_CARDS],
        "angel_cards": [_angel_card(card) for card in ANGEL_CARDS],
        "reward_cards": [_reward_card(year) for year in range(len(REWARD_CARDS))],
        "reward_seat_offsets": {
            str(players): list(offsets) for players, offsets in sorted(SEAT_OFFSETS.items())},
        "reward_seat_rule": "The seat k places clockwise from the chooser (k = (seat - chooser) "
                            "mod players) receives side (chosen + reward_seat_offsets[players]"
                            f"[k]) mod {SIDES}; with three players one side is nobody's.",
        "decks": {
            "start_forts": list(START_FORTS),
            "fort_deck": list(FORT_DECK),
            "troop_deck": list(TROOP_DECK),
            "angel_deck": list(ANGEL_DECK),
            "enemy_decks": [list(deck) for deck in ENEMY_DECKS],
        },
        "constants": {
            "nobody": NOBODY,
            "max_columns": MAX_COLUMNS,
            "forts_per_column": FORTS_PER_COLUMN,
            "troops_per_column": TROOPS_PER_COLUMN,
            "workers_owned": WORKERS,
            "workers_on_wall_at_start": START_WORKERS_ON_WALL,
            "workers_per_year": [workers_in(year) for year in range(len(YEARS))],
            "start_resources": list(START_RESOURCES),
            "forts_per_year": FORTS_PER_YEAR,
            "troops_per_year": TROOPS_PER_YEAR,
            "hand_limit": HAND_LIMIT,
            "enemy_boost": ENEMY_BOOST,
            "destroy_cost_stone": DESTROY_COST_STONE,
            "effect_resources": EFFECT_RESOURCES,
            "targets_needed": {effect: TARGETS_NEEDED[effect] for effect in EFFECTS},
            "reward_sides": SIDES,
            "resources_per_point": RESOURCES_PER_POINT,
            "star_forts": STAR_FORTS,
        },
        "codes": {
            "troop_type": "Line card `troop_type`: index into `unit_types` (0-2), -1 for "
                          "fortifications.",
            "boost": "Line card `boost`: every troop of this type (index into `unit_types`) in "
                     "the owner's Line gets +1 strength; -1 for none.",
            "star": "Line card `star`: final scoring, 1 point per troop of this type (index "
                    f"into `unit_types`) in the Line, or per fortification when it is "
                    f"{STAR_FORTS} (`constants.star_forts`); -1 for none.",
            "cost": "[wood, stone, gold] paid to buy the card (or to take it with the take "
                    "effect).",
            "income": "[wood, stone, gold, angel cards] paid to the owner at the start of every "
                      "Building phase after the one the card arrived in.",
            "enemy": "Enemy card `year` indexes `years`; `type` and `boost_type` index "
                     "`unit_types` (-1 for no boost); `penalty` indexes `resources` (-1 for "
                     "none).",
            "space": "Space `capacity`: 1 for a single-worker space, 0 for unlimited; "
                     "`resources` is the fixed [wood, stone, gold] yield, `choices` the number "
                     "of resources of choice.",
            "reward_side": "Reward side `resources` is [wood, stone, gold]; `pair_type` indexes "
                           "`unit_types` (-1 for none); `strength` applies next year only. "
                           "`threshold` maps the player count to the joint defeats needed.",
        },
    }
