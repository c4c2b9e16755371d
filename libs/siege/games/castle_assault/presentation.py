"""Castle Assault (``castle-assault``) for people at a terminal: the battlefield drawn from one
seat's view (:mod:`.presentation_board`), the actions and events in words, and a short summary
of the rules.

Actions are read with the choosing seat's view beside them, so they name every card. Castle
Assault's events name cards by deck instance (a position in a seat's deck list), which only the
match's create turns into cards: the presentation of a match (``for_match``, which the narrator
takes from the match's first event) names them ("Blue's Brood Wurm #12", with the number the
board prints beside it); without it a line says "Blue's unit #12". One event carries a hidden
value: :class:`~.events.ResourcePlaced`, whose card lies face down; only its owner is told
which one it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import Any

from siege.contracts.events import MatchCreated
from siege.engine.presentation import Names, Presentation
from siege.engine.presentation import sentence as _line
from siege.engine.presentation import who as _who
from siege.engine.presentation import whose as _whose
from siege.games.castle_assault import actions as a
from siege.games.castle_assault import events as e
from siege.games.castle_assault.board import CASTLE_ROW, ROWS, forward
from siege.games.castle_assault.cards import Card
from siege.games.castle_assault.presentation_board import (
    CASTLE_HEALTH,
    CONST,
    HAND_LIMIT,
    MOMENTUM_MAX,
    card,
    card_name,
    clause,
    draw,
    hero_of,
    lane_name,
    momentum_words,
    seat_name,
    tag,
    unit_of,
    where,
)
from siege.games.castle_assault.presentation_scene import group, scene, target
from siege.games.castle_assault.reference import reference
from siege.games.castle_assault.state import UID_BASE
from siege.games.castle_assault.views import CastleAssaultView, UnitView

# What PlayCommand's unit and lane name, by the card's effect: unit, lane, unit_lane or none.
_TARGETS: dict[str, str] = {fx["code"]: fx["play_command"] for fx in reference()["effects"]}


# --- words ------------------------------------------------------------------------------------






def _their(seat: int, told: int | None) -> str:
    return "your" if told is not None and told == seat else "their"




Decks = list[list[int]] | None
"""Each seat's card ids by deck instance (the match's), or None where the match is not known."""


def _instance(decks: Decks, seat: int, instance: int, kind: str) -> str:
    """A card of a seat's deck by its number: "Brood Wurm #7", or "unit #7" unknown."""
    if decks is not None and 0 <= seat < len(decks) and 0 <= instance < len(decks[seat]):
        return f"{card_name(decks[seat][instance])} #{instance}"
    return f"{kind} #{instance}"


def _unit_ref(names: Names, uid: int, told: int | None, actor: int,
              decks: Decks = None) -> str:
    """A unit named in an event by ``actor``: "Blue's Brood Wurm #12", "their unit #3", "your
    hero"."""
    owner = uid // UID_BASE
    whose = _their(owner, told) if owner == actor else _whose(names, owner, told)
    mark = tag(uid)
    if mark == "hero":
        return f"{whose} hero"
    return f"{whose} {_instance(decks, owner, uid % UID_BASE, 'unit')}"


def _in_hand(view: CastleAssaultView, instance: int) -> int:
    """The card id of an instance in the view's own hand, or -1."""
    for held, number in zip(view.hand, view.hand_cards, strict=False):
        if held == instance:
            return number
    return -1


def _owned(view: CastleAssaultView, names: Names, unit: UnitView) -> str:
    """A unit by owner and card, as the viewing seat says it: your Drake, Blue's Drake."""
    whose = "your" if unit.seat == view.seat else f"{seat_name(names, unit.seat)}'s"
    return f"{whose} {card_name(unit.card)}"


def _unit(view: CastleAssaultView, names: Names, uid: int) -> str:
    """A unit on the battlefield as a seat sees it: "Blue's Drake (centre lane, row 5)"."""
    unit = unit_of(view, uid)
    if unit is None:
        owner = uid // UID_BASE
        whose = "your" if owner == view.seat else f"{seat_name(names, owner)}'s"
        return f"{whose} unit {tag(uid)}"
    return f"{_owned(view, names, unit)} ({where(unit)})"


def _spaces(count: int) -> str:
    return "1 space" if count == 1 else f"{count} spaces"


