"""Castle Assault reference data: what a client needs to read the views, as plain JSON-ready data.

Everything numeric comes from the game's own modules (``cards`` and the ``data_*`` modules,
``heroes``, ``board``, ``decks`` and the rules' constants), so it cannot drift from what the
engine plays. The contract publishes it as ``docs/contract/games/castle-assault.json``; the field
descriptions of the events, actions and view point into it by key (``cards``, ``squares``,
``lanes``, ``rows``, ``heroes``, ``warbands``, ``phases``, ``steps``, ...).
"""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

import msgspec

from siege.games.castle_assault.actions import CASTLE_TARGET
from siege.games.castle_assault.board import (
    BATTLEFIELD_ROWS,
    CASTLE_ARMOR,
    CASTLE_HEALTH,
    CASTLE_ROW,
    LANE_NAMES,
    LANES,
    ROWS,
    on_board,
)
from siege.games.castle_assault.card_model import Effect, EnvKind, Kind, Target, Timing
from siege.games.castle_assault.cards import (
    BY_NAME,
    CARDS,
    ENVIRONMENT_CARDS,
    WARBAND_CARDS,
    WARBAND_NAMES,
    Card,
    stock_deck,
)
from siege.games.castle_assault.decks import MAX_CARDS, MAX_COPIES, MIN_CARDS
from siege.games.castle_assault.engine import DEFAULT_WARBANDS, PLAYERS
from siege.games.castle_assault.heroes import HEROES, Hero
from siege.games.castle_assault.rules.combat import GIGANTIC_HEALTH
from siege.games.castle_assault.rules.effects import CURSED_EXTRA
from siege.games.castle_assault.rules.ending import FINAL_ROLLOFF_PURPOSE, TURN_LIMIT
from siege.games.castle_assault.rules.environment import (
    METER_SPACES,
    MIDDLE_ROWS,
    RESHUFFLE_PURPOSE,
    RUBBLE_LANES,
    SHUFFLE_PURPOSE,
)
from siege.games.castle_assault.rules.hand import HAND_LIMIT
from siege.games.castle_assault.rules.open_phase import (
    CHARGE_PURPOSE,
    GLOBAL_DRAW_COST,
    GLOBAL_MOMENTUM_COST,
    GLOBAL_MOMENTUM_SPACES,
    resource_allowance,
)
from siege.games.castle_assault.rules.setup import OPENING_HAND, ROLLOFF_PURPOSE, deck_purpose
from siege.games.castle_assault.rules.stats import MOMENTUM_MAX, SMASH_AREA, smash_bonus
from siege.games.castle_assault.rules.turn import MOMENTUM_PURPOSE
from siege.games.castle_assault.state import (
    HERO_INSTANCE,
    NOBODY,
    UID_BASE,
    Asking,
    EndReason,
    Phase,
    State,
    Step,
    Window,
)

_SEATS = tuple(range(PLAYERS))

_KIND_TEXT: dict[str, str] = {
    "unit": "A Unit card: paid for with Ready resources and put in a free location of its "
            "owner's castle area; it moves, fights and may take one Unit Action a turn.",
    "command": "A Command card: paid for and resolved at once (its `timing` says when it may "
               "be played); an attachment stays on its unit instead.",
    "environment": "An Environment card: never in a seat's deck; the shared Environment deck "
                   "reveals one at the start and one each time the Environment Meter passes T4.",
    "hero": "The battlefield side of a hero card: the unit a seat's hero becomes when it is "
            "summoned (its Captain and Curse skills are in `heroes`). Never in a deck.",
}

_TIMING_TEXT: dict[str, str] = {
    "": "Not a command (units, Environment cards, heroes).",
    "command": "Played only in its owner's Open Phase, then discarded.",
    "instant": "Played in its owner's Open Phase or in a response window on either seat's "
               "turn (answering with PlayCommand while `asking` is `respond`), then discarded.",
    "attachment": "Played only in its owner's Open Phase on one of its own units; it stays on "
                  "that unit (the view's `attachments`) and goes to the discard pile with it.",
}

_TARGET_TEXT: dict[str, str] = {
    "": "No target, or the card's effect picks its own (see `effects`).",
    "enemy_unit": "An opposing unit.",
    "friendly_unit": "One of the player's own units.",
    "lane": "One of the three lanes.",
    "castle": "The opposing castle.",
    "player": "A player (the one who plays it, or for Cut Supply Lines the opponent).",
}

