"""Sally Forth (``mission``) reference data: what a client needs to read the views, as plain
JSON-ready data.

Everything is built from the game's data modules (``cards``, ``missions``, ``tuning``) and its
rules constants, so it cannot drift from what the engine plays. The contract publishes it as
``docs/contract/games/mission.json``; the field descriptions of the events, actions and view
point into it by key (``cards``, ``missions``, ``phases``, ``chance_purposes``, ...).
The game has no board: the table is two mission slots (0 and 1), each holding one mission card.
"""

from __future__ import annotations

from typing import Any, get_args

from siege.games.mission.cards import (
    CARD_TYPES,
    DECK_SIZE,
    DECKLIST,
    CardKind,
    CardSpec,
    cards_of,
)
from siege.games.mission.missions import MISSION_COUNT, MISSIONS, MissionSpec
from siege.games.mission.rules.flow import (
    FIRST_PLAYER_PURPOSE,
    MISSIONS_PURPOSE,
    deck_purpose,
    reshuffle_purpose,
)
from siege.games.mission.state import EndReason, Phase
from siege.games.mission.tuning import (
    COMBAT_POINTS,
    DEPLOYS_PER_TURN,
    NOBODY,
    OPENING_HAND,
    PLAYERS,
    SLOTS,
    TURN_LIMIT,
    WIN_POINTS,
)

_KIND_TEXT: dict[CardKind, str] = {
    "maneuver": "Deployed from the hand into play, unswerved. In close combat it may be "
                "swerved for its speed (it stays in play, swerved, until a regroup); in an "
                "assault it may be stashed at the mission for its speed, which takes it out "
                "of play. Its text works only while it is in play.",
    "unit": "Deployed from the hand at one of the two mission slots, where it stays until it "
            "is destroyed in a close combat there. Its strength counts for its side in close "
            "combat at that slot.",
}

_PHASE_TEXT: dict[str, str] = {
    "setup": "Before the first turn: the mission deck, then seat 0's and seat 1's decks are "
             "shuffled and a two-sided die picks the first player.",
    "start": "A turn is about to begin; the turn limit is checked here (passing moment, "
             "never shown in a view).",
    "assault": "Assault phase: the active seat picks a mission to assault; with no unswerved "
               "maneuver in play it may skip instead.",
    "combat": "Close combat at the assaulted mission: the side not ahead (the attacker on a "
              "tie) swerves a maneuver or yields.",
    "stash": "The assaulting seat stashes one unswerved maneuver at the assaulted mission; "
             "then its stashed speed there is checked against the difficulty.",
    "deploy": f"Deploy phase: up to {DEPLOYS_PER_TURN} times, the active seat deploys a "
              "maneuver or a unit or regroups, or it stops.",
    "draw": "The active seat draws its top card (its discard pile is shuffled into a new deck "
            "first when the deck is empty; a view shows this phase only while that reshuffle "
            "is awaited); then the other seat's turn starts.",
    "over": "The game is over (see the view's `ended`); the points are final.",
}

_END_TEXT: dict[str, str] = {
    "": "The game goes on.",
    "points": f"A seat reached {WIN_POINTS} points, checked at the end of each phase (an "
              "assault always runs to the end of its stash first).",
    "missions": "A completed mission could not be replaced: the mission deck was empty.",
    "turns": f"{TURN_LIMIT} turns in all were played.",
}


def _card_text(spec: CardSpec) -> str:
    if spec.kind == "maneuver":
        head = f"Maneuver, speed {spec.speed}."
    else:
        head = f"Unit, strength {spec.strength}."
    return f"{head} {spec.text or 'No special text.'}"


def _card(number: int) -> dict[str, Any]:
    spec = CARD_TYPES[DECKLIST[number]]
    return {
        "number": number,
        "type": spec.id,
        "name": spec.name,
        "kind": spec.kind,
        "speed": spec.speed,
        "strength": spec.strength,
        "text": _card_text(spec),
    }


def _card_type(spec: CardSpec) -> dict[str, Any]:
    return {
        "id": spec.id,
        "name": spec.name,
        "kind": spec.kind,
        "speed": spec.speed,
        "strength": spec.strength,
        "text": _card_text(spec),
        "numbers": list(cards_of(spec.id)),
    }


