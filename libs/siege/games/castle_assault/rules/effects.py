"""The command effects added with the full card pool: who each may target, what it does.

Each effect is a pair of plain functions, found by the card's ``effect``: its targets (a list of
(unit, lane) pairs, (-1, -1) for one with no target) and its resolution. None of them may start
a movement or a combat from an Instant (a response window may have a combat pending), so the
effects that move a unit into contact (Mirror Step, Mischief, Forced March) are Open Phase
commands; the Instants only change numbers, remove units or push them out of contact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from siege.games.castle_assault.board import LANES, castle_row, forward
from siege.games.castle_assault.card_model import Card
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.rules.combat import (
    auras_now,
    damage_unit,
    engaged,
    hit_castle,
    remove_destroyed,
)
from siege.games.castle_assault.rules.hand import draw
from siege.games.castle_assault.rules.lateral import lateral_lanes, move_sideways
from siege.games.castle_assault.rules.start import curse_candidates
from siege.games.castle_assault.rules.stats import (
    MOMENTUM_MAX,
    at_max,
    attack_of,
    card_of,
    health_left,
)
from siege.games.castle_assault.state import (
    HERO_INSTANCE,
    NOBODY,
    Boost,
    Motion,
    State,
    Unit,
    instance_of,
    opponent,
    ready_resources,
    unit_at,
)

Pairs = list[tuple[int, int]]
NONE: Pairs = [(-1, -1)]
CURSED_EXTRA = 2  # Hex Bolt's extra damage to the cursed unit


def _mine(state: State, seat: int) -> list[Unit]:
    return [u for u in state.units if u.seat == seat]


def _theirs(state: State, seat: int) -> list[Unit]:
    return [u for u in state.units if u.seat != seat]


def _hero(unit: Unit) -> bool:
    return instance_of(unit.uid) == HERO_INSTANCE


def _pairs(units: list[Unit]) -> Pairs:
    return [(u.uid, -1) for u in units]


def _if(condition: bool) -> Pairs:
    return NONE if condition else []


def return_to_hand(state: State, unit: Unit) -> None:
    """A unit leaves the battlefield for its owner's hand: not destroyed, so nobody draws and
    nothing resurrects; its attachments, Captain or Curse token go as if it were."""
    state.units.remove(unit)
    state.boosts = [b for b in state.boosts if b.uid != unit.uid]
    state.discards[unit.seat].extend(unit.attachments)
    unit.attachments = []
    if state.captain[unit.seat] == unit.uid:
        state.captain[unit.seat] = NOBODY
    if state.curse == unit.uid:
        state.curse, state.curse_by, state.curse_holder = NOBODY, NOBODY, unit.seat
    state.hands[unit.seat].append(instance_of(unit.uid))


def _destroy(state: State, unit: Unit) -> None:
    damage_unit(state, unit, max(0, health_left(unit)))
    remove_destroyed(state)


def blink_lanes(state: State, unit: Unit) -> list[int]:
    return [lane for lane in range(LANES) if lane != unit.lane
            and unit_at(state, lane, unit.row) is None and [lane, unit.row] not in state.rubble]


def push_room(state: State, unit: Unit, reach: int) -> int:
    """Free battlefield squares behind the unit, up to ``reach`` (never its castle area)."""
    back = -forward(unit.seat)
    room = 0
    row = unit.row
    while room < reach:
        row += back
        if row == castle_row(unit.seat) or unit_at(state, unit.lane, row) is not None or (
                [unit.lane, row] in state.rubble):
            break
        room += 1
    return room


def _touching_mine(state: State, seat: int, enemy: Unit) -> Unit | None:
    """The unit of ``seat`` whose front square the enemy stands on, if any."""
    other = unit_at(state, enemy.lane, enemy.row - forward(seat))
    return other if other is not None and other.seat == seat else None


def _last_unit_card(state: State, seat: int) -> int | None:
    for instance in reversed(state.discards[seat]):
        if CARDS[state.cards[seat][instance]].kind == "unit":
            return instance
    return None


def _wall_row(seat: int) -> int:
    return castle_row(seat) + forward(seat)


TargetRule = Callable[[State, int, Card], Pairs]
TARGETS: dict[str, TargetRule] = {
    "weaken": lambda s, seat, c: _pairs(_theirs(s, seat)),
    "damage_cursed": lambda s, seat, c: _pairs(_theirs(s, seat)),
    "bounce": lambda s, seat, c: _pairs([u for u in _theirs(s, seat) if not _hero(u)]),
    "bounce_own": lambda s, seat, c: _pairs([u for u in _mine(s, seat) if not _hero(u)]),
    "blink": lambda s, seat, c: [(u.uid, lane) for u in _mine(s, seat)
                                 for lane in blink_lanes(s, u)],
    "shove": lambda s, seat, c: [(u.uid, lane) for u in _theirs(s, seat)
                                 for lane in lateral_lanes(s, u, c.amount)],
    "curse_now": lambda s, seat, c: _pairs(_theirs(s, seat)) if curse_candidates(s, seat)
    else [],
    "castle_repair": lambda s, seat, c: _if(s.castle_damage[seat] > 0),
    "ramp": lambda s, seat, c: _if(bool(s.decks[seat])),
    "ready": lambda s, seat, c: _if(s.exhausted[seat] > 0),
    "damage_castle": lambda s, seat, c: NONE,
    "advance": lambda s, seat, c: _pairs([u for u in _mine(s, seat) if not engaged(s, u)]),
    "damage_wall": lambda s, seat, c: _if(any(u.row == _wall_row(seat)
                                              for u in _theirs(s, seat))),
    "push": lambda s, seat, c: _pairs([u for u in _theirs(s, seat) if push_room(s, u, 1)]),
    "momentum_max": lambda s, seat, c: _if(not at_max(s, seat)),
    "panoply": lambda s, seat, c: _pairs(_mine(s, seat)),
    "team_armor": lambda s, seat, c: _if(bool(_mine(s, seat))),
    "team_attack": lambda s, seat, c: _if(bool(_mine(s, seat))),
    "exhaust": lambda s, seat, c: _if(ready_resources(s, opponent(seat)) > 0),
    "destroy_cheap": lambda s, seat, c: _pairs([u for u in _theirs(s, seat) if not _hero(u)
                                                and card_of(u).cost <= c.amount]),
    "sacrifice": lambda s, seat, c: _pairs([u for u in _mine(s, seat) if not _hero(u)]),
    "cleanse": lambda s, seat, c: _pairs([u for u in _mine(s, seat) if s.curse == u.uid]),
    "damage_all": lambda s, seat, c: _if(bool(_theirs(s, seat))),
    "clear_ongoing": lambda s, seat, c: _if(s.ongoing != NOBODY),
    "extra_action": lambda s, seat, c: _pairs([u for u in _mine(s, seat) if u.uid in s.acted]),
    "recover": lambda s, seat, c: _if(_last_unit_card(s, seat) is not None),
    "ambush": lambda s, seat, c: _pairs([u for u in _theirs(s, seat)
                                         if _touching_mine(s, seat, u) is not None]),
}


def _boost_all(state: State, seat: int, stat: Literal["attack", "armor"], amount: int) -> None:
    for unit in _mine(state, seat):
        state.boosts.append(Boost(uid=unit.uid, stat=stat, amount=amount))


def _push(state: State, unit: Unit, reach: int) -> None:
    unit.row -= forward(unit.seat) * push_room(state, unit, reach)


def _ambush(state: State, seat: int, enemy: Unit) -> None:
    mine = _touching_mine(state, seat, enemy)
    if mine is not None:
        damage_unit(state, enemy, max(0, attack_of(state, mine)))
        remove_destroyed(state)


def _sacrifice(state: State, seat: int, unit: Unit, amount: int) -> None:
    _destroy(state, unit)
    draw(state, seat, amount)


def _curse(state: State, seat: int, unit: Unit) -> None:
    state.curse, state.curse_by, state.curse_holder = unit.uid, seat, NOBODY


def _cleanse(state: State, seat: int) -> None:
    state.curse, state.curse_by, state.curse_holder = NOBODY, NOBODY, seat


def _damage_many(state: State, units: list[Unit], amount: int) -> None:
    for unit in units:
        damage_unit(state, unit, amount)
    remove_destroyed(state)


def _clear_ongoing(state: State) -> None:
    state.env_discard.append(state.ongoing)
    state.ongoing = NOBODY


def _recover(state: State, seat: int) -> None:
    instance = _last_unit_card(state, seat)
    if instance is not None:
        state.discards[seat].remove(instance)
        state.hands[seat].append(instance)


def _ramp(state: State, seat: int) -> None:
    if state.decks[seat]:
        state.resources[seat].append(state.decks[seat].pop(0))


def _advance(state: State, unit: Unit, amount: int) -> None:
    state.motion = Motion(uid=unit.uid, left=amount, auras=auras_now(state, unit))


def resolve_more(state: State, seat: int, card: Card, unit: Unit | None, lane: int) -> None:
    """Resolves one of the effects above (``unit`` is None for those with no unit target)."""
    effect, amount = card.effect, card.amount
    enemy = opponent(seat)
    if unit is not None:
        if effect == "weaken":
            state.boosts.append(Boost(uid=unit.uid, stat="attack", amount=-amount))
        elif effect == "damage_cursed":
            extra = CURSED_EXTRA if state.curse == unit.uid else 0
            _damage_many(state, [unit], amount + extra)
        elif effect in ("bounce", "bounce_own"):
            return_to_hand(state, unit)
        elif effect in ("blink", "shove"):
            move_sideways(state, unit, lane)
        elif effect == "curse_now":
            _curse(state, seat, unit)
        elif effect == "advance":
            _advance(state, unit, amount)
        elif effect == "push":
            _push(state, unit, amount)
        elif effect == "destroy_cheap":
            _destroy(state, unit)
        elif effect == "sacrifice":
            _sacrifice(state, seat, unit, amount)
        elif effect == "cleanse":
            _cleanse(state, seat)
        elif effect == "extra_action":
            state.acted.remove(unit.uid)
        elif effect == "ambush":
            _ambush(state, seat, unit)
        return
    if effect == "castle_repair":
        state.castle_damage[seat] -= min(amount, state.castle_damage[seat])
    elif effect == "ramp":
        _ramp(state, seat)
    elif effect == "ready":
        state.exhausted[seat] -= min(amount, state.exhausted[seat])
    elif effect == "damage_castle":
        hit_castle(state, enemy, NOBODY, amount)
    elif effect == "damage_wall":
        _damage_many(state, [u for u in _theirs(state, seat) if u.row == _wall_row(seat)],
                     amount)
    elif effect == "momentum_max":
        state.momentum = MOMENTUM_MAX if seat == 0 else -MOMENTUM_MAX
    elif effect == "team_armor":
        _boost_all(state, seat, "armor", amount)
    elif effect == "team_attack":
        _boost_all(state, seat, "attack", amount)
    elif effect == "exhaust":
        state.exhausted[enemy] += min(amount, ready_resources(state, enemy))
    elif effect == "damage_all":
        _damage_many(state, list(state.units), amount)
    elif effect == "clear_ongoing":
        _clear_ongoing(state)
    elif effect == "recover":
        _recover(state, seat)
