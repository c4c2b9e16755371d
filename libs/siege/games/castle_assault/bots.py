"""Castle Assault bots. They see only a seat's view and its legal actions, like any client.

:class:`GreedyBot` plays by rules of thumb, one action at a time:
- hit first: attacks and shots that destroy a unit or reach a castle, damage commands that
  destroy a unit, then any attack that deals damage without losing the attacker;
- build up: one resource a turn (two when allowed) until six, the most expensive card first;
  then the dearest unit it can pay for, in the lane where the enemy is closest to its castle;
- play the other commands when their rule of thumb says so (``bot_commands``);
- push: the Momentum Meter into the Charging Smash area before Charges, then every free unit
  Charges, most forward first; the Captain and the Curse go on the strongest units.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from siege.bots.protocol import RandomBot, Rng
from siege.games.castle_assault import actions as a
from siege.games.castle_assault import bot_commands
from siege.games.castle_assault.board import CASTLE_ROW, forward, front_row
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.rules.stats import MOMENTUM_MAX, SMASH_AREA
from siege.games.castle_assault.views import CastleAssaultView, UnitView

T = TypeVar("T")
RESOURCE_GOAL = 6


class GreedyBot:
    name = "greedy"

    def choose(self, view: CastleAssaultView, legal: Sequence[T], rng: Rng) -> T:
        pick: Any = None
        if view.asking == "open":
            pick = _open(view, list(legal))
        elif view.asking == "mulligan":
            cheap = sum(1 for c in view.hand_cards if CARDS[c].kind == "unit"
                        and CARDS[c].cost <= 2)
            pick = a.KEEP_HAND if cheap >= 2 else a.MULLIGAN
        elif view.asking == "first":
            pick = a.ChooseFirst(first=1 - view.seat)  # going second: two resources at once
        elif view.asking in ("captain", "curse"):
            pick = _strongest_token(view, list(legal))
        elif view.asking == "respond":
            pick = _respond(view, list(legal))
        elif view.asking == "discard":
            pick = max(legal, key=lambda x: CARDS[_card(view, x.card)].cost)  # type: ignore
        if pick is None or pick not in legal:
            return RandomBot().choose(view, legal, rng)
        return pick


def _card(view: CastleAssaultView, instance: int) -> int:
    return view.hand_cards[view.hand.index(instance)]


def _unit(view: CastleAssaultView, uid: int) -> UnitView | None:
    return next((u for u in view.units if u.uid == uid), None)


def _strongest_token(view: CastleAssaultView, legal: list[Any]) -> Any:
    scored = [(u.attack * 2 + u.health, x) for x in legal
              if (u := _unit(view, getattr(x, "unit", -1))) is not None]
    return max(scored, key=lambda p: p[0])[1] if scored else legal[-1]


def _facing(view: CastleAssaultView, unit: UnitView) -> UnitView | None:
    row = unit.row + forward(unit.seat)
    return next((u for u in view.units if u.lane == unit.lane and u.row == row
                 and u.seat != unit.seat), None)


def _open(view: CastleAssaultView, legal: list[Any]) -> Any:
    me = view.seat
    for chooser in (_strike, _place, _play_unit, _hero, _attach, _cast, _momentum, _charge,
                    _buy):
        pick = chooser(view, legal, me)
        if pick is not None:
            return pick
    return a.END_TURN if a.END_TURN in legal else None


def _strike(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    best: tuple[int, Any] | None = None
    for x in legal:
        score = 0
        if isinstance(x, a.Attack) and (u := _unit(view, x.unit)) is not None:
            enemy = _facing(view, u)
            if enemy is None:
                score = 50 + u.attack  # a castle
            else:
                dealt = u.attack - enemy.armor
                back = enemy.attack - u.armor
                safe = back < u.health or CARDS[u.card].kind != "hero"
                if dealt >= enemy.health and safe:
                    score = 40 + _worth(enemy)
                elif dealt > 0 and back < u.health:
                    score = 10 + dealt + (30 if CARDS[enemy.card].kind == "hero" else 0)
        elif isinstance(x, a.UseAbility) and (u := _unit(view, x.unit)) is not None:
            score = _shot_score(view, u, x)
        elif isinstance(x, a.PlayCommand):
            card = CARDS[_card(view, x.card)]
            target = _unit(view, x.unit)
            if card.effect == "damage" and target is not None and card.amount >= target.health:
                score = 30 + _worth(target)
        if score > 0 and (best is None or score > best[0]):
            best = (score, x)
    return best[1] if best else None


def _worth(unit: UnitView) -> int:
    """How much destroying the unit is worth: its cost, and a hero is the game."""
    return 100 if CARDS[unit.card].kind == "hero" else CARDS[unit.card].cost


def _shot_score(view: CastleAssaultView, shooter: UnitView, x: a.UseAbility) -> int:
    if x.target >= 0:
        t = _unit(view, x.target)
        if t is None:
            return 0
        dealt = shooter.attack - t.armor
        if dealt >= t.health:
            return 35 + _worth(t)
        return 5 + dealt + (30 if CARDS[t.card].kind == "hero" else 0) if dealt > 0 else 0
    if x.target == a.CASTLE_TARGET:
        return 20 + shooter.attack
    # A blast: worth it when it hurts more enemies than friends.
    ahead = [u for u in view.units if u.lane == shooter.lane and u.uid != shooter.uid]
    foes = sum(1 for u in ahead if u.seat != shooter.seat)
    friends = len(ahead) - foes
    return 8 + foes if foes > friends else 0


def _place(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    places = [x for x in legal if isinstance(x, a.PlaceResource)]
    if not places or (view.resource_counts[me] >= RESOURCE_GOAL and len(view.hand) < 5):
        return None
    return max(places, key=lambda x: (CARDS[_card(view, x.card)].cost, -x.card))


def _threat_lane(view: CastleAssaultView, me: int) -> list[int]:
    """Lanes ordered by how close the nearest enemy stands to this seat's castle."""
    home = CASTLE_ROW[me]
    nearest = {lane: 99 for lane in range(3)}
    for u in view.units:
        if u.seat != me:
            nearest[u.lane] = min(nearest[u.lane], abs(u.row - home))
    return sorted(nearest, key=lambda lane: (nearest[lane], lane))


