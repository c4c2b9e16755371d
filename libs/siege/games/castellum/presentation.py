"""Castellum: Maastricht (``castellum``) for people at a terminal: the table drawn from one seat's
view (:mod:`.presentation_board`), the actions and events in words, and a short summary of the
rules.

One game event carries a hidden value: :class:`~.events.AngelDiscarded`, whose card goes face
down to the discard pile, so only the seat that discarded it hears which card it was; everybody
else (spectators too) hears that an angel card was discarded. The other events name only what
becomes public as they happen (a placed enemy card, a revealed angel card), and no line says
what a seat could have played: a seat that lets an effect stand is asked whatever it holds.
An angel card drawn from a space or a reward is in no event, so no line can tell it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from siege.engine.presentation import Names, Presentation
from siege.engine.presentation import sentence as _line
from siege.engine.presentation import who as _who
from siege.engine.presentation import whose as _whose
from siege.games.castellum import actions as a
from siege.games.castellum import events as e
from siege.games.castellum.presentation_board import (
    ANGEL_CARDS,
    CONST,
    ENEMY_CARDS,
    HAND_LIMIT,
    LINE_CARDS,
    NOBODY,
    REF,
    SPACES,
    TYPES,
    YEARS,
    amounts,
    angel_card,
    column_of,
    draw,
    effect_targets,
    enemy_card,
    enemy_facts,
    line_card,
    resources_chosen,
    reward_gift,
    seat_name,
    year_name,
)
from siege.games.castellum.presentation_scene import group, scene, target
from siege.games.castellum.views import CastellumView, EffectView

_EFFECTS = {  # what each special effect does, as an infinitive clause
    "boost": f"give an enemy card +{CONST['enemy_boost']} strength this year",
    "switch": "swap two enemy cards between their columns",
    "take": "take a troop from another Line or the offer, paying its cost",
    "destroy": f"defeat an enemy card in your own Line for {CONST['destroy_cost_stone']} stone",
    "resources": f"gain {CONST['effect_resources']} resources of your choice",
    "cancel": "cancel the effect just played",
}


# --- words ------------------------------------------------------------------------------------


def _effect_of(card: int) -> str:
    return str(ANGEL_CARDS[card]["effect"]) if 0 <= card < len(ANGEL_CARDS) else "special"


def _space(space: int) -> str:
    """A space with its article where English wants one: "the Markt", "Sint-Servaas"."""
    if not 0 <= space < len(SPACES):
        return f"space {space}"
    name = str(SPACES[space]["name"])
    return name if name.startswith("Sint-") or name == "Onze Lieve Vrouwe" else f"the {name}"


def _line_facts(card: int) -> str:
    """A Line card's kind, strength and special rule: "cavalry troop 2, +1 to every cavalry
    troop"."""
    if not 0 <= card < len(LINE_CARDS):
        return ""
    spec = LINE_CARDS[card]
    kind = "fortification" if spec["kind"] == "fort" else f"{TYPES[spec['troop_type']]} troop"
    text = f"{kind} {spec['strength']}"
    if any(spec["income"]):
        text += f", pays {amounts(spec['income'], 'angel card')} a year"
    if spec["boost"] != NOBODY:
        text += f", +1 to every {TYPES[spec['boost']]} troop"
    if spec["star"] == CONST["star_forts"]:
        text += ", scores 1 per fortification"
    elif spec["star"] != NOBODY:
        text += f", scores 1 per {TYPES[spec['star']]} troop"
    return text


def _cost(card: int) -> str:
    return amounts(LINE_CARDS[card]["cost"]) if 0 <= card < len(LINE_CARDS) else "?"


def _side_for(players: int, chooser: int, chosen: int, seat: int) -> int:
    """The side ``seat`` receives when ``chooser`` took ``chosen`` (``reward_seat_rule``)."""
    offsets = REF["reward_seat_offsets"][str(players)]
    return (chosen + offsets[(seat - chooser) % players]) % CONST["reward_sides"]






