"""Castellum bots. They see only a seat's view and its legal actions, like any outside client.

:class:`GreedyBot` scores every legal action one move deep, in points it expects to win or deny:
- Building: buy the card that adds the most strength for its price into the weakest column it
  fits, otherwise take the richest resource space; the Dinghuis and angel cards when they pay.
- Siege: an enemy goes where it earns the most: into one of its own columns strong enough to
  defeat it, or into an opponent's column too weak to defeat it.
- Angels: cards go below columns where their strength turns a loss into a win; special effects
  are used when they win or deny points; cancels answer effects that hurt the bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from siege.bots.protocol import RandomBot, Rng
from siege.games.castellum.actions import (
    BuyCard,
    CancelEffect,
    DeclineCancel,
    DiscardAngel,
    OrientReward,
    PassAngels,
    PlaceAngel,
    PlaceEnemy,
    PlaceWorker,
    TargetColumn,
    TargetEnemy,
    TargetResources,
    TargetTroop,
    UseAngel,
)
from siege.games.castellum.angels import ANGEL_CARDS, ENEMY_BOOST
from siege.games.castellum.board import SPACES
from siege.games.castellum.cards import GOLD, IS_FORT, LINE_CARDS, NOBODY
from siege.games.castellum.enemies import ENEMY_CARDS, YEARS
from siege.games.castellum.rewards import REWARD_CARDS, side_for
from siege.games.castellum.views import CastellumView, ColumnView

T = TypeVar("T")
LAST_YEAR = len(YEARS) - 1
RESOURCE_WEIGHT = (1.0, 1.0, 1.4)  # gold is the scarcest: most troops need it
ANGEL_CARD_VALUE = 2.0
PENALTY_VALUE = 0.4  # a lost resource is a third of a point, and costs a future purchase


class GreedyBot:
    name = "greedy"

    def choose(self, view: CastellumView, legal: Sequence[T], rng: Rng) -> T:
        scorer = _SCORERS.get(view.asking)
        if scorer is None:
            return RandomBot().choose(view, legal, rng)
        return max(legal, key=lambda action: scorer(view, action))


# --- building --------------------------------------------------------------------------------


def _strength_added(view: CastellumView, card: int) -> float:
    spec = LINE_CARDS[card]
    line = view.lines[view.seat]
    gain = float(spec.strength)
    if not IS_FORT[card]:
        gain += sum(1 for col in line for c in (col.fort, *col.troops)
                    if c != NOBODY and LINE_CARDS[c].boost == spec.troop_type)
    if spec.boost != NOBODY:
        gain += sum(1 for col in line for c in col.troops if LINE_CARDS[c].troop_type == spec.boost)
    return gain


def _score_worker(view: CastellumView, action: Any) -> float:
    me = view.seat
    years_left = LAST_YEAR - view.year
    if isinstance(action, BuyCard):
        spec = LINE_CARDS[action.card]
        column = view.lines[me][action.column]
        value = 4.0 + 1.5 * _strength_added(view, action.card)
        value += 1.5 * years_left * (sum(spec.income[:3]) + ANGEL_CARD_VALUE * spec.income[3])
        value += 1.0 if spec.star != NOBODY else 0.0
        # Even out the Line: every column meets exactly one enemy a year.
        value -= 0.3 * column.strength
        if not column.manned and not IS_FORT[action.card]:
            value -= 0.5
        return value
    if isinstance(action, UseAngel):
        return -1.0  # keep angel cards for the Angel phase
    assert isinstance(action, PlaceWorker)
    space = SPACES[action.space]
    if space.kind == "resources":
        return sum(w * n for w, n in zip(RESOURCE_WEIGHT, space.resources, strict=True))
    if space.kind == "choice":
        return sum(RESOURCE_WEIGHT[r] for r in action.gain) - 0.2
    if space.kind == "dinghuis":
        return 1.2 * sum(1 for col in view.lines[me][: view.columns_open] if col.manned)
    if space.kind == "angel":
        return ANGEL_CARD_VALUE + 0.5 if len(view.hand) < 3 and view.angel_deck_size else 0.0
    return 0.0


# --- siege -----------------------------------------------------------------------------------


def _enemy_power(view: CastellumView, owner: int, card: int) -> int:
    enemy = ENEMY_CARDS[card]
    power = enemy.strength + (enemy.boost if enemy.boost_type == enemy.type else 0)
    for col in view.lines[owner][: view.columns_open]:
        if col.enemy != NOBODY and ENEMY_CARDS[col.enemy].boost_type == enemy.type:
            power += ENEMY_CARDS[col.enemy].boost
    return power


def _outcome(column: ColumnView, power: int, points: int, penalty: int) -> float:
    """Points the column's owner gets from this enemy (a loss costs the penalty)."""
    if column.manned and column.strength >= power:
        return float(points)
    return -PENALTY_VALUE if penalty != NOBODY else 0.0