# What PlayCommand's ``unit`` and ``lane`` (and CommandPlayed's) hold for each command effect:
# "unit" (a uid, lane -1), "lane" (unit -1), "unit_lane" (both) or "none" (both -1).
_EFFECTS: dict[str, tuple[str, str]] = {
    "damage": ("unit", "Damage to the opposing unit `unit` (ignores Armor)."),
    "damage_lane": ("lane", "Damage to every opposing unit in lane `lane` (only lanes that "
                            "hold one are offered)."),
    "lateral": ("unit_lane", "Your unit `unit` moves sideways in its row to lane `lane`."),
    "movement": ("unit", "Your unit `unit` gains Movement (this turn for an Instant, while "
                         "attached for an attachment)."),
    "armor": ("unit", "Your unit `unit` gains Armor (this turn, or while attached)."),
    "attack": ("unit", "Your unit `unit` gains Attack (this turn, or while attached)."),
    "draw": ("none", "You draw cards."),
    "grant_ranged": ("unit", "Your unit `unit`, which has no Ranged ability, gains one while "
                             "attached (the card's `grant`)."),
    "grant_quick": ("unit", "Your unit `unit` gains Quick while attached."),
    "weaken": ("unit", "The opposing unit `unit` loses Attack this turn."),
    "damage_cursed": ("unit", "Damage to the opposing unit `unit`, more if it carries the "
                              "Curse token (`constants.hex_bolt_cursed_extra`)."),
    "bounce": ("unit", "The opposing unit `unit` (never a hero) returns to its owner's hand."),
    "bounce_own": ("unit", "Your unit `unit` (never your hero) returns to your hand."),
    "blink": ("unit_lane", "Your unit `unit` jumps to the free square of lane `lane` in its "
                           "row."),
    "shove": ("unit_lane", "The opposing unit `unit` is moved sideways to lane `lane`."),
    "curse_now": ("unit", "The Curse token goes on the opposing unit `unit` now."),
    "castle_repair": ("none", "Your castle regains lost Health."),
    "ramp": ("none", "The top card of your deck becomes a Ready resource."),
    "ready": ("none", "Some of your exhausted resources become Ready again."),
    "damage_castle": ("none", "Damage to the opposing castle."),
    "advance": ("unit", "Your unit `unit` (not engaged) moves straight ahead now."),
    "damage_wall": ("none", "Damage to every opposing unit in the row just in front of your "
                            "castle area."),
    "push": ("unit", "The opposing unit `unit` is pushed back toward its own castle."),
    "momentum_max": ("none", "The Momentum Meter goes to Max on your side."),
    "panoply": ("unit", "Your unit `unit` gains Attack and Armor while attached."),
    "team_armor": ("none", "Every unit of yours gains Armor this turn."),
    "team_attack": ("none", "Every unit of yours gains Attack this turn."),
    "exhaust": ("none", "Your opponent exhausts some of its Ready resources."),
    "destroy_cheap": ("unit", "The opposing unit `unit` (not a hero, cost at most the card's "
                              "`amount`) is destroyed."),
    "sacrifice": ("unit", "Your unit `unit` (not your hero) is destroyed and you draw."),
    "cleanse": ("unit", "The Curse token leaves your unit `unit`."),
    "damage_all": ("none", "Damage to every unit on the battlefield."),
    "clear_ongoing": ("none", "The Ongoing Environment card in effect is discarded."),
    "extra_action": ("unit", "Your unit `unit`, which took its Unit Action this turn, may take "
                             "another."),
    "recover": ("none", "The Unit card most recently put in your discard pile returns to your "
                        "hand."),
    "ambush": ("unit", "The opposing unit `unit`, standing on the square in front of one of "
                       "your units, takes that unit's Attack as damage."),
}

_ENV_KIND_TEXT: dict[str, str] = {
    "": "Not an Environment card.",
    "immediate": "Happens once when revealed, then goes to the Environment discard pile.",
    "ongoing": "Stays in effect (the view's `ongoing`) until another Ongoing card replaces it "
               "or a command discards it.",
    "field": "Enters the battlefield (the view's `field`) and fills squares with rubble (the "
             "view's `rubble`) until another such card enters; the Ongoing card stays.",
}