def _own(seat: int, told: int | None) -> str:
    """The acting seat's own things: "your" to itself, "their" to everyone else."""
    return "your" if told is not None and told == seat else "their"




def _me(view: CastellumView) -> int | None:
    return view.seat if 0 <= view.seat < view.players else None


def _column(view: CastellumView, owner: int, column: int) -> Any:
    if 0 <= owner < len(view.lines) and 0 <= column < len(view.lines[owner]):
        return view.lines[owner][column]
    return None


def _cards_in(column: Any) -> list[str]:
    if column is None:
        return []
    found = [column.fort] if column.fort != NOBODY else []
    return [line_card(c) for c in [*found, *column.troops]]


def _enemy_there(view: CastellumView, owner: int, column: int) -> tuple[str, int, int]:
    """(enemy card name, its strength now, the column's strength) at a column."""
    there = _column(view, owner, column)
    if there is None or there.enemy == NOBODY:
        return "the enemy card", 0, 0
    return enemy_card(there.enemy), there.enemy_strength, there.strength


def _effect_words(view: CastellumView, names: Names, at: int) -> str:
    """The effect at ``view.stack[at]`` as the viewing seat reads it: "Red's boost on your
    column 2", "Blue's cancel of Red's boost on your column 2"."""
    effect: EffectView = view.stack[at]
    text = f"{_whose(names, effect.seat, _me(view))} {effect.effect}"
    if effect.effect == "cancel":
        return text + (f" of {_effect_words(view, names, at - 1)}" if at > 0 else "")
    targets = effect_targets(effect, names, _me(view))
    return text + (f" {targets}" if targets else "")


# --- actions ----------------------------------------------------------------------------------


def _place_worker(action: a.PlaceWorker, view: CastellumView, names: Names) -> str:
    space = SPACES[action.space] if 0 <= action.space < len(SPACES) else {"kind": ""}
    where = f"send a worker to {_space(action.space)}"
    if space["kind"] == "choice":
        return f"{where} for {resources_chosen(action.gain)}"
    if space["kind"] == "resources":
        return f"{where} for {amounts(space['resources'])}"
    if space["kind"] == "dinghuis":
        return f"{where}: +1 strength on each of your columns this year"
    if space["kind"] == "angel":
        if not view.angel_deck_size:
            return f"{where} for an angel card, though the deck is empty: you get nothing"
        text = f"{where} to draw an angel card ({view.angel_deck_size} in the deck)"
        if len(view.hand) >= HAND_LIMIT:
            text += f", then discard one: you hold {len(view.hand)} of {HAND_LIMIT}"
        return text
    return where


def _buy(action: a.BuyCard, view: CastellumView, names: Names) -> str:
    text = (f"buy {line_card(action.card)} ({_line_facts(action.card)}) for "
            f"{_cost(action.card)}, into your column {action.column + 1}")
    beside = _cards_in(_column(view, view.seat, action.column))
    return text + (f" beside {', '.join(beside)}" if beside else "")


def _discard(action: a.DiscardAngel, view: CastellumView, names: Names) -> str:
    return (f"discard {angel_card(action.card)} unused: you hold {len(view.hand)} angel cards, "
            f"the limit is {HAND_LIMIT}")


def _place_enemy(action: a.PlaceEnemy, view: CastellumView, names: Names) -> str:
    text = (f"put {enemy_card(action.card)} ({enemy_facts(action.card)}) against "
            f"{column_of(action.owner, action.column, names, _me(view))}")
    there = _column(view, action.owner, action.column)
    if there is None:
        return text
    return text + (f", strength {there.strength}" if there.manned else ", unmanned")