def _score_enemy(view: CastellumView, action: PlaceEnemy) -> float:
    enemy = ENEMY_CARDS[action.card]
    column = view.lines[action.owner][action.column]
    got = _outcome(column, _enemy_power(view, action.owner, action.card), enemy.points,
                   enemy.penalty)
    # Near-misses in our own Line are worth something: an angel card may still close the gap.
    if action.owner == view.seat:
        gap = _enemy_power(view, action.owner, action.card) - column.strength
        if column.manned and 0 < gap <= 2 and view.hand:
            got = 0.4 * enemy.points
        return got
    return -got


# --- angels ----------------------------------------------------------------------------------


def _wins(column: ColumnView, extra: int = 0, enemy_extra: int = 0) -> bool:
    return (column.enemy != NOBODY and column.manned
            and column.strength + extra >= column.enemy_strength + enemy_extra)


def _points(column: ColumnView) -> int:
    return ENEMY_CARDS[column.enemy].points if column.enemy != NOBODY else 0


def _place_value(view: CastellumView, card: int, col: int) -> float:
    column = view.lines[view.seat][col]
    if column.enemy == NOBODY or _wins(column):
        return -1.0
    if _wins(column, extra=ANGEL_CARDS[card].strength):
        return _points(column) - 0.1 * ANGEL_CARDS[card].strength  # the smallest card that does
    return -1.0


def _boost_value(view: CastellumView, owner: int, col: int) -> float:
    column = view.lines[owner][col]
    if owner == view.seat or not _wins(column) or _wins(column, enemy_extra=ENEMY_BOOST):
        return -1.0
    return float(_points(column))


def _destroy_value(view: CastellumView, col: int) -> float:
    column = view.lines[view.seat][col]
    if column.enemy == NOBODY or _wins(column):
        return -1.0
    return _points(column) - 1.0 / 3  # the stone it costs


def _switch_value(view: CastellumView, a: tuple[int, int], b: tuple[int, int]) -> float:
    """What swapping the enemies of columns ``a`` and ``b`` gains the bot (its own points plus
    points denied to the others), judged on base strengths."""
    value = 0.0
    for (owner, col), (other_owner, other_col) in ((a, b), (b, a)):
        column = view.lines[owner][col]
        incoming = view.lines[other_owner][other_col]
        before = _points(column) if _wins(column) else 0
        after = 0
        beats = column.manned and column.strength >= incoming.enemy_strength
        if incoming.enemy != NOBODY and beats:
            after = _points(incoming)
        value += (after - before) * (1 if owner == view.seat else -1)
    return value


def _enemy_columns(view: CastellumView) -> list[tuple[int, int]]:
    return [(owner, col) for owner in range(view.players) for col in range(view.columns_open)
            if view.lines[owner][col].enemy != NOBODY]


Slot = tuple[int, int]


def _best_switch(view: CastellumView, first: Slot | None) -> dict[Slot, float]:
    """Per candidate slot (the first card, or the partner of ``first``), the best switch."""
    slots = _enemy_columns(view)
    best: dict[Slot, float] = {}
    for a in slots if first is None else [first]:
        for b in slots:
            if a != b and (a[0] == view.seat or b[0] == view.seat or first is not None):
                value = _switch_value(view, a, b)
                key = a if first is None else b
                best[key] = max(best.get(key, -9.0), value)
    return best


def _take_value(view: CastellumView, owner: int, card: int) -> float:
    me = view.seat
    strength = LINE_CARDS[card].strength
    gain = max((float(_points(col)) for col in view.lines[me][: view.columns_open]
                if len(col.troops) < 2 and col.enemy != NOBODY and not _wins(col)
                and col.strength + strength >= col.enemy_strength), default=0.0)
    if owner != NOBODY:
        column = next(col for col in view.lines[owner] if card in col.troops)
        if _wins(column) and not _wins(column, extra=-strength):
            gain += _points(column)
    return gain - sum(LINE_CARDS[card].cost) / 3


