"""The greedy bot's rules of thumb for the commands of the full card pool.

:func:`open_score` rates a command in the seat's own Open Phase and :func:`respond_score` one
in a response window; 0 means "not now". The bot plays the best command rated above 0.
"""

from __future__ import annotations

from typing import Any

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.board import CASTLE_ROW, forward, front_row
from siege.games.castle_assault.card_model import Card
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.rules.stats import MOMENTUM_MAX, SMASH_AREA
from siege.games.castle_assault.views import CastleAssaultView, UnitView

HARMFUL_ONGOING = frozenset({"attack_all", "armor_all", "no_quick", "movement_all"})


def _unit(view: CastleAssaultView, uid: int) -> UnitView | None:
    return next((u for u in view.units if u.uid == uid), None)


def _worth(unit: UnitView) -> int:
    return 100 if CARDS[unit.card].kind == "hero" else CARDS[unit.card].cost


def _facing(view: CastleAssaultView, unit: UnitView) -> UnitView | None:
    row = unit.row + forward(unit.seat)
    return next((u for u in view.units if u.lane == unit.lane and u.row == row
                 and u.seat != unit.seat), None)


def _mine(view: CastleAssaultView) -> list[UnitView]:
    return [u for u in view.units if u.seat == view.seat]


def _theirs(view: CastleAssaultView) -> list[UnitView]:
    return [u for u in view.units if u.seat != view.seat]


def _kill(card: Card, target: UnitView | None, damage: int) -> int:
    return 30 + _worth(target) if target is not None and damage >= target.health else 0


def _near_home(view: CastleAssaultView, unit: UnitView) -> int:
    """Spaces between an enemy unit and this seat's castle area."""
    return abs(unit.row - CASTLE_ROW[view.seat]) - 1


def open_score(view: CastleAssaultView, x: Any, card: Card) -> int:
    """How much the bot wants to play command ``x`` (of ``card``) in its Open Phase now."""
    me = view.seat
    target = _unit(view, x.unit)
    effect = card.effect
    if effect == "damage_cursed" and target is not None:
        return _kill(card, target, card.amount + (2 if target.cursed else 0))
    if effect == "ambush" and target is not None:
        mine = next((u for u in _mine(view) if _facing(view, u) == target), None)
        return _kill(card, target, mine.attack) if mine is not None else 0
    if effect == "destroy_cheap" and target is not None:
        return 30 + _worth(target)
    if effect == "bounce" and target is not None:
        return 20 + _worth(target) if _worth(target) >= 3 else 0
    if effect in ("damage_all", "damage_wall"):
        hit = _theirs(view) if effect == "damage_all" else [
            u for u in _theirs(view) if _near_home(view, u) == 0]
        dead = sum(1 for u in hit if u.health <= card.amount)
        lost = sum(1 for u in _mine(view) if u.health <= card.amount) if (
            effect == "damage_all") else 0
        return 15 + 5 * dead if dead > lost or (hit and not lost and len(hit) >= 2) else 0
    if effect == "damage_castle":
        return 200 if view.castles[1 - me] <= card.amount else 18
    if effect == "castle_repair":
        return 12 if 10 - view.castles[me] >= card.amount else 0
    if effect in ("ramp", "ready"):
        return 14 if view.resource_counts[me] < 8 else 0
    if effect == "momentum_max":
        favour = view.momentum if me == 0 else -view.momentum
        chargers = [u for u in _mine(view) if u.can_act and not u.engaged]
        return 11 if chargers and favour <= MOMENTUM_MAX - SMASH_AREA else 0
    if effect == "team_attack":
        ready = [u for u in _mine(view) if u.can_act or not u.engaged]
        return 10 if len(ready) >= 2 else 0
    if effect == "advance" and target is not None and CARDS[target.card].kind != "hero":
        return 8 + target.attack if abs(target.row - front_row(me)) >= 2 else 0
    if effect == "blink" and target is not None:
        return _blink_score(view, target, x.lane)
    if effect == "curse_now" and target is not None:
        return 6 + target.attack
    if effect == "extra_action" and target is not None:
        return 12 + target.attack if target.engaged else 0
    if effect == "recover":
        return 6 if len(view.hand) <= 3 else 0
    if effect == "sacrifice" and target is not None:
        return 5 if len(view.hand) <= 1 and CARDS[target.card].cost <= 1 else 0
    if effect == "clear_ongoing":
        ongoing = CARDS[view.ongoing] if view.ongoing >= 0 else None
        return 4 if ongoing is not None and ongoing.env_effect in HARMFUL_ONGOING else 0
    if effect == "push" and target is not None:
        return 10 + target.attack if _near_home(view, target) <= 1 else 0
    return 0


def _blink_score(view: CastleAssaultView, unit: UnitView, lane: int) -> int:
    """Worth it when the unit leaves a defended lane for one whose castle location is empty."""
    if CARDS[unit.card].kind == "hero" or unit.engaged and _facing(view, unit) is None:
        return 0
    enemy_home = CASTLE_ROW[1 - view.seat]
    held = {u.lane for u in _theirs(view) if u.row == enemy_home}
    return 9 if unit.lane in held and lane not in held else 0


def respond_score(view: CastleAssaultView, x: Any, card: Card,
                  endangered: dict[int, int]) -> int:
    """How much the bot wants to play Instant ``x`` in a response window now."""
    target = _unit(view, x.unit)
    effect = card.effect
    if effect in ("damage_cursed", "ambush"):
        return open_score(view, x, card)
    fighting = _unit(view, view.fighting)
    if endangered:
        mine = next(iter(endangered))
        lack = endangered[mine]
        if effect == "team_armor" and lack <= card.amount:
            return 20
        if effect == "bounce_own" and x.unit == mine and target is not None:
            return 10 + _worth(target) if _worth(target) >= 3 else 0
        if effect in ("weaken", "push") and fighting is not None and x.unit == fighting.uid != mine:
            return 20 if effect == "push" or lack <= card.amount else 0
    if effect == "exhaust" and view.window == "movement" and view.active != view.seat:
        return 8 if view.ready[1 - view.seat] >= 2 else 0
    if effect == "cleanse" and target is not None:
        return 6
    if effect == "damage_wall" and view.window == "movement":
        return open_score(view, x, card)
    return 0


def best(view: CastleAssaultView, legal: list[Any], endangered: dict[int, int] | None = None
         ) -> Any:
    """The best-rated command among ``legal`` (None when none is rated above 0)."""
    found: tuple[int, Any] | None = None
    for x in legal:
        if not isinstance(x, a.PlayCommand):
            continue
        card = CARDS[view.hand_cards[view.hand.index(x.card)]]
        score = (open_score(view, x, card) if endangered is None
                 else respond_score(view, x, card, endangered))
        if score > 0 and (found is None or score > found[0]):
            found = (score, x)
    return found[1] if found else None