def _ahead(view: CastleAssaultView, names: Names, unit: UnitView) -> str:
    """What stands first in the unit's way: "Blue's Drake 3 spaces ahead"."""
    enemy = 1 - unit.seat
    at = {(u.lane, u.row): u for u in view.units}
    rubble = {(lane, row) for lane, row in view.rubble}
    for steps in range(1, ROWS):
        row = unit.row + steps * forward(unit.seat)
        other = at.get((unit.lane, row))
        if other is not None:
            return f"{_owned(view, names, other)} {_spaces(steps)} ahead"
        if (unit.lane, row) in rubble:
            return f"rubble {_spaces(steps)} ahead"
        if row == CASTLE_ROW[enemy]:
            return f"{seat_name(names, enemy)}'s castle {_spaces(steps)} ahead"
    return "nothing ahead"


# --- actions ----------------------------------------------------------------------------------


def _keep(action: a.KeepHand, view: CastleAssaultView, names: Names) -> str:
    return "keep your opening hand: " + ", ".join(card_name(c) for c in view.hand_cards)


def _mulligan(action: a.Mulligan, view: CastleAssaultView, names: Names) -> str:
    count = len(view.hand) or CONST["opening_hand"]
    return (f"mulligan: put these {count} cards under your deck and draw {count} new ones "
            "(once a game)")


def _choose_first(action: a.ChooseFirst, view: CastleAssaultView, names: Names) -> str:
    if action.first == view.seat:
        return "take the first turn yourself"
    return (f"let {seat_name(names, action.first)} take the first turn (you may place "
            f"{CONST['resources_second_player_first_turn']} resources on your first)")


def _assign_captain(action: a.AssignCaptain, view: CastleAssaultView, names: Names) -> str:
    hero = hero_of(view, view.seat)
    skill = clause(hero.captain_text.removeprefix("Captain: ")) if hero else "its skill"
    return f"make {_unit(view, names, action.unit)} your Captain: {skill}"


def _skip_captain(action: a.SkipCaptain, view: CastleAssaultView, names: Names) -> str:
    return "assign no Captain this turn"


def _curse(action: a.CurseUnit, view: CastleAssaultView, names: Names) -> str:
    hero = hero_of(view, view.seat)
    curse = clause(hero.curse_text.removeprefix("Curse: ")) if hero else "your hero's Curse"
    return f"curse {_unit(view, names, action.unit)}: {curse}"


def _skip_curse(action: a.SkipCurse, view: CastleAssaultView, names: Names) -> str:
    return "curse no unit this turn"


def _resources(view: CastleAssaultView) -> tuple[int, int]:
    """(resources, ready ones) of the seat whose view it is."""
    if not 0 <= view.seat < len(view.ready):
        return 0, 0
    return view.resource_counts[view.seat], view.ready[view.seat]


def _place(action: a.PlaceResource, view: CastleAssaultView, names: Names) -> str:
    count, ready = _resources(view)
    return (f"place {card_name(_in_hand(view, action.card))} face down as a resource "
            f"(then {count + 1}, {ready + 1} ready)")


def _text(found: Card) -> str:
    return f" - {found.text.rstrip('.')}" if found.text else ""


def _play_unit(action: a.PlayUnit, view: CastleAssaultView, names: Names) -> str:
    found = card(_in_hand(view, action.card))
    if found is None:
        return f"play a unit in the {lane_name(action.lane)} location of your castle area"
    return (f"play {found.name} (cost {found.cost}) in the {lane_name(action.lane)} location "
            f"of your castle area: Movement {found.movement}, Attack {found.attack}, Armor "
            f"{found.armor}, Health {found.health}{_text(found)}")


def _play_command(action: a.PlayCommand, view: CastleAssaultView, names: Names) -> str:
    found = card(_in_hand(view, action.card))
    if found is None:
        return "play a command"
    text = f"play {found.name} (cost {found.cost})"
    kind = _TARGETS.get(found.effect, "none")
    if kind == "unit_lane":
        text += (f", moving {_unit(view, names, action.unit)} to the "
                 f"{lane_name(action.lane)} lane")
    elif action.unit >= 0:
        text += f" on {_unit(view, names, action.unit)}"
    elif action.lane >= 0:
        text += f" on the {lane_name(action.lane)} lane"
    return text + _text(found)


def _shift(action: a.ShiftMomentum, view: CastleAssaultView, names: Names) -> str:
    step = CONST["shift_momentum_spaces"] * (1 if action.toward == 0 else -1)
    after = max(-MOMENTUM_MAX, min(MOMENTUM_MAX, view.momentum + step))
    side = ("your side" if action.toward == view.seat
            else f"{seat_name(names, action.toward)}'s side")
    return (f"exhaust {CONST['shift_momentum_cost']} resource to move the Momentum Meter "
            f"{CONST['shift_momentum_spaces']} spaces toward {side} "
            f"(from {momentum_words(view.momentum, names)} to {momentum_words(after, names)})")


