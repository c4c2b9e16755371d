"""Start of Turn choices (a Captain, a Curse) and the End of Turn hand limit.

Captain: one token per hero; it goes on one of the seat's units that is not a Lord or an Epic
(the hero itself never carries it), never while the hero is on the battlefield, and comes back
only when its unit is destroyed. Curse: the box holds one Curse token, so one unit on the whole
battlefield is cursed at a time. It lasts through one turn of the cursed unit's side (or until
that unit is destroyed) and then passes to that side's hero, who may place it next (our
ruling: the token alternates, so both heroes curse equally often).
"""

from __future__ import annotations

from typing import Any

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.rules.nodes import close_decision
from siege.games.castle_assault.rules.stats import card_of
from siege.games.castle_assault.state import NOBODY, State


def captain_candidates(state: State, seat: int) -> list[int]:
    if state.captain[seat] != NOBODY or state.heroes[seat]:
        return []
    return [u.uid for u in state.units if u.seat == seat and card_of(u).kind == "unit"
            and not card_of(u).lord and not card_of(u).epic]


def curse_candidates(state: State, seat: int) -> list[int]:
    if state.curse != NOBODY or state.curse_holder not in (NOBODY, seat):
        return []
    return [u.uid for u in state.units if u.seat != seat]


def captain_legal(state: State, seat: int) -> list[Any]:
    return [a.AssignCaptain(unit=uid) for uid in captain_candidates(state, seat)] + [
        a.SKIP_CAPTAIN]


def curse_legal(state: State, seat: int) -> list[Any]:
    return [a.CurseUnit(unit=uid) for uid in curse_candidates(state, seat)] + [a.SKIP_CURSE]


def discard_legal(state: State, seat: int) -> list[Any]:
    return [a.DiscardCard(card=i) for i in state.hands[seat]]


def on_captain_assigned(state: State, event: Any) -> None:
    state.captain[event.seat] = event.unit
    close_decision(state, event.seat)
    state.step = "curse"


def on_captain_skipped(state: State, event: Any) -> None:
    close_decision(state, event.seat)
    state.step = "curse"


def on_unit_cursed(state: State, event: Any) -> None:
    state.curse = event.unit
    state.curse_by = event.seat
    state.curse_holder = NOBODY
    close_decision(state, event.seat)
    state.step = "move"


def on_curse_skipped(state: State, event: Any) -> None:
    close_decision(state, event.seat)
    state.step = "move"


def on_card_discarded(state: State, event: Any) -> None:
    state.hands[event.seat].remove(event.card)
    state.discards[event.seat].append(event.card)
    close_decision(state, event.seat)