_PHASE_TEXT: dict[str, str] = {
    "setup": "Before play: each seat's deck and then the Environment deck are shuffled "
             "(chance purposes `deck_0`, `deck_1`, `environment`), then each seat draws "
             f"{OPENING_HAND}.",
    "mulligan": "Both seats decide at once, in one decision, to keep their opening hand or to "
                "mulligan it once.",
    "rolloff": "Two dice decide who picks the first player (chance purpose `rolloff`).",
    "first": "The roll-off winner names the seat that takes the first turn.",
    "turn": "The game is under way; `step` says where the active seat's turn stands.",
    "final": "The game ended with equal castles (see `ended`); waiting for the final "
             "roll-off (chance purpose `final_rolloff`).",
    "over": "The game is over: `ended` and `ranks` are final.",
}

_STEP_TEXT: dict[str, str] = {
    "": "No turn yet (set-up, mulligan, roll-off, choosing the first player).",
    "opening": "The first player is known; the opening Environment card is about to be "
               "revealed (a passing moment).",
    "env": "Between turns: the Environment Meter moves one space (a passing moment).",
    "reveal": "A new Environment card is being revealed (the view shows it only while the "
              "Environment deck's reshuffle is awaited, chance purpose "
              "`environment_reshuffle`).",
    "begin": "A turn is about to begin (a passing moment).",
    "captain": "Start of Turn: waiting for the momentum die (the meter moves, the active "
               "seat's resources ready and it draws a card), then the Captain choice.",
    "curse": "Start of Turn: the Curse choice.",
    "move": "The response window before Move Units is about to open (a passing moment).",
    "queue": "The `movement` response window before the active seat's Move Units step.",
    "resolve": "A movement or combat under way is being resolved (Move Units, a Charge, a "
               "Quick move, ...); a `combat` response window may be open before a combat.",
    "open": "The active seat's Open Phase: one action at a time until EndTurn.",
    "charge": "A Charge was declared: waiting for its die (chance purpose `charge`).",
    "end": "End of Turn: Quick units move again (a passing moment before `resolve`).",
    "burn": "End of Turn: units that burn lose 1 Health (a passing moment).",
    "discard": "End of Turn: the active seat holds more than the hand limit and discards one "
               "card at a time.",
}

_ASKING_TEXT: dict[str, str] = {
    "": "Nobody is asked: a chance answer is awaited, or the game is over.",
    "mulligan": "Both seats: KeepHand or Mulligan.",
    "first": "The roll-off winner: ChooseFirst.",
    "captain": "The active seat: AssignCaptain or SkipCaptain (asked only when it has a unit "
               "that may be Captain).",
    "curse": "The active seat: CurseUnit or SkipCurse (asked only when its hero may place the "
             "Curse token).",
    "open": "The active seat, in its Open Phase: any legal Open Phase action, EndTurn to stop.",
    "respond": "The seat asked in the open response window (the view's `window`): "
               "PassResponse, or an Instant (PlayCommand).",
    "discard": "The active seat, over the hand limit: DiscardCard.",
}

_WINDOW_TEXT: dict[str, str] = {
    "": "No response window is open.",
    "movement": "Before the active seat's Move Units step.",
    "combat": "Before a combat resolves (its attacker is the view's `fighting`).",
}

_END_TEXT: dict[str, str] = {
    "": "The game has not ended.",
    "castle": "A castle fell to 0 Health or less; its owner lost.",
    "hero": "A hero on the battlefield was destroyed; its owner lost.",
    "castles": "Both sides lost at the same moment: the castle with more Health won, equal "
               "castles went to a roll-off.",
    "cards": "Both decks and hands ran out and no unit could move on: the castle with more "
             "Health won, equal castles went to a roll-off.",
    "turn_limit": f"Turn {TURN_LIMIT} ended (our own limit): the castle with more Health won, "
                  "equal castles went to a roll-off.",
}

