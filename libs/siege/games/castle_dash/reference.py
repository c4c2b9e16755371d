"""Castle Dash reference data: what a client needs to read the views, as plain JSON-ready data.

Everything is built from the game's data modules (``cards``, ``seating``) and its rules
constants, so it cannot drift from what the engine plays. The contract publishes it as
``docs/contract/games/castle-dash.json``; the field descriptions of the events, actions and view
point into it by key (``cards``, ``opponents``, ``phases``, ``battle_steps``, ...).
Castle Dash has no board of spaces: the table is one castle per seat and one battle per pair of
seats that face each other (``opponents``).
"""

from __future__ import annotations

from typing import Any, get_args

from siege.games.castle_dash.cards import CARDS, DECK_SIZE, CardKind, CardSpec
from siege.games.castle_dash.events import LootChoice
from siege.games.castle_dash.rules.battle import (
    BATTLE_DIE,
    BATTLE_PURPOSE,
    CANNON_DIE,
    CANNON_PURPOSE,
)
from siege.games.castle_dash.rules.flow import (
    FIRST_PLAYER_PURPOSE,
    RESHUFFLE_PURPOSE,
    SHUFFLE_PURPOSE,
)
from siege.games.castle_dash.seating import (
    CARDS_PER_PLAYER,
    COINS_TO_WIN,
    LOOT_THRESHOLD,
    MAX_PER_PLACEMENT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPPONENTS,
    START_CANNONBALLS,
    START_COINS,
    START_SOLDIERS,
    soldiers_in_play,
)
from siege.games.castle_dash.state import BattleStep, Phase
from siege.games.castle_dash.views import HIDDEN

NOBODY = -1  # ``holder``, ``winner``: no seat (the state's defaults)

_KIND_TEXT: dict[CardKind, str] = {
    "flag": "Blue flag: resolved in the claim step (step 3), one at a time from the first "
            "player clockwise, each holder's flags in the order it claimed them. Its holder "
            "picks the target only when there are two or more.",
    "battle": "Battle card: its holder may play it in step C of one of its battles this round; "
              "it is then spent until round end.",
    "round": "Round card: works by itself in every battle of its holder, from the claim step to "
             "the end of the round.",
}

_PHASE_TEXT: dict[str, str] = {
    "setup": f"Before round 1: the {DECK_SIZE} Armory cards are shuffled, then a die with one "
             "side per player picks the first player.",
    "reveal": f"Step 1: {CARDS_PER_PLAYER} cards per player are turned face up from the top of "
              "the deck (the discard pile is shuffled into a new deck if it runs short; a view "
              "shows this phase only while that reshuffle is awaited).",
    "place": "Step 2: from the first player clockwise, each turn a seat claims one face-up "
             f"card with one soldier or places 1-{MAX_PER_PLACEMENT} soldiers into a battle it "
             "has not placed in this round. No passing; the step ends when nobody can move.",
    "claim": "Step 3: claimed blue-flag cards resolve; a holder is asked for a target only "
             "when there are two or more.",
    "battle": "Step 4: from the first player clockwise, the active battler resolves each of "
              "its open battles: A choose, B cannonballs, C battle cards, D battle dice. "
              "One-sided battles settle without dice.",
    "loot": "Step 5: castles from the first player's clockwise; on each, attackers with "
            f"{LOOT_THRESHOLD} or more soldiers on the wall, clockwise from the owner's left, "
            "take a rescue or a coin and bring their soldiers home. Then the round ends (or "
            f"the game, if someone has stolen {COINS_TO_WIN} coins).",
    "over": "The game is over; the view's numbers are final.",
}

_STEP_TEXT: dict[str, str] = {
    "cannon_open": "Step B is about to ask for cannonball counts (passing moment, never "
                   "shown in a view).",
    "cannon_wait": "Step B: the battlers with cannonballs choose their counts, sealed; each "
                   "count shows only to its chooser until both are in.",
    "cannon_fire": "Step B: both counts are known; they are spent and the dice requested "
                   "(passing moment, never shown in a view).",
    "cannon_roll": f"Step B: waiting for the d{CANNON_DIE} rolls of the cannonballs, the "
                   "active battler's first.",
    "cards": "Step C: the side `card_side` may play battle cards, then the other side.",
    "dice": "Step D is about to request the battle dice, also after a tie (passing "
            "moment, never shown in a view).",
    "dice_roll": f"Step D: waiting for the d{BATTLE_DIE} battle dice, the active battler's first.",
}

_LOOT_TEXT: dict[str, str] = {
    "rescue": "Free your own captive held by the castle's owner: the soldier rejoins your hand "
              "for the rest of the game and counts as rescued.",
    "coin": "Steal one coin from the castle: it counts towards your stolen coins.",
}


def _card(card: CardSpec) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": card.name,
        "kind": card.kind,
        "amount": card.amount,
        "text": card.text,
    }