def _place_angel(action: a.PlaceAngel, view: CastellumView, names: Names) -> str:
    strength = ANGEL_CARDS[action.card]["strength"] if 0 <= action.card < len(ANGEL_CARDS) else 0
    text = f"place {angel_card(action.card)} below your column {action.column + 1}"
    there = _column(view, view.seat, action.column)
    if there is None:
        return text
    text += f": strength {there.strength} to {there.strength + strength}"
    if there.enemy != NOBODY:
        text += f" against {enemy_card(there.enemy)} {there.enemy_strength}"
    return text + ("" if there.manned else " (unmanned: it still cannot win)")


def _use(action: a.UseAngel, view: CastellumView, names: Names) -> str:
    effect = _effect_of(action.card)
    text = f"use {angel_card(action.card)} to {_EFFECTS.get(effect, 'play its effect')}"
    return text + (" (your turn goes on)" if view.phase == "building" else "")


def _target_enemy(action: a.TargetEnemy, view: CastellumView, names: Names) -> str:
    draft = view.draft
    effect = draft.effect if draft is not None else ""
    me = _me(view)
    where = column_of(action.owner, action.column, names, me)
    name, strength, against = _enemy_there(view, action.owner, action.column)
    if effect == "boost":
        return (f"boost {name} in {where}: strength {strength} to "
                f"{strength + CONST['enemy_boost']} against the column's {against}")
    if effect == "destroy":
        there = _column(view, action.owner, action.column)
        points = ENEMY_CARDS[there.enemy]["points"] if there and there.enemy != NOBODY else 0
        return (f"destroy {name} in {where} for {CONST['destroy_cost_stone']} stone, winning "
                f"its {points} point{'' if points == 1 else 's'}")
    if effect == "switch" and draft is not None and len(draft.targets) >= 2:
        first = column_of(draft.targets[0], draft.targets[1], names, me)
        other, _, _ = _enemy_there(view, draft.targets[0], draft.targets[1])
        return f"switch {name} in {where} with {other} in {first}"
    return f"pick {name} in {where}, strength {strength}, as the first card to switch"


def _target_troop(action: a.TargetTroop, view: CastellumView, names: Names) -> str:
    card = action.card
    if action.owner == NOBODY:
        source, payee = "the offer", "the bank"
    else:
        source, payee = f"{seat_name(names, action.owner)}'s Line", seat_name(names, action.owner)
    return (f"take {line_card(card)} ({_line_facts(card)}) from {source}, paying {payee} "
            f"{_cost(card)}")


def _target_column(action: a.TargetColumn, view: CastellumView, names: Names) -> str:
    draft = view.draft
    troop = line_card(draft.targets[1]) if draft is not None and len(draft.targets) >= 2 else ""
    text = f"put the taken {troop or 'troop'} into your column {action.column + 1}"
    beside = _cards_in(_column(view, view.seat, action.column))
    return text + (f" beside {', '.join(beside)}" if beside else "")


def _target_resources(action: a.TargetResources, view: CastellumView, names: Names) -> str:
    draft = view.draft
    card = f" with {angel_card(draft.card)}" if draft is not None else ""
    return f"take {resources_chosen(action.resources)}{card}"


def _cancel(action: a.CancelEffect, view: CastellumView, names: Names) -> str:
    if not view.stack:
        return f"cancel the effect on top with {angel_card(action.card)}"
    top = len(view.stack) - 1
    card = angel_card(action.card)
    if view.stack[top].effect == "cancel" and top >= 1:
        return (f"cancel {_whose(names, view.stack[top].seat, _me(view))} cancel with {card}, "
                f"so that {_effect_words(view, names, top - 1)} may stand")
    return f"cancel {_effect_words(view, names, top)} with {card}"


def _decline(action: a.DeclineCancel, view: CastellumView, names: Names) -> str:
    if not view.stack:
        return "let the effect stand"
    return f"let {_effect_words(view, names, len(view.stack) - 1)} stand"


def _pass(action: a.PassAngels, view: CastellumView, names: Names) -> str:
    return "pass this Angel turn (you are asked again if someone plays a card)"