def _buy_draw(action: a.BuyDraw, view: CastleAssaultView, names: Names) -> str:
    deck = view.deck_sizes[view.seat] if 0 <= view.seat < len(view.deck_sizes) else 0
    return (f"exhaust {CONST['buy_draw_cost']} resources to draw a card "
            f"({_resources(view)[1]} ready, {deck} cards in your deck)")


def _charge(action: a.Charge, view: CastleAssaultView, names: Names) -> str:
    unit = unit_of(view, action.unit)
    if unit is None:
        return f"charge with your unit {tag(action.unit)}"
    return (f"charge with {_unit(view, names, action.unit)}: roll a die and move that far "
            f"straight ahead ({_ahead(view, names, unit)})")


def _struck(view: CastleAssaultView, names: Names, uid: int) -> str:
    """A unit about to be hit: "Blue's Drake (centre lane, row 5; Armor 0, Health 3)"."""
    unit = unit_of(view, uid)
    if unit is None:
        return _unit(view, names, uid)
    return (f"{_owned(view, names, unit)} ({where(unit)}; Armor {unit.armor}, Health "
            f"{unit.health})")


def _with(view: CastleAssaultView, names: Names, uid: int) -> str:
    """The unit that acts: "your Soot (left lane, row 3; Attack 4)"."""
    unit = unit_of(view, uid)
    if unit is None:
        return _unit(view, names, uid)
    return f"{_owned(view, names, unit)} ({where(unit)}; Attack {unit.attack})"


def _castle(view: CastleAssaultView, names: Names, seat: int) -> str:
    return f"{seat_name(names, seat)}'s castle ({view.castles[seat]} Health)"


def _attack(action: a.Attack, view: CastleAssaultView, names: Names) -> str:
    unit = unit_of(view, action.unit)
    if unit is None:
        return f"attack with your unit {tag(action.unit)}"
    ahead = next((u for u in view.units if u.lane == unit.lane
                  and u.row == unit.row + forward(unit.seat)), None)
    target = (_castle(view, names, 1 - unit.seat) if ahead is None
              else _struck(view, names, ahead.uid))
    return f"attack {target} with {_with(view, names, action.unit)}"


def _ability(action: a.UseAbility, view: CastleAssaultView, names: Names) -> str:
    shooter = _with(view, names, action.unit)
    if action.target == a.CASTLE_TARGET:
        return f"shoot at {_castle(view, names, 1 - action.unit // UID_BASE)} with {shooter}"
    if action.target < 0:
        return f"blast every unit in reach, friends too, with {shooter}"
    return f"shoot {_struck(view, names, action.target)} with {shooter}"


def _summon(action: a.SummonHero, view: CastleAssaultView, names: Names) -> str:
    found = card(view.heroes_played[view.seat]) if 0 <= view.seat <= 1 else None
    name = f"your hero {found.name}" if found is not None else "your hero"
    figures = (f": Movement {found.movement}, Attack {found.attack}, Armor {found.armor}, "
               f"Health {found.health}" if found is not None else "")
    return (f"summon {name} (free) into the {lane_name(action.lane)} location of your castle "
            f"area{figures}; if it is destroyed you lose")


def _pass(action: a.PassResponse, view: CastleAssaultView, names: Names) -> str:
    if view.window == "movement":
        whose = "your" if view.active == view.seat else f"{seat_name(names, view.active)}'s"
        return f"play no Instant before {whose} Move Units"
    fighter = unit_of(view, view.fighting)
    if fighter is not None:
        return f"play no Instant before {_unit(view, names, fighter.uid)} fights"
    return "play no Instant now"


def _end_turn(action: a.EndTurn, view: CastleAssaultView, names: Names) -> str:
    held = len(view.hand)
    if held > HAND_LIMIT:
        return f"end your turn, then discard down to {HAND_LIMIT} cards (you hold {held})"
    return "end your turn"


def _discard(action: a.DiscardCard, view: CastleAssaultView, names: Names) -> str:
    return (f"discard {card_name(_in_hand(view, action.card))} (you hold {len(view.hand)}, "
            f"the limit is {HAND_LIMIT})")


# --- events -----------------------------------------------------------------------------------


def _kept(event: e.HandKept, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} kept {_their(event.seat, seat)} opening hand")


def _mulliganed(event: e.HandMulliganed, names: Names, seat: int | None) -> str:
    count = CONST["opening_hand"]
    return _line(f"{_who(names, event.seat, seat)} took a mulligan: {count} cards under "
                 f"{_their(event.seat, seat)} deck and {count} new ones drawn")