_CARD_FIELDS: dict[str, str] = {
    "id": "The card id: its index in `cards`, the number views and events use for a card.",
    "name": "The card's name (unique).",
    "kind": "One of `card_kinds`: unit, command, environment, hero.",
    "warband": "The warband key it belongs to (a key of `warbands`) or `neutral`.",
    "cost": "Ready resources exhausted to play it.",
    "text": "What the card does, in words.",
    "ours": "True when Siegeworks designed the card; false when the rulebook names it.",
    "movement": "Printed Movement: squares it moves straight ahead in Move Units.",
    "attack": "Printed Attack.",
    "armor": "Printed Armor: subtracted from the Attack of units that hit it.",
    "health": "Printed Health.",
    "quick": "Quick: moves again at its owner's End of Turn, unless engaged.",
    "gigantic": "Gigantic: while engaged with the opposing castle it takes "
                f"{GIGANTIC_HEALTH} Health off it (given back when it no longer is).",
    "lord": "Lord: at most one in play per seat; never a Captain.",
    "epic": "Epic: at most one copy in a deck; never a Captain.",
    "aura": "Absent when none. `size`: squares covered in its own lane, half ahead and half "
            "behind; `stat` (attack or armor) changes by `amount` for friendly units, or for "
            "opposing units when `foes` (a Hex Aura).",
    "ranged": "Absent when none. Its Ranged ability, a Unit Action: reaches `low` to `high` "
              "spaces ahead (a lane change counts as a space); `spread`: neighbouring lanes too "
              "(Ranged Adjacent); `blast`: hits every unit in reach, friends too; `battering`: "
              "may shoot the castle when no opposing unit is in its lane; `blunt`: may shoot "
              "the castle, a defender in the lane's castle location taking the shot.",
    "build": "Build it grants while in play.",
    "needs_build": "Build that must be available to play it, and that it then uses.",
    "max_attack": "Extra Attack while its side holds Momentum Max.",
    "haste": "Haste: may take a Unit Action the turn it arrives.",
    "defense": "Defense: units attacking it get no Smash Bonus (so no Momentum Bonus).",
    "cannot_charge": "Cannot Charge: never takes the Charge action.",
    "phase": "Phase: passes through friendly units while moving.",
    "ram": "Ram: damage beyond a destroyed castle defender's Health hits the castle.",
    "consume": "Consume: after destroying the unit it engaged (and surviving) it strikes the "
               "castle, if that unit defended it, or moves its Movement again.",
    "resurrection": "Resurrection: the first time it is destroyed it comes back to its castle "
                    "area.",
    "burns": "Loses 1 Health at each End of Turn of its owner.",
    "marked_back": "A different card back: everyone can tell it face down (the view's "
                   "`marked_hand`, `marked_resources`, `marked_top`).",
    "gloat": "Extra Attack while the Curse token lies on an opposing unit.",
    "blooded": "Extra Attack while it is damaged.",
    "stalwart": "Extra Armor while it stands in its own castle area.",
    "max_armor": "Extra Armor while its side holds Momentum Max.",
    "wallbreaker": "Extra Attack while engaged with the undefended opposing castle.",
    "timing": "For commands, one of `timings`: command, instant, attachment.",
    "effect": "For commands, one of `effects`: what it does and what PlayCommand's `unit` and "
              "`lane` name.",
    "target": "For commands, one of `targets`: what it aims at (for people; PlayCommand's "
              "fields follow `effects`).",
    "amount": "The card's number as its effect uses it (damage, bonus, spaces, cards, cost "
              "cap; negative for a penalty); 0 when it has none.",
    "grant": "Absent when none. The Ranged ability an attachment gives (fields as `ranged`).",
    "cannot_stack": "Cannot Stack: may not go on a unit that already has Quick.",
    "env": "For Environment cards, one of `environment_kinds`: immediate, ongoing, field.",
    "env_effect": "For Environment cards, the effect code the rules apply (`text` says it in "
                  "words).",
}

_HERO_FIELDS: dict[str, str] = {
    "key": "The hero's key (the warband key it was made for); any hero may lead any warband.",
    "name": "The hero's name, also the name of its battlefield card.",
    "card": "Card id of its battlefield side in `cards` (kind hero).",
    "warband": "The warband it was made for.",
    "captain_text": "Its Captain skill, in words: what the unit carrying its Captain token "
                    "gains.",
    "curse_text": "Its Curse skill, in words: what the unit carrying the Curse token it placed "
                  "suffers.",
    "charge_movement": "Captain: extra spaces on a Charge.",
    "charge_roll": "Captain: the lowest Charge die that grants `charge_attack` (7: never).",
    "charge_attack": "Captain: extra Attack on a Charge whose die reaches `charge_roll`.",
    "armor": "Captain: extra Armor, always.",
    "attack": "Captain: extra Attack, always.",
    "curse_attack": "Curse: the cursed unit's change of Attack.",
    "curse_movement": "Curse: the cursed unit's change of Movement.",
    "curse_armor": "Curse: the cursed unit's change of Armor.",
}