def _play_unit(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    plays = [x for x in legal if isinstance(x, a.PlayUnit)]
    if not plays:
        return None
    order = _threat_lane(view, me)
    return max(plays, key=lambda x: (CARDS[_card(view, x.card)].cost,
                                     -order.index(x.lane)))


def _hero(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    """A hero lost is a game lost: it only comes to stop an enemy at an empty castle location
    when it outlasts that enemy's blow with room to spare, and only if the blow barely scratches
    it or the enemy could bring the castle down within two blows; it never Charges."""
    hero = CARDS[view.heroes_played[me]]
    wall = CASTLE_ROW[me] + forward(me)
    for x in legal:
        if not isinstance(x, a.SummonHero):
            continue
        enemy = next((u for u in view.units if u.seat != me and u.lane == x.lane
                      and u.row == wall), None)
        if enemy is None:
            continue
        blow = enemy.attack - hero.armor
        if blow < hero.health - 2 and (blow <= 1 or view.castles[me] <= 2 * (enemy.attack + 1)):
            return x
    return None


def _attach(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    for x in legal:
        if not isinstance(x, a.PlayCommand):
            continue
        card = CARDS[_card(view, x.card)]
        target = _unit(view, x.unit)
        if card.timing == "attachment" and target is not None and target.health >= 3:
            return x
        if card.effect == "draw":
            return x
    return None


def _cast(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    return bot_commands.best(view, legal)


def _momentum(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    favour = view.momentum if me == 0 else -view.momentum
    chargers = [x for x in legal if isinstance(x, a.Charge)]
    push = a.ShiftMomentum(toward=me)
    if chargers and favour <= MOMENTUM_MAX - SMASH_AREA and push in legal:
        return push
    return None


def _charge(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    chargers = [(u, x) for x in legal if isinstance(x, a.Charge)
                and (u := _unit(view, x.unit)) is not None and CARDS[u.card].kind != "hero"]
    if not chargers:
        return None
    # Most forward first; a unit already at the enemy's front row has nowhere to go.
    chargers.sort(key=lambda p: abs(p[0].row - front_row(me)))
    return chargers[0][1]


def _buy(view: CastleAssaultView, legal: list[Any], me: int) -> Any:
    return a.BUY_DRAW if a.BUY_DRAW in legal and len(view.hand) < 3 else None


def _respond(view: CastleAssaultView, legal: list[Any]) -> Any:
    """In a response window: an Instant that destroys an enemy unit, or Armor that saves one
    of its own units from the combat about to resolve; else pass."""
    endangered = _endangered(view)
    for x in legal:
        if isinstance(x, a.PlayCommand):
            card = CARDS[_card(view, x.card)]
            target = _unit(view, x.unit)
            if target is None:
                continue
            if card.effect == "damage" and target.seat != view.seat and (
                    card.amount >= target.health):
                return x
            if card.effect == "armor" and endangered.get(target.uid, 99) <= card.amount:
                return x
    pick = bot_commands.best(view, legal, endangered)
    return pick if pick is not None else a.PASS_RESPONSE


def _endangered(view: CastleAssaultView) -> dict[int, int]:
    """This seat's units in the pending combat that it would lose: uid -> Armor they lack."""
    attacker = _unit(view, view.fighting)
    if attacker is None:
        return {}
    defender = _facing(view, attacker)
    if defender is None:
        return {}
    mine, theirs = (attacker, defender) if attacker.seat == view.seat else (defender, attacker)
    if mine.seat != view.seat:
        return {}
    blow = theirs.attack + (1 if theirs is attacker else 0) - mine.armor  # a Smash, perhaps
    return {mine.uid: blow - mine.health + 1} if blow >= mine.health else {}