def _effect_value(view: CastellumView, card: int) -> float:
    effect = ANGEL_CARDS[card].effect
    me = view.seat
    slots = _enemy_columns(view)
    if effect == "boost":
        return max((_boost_value(view, o, c) for o, c in slots), default=-1.0)
    if effect == "destroy":
        return max((_destroy_value(view, c) for o, c in slots if o == me), default=-1.0)
    if effect == "switch":
        return max(_best_switch(view, None).values(), default=-1.0)
    if effect == "resources":
        return 0.5 if view.year == LAST_YEAR else -0.5
    if effect == "take":
        return 0.0  # judged on its targets; rarely worth a card here
    return -1.0


def _score_angel(view: CastellumView, action: Any) -> float:
    if isinstance(action, PassAngels):
        return 0.0
    if isinstance(action, PlaceAngel):
        return _place_value(view, action.card, action.column)
    assert isinstance(action, UseAngel)
    return _effect_value(view, action.card) - 0.05 * ANGEL_CARDS[action.card].strength


def _score_target(view: CastellumView, action: Any) -> float:
    draft = view.draft
    if draft is None:
        return 0.0
    if isinstance(action, TargetResources):
        return sum(RESOURCE_WEIGHT[r] for r in action.resources)
    if isinstance(action, TargetTroop):
        return _take_value(view, action.owner, action.card)
    if isinstance(action, TargetColumn):
        column = view.lines[view.seat][action.column]
        return 1.0 if column.manned else 0.0
    assert isinstance(action, TargetEnemy)
    slot = (action.owner, action.column)
    if draft.effect == "boost":
        return _boost_value(view, *slot)
    if draft.effect == "destroy":
        return _destroy_value(view, action.column)
    first = (draft.targets[0], draft.targets[1]) if draft.targets else None
    return _best_switch(view, first).get(slot, -9.0)


# --- answers ---------------------------------------------------------------------------------


def _harm(view: CastellumView) -> float:
    """How much the effect on top of the stack costs the bot, in points."""
    top = view.stack[-1] if view.stack else None
    if top is None or top.seat == view.seat:
        return 0.0
    t = top.targets
    me = view.seat
    if top.effect == "cancel":
        below = view.stack[-2] if len(view.stack) > 1 else None
        return 1.5 if below is not None and below.seat == me else 0.0
    if top.effect == "boost" and t[0] == me:
        column = view.lines[me][t[1]]
        return float(_points(column)) if _wins(column) and not _wins(
            column, enemy_extra=ENEMY_BOOST) else 0.0
    if top.effect == "switch" and me in (t[0], t[2]):
        return -_switch_value(view, (t[0], t[1]), (t[2], t[3]))
    if top.effect == "take" and t[0] == me:
        return 2.0
    if top.effect == "destroy":
        return 1.0
    return 0.0


def _score_respond(view: CastellumView, action: Any) -> float:
    if isinstance(action, DeclineCancel):
        return 0.0
    assert isinstance(action, CancelEffect)
    return _harm(view) - 1.0


def _score_discard(view: CastellumView, action: DiscardAngel) -> float:
    return -ANGEL_CARDS[action.card].strength  # keep the strongest cards


def _score_reward(view: CastellumView, action: OrientReward) -> float:
    card = REWARD_CARDS[view.year]
    side = card.sides[side_for(view.players, view.seat, action.side, view.seat)]
    value = sum(w * n for w, n in zip(RESOURCE_WEIGHT, side.resources, strict=True))
    value += ANGEL_CARD_VALUE * side.angels + 3.0 * side.strength
    if side.pair_type != NOBODY:
        value += sum(1 for e in view.defeated[view.seat]
                     if ENEMY_CARDS[e].type == side.pair_type) // 2
    return value + (0.01 if side.resources[GOLD] else 0.0)


_SCORERS: dict[str, Any] = {
    "worker": _score_worker,
    "enemy": _score_enemy,
    "angel": _score_angel,
    "target": _score_target,
    "respond": _score_respond,
    "discard": _score_discard,
    "reward": _score_reward,
}