def _orient(action: a.OrientReward, view: CastellumView, names: Names) -> str:
    year, me = view.year, view.seat
    text = f"orient the {year_name(year)} reward card: you get {reward_gift(year, action.side)}"
    if not 0 <= me < view.players:
        return text
    others = [f"{seat_name(names, s)} "
              f"{reward_gift(year, _side_for(view.players, me, action.side, s))}"
              for s in range(view.players) if s != me]
    return text + (f"; {', '.join(others)}" if others else "")


# --- events -----------------------------------------------------------------------------------


def _worker_placed(event: e.WorkerPlaced, names: Names, seat: int | None) -> str:
    space = SPACES[event.space] if 0 <= event.space < len(SPACES) else {"kind": ""}
    text = f"{_who(names, event.seat, seat)} sent a worker to {_space(event.space)}"
    if space["kind"] == "choice":
        text += f" for {resources_chosen(event.gain)}"
    elif space["kind"] == "resources":
        text += f" for {amounts(space['resources'])}"
    elif space["kind"] == "dinghuis":
        text += f": +1 strength on each of {_own(event.seat, seat)} columns this year"
    elif space["kind"] == "angel":
        text += " for an angel card"  # which card is in no event: drawn face down
    return _line(text)


def _bought(event: e.CardBought, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} bought {line_card(event.card)} for "
                 f"{_cost(event.card)}, into {_own(event.seat, seat)} column "
                 f"{event.column + 1}")


def _discarded(event: e.AngelDiscarded, names: Names, seat: int | None) -> str:
    if seat is not None and seat == event.seat:  # the card goes face down: only its owner knows
        return f"You discarded {angel_card(event.card)} unused, over the hand limit"
    return f"{seat_name(names, event.seat)} discarded an angel card unused, over the hand limit"


def _enemy_placed(event: e.EnemyPlaced, names: Names, seat: int | None) -> str:
    if event.owner == event.seat:
        where = f"{_own(event.seat, seat)} own column {event.column + 1}"
    else:
        where = column_of(event.owner, event.column, names, seat)
    strength = (f" ({ENEMY_CARDS[event.card]['strength']})"
                if 0 <= event.card < len(ENEMY_CARDS) else "")
    return _line(f"{_who(names, event.seat, seat)} put {enemy_card(event.card)}{strength} "
                 f"against {where}")


def _angel_placed(event: e.AngelPlaced, names: Names, seat: int | None) -> str:
    strength = ANGEL_CARDS[event.card]["strength"] if 0 <= event.card < len(ANGEL_CARDS) else 0
    return _line(f"{_who(names, event.seat, seat)} placed {angel_card(event.card)} below "
                 f"{_own(event.seat, seat)} column {event.column + 1}: +{strength} "
                 "strength this year")


def _effect_chosen(event: e.AngelEffectChosen, names: Names, seat: int | None) -> str:
    clause = _EFFECTS.get(_effect_of(event.card), "play its effect")
    if seat != event.seat:
        clause = clause.replace("your own", "their own").replace("your", "their")
    return _line(f"{_who(names, event.seat, seat)} revealed {angel_card(event.card)} to {clause}")


def _enemy_targeted(event: e.EnemyTargeted, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} aimed the effect at the enemy card in "
                 f"{column_of(event.owner, event.column, names, seat)}")


def _troop_targeted(event: e.TroopTargeted, names: Names, seat: int | None) -> str:
    who = _who(names, event.seat, seat)
    if event.owner == NOBODY:
        source, payee = "the offer", "the bank"
    else:
        source = f"{_whose(names, event.owner, seat)} Line"
        payee = _who(names, event.owner, seat)
    return _line(f"{who} chose to take {line_card(event.card)} from {source}, paying {payee} "
                 f"{_cost(event.card)}")


def _column_targeted(event: e.ColumnTargeted, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} chose {_own(event.seat, seat)} column "
                 f"{event.column + 1} for the taken troop")


