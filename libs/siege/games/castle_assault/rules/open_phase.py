"""The Open Phase: resources, units, the hero, commands, the two global commands, Unit Actions.

Its steps come in any order and repeat; each action is one decision. A unit may take one Unit
Action per turn, and only if it was on the battlefield when the turn began (Haste aside).
Combat an action causes waits in ``state.fight`` for its response window (see ``turn``).
"""

from __future__ import annotations

from typing import Any

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.board import LANES, castle_row, forward, ranged_squares
from siege.games.castle_assault.cards import BY_NAME, CARDS
from siege.games.castle_assault.rules import commands, windows
from siege.games.castle_assault.rules.combat import engaged, hit_castle, remove_destroyed
from siege.games.castle_assault.rules.hand import draw
from siege.games.castle_assault.rules.nodes import close_decision, open_chance
from siege.games.castle_assault.rules.stats import (
    MOMENTUM_MAX,
    armor_of,
    attack_of,
    build_available,
    card_of,
    hero_of,
    ranged_of,
)
from siege.games.castle_assault.state import (
    HERO_INSTANCE,
    Clash,
    Fight,
    State,
    Unit,
    find_unit,
    opponent,
    ready_resources,
    uid_of,
    unit_at,
)

GLOBAL_MOMENTUM_COST, GLOBAL_MOMENTUM_SPACES = 1, 2
GLOBAL_DRAW_COST = 3
CHARGE_PURPOSE = "charge"


def resource_allowance(state: State, seat: int) -> int:
    """One card a turn; two on the second player's very first turn."""
    return 2 if seat != state.first and state.seat_turns[seat] == 1 else 1


def can_play_unit(state: State, seat: int, instance: int, lane: int) -> bool:
    card = CARDS[state.cards[seat][instance]]
    if card.kind != "unit" or card.cost > ready_resources(state, seat):
        return False
    if unit_at(state, lane, castle_row(seat)) is not None:
        return False
    if card.lord and any(card_of(u).lord for u in state.units if u.seat == seat):
        return False
    return not card.needs_build or build_available(state, seat) >= card.needs_build


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


def can_shoot_castle(state: State, unit: Unit) -> bool:
    """Battering: the castle in reach and no opposing unit in the lane. Blunt Damage: the
    castle in reach (a defender in the lane's location takes the shot instead)."""
    ranged = ranged_of(state, unit)
    if ranged is None or not (ranged.battering or ranged.blunt):
        return False
    enemy = opponent(unit.seat)
    if not ranged.low <= abs(castle_row(enemy) - unit.row) <= ranged.high:
        return False
    if ranged.blunt:
        return True
    return not any(u.seat == enemy and u.lane == unit.lane for u in state.units)


def may_act(state: State, unit: Unit) -> bool:
    return ((unit.entered < state.turn or card_of(unit).haste)
            and unit.uid not in state.acted)


def must_play_unit(state: State, seat: int) -> bool:
    """With an empty deck a seat must play a unit each turn, when it can (our ruling)."""
    if state.decks[seat] or state.unit_played:
        return False
    return any(can_play_unit(state, seat, i, lane)
               for i in state.hands[seat] for lane in range(LANES))


def _hero_lanes(state: State, seat: int) -> list[int]:
    if state.heroes[seat]:
        return []
    return [lane for lane in range(LANES) if unit_at(state, lane, castle_row(seat)) is None]


def _unit_actions(state: State, unit: Unit) -> list[Any]:
    out: list[Any] = []
    if engaged(state, unit):
        out.append(a.Attack(unit=unit.uid))
    elif not card_of(unit).cannot_charge:
        out.append(a.Charge(unit=unit.uid))
    ranged = ranged_of(state, unit)
    if ranged is None:
        return out
    reach = shot_targets(state, unit)
    if ranged.blast:
        if any(t.seat != unit.seat for t in reach):
            out.append(a.UseAbility(unit=unit.uid))
    else:
        out += [a.UseAbility(unit=unit.uid, target=t.uid) for t in reach]
    if can_shoot_castle(state, unit):
        out.append(a.UseAbility(unit=unit.uid, target=a.CASTLE_TARGET))
    return out