def _first_chosen(event: e.FirstPlayerChosen, names: Names, seat: int | None) -> str:
    if event.first == event.seat:
        return _line(f"{_who(names, event.seat, seat)} won the roll-off and took the first turn")
    return _line(f"{_who(names, event.seat, seat)} won the roll-off and let "
                 f"{_who(names, event.first, seat)} take the first turn")


def _captain(event: e.CaptainAssigned, names: Names, seat: int | None,
             decks: Decks = None) -> str:
    return _line(f"{_who(names, event.seat, seat)} made "
                 f"{_unit_ref(names, event.unit, seat, event.seat, decks)} Captain")


def _captain_skipped(event: e.CaptainSkipped, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} assigned no Captain")


def _cursed(event: e.UnitCursed, names: Names, seat: int | None,
            decks: Decks = None) -> str:
    return _line(f"{_who(names, event.seat, seat)} cursed "
                 f"{_unit_ref(names, event.unit, seat, event.seat, decks)}")


def _curse_skipped(event: e.CurseSkipped, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} cursed no unit")


def _resource(event: e.ResourcePlaced, names: Names, seat: int | None,
              decks: Decks = None) -> str:
    if seat is not None and seat == event.seat:  # only the owner knows the face-down card
        return (f"You placed {_instance(decks, event.seat, event.card, 'card')} of your deck "
                "face down as a resource")
    return f"{seat_name(names, event.seat)} placed a card face down as a resource"


def _unit_played(event: e.UnitPlayed, names: Names, seat: int | None,
                 decks: Decks = None) -> str:
    played = _instance(decks, event.seat, event.card, "unit")
    return _line(f"{_who(names, event.seat, seat)} played {played} in the "
                 f"{lane_name(event.lane)} location of {_their(event.seat, seat)} castle area")


def _command(event: e.CommandPlayed, names: Names, seat: int | None,
             decks: Decks = None) -> str:
    played = _instance(decks, event.seat, event.card, "command card")
    text = f"{_who(names, event.seat, seat)} played {played}"
    if event.unit >= 0:
        text += f" on {_unit_ref(names, event.unit, seat, event.seat, decks)}"
    if event.lane >= 0:
        text += f", naming the {lane_name(event.lane)} lane"
    return _line(text)


def _momentum(event: e.MomentumShifted, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} paid {CONST['shift_momentum_cost']} "
                 f"resource to move the Momentum Meter {CONST['shift_momentum_spaces']} spaces "
                 f"toward {_who(names, event.toward, seat)}")


def _draw_bought(event: e.DrawBought, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} paid {CONST['buy_draw_cost']} resources to "
                 "draw a card")


def _charged(event: e.UnitCharged, names: Names, seat: int | None,
             decks: Decks = None) -> str:
    return _line(f"{_who(names, event.seat, seat)} charged with "
                 f"{_unit_ref(names, event.unit, seat, event.seat, decks)}")


def _attacked(event: e.UnitAttacked, names: Names, seat: int | None,
              decks: Decks = None) -> str:
    return _line(f"{_who(names, event.seat, seat)} attacked with "
                 f"{_unit_ref(names, event.unit, seat, event.seat, decks)}")


def _ability_used(event: e.AbilityUsed, names: Names, seat: int | None,
                  decks: Decks = None) -> str:
    who = _who(names, event.seat, seat)
    shooter = _unit_ref(names, event.unit, seat, event.seat, decks)
    if event.target == a.CASTLE_TARGET:
        return _line(f"{who} shot at {_whose(names, 1 - event.seat, seat)} castle with "
                     f"{shooter}")
    if event.target < 0:
        return _line(f"{who} blasted every unit in reach with {shooter}")
    return _line(f"{who} shot {_unit_ref(names, event.target, seat, event.seat, decks)} with "
                 f"{shooter}")


def _hero_summoned(event: e.HeroSummoned, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} summoned {_their(event.seat, seat)} hero into "
                 f"the {lane_name(event.lane)} location of {_their(event.seat, seat)} castle "
                 "area")


def _passed(event: e.ResponsePassed, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} played no Instant")


def _turn_ended(event: e.TurnEnded, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} ended {_their(event.seat, seat)} Open Phase")


def _discarded(event: e.CardDiscarded, names: Names, seat: int | None,
               decks: Decks = None) -> str:
    # A discard is face up: everyone may hear the card.
    return _line(f"{_who(names, event.seat, seat)} discarded "
                 f"{_instance(decks, event.seat, event.card, 'card')} over the hand limit")


