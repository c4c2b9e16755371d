"""The Open Phase: resources, units, commands, the two global commands and Unit Actions.

Its steps come in any order and repeat; each action is one decision. A unit may take one Unit
Action per turn, and only if it was on the battlefield when the turn began.
"""

from __future__ import annotations

from typing import Any

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.board import LANES, castle_row, forward, ranged_squares
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.rules import commands
from siege.games.castle_assault.rules.combat import ahead_of, engaged, fight, remove_destroyed
from siege.games.castle_assault.rules.hand import draw
from siege.games.castle_assault.rules.nodes import close_decision, open_chance
from siege.games.castle_assault.rules.stats import (
    MOMENTUM_MAX,
    armor_of,
    attack_of,
    build_available,
    card_of,
    ranged_of,
)
from siege.games.castle_assault.state import Clash, State, Unit, find_unit, uid_of, unit_at

GLOBAL_MOMENTUM_COST, GLOBAL_MOMENTUM_SPACES = 1, 2
GLOBAL_DRAW_COST = 3
CHARGE_PURPOSE = "charge"


def resource_allowance(state: State, seat: int) -> int:
    """One card a turn; two on the second player's very first turn."""
    return 2 if seat != state.first and state.seat_turns[seat] == 1 else 1


def can_play_unit(state: State, seat: int, instance: int, lane: int) -> bool:
    card = CARDS[state.cards[seat][instance]]
    if card.kind != "unit" or card.cost > _ready(state, seat):
        return False
    if unit_at(state, lane, castle_row(seat)) is not None:
        return False
    if card.lord and any(card_of(u).lord for u in state.units if u.seat == seat):
        return False
    return not card.needs_build or build_available(state, seat) >= card.needs_build


def _ready(state: State, seat: int) -> int:
    return len(state.resources[seat]) - state.exhausted[seat]


def shot_targets(state: State, unit: Unit) -> list[Unit]:
    """Units the unit's Ranged ability reaches (opposing ones only, unless it blasts). An enemy
    straight ahead is never a target: the two are engaged in melee instead."""
    ranged = ranged_of(state, unit)
    if ranged is None:
        return []
    ahead = (unit.lane, unit.row + forward(unit.seat))
    found = []
    for lane, row in ranged_squares(unit.seat, unit.lane, unit.row, ranged.low, ranged.high,
                                    ranged.spread):
        other = unit_at(state, lane, row)
        if other is None or (other.seat != unit.seat and (lane, row) == ahead):
            continue
        if ranged.blast or other.seat != unit.seat:
            found.append(other)
    return found


def may_act(state: State, unit: Unit) -> bool:
    return unit.entered < state.turn and unit.uid not in state.acted


def must_play_unit(state: State, seat: int) -> bool:
    """With an empty deck a seat must play a unit each turn, when it can (our ruling)."""
    if state.decks[seat] or state.unit_played:
        return False
    return any(can_play_unit(state, seat, i, lane)
               for i in state.hands[seat] for lane in range(LANES))


def legal(state: State, seat: int) -> list[Any]:
    out: list[Any] = []
    hand = state.hands[seat]
    ready = _ready(state, seat)
    if state.placed < resource_allowance(state, seat):
        out += [a.PlaceResource(card=i) for i in hand]
    for i in hand:
        card = CARDS[state.cards[seat][i]]
        if card.kind == "unit":
            out += [a.PlayUnit(card=i, lane=lane) for lane in range(LANES)
                    if can_play_unit(state, seat, i, lane)]
        elif card.kind == "command" and card.cost <= ready:
            out += [a.PlayCommand(card=i, unit=uid, lane=lane)
                    for uid, lane in commands.targets(state, seat, card)]
    if ready >= GLOBAL_MOMENTUM_COST:
        if state.momentum < MOMENTUM_MAX:
            out.append(a.ShiftMomentum(toward=0))
        if state.momentum > -MOMENTUM_MAX:
            out.append(a.ShiftMomentum(toward=1))
    if ready >= GLOBAL_DRAW_COST and state.decks[seat]:
        out.append(a.BUY_DRAW)
    for unit in state.units:
        if unit.seat != seat or not may_act(state, unit):
            continue
        if engaged(state, unit):
            out.append(a.Attack(unit=unit.uid))
        else:
            out.append(a.Charge(unit=unit.uid))
        reach = shot_targets(state, unit)
        ranged = ranged_of(state, unit)
        if ranged is not None and ranged.blast:
            if any(t.seat != seat for t in reach):
                out.append(a.UseAbility(unit=unit.uid))
        else:
            out += [a.UseAbility(unit=unit.uid, target=t.uid) for t in reach]
    if not must_play_unit(state, seat):
        out.append(a.END_TURN)
    return out


