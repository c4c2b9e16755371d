"""Phase 4, Combat: every column with an enemy card fights it, all at once.

A column's strength is its fortification and troops (each troop +1 per card in the Line that
boosts its type), the angel cards placed below it, and the per-column help of the Dinghuis and
of last year's reward. An enemy's strength is its own, +amount for every enemy card in the same
Line that boosts its type (itself included), +2 per angel boost on it. The column defeats the
enemy when it has at least one fortification or troop card and its strength is at least the
enemy's. Undefeated enemy cards with a penalty cost their defender one of that resource.
"""

from __future__ import annotations

from siege.games.castellum.angels import ANGEL_CARDS
from siege.games.castellum.cards import LINE_CARDS, NOBODY, TROOP_TYPES
from siege.games.castellum.enemies import ENEMY_CARDS
from siege.games.castellum.state import Column, State, columns_open

# ``state.results[seat][column]`` after a combat:
NO_ENEMY, HELD_OUT, DEFEATED = -1, 0, 1


def troop_boosts(line: list[Column]) -> list[int]:
    """Per troop type, the +strength every troop of that type in this Line gets."""
    boosts = [0] * len(TROOP_TYPES)
    for column in line:
        for card in (column.fort, *column.troops):
            if card != NOBODY and LINE_CARDS[card].boost != NOBODY:
                boosts[LINE_CARDS[card].boost] += 1
    return boosts


def manned(column: Column) -> bool:
    return column.fort != NOBODY or bool(column.troops)


def column_strength(state: State, seat: int, col: int) -> int:
    line = state.lines[seat]
    column = line[col]
    total = state.dinghuis[seat] + state.reward_strength[seat]
    if column.fort != NOBODY:
        total += LINE_CARDS[column.fort].strength
    if column.troops:
        boosts = troop_boosts(line)
        for card in column.troops:
            spec = LINE_CARDS[card]
            total += spec.strength + boosts[spec.troop_type]
    total += sum(ANGEL_CARDS[card].strength for card in column.angels)
    return total


def enemy_strength(state: State, seat: int, col: int) -> int:
    line = state.lines[seat]
    enemy = ENEMY_CARDS[line[col].enemy]
    total = enemy.strength + state.enemy_boost[enemy.id]
    for column in line[: columns_open(state)]:
        if column.enemy != NOBODY:
            other = ENEMY_CARDS[column.enemy]
            if other.boost_type == enemy.type:
                total += other.boost
    return total


def defeats(state: State, seat: int, col: int) -> bool:
    column = state.lines[seat][col]
    return (column.enemy != NOBODY and manned(column)
            and column_strength(state, seat, col) >= enemy_strength(state, seat, col))


def fight(state: State) -> None:
    """Judges every column first (enemy boosts depend on the enemies present), then moves
    defeated cards to their defender's collection and charges the penalties."""
    count = columns_open(state)
    results = [[NO_ENEMY] * len(line) for line in state.lines]
    for seat, line in enumerate(state.lines):
        for col in range(count):
            if line[col].enemy != NOBODY:
                results[seat][col] = DEFEATED if defeats(state, seat, col) else HELD_OUT
    for seat, line in enumerate(state.lines):
        have = state.resources[seat]
        for col in range(count):
            column = line[col]
            if results[seat][col] == DEFEATED:
                state.defeated[seat].append(column.enemy)
                state.year_defeats[seat] += 1
                column.enemy = NOBODY
            elif results[seat][col] == HELD_OUT:
                penalty = ENEMY_CARDS[column.enemy].penalty
                if penalty != NOBODY and have[penalty] > 0:
                    have[penalty] -= 1
    state.results = results
