"""Storm the Castle! bots. They see only a seat's view and its legal actions, like any outside
client; ``RandomBot`` comes from ``siege.bots.protocol``.

:class:`GreedyBot` plays one step deep with a few rules of thumb:
- takes the Green Tide (then Dark Elves, Undead, Arcanists) and the first free battlefield;
- buys the champion and the upgrade when it holds their cards, then the unit with most attack
  and health into a free start space (its own first), keeping 3 gold back on the last turn;
- moves units toward the keep (never onto a space that only locks them), attacks standing
  walls, keep walls and castle buildings in front of it, then defenders it can hurt; enters
  the keep whenever it can and battle marches when that brings it closer;
- as the defenders' controller, sends defenders against the other players' units (its own
  only when the rules force it) and places reinforcements in their way;
- buys ladders for melee units and equipment from its hand, sets ladders against the walls in
  front of it and climbs them, pushes units toward the keep, casts attack spells at defenders
  (and wards), strikes back with its strongest spell, plays remain-in-play cards, and plays
  action, common and Boss cards first thing in its turn when their effect helps now;
- places the hero near the other players' units;
- bids a gold for the Boss vote when it is rich, keeps the lowest turn-order token, breaks
  ties for itself, takes gold as loot and discards its highest-numbered cards first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from siege.bots.protocol import RandomBot, Rng
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import (
    ARCANISTS,
    DARK_ELVES,
    GREEN_TIDE,
    UNDEAD,
    UNIT_KINDS,
)
from siege.games.storm_castle.board import KEEP, NOBODY, SPACES, STRUCTURES, distance
from siege.games.storm_castle.cards import spell_of
from siege.games.storm_castle.decks import CHAMPION_CARD, UPGRADE_CARD
from siege.games.storm_castle.power import BOSS_CARDS, power_card
from siege.games.storm_castle.state import CAP, LAST_TURN
from siege.games.storm_castle.views import StormUnitView, StormView

T = TypeVar("T")
ARMY_PREFERENCE = (GREEN_TIDE, DARK_ELVES, UNDEAD, ARCANISTS)


class GreedyBot:
    name = "greedy"

    def choose(self, view: StormView, legal: Sequence[T], rng: Rng) -> T:
        scorer = _SCORERS.get(view.asking)
        if scorer is None:
            return RandomBot().choose(view, legal, rng)
        return max(legal, key=lambda action: scorer(view, action))


def _units(view: StormView) -> dict[int, StormUnitView]:
    return {u.uid: u for u in view.units}


def _keep_distance(space: int) -> int:
    if SPACES[space].kind == "location":
        return 9
    return distance(space, KEEP)


def _army(view: StormView, x: Any) -> float:
    return -float(ARMY_PREFERENCE.index(x.army))


def _battlefield(view: StormView, x: Any) -> float:
    return -float(x.battlefield)


def _value(kind: int) -> float:
    """Front spaces are few: strength per unit matters more than per gold."""
    spec = UNIT_KINDS[kind]
    return (spec.attack * 1.5 + spec.health * 0.5 + spec.armor + (1.5 if spec.range else 0)
            - 0.1 * spec.cost)


def _buy(view: StormView, x: Any) -> float:
    me = view.seat
    gold = view.gold[me]
    last = view.turn >= LAST_TURN
    home = set(_home_starts(view))
    if isinstance(x, a.EndBuying):
        return 0.0
    if isinstance(x, a.BuyUpgrade):
        return 9.0
    if isinstance(x, a.BuyChampion):
        return 8.0 + (1.0 if x.space in home else -5.0)
    if isinstance(x, a.BuyUnit):
        cost = UNIT_KINDS[x.kind].cost + (0 if x.space in home else 1)
        if last and gold - cost < 3:
            return -1.0
        occupied = any(u.space == x.space for u in view.units)
        away = 0.0 if x.space in home else 1.5
        return (-1.0 if occupied else 2.0 + _value(x.kind) - away) - 0.1 * x.space / 100
    if isinstance(x, a.BuyLadder):
        unit = _units(view).get(x.unit)
        melee = unit is not None and not UNIT_KINDS[unit.kind].range
        return 3.5 + (1.0 if melee else -2.0) - view.ladders_in_use[me]
    if isinstance(x, a.BuyEquipment):
        unit = _units(view).get(x.unit)
        return 2.5 + (0.1 * _value(unit.kind) if unit is not None else 0.0)
    return -1.0  # power cards, gifts and dropping equipment do nothing for the bot


def _home_starts(view: StormView) -> list[int]:
    field = view.battlefields[view.seat]
    return [s.id for s in SPACES if s.kind == "battlefield" and s.side == field and s.row == 2]


def _structure_score(view: StormView, sid: int) -> float:
    structure = view.structures[sid]
    kind = STRUCTURES[sid].kind
    if kind == "upgrade":
        return 0.5
    left = structure.health - structure.damage
    return 4.0 + (2.0 if kind == "keep_wall" else 0.0) + 1.0 / max(1, left)


def _act(view: StormView, x: Any) -> float:
    me = view.seat
    units = _units(view)
    if isinstance(x, a.EndPlayerTurn):
        return 0.0
    if isinstance(x, a.MoveUnit):
        unit = units[x.unit]
        if x.to == KEEP:
            return 1000.0
        if x.to == unit.space:
            return 1.0  # unflip
        if SPACES[x.to].kind == "location":
            return 0.6 if unit.kind in _cheap(view) else -1.0
        gain = _keep_distance(unit.space) - _keep_distance(x.to)
        if gain <= 0:
            return -1.0
        return 2.0 * gain + (0.5 if UNIT_KINDS[unit.kind].range else 0.0)
    if isinstance(x, a.CastSpell):
        return _cast(view, x)
    if isinstance(x, a.PlaceLadder):
        return 6.0
    if isinstance(x, a.PushUnit):
        unit = units[x.unit]
        gain = _keep_distance(unit.space) - _keep_distance(x.to)
        return 1.5 * gain - 0.5 if unit.damage + 1 < unit.health else -1.0
    if isinstance(x, a.PlayCard):
        return 2.0
    if isinstance(x, a.PlayPowerCard | a.PlayBossCard):
        return _card_score(view, x)
    if isinstance(x, a.AttackTarget):
        if x.structure != NOBODY:
            return _structure_score(view, x.structure)
        target = units[x.target]
        if target.owner == me:
            return -5.0
        if target.owner < 0:
            left = target.health - target.damage
            unit = units[x.unit]
            guard = 40.0 if target.space == KEEP else 0.0  # the last one in the way
            ready = 5.0 if guard and unit.moved < 2 else 0.0  # it can battle march in
            return 3.0 + 1.5 / left + guard + ready
        return 0.3 if _keep_distance(target.space) <= 4 else -0.5
    return -1.0


def _card_score(view: StormView, x: Any) -> float:
    """Cards are played first thing in a turn when their effect helps now (moves before moving,
    fury and flips before attacking); a card that would do nothing is kept."""
    me = view.seat
    if isinstance(x, a.PlayBossCard):
        effect = BOSS_CARDS[x.card].effect
    else:
        found = power_card(view.armies[me], x.card)
        if found is None:
            return -1.0
        effect = found.effect
    mine = [u for u in view.units if u.owner == me]
    near = [u for u in mine if _keep_distance(u.space) <= 5]
    reach = sum(1 for d in view.units if d.owner < 0 and not d.flipped
                and any(distance(u.space, d.space) <= 2 for u in mine if not u.flipped
                        and SPACES[u.space].kind != "location"))
    magic_army = view.armies[me] in (ARCANISTS, UNDEAD)
    value = (0.5 * min(effect.gold, CAP - view.gold[me])
             + (0.4 if magic_army else 0.05) * min(effect.magic, CAP - view.magic[me])
             + 0.6 * effect.draw
             + (1.0 * effect.moves if mine else 0.0)
             + 1.5 * (effect.fury + effect.guard) * len(near)
             + 1.0 * effect.heal * sum(1 for u in mine if u.damage)
             + 2.0 * min(effect.flip, reach))
    return 10.0 + value if value > 0.2 else -1.0


def _cast(view: StormView, x: a.CastSpell) -> float:
    """Attack spells at defenders (the keep's guard above all); wards on a unit in front."""
    units = _units(view)
    spell = spell_of(view.armies[view.seat], x.card)
    if spell is None or x.structure >= 0:
        return -1.0  # the greedy bot keeps its spells for units
    target = units[x.target]
    if spell.ward:
        return 0.5 if _keep_distance(target.space) <= 4 and target.ward == 0 else -1.0
    if target.owner >= 0:
        return -1.0
    guard = 40.0 if target.space == KEEP else 0.0
    return 3.5 + spell.attack / max(1, target.health - target.damage) + guard


def _counter(view: StormView, x: Any) -> float:
    spell = spell_of(view.armies[view.seat], x.card) if x.card >= 0 else None
    return float(spell.attack) if spell is not None else 1.0


def _hero(view: StormView, x: Any) -> float:
    """As the defenders' controller: the hero goes where the other players are."""
    rivals = [u.space for u in view.units if u.owner >= 0 and u.owner != view.seat
              and SPACES[u.space].kind != "location"]
    mine = any(u.space == x.space and u.owner == view.seat for u in view.units)
    return (-10.0 if mine else 0.0) - (min(distance(x.space, s) for s in rivals)
                                       if rivals else 0.0)


def _cheap(view: StormView) -> set[int]:
    return {k.id for k in UNIT_KINDS if k.cost == 1}


def _march(view: StormView, x: Any) -> float:
    offer = view.offer
    if offer is None:
        return 0.0
    unit = _units(view).get(offer.unit)
    if isinstance(x, a.HoldPosition):
        return 0.0
    if unit is None or unit.owner < 0:
        return 1.0
    return 1.0 if _keep_distance(offer.to) < _keep_distance(unit.space) else -1.0


def _order(view: StormView, x: Any) -> float:
    me = view.seat
    units = _units(view)
    rivals = [u for u in view.units if u.owner >= 0 and u.owner != me]
    if isinstance(x, a.DrawSpells):
        return 9.0  # a caster that may act draws its spells
    if x.knock != NOBODY:
        ladder = next((lad for lad in view.ladders if lad.wall == x.knock), None)
        return 8.0 if ladder is not None and ladder.owner != me else -5.0
    if x.target != NOBODY:
        target = units[x.target]
        if target.owner == me:
            return -10.0 + target.health - target.damage
        lead = 10.0 - _keep_distance(target.space)
        spell = 1.0 if x.spell != NOBODY else 0.0
        return 10.0 + lead + 1.0 / max(1, target.health - target.damage) + spell
    if not rivals:
        return 0.0
    near = min(distance(x.to, u.space) for u in rivals if SPACES[u.space].kind != "location")\
        if any(SPACES[u.space].kind != "location" for u in rivals) else 0
    return -float(near)


def _place(view: StormView, x: Any) -> float:
    me = view.seat
    others = [u.space for u in view.units if u.owner >= 0 and u.owner != me
              and SPACES[u.space].kind != "location"]
    mine = [u.space for u in view.units if u.owner == me and SPACES[u.space].kind != "location"]
    score = 0.0
    if others:
        score -= min(distance(x.space, s) for s in others)
    if mine:
        score += 0.5 * min(distance(x.space, s) for s in mine)
    if not others and not mine:
        rival_fields = [b for s, b in enumerate(view.battlefields) if s != me and b >= 0]
        sides = {SPACES[x.space].side}
        score += 1.0 if sides & set(rival_fields) else 0.0
    return score


def _bid(view: StormView, x: Any) -> float:
    want = 1 if view.gold[view.seat] >= 6 else 0
    return -abs(x.gold - want)


def _discard(view: StormView, x: Any) -> float:
    return -10.0 if x.card in (CHAMPION_CARD, UPGRADE_CARD) else float(x.card)


_SCORERS: dict[str, Any] = {
    "army": _army,
    "battlefield": _battlefield,
    "buy": _buy,
    "act": _act,
    "march": _march,
    "order": _order,
    "place": _place,
    "bid": _bid,
    "tie": lambda v, x: 1.0 if x.seat == v.seat else -float(x.seat),
    "token": lambda v, x: -float(x.token),
    "loot": lambda v, x: 1.0 if x.kind == "gold" else 0.0,
    "discard": _discard,
    "boss_discard": lambda v, x: float(x.card),
    "boss_card": lambda v, x: -float(x.card),
    "ousted_card": lambda v, x: -float(x.card),
    "counter": _counter,
    "hero": _hero,
}
