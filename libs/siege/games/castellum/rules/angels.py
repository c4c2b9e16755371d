"""Phase 3, the Angel phase, and playing angel cards in general.

From the first player clockwise, a seat with cards either places one below one of its columns
(its strength counts there this year), starts one's special effect, or passes. Passing is not
final: the phase ends once every seat still holding cards has passed since the last card was
played. Seats without cards are skipped (hand sizes are public).

``UseAngel`` also serves the Building phase, where the resources effect may be used on one's own
turn without spending it; the targets and the response window work the same in both phases.
"""

from __future__ import annotations

from siege.engine.protocol import Action
from siege.games.castellum.actions import PASS, PlaceAngel, UseAngel
from siege.games.castellum.angels import ANGEL_CARDS
from siege.games.castellum.events import (
    AngelEffectChosen,
    AngelPlaced,
    AngelsPassed,
    ColumnTargeted,
    EnemyTargeted,
    ResourcesTargeted,
    TroopTargeted,
)
from siege.games.castellum.rules import responses
from siege.games.castellum.rules.effects import TARGETS_NEEDED, can_use
from siege.games.castellum.rules.nodes import close_decision, open_decision
from siege.games.castellum.state import Draft, State, clockwise, columns_open


def begin(state: State) -> None:
    state.phase = "angels"
    state.passed = [False] * state.players
    state.turn = state.first


def settle(state: State) -> bool:
    """Asks the next seat that holds cards and has not passed; False when the phase is over."""
    hands, passed = state.hands, state.passed
    for seat in clockwise(state.players, state.turn):
        if hands[seat] and not passed[seat]:
            state.turn = seat
            open_decision(state, seat, "angel")
            return True
    return False


def legal(state: State, seat: int) -> list[Action]:
    hand = state.hands[seat]
    found: list[Action] = [PASS]
    found += [PlaceAngel(card=card, column=col)
              for card in hand for col in range(columns_open(state))]
    found += [UseAngel(card=card) for card in hand if can_use(state, seat, card)]
    return found


def usable(state: State, seat: int) -> list[UseAngel]:
    """Special effects ``seat`` may start now (the Building phase offers these too)."""
    return [UseAngel(card=card) for card in state.hands[seat] if can_use(state, seat, card)]


def _played(state: State, seat: int) -> None:
    if state.phase == "angels":
        state.passed = [False] * state.players
        state.turn = (seat + 1) % state.players
    # In the Building phase the turn stays: using the resources effect spends no worker.


def on_placed(state: State, event: AngelPlaced) -> None:
    close_decision(state)
    state.hands[event.seat].remove(event.card)
    state.lines[event.seat][event.column].angels.append(event.card)
    _played(state, event.seat)


def on_effect_chosen(state: State, event: AngelEffectChosen) -> None:
    close_decision(state)
    state.hands[event.seat].remove(event.card)
    state.draft = Draft(seat=event.seat, card=event.card, effect=ANGEL_CARDS[event.card].effect)
    _played(state, event.seat)


def on_passed(state: State, event: AngelsPassed) -> None:
    close_decision(state)
    state.passed[event.seat] = True
    state.turn = (event.seat + 1) % state.players


def _add_targets(state: State, values: list[int]) -> None:
    close_decision(state)
    draft = state.draft
    assert draft is not None, "a target without an effect being played"
    draft.targets.extend(values)
    if len(draft.targets) == TARGETS_NEEDED[draft.effect]:
        state.draft = None
        responses.push(state, draft.seat, draft.card, draft.effect, draft.targets)


def on_enemy_targeted(state: State, event: EnemyTargeted) -> None:
    _add_targets(state, [event.owner, event.column])


def on_troop_targeted(state: State, event: TroopTargeted) -> None:
    _add_targets(state, [event.owner, event.card])


def on_column_targeted(state: State, event: ColumnTargeted) -> None:
    _add_targets(state, [event.column])


def on_resources_targeted(state: State, event: ResourcesTargeted) -> None:
    _add_targets(state, list(event.resources))