def _chance_purposes() -> list[dict[str, Any]]:
    return [
        {"code": SHUFFLE_PURPOSE, "kind": "shuffle", "count": DECK_SIZE,
         "text": f"At the start, the {DECK_SIZE} Armory cards are shuffled into the deck: "
                 "order[k] is the card id that becomes the k-th from the top."},
        {"code": FIRST_PLAYER_PURPOSE, "kind": "dice", "count": 1,
         "text": "One die with as many sides as players picks the first player: face f makes "
                 "seat f - 1 the first player."},
        {"code": RESHUFFLE_PURPOSE, "kind": "shuffle",
         "text": "The deck ran short during a reveal: the discard pile alone (count: its size "
                 "then) becomes the new deck; order[k] is the index, in ascending card-id "
                 "order of the discarded cards, of the card that becomes the k-th from the "
                 "top."},
        {"code": CANNON_PURPOSE, "kind": "dice", "sides": CANNON_DIE,
         "text": f"One d{CANNON_DIE} per cannonball fired in the battle (count: both counts "
                 "together), the active battler's dice first. A cannonball knocks out one "
                 "opposing soldier when its roll is at most the opposing soldiers still "
                 "standing (Master Gunner +1, Iron Helmets -1)."},
        {"code": BATTLE_PURPOSE, "kind": "dice", "sides": BATTLE_DIE,
         "text": f"Battle dice: one d{BATTLE_DIE} per battler, the active battler's first; a "
                 "battler who played Lucky Charm has two and keeps the higher (count 2, or 3 "
                 "with Lucky Charm). Total = die + soldiers in the battle + card bonuses; a "
                 "tie is rolled again with a new request."},
    ]


def reference() -> dict[str, Any]:
    """The reference data of Castle Dash: plain JSON (str keys, lists, str, int)."""
    counts = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    return {
        "game": "castle-dash",
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "seats": "Seats are numbered 0 to players - 1 clockwise; a seat's left neighbour is "
                 "seat + 1 (mod players), its right neighbour seat - 1. Turn order and the "
                 "first-player marker go left. Each seat owns one castle, known by its seat "
                 "number. Per-seat lists in the view are in seat order.",
        "cards": [_card(card) for card in CARDS],
        "card_kinds": [{"code": kind, "text": _KIND_TEXT[kind]} for kind in get_args(CardKind)],
        "deck": "The Armory deck holds each card id once. Its order is never shown, only its "
                "size (the view's `deck_size`).",
        "opponents": {str(n): [list(OPPONENTS[n][seat]) for seat in range(n)] for n in counts},
        "opponents_rule": "`opponents[players][seat]`: the seats that `seat` battles, in the "
                          "order left, right, across (across only with 4 or 6 players). "
                          "Battles are symmetric: each pair of opponents shares one battle.",
        "setup": {
            str(n): {
                "soldiers_in_hand": soldiers_in_play(n),
                "boxed": START_SOLDIERS - len(OPPONENTS[n][0]) - soldiers_in_play(n),
                "hostages": [sorted(OPPONENTS[n][seat]) for seat in range(n)],
            }
            for n in counts
        },
        "setup_rule": "`setup[players]`: every seat starts with `soldiers_in_hand` soldiers "
                      "after giving one captive to each opponent and boxing `boxed`; "
                      "`hostages[seat]` are the seats whose captive it holds at the start.",
        "phases": [{"code": code, "text": _PHASE_TEXT[code]} for code in get_args(Phase)],
        "battle_steps": [{"code": code, "text": _STEP_TEXT[code]}
                         for code in get_args(BattleStep)],
        "chance_purposes": _chance_purposes(),
        "loot_choices": [{"code": code, "text": _LOOT_TEXT[code]}
                         for code in get_args(LootChoice)],
        "ranking": {
            "keys": ["stolen", "rescued", "coins + stolen"],
            "text": "Seats rank by most coins stolen, then most captives rescued, then most "
                    "coins in all (own coins still at home plus coins stolen). Seats equal on "
                    "all three share a place (1, 1, 3).",
        },
        "constants": {
            "deck_size": DECK_SIZE,
            "start_soldiers": START_SOLDIERS,
            "start_coins": START_COINS,
            "start_cannonballs": START_CANNONBALLS,
            "max_per_placement": MAX_PER_PLACEMENT,
            "cards_per_player": CARDS_PER_PLAYER,
            "loot_threshold": LOOT_THRESHOLD,
            "coins_to_win": COINS_TO_WIN,
            "cannon_die": CANNON_DIE,
            "battle_die": BATTLE_DIE,
            "hidden": HIDDEN,
            "nobody": NOBODY,
        },
        "codes": {
            "amount": "Card `amount`: the card's number as the rules use it (bonus, cap, "
                      "reduction, count), 0 when it has none; `text` says how it applies.",
            "hidden": "`battle.shots` entry -1 (`constants.hidden`): not chosen yet, or sealed "
                      "from this seat.",
            "nobody": "-1 (`constants.nobody`) in `holder` or `winner`: no seat.",
            "cards_per_player": "Cards turned face up each round per player.",
            "loot_threshold": "Soldiers an attacker needs on a wall to loot that castle.",
            "coins_to_win": "Stolen coins that end the game after the loot step.",
        },
    }
