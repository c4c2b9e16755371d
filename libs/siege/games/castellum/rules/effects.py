"""Angel special effects: when one may be used, which targets it may take, what it does.

A special effect is played in steps: the card is revealed (``UseAngel``), then its targets are
chosen one decision at a time, which keeps every legal-action list short (a switch of two enemy
cards would otherwise list every pair). An effect is only offered when it can be completed, so
a started effect never gets stuck. Targets are kept as flat ints:

| effect | targets |
|---|---|
| boost | owner, column of the enemy card |
| switch | owner, column, owner, column |
| take | owner of the troop (NOBODY: the face-up offer), troop card, own column |
| destroy | owner (always the player), column |
| resources | resource, resource |
"""

from __future__ import annotations

from siege.engine.protocol import Action
from siege.games.castellum.actions import (
    TARGET_RESOURCES,
    TargetColumn,
    TargetEnemy,
    TargetTroop,
)
from siege.games.castellum.angels import (
    ANGEL_CARDS,
    DESTROY_COST_STONE,
    ENEMY_BOOST,
    Effect,
)
from siege.games.castellum.cards import IS_FORT, LINE_CARDS, NOBODY, STONE
from siege.games.castellum.state import Draft, Play, State, clockwise, columns_open, others

TARGETS_NEEDED: dict[Effect, int] = {
    "boost": 2,
    "switch": 4,
    "take": 3,
    "destroy": 2,
    "resources": 2,
    "cancel": 0,
}
TROOPS_PER_COLUMN = 2


def enemy_slots(state: State, owners: list[int]) -> list[tuple[int, int]]:
    """(owner, column) of every enemy card in the Lines of ``owners``."""
    lines = state.lines
    return [(owner, col) for owner in owners for col in range(columns_open(state))
            if lines[owner][col].enemy != NOBODY]


def room_for_troop(state: State, seat: int) -> list[int]:
    line = state.lines[seat]
    return [col for col in range(columns_open(state))
            if len(line[col].troops) < TROOPS_PER_COLUMN]


def affordable(state: State, seat: int, card: int) -> bool:
    have = state.resources[seat]
    cost = LINE_CARDS[card].cost
    return have[0] >= cost[0] and have[1] >= cost[1] and have[2] >= cost[2]


def take_sources(state: State, seat: int) -> list[tuple[int, int]]:
    """(owner, troop card) a ``take`` effect may take and pay for: opponents' troops first,
    then unbought face-up troops (owner NOBODY)."""
    found = [(owner, card) for owner in others(state.players, seat)
             for column in state.lines[owner] for card in column.troops
             if affordable(state, seat, card)]
    found += [(NOBODY, card) for card in state.offer
              if not IS_FORT[card] and affordable(state, seat, card)]
    return found


def has_troop(state: State, seat: int) -> bool:
    return any(column.troops for column in state.lines[seat])


def can_use(state: State, seat: int, card: int) -> bool:
    """Whether ``seat`` may start ``card``'s special effect now (one that can be completed)."""
    effect = ANGEL_CARDS[card].effect
    if state.phase == "building":
        return effect == "resources"  # the only effect of the two "any time" ones with no target
    if state.phase != "angels" or effect == "cancel":  # cancels only answer another effect
        return False
    if effect == "resources":
        return True
    if effect == "boost":
        return bool(enemy_slots(state, clockwise(state.players, seat)))
    if effect == "switch":
        return len(enemy_slots(state, clockwise(state.players, seat))) >= 2
    if effect == "take":
        return bool(room_for_troop(state, seat)) and bool(take_sources(state, seat))
    # destroy: a troop in the Line, a stone to pay and an enemy card in the Line
    return (has_troop(state, seat) and state.resources[seat][STONE] >= DESTROY_COST_STONE
            and bool(enemy_slots(state, [seat])))


def options(state: State, draft: Draft) -> list[Action]:
    """The choices for the draft's next target."""
    seat, done = draft.seat, draft.targets
    effect = draft.effect
    if effect == "resources":
        return list(TARGET_RESOURCES)
    if effect == "take":
        if not done:
            return [TargetTroop(owner=o, card=c) for o, c in take_sources(state, seat)]
        return [TargetColumn(column=col) for col in room_for_troop(state, seat)]
    owners = [seat] if effect == "destroy" else clockwise(state.players, seat)
    slots = enemy_slots(state, owners)
    if done:  # the second card of a switch: any other enemy card
        slots.remove((done[0], done[1]))
    return [TargetEnemy(owner=o, column=col) for o, col in slots]


def resolve(state: State, play: Play) -> None:
    """Carries out an effect nobody cancelled; the card goes to the discard pile."""
    seat, t = play.seat, play.targets
    lines = state.lines
    effect = play.effect
    if effect == "boost":
        state.enemy_boost[lines[t[0]][t[1]].enemy] += ENEMY_BOOST  # the token stays on the card
    elif effect == "switch":
        a, b = lines[t[0]][t[1]], lines[t[2]][t[3]]
        a.enemy, b.enemy = b.enemy, a.enemy
    elif effect == "take":
        owner, card, col = t
        cost = LINE_CARDS[card].cost
        mine = state.resources[seat]
        for r in range(3):
            mine[r] -= cost[r]
            if owner != NOBODY:
                state.resources[owner][r] += cost[r]
        if owner == NOBODY:
            state.offer.remove(card)
        else:
            next(c for c in lines[owner] if card in c.troops).troops.remove(card)
        lines[seat][col].troops.append(card)
    elif effect == "destroy":
        column = lines[seat][t[1]]
        state.resources[seat][STONE] -= DESTROY_COST_STONE
        state.defeated[seat].append(column.enemy)  # counts as defeated, points included
        state.year_defeats[seat] += 1
        column.enemy = NOBODY
    elif effect == "resources":
        for r in t:
            state.resources[seat][r] += 1
    state.angel_discard.append(play.card)