def _card(card: Card) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in msgspec.to_builtins(card).items():
        if value is not None:
            data[key] = value
    if not data["text"] and card.kind == "unit":
        data["text"] = "No special ability: it moves and fights with its printed numbers."
    return data


def _hero(key: str, hero: Hero) -> dict[str, Any]:
    data: dict[str, Any] = {"key": key}
    data.update(msgspec.to_builtins(hero))
    data["card"] = BY_NAME[hero.name].id
    return data


def _row_area(row: int) -> tuple[str, int]:
    """("castle", seat) for a castle-area row, ("battlefield", -1) for the rows between."""
    for seat in _SEATS:
        if row == CASTLE_ROW[seat]:
            return "castle", seat
    return "battlefield", NOBODY


def _row(row: int) -> dict[str, Any]:
    area, owner = _row_area(row)
    if area == "castle":
        text = (f"Seat {owner}'s castle area: one location per lane, where seat {owner}'s "
                "units and hero enter; opposing units never enter it.")
    else:
        text = (f"Battlefield row: {row} from seat 0's castle area, "
                f"{ROWS - 1 - row} from seat 1's.")
    if row in MIDDLE_ROWS:
        text += " One of the two middle rows."
    return {"index": row, "area": area, "owner": owner, "text": text}


def _square(lane: int, row: int) -> dict[str, Any]:
    area, owner = _row_area(row)
    where = f"seat {owner}'s castle area" if area == "castle" else "battlefield"
    steps = ((lane, row + 1), (lane, row - 1), (lane - 1, row), (lane + 1, row))
    return {
        "lane": lane,
        "row": row,
        "name": f"{LANE_NAMES[lane]} lane, row {row} ({where})",
        "area": area,
        "owner": owner,
        "neighbours": [[ln, r] for ln, r in steps if on_board(ln, r)],
        "ahead": [[lane, r] if on_board(lane, r) else [] for r in (row + 1, row - 1)],
    }


def _momentum() -> dict[str, Any]:
    spaces = []
    for value in range(-MOMENTUM_MAX, MOMENTUM_MAX + 1):
        seat = 0 if value > 0 else 1
        favour = abs(value)
        if value == 0:
            name = "START"
        elif favour == MOMENTUM_MAX:
            name = f"MAX for seat {seat}"
        else:
            name = f"{favour} toward seat {seat}"
        spaces.append({
            "value": value,
            "name": name,
            "max_for": [seat] if favour == MOMENTUM_MAX else [],
            "smash_area_for": [seat] if value and favour > MOMENTUM_MAX - SMASH_AREA else [],
        })
    return {
        "min": -MOMENTUM_MAX,
        "max": MOMENTUM_MAX,
        "spaces": spaces,
        "text": "The view's `momentum`: positive stands on seat 0's side (in its favour), "
                "negative on seat 1's. Each turn's momentum die moves it that many spaces "
                f"toward the active seat's side, stopping at Max ({MOMENTUM_MAX}). A seat "
                f"holds Momentum Max at {MOMENTUM_MAX} on its side; the {SMASH_AREA} spaces "
                "nearest its end are its Charging Smash area (a Charge with a Smash there adds "
                "+1 Attack, the Momentum Bonus).",
    }


def _environment_meter() -> dict[str, Any]:
    names = ["START"] + [f"T{i}" for i in range(1, METER_SPACES)]
    return {
        "spaces": [{"value": i, "name": name} for i, name in enumerate(names)],
        "text": "The view's `env_meter`. It moves one space between turns by itself; moving "
                f"on from T{METER_SPACES - 1} back to START reveals a new Environment card "
                f"(so after every {METER_SPACES}th turn). The opening card is revealed before "
                "turn 1.",
    }