def _mission(spec: MissionSpec) -> dict[str, Any]:
    return {
        "id": spec.id,
        "name": spec.name,
        "difficulty": spec.difficulty,
        "points": spec.points,
        "text": f"Completed by the seat whose own stashed speed here reaches {spec.difficulty} "
                f"after one of its stashes; worth {spec.points} points.",
    }


def _chance_purposes() -> list[dict[str, Any]]:
    purposes: list[dict[str, Any]] = [{
        "code": MISSIONS_PURPOSE, "kind": "shuffle", "count": MISSION_COUNT,
        "text": f"Setup: the {MISSION_COUNT} mission cards are shuffled; order[k] is the "
                "mission id that becomes the k-th from the top (the top two are dealt to "
                "slots 0 and 1)."}]
    purposes += [{
        "code": deck_purpose(seat), "kind": "shuffle", "count": DECK_SIZE,
        "text": f"Setup: seat {seat}'s {DECK_SIZE}-card deck is shuffled; order[k] is the card "
                "number that becomes the k-th from the top."} for seat in range(PLAYERS)]
    purposes.append({
        "code": FIRST_PLAYER_PURPOSE, "kind": "dice", "count": 1, "sides": PLAYERS,
        "text": f"A {PLAYERS}-sided die picks the first player: face f makes seat f - 1 the "
                f"first player. Then both seats draw {OPENING_HAND} cards."})
    purposes += [{
        "code": reshuffle_purpose(seat), "kind": "shuffle",
        "text": f"Seat {seat} must draw with an empty deck: its discard pile (count: its size "
                "then) becomes its new deck; order[k] is the index, in ascending card-number "
                "order of the discarded cards, of the card that becomes the k-th from the top."}
        for seat in range(PLAYERS)]
    return purposes


def reference() -> dict[str, Any]:
    """The reference data of Sally Forth: plain JSON (str keys, lists, str, int)."""
    return {
        "game": "mission",
        "title": "Sally Forth",
        "players": {"min": PLAYERS, "max": PLAYERS},
        "seats": "Seats are numbered 0 and 1; turns alternate, starting with the first player. "
                 "Per-seat lists in the view are indexed by seat number.",
        "slots": f"{SLOTS} missions are in play at once, in slots 0 to {SLOTS - 1}. Units and "
                 "stashes belong to a slot: units stay there when its mission is replaced, "
                 "stashes are discarded when it is completed.",
        "cards": [_card(number) for number in range(DECK_SIZE)],
        "cards_rule": f"Both seats play the same {DECK_SIZE}-card deck. A card is known by its "
                      "number (index into `cards`) and its owner, which follows from where it "
                      "lies (a seat's hand, deck, discard pile, maneuvers, or that seat's "
                      "entry of a slot's `units` or `stashed`).",
        "card_types": [_card_type(spec) for spec in CARD_TYPES],
        "card_kinds": [{"code": kind, "text": _KIND_TEXT[kind]} for kind in get_args(CardKind)],
        "missions": [_mission(spec) for spec in MISSIONS],
        "phases": [{"code": code, "text": _PHASE_TEXT[code]} for code in get_args(Phase)],
        "end_reasons": [{"code": code, "text": _END_TEXT[code]} for code in get_args(EndReason)],
        "chance_purposes": _chance_purposes(),
        "ranking": {
            "keys": ["points", "missions completed"],
            "text": "Seats rank by most points, then most missions completed; seats equal on "
                    "both share the place.",
        },
        "constants": {
            "players": PLAYERS,
            "slots": SLOTS,
            "deck_size": DECK_SIZE,
            "mission_count": MISSION_COUNT,
            "opening_hand": OPENING_HAND,
            "deploys_per_turn": DEPLOYS_PER_TURN,
            "combat_points": COMBAT_POINTS,
            "win_points": WIN_POINTS,
            "turn_limit": TURN_LIMIT,
            "nobody": NOBODY,
        },
        "codes": {
            "nobody": "-1 (`constants.nobody`): no mission in a slot, no card, no seat, no "
                      "slot.",
            "card": "Card `type` indexes `card_types`; `speed` is 0 for units, `strength` 0 "
                    "for maneuvers (Drill Sergeant's printed strength is 0 too).",
            "combat_points": "Points the winner of a close combat scores.",
            "win_points": "Points that end the game at the end of a phase.",
            "turn_limit": "Turns in all, both seats' counted, after which the game ends.",
        },
    }