def legal(state: State, seat: int) -> list[Any]:
    out: list[Any] = []
    hand = state.hands[seat]
    ready = ready_resources(state, seat)
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
    out += [a.SummonHero(lane=lane) for lane in _hero_lanes(state, seat)]
    if ready >= GLOBAL_MOMENTUM_COST:
        if state.momentum < MOMENTUM_MAX:
            out.append(a.ShiftMomentum(toward=0))
        if state.momentum > -MOMENTUM_MAX:
            out.append(a.ShiftMomentum(toward=1))
    if ready >= GLOBAL_DRAW_COST and state.decks[seat]:
        out.append(a.BUY_DRAW)
    for unit in state.units:
        if unit.seat == seat and may_act(state, unit):
            out += _unit_actions(state, unit)
    if not must_play_unit(state, seat):
        out.append(a.END_TURN)
    return out


# --- folding the Open Phase's events ----------------------------------------------------------


def _pay(state: State, seat: int, cost: int) -> None:
    state.exhausted[seat] += cost


def _enter(state: State, unit: Unit) -> None:
    """A unit arrives in its castle area; an enemy at the wall in that lane engages it."""
    state.units.append(unit)
    if engaged(state, unit):
        state.fight = Fight(uid=unit.uid)


def on_resource_placed(state: State, event: Any) -> None:
    state.hands[event.seat].remove(event.card)
    state.resources[event.seat].append(event.card)
    state.placed += 1
    close_decision(state, event.seat)


def on_unit_played(state: State, event: Any) -> None:
    seat = event.seat
    state.hands[seat].remove(event.card)
    _pay(state, seat, CARDS[state.cards[seat][event.card]].cost)
    state.unit_played = True
    close_decision(state, seat)
    _enter(state, Unit(uid=uid_of(seat, event.card), seat=seat,
                       card=state.cards[seat][event.card], lane=event.lane,
                       row=castle_row(seat), entered=state.turn))


def on_hero_summoned(state: State, event: Any) -> None:
    seat = event.seat
    state.heroes[seat] = 1
    close_decision(state, seat)
    card = BY_NAME[hero_of(state, seat).name]
    _enter(state, Unit(uid=uid_of(seat, HERO_INSTANCE), seat=seat, card=card.id,
                       lane=event.lane, row=castle_row(seat), entered=state.turn))


def on_command_played(state: State, event: Any) -> None:
    """A command in the Open Phase, or an Instant in a response window."""
    seat = event.seat
    state.hands[seat].remove(event.card)
    _pay(state, seat, CARDS[state.cards[seat][event.card]].cost)
    close_decision(state, seat)
    commands.resolve(state, seat, event.card, event.unit, event.lane)
    if state.window is not None:
        windows.answered(state, seat, played=True)


def on_response_passed(state: State, event: Any) -> None:
    close_decision(state, event.seat)
    windows.answered(state, event.seat, played=False)


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
    state.fight = Fight(uid=event.unit)


def on_ability_used(state: State, event: Any) -> None:
    state.acted.append(event.unit)
    close_decision(state, event.seat)
    unit = find_unit(state, event.unit)
    assert unit is not None
    ranged = ranged_of(state, unit)
    assert ranged is not None
    # A shot is not answered: no counter-attack. A blast hits friends in range too.
    power = max(0, attack_of(state, unit))
    if event.target == a.CASTLE_TARGET:
        enemy = opponent(unit.seat)
        defender = unit_at(state, unit.lane, castle_row(enemy))
        if defender is None:
            hit_castle(state, enemy, unit.uid, power)
            return
        hit = [defender]  # Blunt Damage: the defender takes it for the castle
    else:
        hit = shot_targets(state, unit) if ranged.blast else [find_unit(state, event.target)]
    dealt = [(t, max(0, power - armor_of(state, t))) for t in hit if t is not None]
    for target, damage in dealt:
        target.damage += damage
        state.clashes.append(Clash(source=unit.uid, target=target.uid, damage=damage))
    remove_destroyed(state, {t.uid: unit.seat for t, _ in dealt if t.seat != unit.seat})


def on_turn_ended(state: State, event: Any) -> None:
    close_decision(state, event.seat)
    state.step = "end"