def _chance_purposes() -> list[dict[str, Any]]:
    decks = [{"code": deck_purpose(seat), "kind": "shuffle",
              "text": f"Seat {seat}'s whole deck list is shuffled at set-up (count: its size): "
                      "order[k] is the card instance that becomes k-th from the top."}
             for seat in _SEATS]
    return decks + [
        {"code": SHUFFLE_PURPOSE, "kind": "shuffle", "count": len(ENVIRONMENT_CARDS),
         "text": "The Environment deck is shuffled at set-up: order[k] is the index into "
                 "`environment_deck` of the card that becomes k-th from the top."},
        {"code": ROLLOFF_PURPOSE, "kind": "dice", "count": 2, "sides": 6,
         "text": "The roll-off: seat 0's die first; the higher die chooses the first player, "
                 "equal dice roll again (the view's `rolls` keeps the last pair)."},
        {"code": MOMENTUM_PURPOSE, "kind": "dice", "count": 1, "sides": 6,
         "text": "At the start of every turn: the Momentum Meter moves that many spaces toward "
                 "the active seat's side, stopping at Max."},
        {"code": CHARGE_PURPOSE, "kind": "dice", "count": 1, "sides": 6,
         "text": "A Charge: the unit moves the die plus its Movement bonuses (and the "
                 "Captain's Charge movement), never its printed Movement."},
        {"code": RESHUFFLE_PURPOSE, "kind": "shuffle",
         "text": "The Environment deck ran out: its discard pile (count: its size) becomes the "
                 "deck; order[k] is the index, in ascending card-id order of the discarded "
                 "cards, of the card that becomes k-th from the top."},
        {"code": FINAL_ROLLOFF_PURPOSE, "kind": "dice", "count": 2, "sides": 6,
         "text": "Equal castles at the end: seat 0's die first, the higher die wins, equal "
                 "dice roll again (not shown in the view's `rolls`)."},
    ]


def _resource_allowance() -> dict[str, int]:
    probe = State(warbands=[], cards=[[], []], first=0, seat_turns=[1, 1])
    return {"per_turn": resource_allowance(probe, 0),
            "second_player_first_turn": resource_allowance(probe, 1)}