RULES_SUMMARY = "\n".join((
    f"Goal: bring the other castle from {CASTLE_HEALTH} Health to 0, or destroy the other "
    "hero.",
    "Two warbands fight over 3 lanes of 8 battlefield rows between the castle areas.",
    f"Set-up: draw {CONST['opening_hand']} (one mulligan allowed); the roll-off winner names "
    "who starts.",
    f"Start of Turn: the momentum die moves the meter toward you (Max at {MOMENTUM_MAX}); your",
    "resources ready; draw a card; you may assign a Captain and place the Curse;",
    "then Move Units: your units move straight ahead and fight what blocks them.",
    f"Open Phase, in any order: place {CONST['resources_per_turn']} card face down as a "
    f"resource ({CONST['resources_second_player_first_turn']} on the",
    "second player's first turn); pay for units and commands; summon your hero;",
    "one Unit Action per unit there since the turn began: Charge, Attack, ability;",
    f"pay {CONST['shift_momentum_cost']} to move the meter {CONST['shift_momentum_spaces']} "
    f"spaces, {CONST['buy_draw_cost']} to draw. Instants answer on either turn.",
    f"Blocked with distance left: Smash, +{CONST['smash_bonus']} Attack (+1 more on a Charge "
    "near Max).",
    f"End of Turn: Quick units move again; discard down to {HAND_LIMIT}. A kill draws a card.",
    f"A new Environment card every {CONST['environment_meter_spaces']} turns. Empty decks are "
    "never reshuffled:",
    f"when both sides run dry, or after turn {CONST['turn_limit']}, the higher castle wins.",
))

ACTIONS: dict[type, Callable[[Any, Any, Names], str]] = {
    a.KeepHand: _keep,
    a.Mulligan: _mulligan,
    a.ChooseFirst: _choose_first,
    a.AssignCaptain: _assign_captain,
    a.SkipCaptain: _skip_captain,
    a.CurseUnit: _curse,
    a.SkipCurse: _skip_curse,
    a.PlaceResource: _place,
    a.PlayUnit: _play_unit,
    a.PlayCommand: _play_command,
    a.ShiftMomentum: _shift,
    a.BuyDraw: _buy_draw,
    a.Charge: _charge,
    a.Attack: _attack,
    a.UseAbility: _ability,
    a.SummonHero: _summon,
    a.PassResponse: _pass,
    a.EndTurn: _end_turn,
    a.DiscardCard: _discard,
}

EVENTS: dict[type, Callable[[Any, Names, int | None], str]] = {
    e.HandKept: _kept,
    e.HandMulliganed: _mulliganed,
    e.FirstPlayerChosen: _first_chosen,
    e.CaptainAssigned: _captain,
    e.CaptainSkipped: _captain_skipped,
    e.UnitCursed: _cursed,
    e.CurseSkipped: _curse_skipped,
    e.ResourcePlaced: _resource,
    e.UnitPlayed: _unit_played,
    e.CommandPlayed: _command,
    e.MomentumShifted: _momentum,
    e.DrawBought: _draw_bought,
    e.UnitCharged: _charged,
    e.UnitAttacked: _attacked,
    e.AbilityUsed: _ability_used,
    e.HeroSummoned: _hero_summoned,
    e.ResponsePassed: _passed,
    e.TurnEnded: _turn_ended,
    e.CardDiscarded: _discarded,
}

# The lines that name cards by deck instance, given a match's decks by ``for_match``.
_NAMING: tuple[type, ...] = (e.CaptainAssigned, e.UnitCursed, e.ResourcePlaced, e.UnitPlayed,
                             e.CommandPlayed, e.UnitCharged, e.UnitAttacked, e.AbilityUsed,
                             e.CardDiscarded)


def for_match(created: MatchCreated) -> Presentation:
    """The presentation of one match: its events name the cards of the decks it was created
    with (the create's options, which every seat and spectator is shown)."""
    from siege.games.castle_assault.engine import CastleAssault

    try:
        decks = CastleAssault().initial_state(created).cards
    except ValueError:  # a create the game refused: no match, nothing to name
        return PRESENTATION
    events = {kind: partial(told, decks=decks) if kind in _NAMING else told
              for kind, told in EVENTS.items()}
    # The bound presentation keeps the board, its targets and groups; only the events change.
    return dataclasses.replace(PRESENTATION, events=events, for_match=None)


PRESENTATION = Presentation(title="Castle Assault", rules_summary=RULES_SUMMARY, board=draw,
                            actions=ACTIONS, events=EVENTS, for_match=for_match,
                            scene=scene, target=target, group=group)
