"""Winning and losing: a castle at 0 Health, a hero destroyed, running out of cards, the limit.

A castle at 0 Health or less, or a hero destroyed on the battlefield, loses at once. When both
sides lose at the same moment, or the
game runs out of play, the castle with more Health wins, and equal castles go to a roll-off
that rerolls ties (our ruling for the simultaneous case; the rulebook's for running out).
"""

from __future__ import annotations

from siege.games.castle_assault.board import CASTLE_HEALTH
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.rules.combat import GIGANTIC_HEALTH, castle_health, engaged
from siege.games.castle_assault.rules.nodes import open_chance
from siege.games.castle_assault.state import HERO_INSTANCE, EndReason, State, instance_of

TURN_LIMIT = 200  # a safety limit of our own: hosted matches must end
FINAL_ROLLOFF_PURPOSE = "final_rolloff"


def finish(state: State, winner: int, reason: EndReason) -> None:
    state.phase = "over"
    state.ended = reason
    state.ranks = [1 if seat == winner else 2 for seat in (0, 1)]
    state.waiting = []
    state.asking = ""
    state.chance = None


def fallen(state: State) -> list[int]:
    """Seats that just lost: a castle at 0 Health or less, or a hero destroyed.

    This runs after every step, so one pass over the units gives a cheap bound first: a castle
    can only be down if its damage and every Gigantic enemy could take it there."""
    giants = [0, 0]
    heroes_out = [False, False]
    for unit in state.units:
        if CARDS[unit.card].gigantic:
            giants[unit.seat] += 1
        if instance_of(unit.uid) == HERO_INSTANCE:
            heroes_out[unit.seat] = True
    def down(seat: int) -> bool:
        if state.heroes[seat] and not heroes_out[seat]:
            return True  # its hero was destroyed
        bound = state.castle_damage[seat] + GIGANTIC_HEALTH * giants[1 - seat]
        return bound >= CASTLE_HEALTH and castle_health(state, seat) <= 0

    return [seat for seat in (0, 1) if down(seat)]


def check_fallen(state: State) -> bool:
    """True when the game just ended or went to the final comparison."""
    lost = fallen(state)
    if len(lost) == 1:
        seat = lost[0]
        finish(state, 1 - seat, "castle" if castle_health(state, seat) <= 0 else "hero")
        return True
    if len(lost) == 2:
        compare(state, "castles")
        return True
    return False


def out_of_play(state: State) -> bool:
    """Both decks and hands are empty and no unit is free to move on (none, or all engaged)."""
    if any(state.decks[s] or state.hands[s] for s in (0, 1)):
        return False
    return all(engaged(state, u) for u in state.units)


def compare(state: State, reason: EndReason) -> None:
    health = [castle_health(state, seat) for seat in (0, 1)]
    if health[0] != health[1]:
        finish(state, health.index(max(health)), reason)
        return
    state.phase = "final"
    state.ended = reason
    open_chance(state, "dice", 2, 6, FINAL_ROLLOFF_PURPOSE)


def on_final_rolloff(state: State, values: list[int]) -> None:
    if values[0] == values[1]:
        open_chance(state, "dice", 2, 6, FINAL_ROLLOFF_PURPOSE)
        return
    finish(state, 0 if values[0] > values[1] else 1, state.ended)