def reference() -> dict[str, Any]:
    """The reference data of Castle Assault: plain JSON (str keys, lists, str, int, bool)."""
    allowance = _resource_allowance()
    return {
        "game": "castle-assault",
        "players": {"min": PLAYERS, "max": PLAYERS},
        "seats": "Two seats, 0 and 1. Per-seat lists in the view are in seat order. Seat 0's "
                 f"castle area is row {CASTLE_ROW[0]} and its units move toward higher rows; "
                 f"seat 1's is row {CASTLE_ROW[1]} and its units move toward lower rows.",
        "board": {
            "lanes": LANES,
            "rows": ROWS,
            "battlefield_rows": BATTLEFIELD_ROWS,
            "castle_rows": list(CASTLE_ROW),
            "middle_rows": list(MIDDLE_ROWS),
            "text": f"A grid of {LANES} lanes by {ROWS} rows. Lanes are numbered 0-2 from seat "
                    "0's left, the same for both seats; rows are absolute. A unit moves "
                    "straight ahead in its lane; there are no diagonals. A unit is engaged "
                    "when the square straight ahead holds an opposing unit, or is the opposing "
                    "castle area with no unit in that lane's location.",
        },
        "lanes": [{"index": i, "name": name} for i, name in enumerate(LANE_NAMES)],
        "rows": [_row(row) for row in range(ROWS)],
        "squares": [_square(lane, row) for row in range(ROWS) for lane in range(LANES)],
        "squares_rule": "One entry per square, row by row: `lane` and `row` are the numbers a "
                        "unit's position and a `rubble` entry use. `neighbours`: the squares "
                        "next to it (no diagonals); `ahead[seat]`: the square a unit of that "
                        "seat moves into next, [] off the board.",
        "rubble_lanes": {effect: lane for effect, lane in sorted(RUBBLE_LANES.items())},
        "momentum": _momentum(),
        "environment_meter": _environment_meter(),
        "cards": [_card(card) for card in CARDS],
        "card_fields": _CARD_FIELDS,
        "card_kinds": [{"code": k, "text": _KIND_TEXT[k]} for k in get_args(Kind)],
        "timings": [{"code": t, "text": _TIMING_TEXT[t]} for t in get_args(Timing)],
        "targets": [{"code": t, "text": _TARGET_TEXT[t]} for t in get_args(Target)],
        "effects": [{"code": code, "play_command": _EFFECTS[code][0], "text": _EFFECTS[code][1]}
                    for code in get_args(Effect) if code],
        "effects_rule": "PlayCommand's (and CommandPlayed's) `unit` and `lane` by the card's "
                        "effect: `unit` a uid (lane -1), `lane` a lane (unit -1), `unit_lane` "
                        "both (the lane is where the unit goes), `none` both -1.",
        "environment_kinds": [{"code": k, "text": _ENV_KIND_TEXT[k]} for k in get_args(EnvKind)],
        "environment_deck": list(ENVIRONMENT_CARDS),
        "heroes": [_hero(key, hero) for key, hero in HEROES.items()],
        "hero_fields": _HERO_FIELDS,
        "warbands": [{"key": key, "name": name, "hero": key,
                      "stock_deck": stock_deck(key)}
                     for key, name in WARBAND_NAMES.items() if key in WARBAND_CARDS],
        "decks": {
            "min_cards": MIN_CARDS,
            "max_cards": MAX_CARDS,
            "max_copies": MAX_COPIES,
            "default_warbands": DEFAULT_WARBANDS.split(","),
            "text": "A seat's cards are instances 0..n-1 of its deck list: hands, resources, "
                    "discards and events name cards by instance, views also by card id. With "
                    "the `warbands` match option a seat plays `warbands[].stock_deck` (its "
                    "list is the card id of each instance, in order). With the `decks` option "
                    "the instances are the deck's cards in ascending card-id order, copies "
                    "side by side. A legal deck: one warband's cards plus neutral cards, "
                    f"{MIN_CARDS} to {MAX_CARDS} in all, at most {MAX_COPIES} copies of a card "
                    "and an Epic card once, and a hero.",
        },
        "phases": [{"code": c, "text": _PHASE_TEXT[c]} for c in get_args(Phase)],
        "steps": [{"code": c, "text": _STEP_TEXT[c]} for c in get_args(Step)],
        "asking": [{"code": c, "text": _ASKING_TEXT[c]} for c in get_args(Asking)],
        "windows": [{"code": c, "text": _WINDOW_TEXT[c]}
                    for c in ("", *get_args(get_type_hints(Window)["kind"]))],
        "end_reasons": [{"code": c, "text": _END_TEXT[c]} for c in get_args(EndReason)],
        "chance_purposes": _chance_purposes(),
        "constants": {
            "castle_health": CASTLE_HEALTH,
            "castle_armor": CASTLE_ARMOR,
            "gigantic_castle_health": GIGANTIC_HEALTH,
            "opening_hand": OPENING_HAND,
            "hand_limit": HAND_LIMIT,
            "resources_per_turn": allowance["per_turn"],
            "resources_second_player_first_turn": allowance["second_player_first_turn"],
            "momentum_max": MOMENTUM_MAX,
            "smash_area": SMASH_AREA,
            "smash_bonus": smash_bonus(State(warbands=[], cards=[[], []])),
            "environment_meter_spaces": METER_SPACES,
            "shift_momentum_cost": GLOBAL_MOMENTUM_COST,
            "shift_momentum_spaces": GLOBAL_MOMENTUM_SPACES,
            "buy_draw_cost": GLOBAL_DRAW_COST,
            "hex_bolt_cursed_extra": CURSED_EXTRA,
            "turn_limit": TURN_LIMIT,
            "uid_base": UID_BASE,
            "hero_instance": HERO_INSTANCE,
            "castle_target": CASTLE_TARGET,
            "nobody": NOBODY,
        },
        "codes": {
            "uid": f"A unit's uid is seat * {UID_BASE} + instance (its card's position in the "
                   f"seat's deck list); a hero on the battlefield is seat * {UID_BASE} + "
                   f"{HERO_INSTANCE}. A resurrected unit keeps its uid.",
            "castle_code": "In a clash's `target`, -1 - seat names that seat's castle: -1 seat "
                           "0's, -2 seat 1's.",
            "castle_target": f"UseAbility / AbilityUsed `target` {CASTLE_TARGET} "
                             "(`constants.castle_target`): a shot at the opposing castle; -1: a "
                             "blast at everything in reach.",
            "nobody": "-1 (`constants.nobody`): no seat, no unit or no card, where a view field "
                      "says so.",
            "resources": f"A seat places {allowance['per_turn']} resource a turn "
                         f"({allowance['second_player_first_turn']} on the second player's "
                         "first turn); all its resources ready at the start of its turn.",
            "smash": "Smash Bonus: a unit blocked by an enemy or castle with distance still to "
                     "go gains `constants.smash_bonus` Attack (Battle Fervor adds 1).",
        },
    }