# --- folding the Open Phase's events ----------------------------------------------------------


def _pay(state: State, seat: int, cost: int) -> None:
    state.exhausted[seat] += cost


def _from_hand(state: State, seat: int, instance: int) -> None:
    state.hands[seat].remove(instance)


def on_resource_placed(state: State, event: Any) -> None:
    _from_hand(state, event.seat, event.card)
    state.resources[event.seat].append(event.card)
    state.placed += 1
    close_decision(state, event.seat)


def on_unit_played(state: State, event: Any) -> None:
    seat = event.seat
    _from_hand(state, seat, event.card)
    _pay(state, seat, CARDS[state.cards[seat][event.card]].cost)
    unit = Unit(uid=uid_of(seat, event.card), seat=seat, card=state.cards[seat][event.card],
                lane=event.lane, row=castle_row(seat), entered=state.turn)
    state.units.append(unit)
    state.unit_played = True
    close_decision(state, seat)
    # An enemy already at the castle wall in that lane engages the newcomer at once.
    kind, _ = ahead_of(state, seat, unit.lane, unit.row)
    if kind == "unit":
        fight(state, unit)


def on_command_played(state: State, event: Any) -> None:
    seat = event.seat
    _from_hand(state, seat, event.card)
    _pay(state, seat, CARDS[state.cards[seat][event.card]].cost)
    close_decision(state, seat)
    commands.resolve(state, seat, event.card, event.unit, event.lane)


def on_momentum_shifted(state: State, event: Any) -> None:
    _pay(state, event.seat, GLOBAL_MOMENTUM_COST)
    step = GLOBAL_MOMENTUM_SPACES if event.toward == 0 else -GLOBAL_MOMENTUM_SPACES
    state.momentum = max(-MOMENTUM_MAX, min(MOMENTUM_MAX, state.momentum + step))
    close_decision(state, event.seat)


def on_draw_bought(state: State, event: Any) -> None:
    _pay(state, event.seat, GLOBAL_DRAW_COST)
    draw(state, event.seat)
    close_decision(state, event.seat)


def on_unit_charged(state: State, event: Any) -> None:
    state.acted.append(event.unit)
    state.charging = event.unit
    state.step = "charge"
    close_decision(state, event.seat)
    open_chance(state, "dice", 1, 6, CHARGE_PURPOSE)


def on_unit_attacked(state: State, event: Any) -> None:
    state.acted.append(event.unit)
    close_decision(state, event.seat)
    unit = find_unit(state, event.unit)
    assert unit is not None
    fight(state, unit)


def on_ability_used(state: State, event: Any) -> None:
    state.acted.append(event.unit)
    close_decision(state, event.seat)
    unit = find_unit(state, event.unit)
    assert unit is not None
    ranged = ranged_of(state, unit)
    assert ranged is not None
    # A shot is not answered: no counter-attack. A blast hits friends in range too.
    power = max(0, attack_of(state, unit))
    hit = shot_targets(state, unit) if ranged.blast else [find_unit(state, event.target)]
    dealt = [(t, max(0, power - armor_of(state, t))) for t in hit if t is not None]
    for target, damage in dealt:
        target.damage += damage
        state.clashes.append(Clash(source=unit.uid, target=target.uid, damage=damage))
    remove_destroyed(state, {t.uid: unit.seat for t, _ in dealt if t.seat != unit.seat})


def on_turn_ended(state: State, event: Any) -> None:
    close_decision(state, event.seat)
    state.step = "end"