def _resources_targeted(event: e.ResourcesTargeted, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} chose {resources_chosen(event.resources)} "
                 "with the resources effect")


def _cancel_played(event: e.CancelPlayed, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} played {angel_card(event.card)} to cancel "
                 "the effect just played")


def _cancel_declined(event: e.CancelDeclined, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} let the effect stand")


def _passed(event: e.AngelsPassed, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} passed the Angel turn")


def _oriented(event: e.RewardOriented, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} oriented the reward card, taking its side "
                 f"{event.side + 1} of {CONST['reward_sides']}; every seat got the side "
                 "facing it")


_FIRST, _LAST = year_name(0), year_name(len(YEARS) - 1)
_START_FORT = line_card(REF["decks"]["start_forts"][0])

RULES_SUMMARY = "\n".join((
    f"Defend Maastricht through {', '.join(str(y) for y in YEARS)} "
    f"({REF['players']['min']} to {REF['players']['max']} players).",
    f"After {_LAST} the most points win; equal totals share the place.",
    f"The years give {', '.join(str(n) for n in CONST['workers_per_year'])} workers and as "
    "many Line columns.",
    f"You start with {amounts(CONST['start_resources'])} and a {_START_FORT} in your first "
    "column.",
    "Building: one worker a turn on a space: resources, the Dinghuis (+1 on every",
    "column this year), an angel card, or the Vrijthof to buy a face-up card.",
    f"A column holds {CONST['forts_per_column']} fortification and "
    f"{CONST['troops_per_column']} troops; some cards pay, boost or score.",
    "Siege: each seat is dealt an enemy card per column in secret, then places one",
    "a turn into any free column of any Line, its own included.",
    "Angels: in turn, place an angel card below a column for its strength, use its",
    "effect (boost, switch, take, destroy, resources) or pass; others may cancel it.",
    "Combat: a manned column at least as strong as its enemy defeats it, for points.",
    "Enough defeats together earn the reward; the best defender orients the card.",
    f"Hold at most {HAND_LIMIT} angel cards. Final scoring: enemy points, 1 per "
    f"{CONST['resources_per_point']} resources,",
    f"1 per card of its kind for each star card, and the {_LAST} reward's pairs.",
))

ACTIONS: dict[type, Callable[[Any, Any, Names], str]] = {
    a.PlaceWorker: _place_worker,
    a.BuyCard: _buy,
    a.DiscardAngel: _discard,
    a.PlaceEnemy: _place_enemy,
    a.PlaceAngel: _place_angel,
    a.UseAngel: _use,
    a.TargetEnemy: _target_enemy,
    a.TargetTroop: _target_troop,
    a.TargetColumn: _target_column,
    a.TargetResources: _target_resources,
    a.CancelEffect: _cancel,
    a.DeclineCancel: _decline,
    a.PassAngels: _pass,
    a.OrientReward: _orient,
}

EVENTS: dict[type, Callable[[Any, Names, int | None], str]] = {
    e.WorkerPlaced: _worker_placed,
    e.CardBought: _bought,
    e.AngelDiscarded: _discarded,
    e.EnemyPlaced: _enemy_placed,
    e.AngelPlaced: _angel_placed,
    e.AngelEffectChosen: _effect_chosen,
    e.EnemyTargeted: _enemy_targeted,
    e.TroopTargeted: _troop_targeted,
    e.ColumnTargeted: _column_targeted,
    e.ResourcesTargeted: _resources_targeted,
    e.CancelPlayed: _cancel_played,
    e.CancelDeclined: _cancel_declined,
    e.AngelsPassed: _passed,
    e.RewardOriented: _oriented,
}

PRESENTATION = Presentation(title="Castellum: Maastricht", rules_summary=RULES_SUMMARY,
                            board=draw, actions=ACTIONS, events=EVENTS,
                            scene=scene, target=target, group=group)
