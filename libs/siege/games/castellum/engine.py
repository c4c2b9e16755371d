"""The Castellum: Maastricht engine: the :class:`siege.engine.protocol.Engine` the host drives.

Pure: ``apply`` only reads the state and returns events; ``evolve`` folds one event (mutating
the state it is given, for speed); chance arrives as ``DiceRolled``/``DeckShuffled`` events
answering the :class:`ChanceNeeded` that ``pending`` shows. Nothing here rolls or shuffles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from siege.contracts.events import DeckShuffled, DiceRolled, Event, GameEvent, MatchCreated
from siege.engine.protocol import (
    Action,
    IllegalActionError,
    Pending,
    ranks_from_keys,
    take_chance,
)
from siege.games.castellum import actions as a
from siege.games.castellum import events as e
from siege.games.castellum.rules import (
    angels,
    building,
    effects,
    flow,
    hand,
    responses,
    reward,
    siege,
)
from siege.games.castellum.rules.scoring import score
from siege.games.castellum.state import State, new_state
from siege.games.castellum.views import CastellumView, view_for

MIN_PLAYERS, MAX_PLAYERS = 2, 4


class Castellum:
    name: ClassVar[str] = "castellum"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    event_types: ClassVar[tuple[type[GameEvent], ...]] = e.EVENT_TYPES
    action_types: ClassVar[tuple[type[Action], ...]] = a.ACTION_TYPES

    def initial_state(self, created: MatchCreated) -> State:
        if not MIN_PLAYERS <= created.players <= MAX_PLAYERS:
            raise ValueError(f"Castellum seats {MIN_PLAYERS}-{MAX_PLAYERS}, "
                             f"not {created.players}")
        state = new_state(created.players)
        flow.advance(state)  # opens the first chance node: the die for the first player
        return state

    def pending(self, state: State) -> Pending:
        if state.chance is not None:
            return Pending(decision=state.decision, chance=state.chance)
        return Pending(decision=state.decision, seats=frozenset(state.waiting))

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if seat not in state.waiting:
            return []
        asking = state.asking
        if asking == "worker":
            return building.legal(state, seat)
        if asking == "enemy":
            return siege.legal(state, seat)
        if asking == "angel":
            return angels.legal(state, seat)
        if asking == "target" and state.draft is not None:
            return effects.options(state, state.draft)
        if asking == "respond":
            return responses.legal(state, seat)
        if asking == "discard":
            return hand.legal(state, seat)
        if asking == "reward":
            return list(a.ORIENT)
        return []

    def apply(self, state: State, seat: int, action: Any) -> list[GameEvent]:
        # Legality is the host's check (``action in legal_actions``); only the seat is checked.
        if seat not in state.waiting:
            raise IllegalActionError(f"seat {seat} is not asked to act")
        make = _EVENT_FOR.get(type(action))
        if make is None:
            raise IllegalActionError(f"not a Castellum action: {action!r}")
        return [make(seat, action)]

    def evolve(self, state: State, event: Event) -> State:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            return state  # core events this game does not need (requests, seeds, the end...)
        handler(state, event)
        if not state.waiting and state.chance is None:  # nothing open: move on
            flow.advance(state)
        return state

    def is_terminal(self, state: State) -> bool:
        return state.phase == "over"

    def ranks(self, state: State) -> list[int]:
        return ranks_from_keys([score(state, seat).total for seat in range(state.players)])

    def view(self, state: State, seat: int) -> CastellumView:
        return view_for(state, seat)


_EVENT_FOR: dict[type, Callable[[int, Any], GameEvent]] = {
    a.PlaceWorker: lambda s, x: e.WorkerPlaced(seat=s, space=x.space, gain=list(x.gain)),
    a.BuyCard: lambda s, x: e.CardBought(seat=s, card=x.card, column=x.column),
    a.DiscardAngel: lambda s, x: e.AngelDiscarded(seat=s, card=x.card),
    a.PlaceEnemy: lambda s, x: e.EnemyPlaced(seat=s, card=x.card, owner=x.owner,
                                             column=x.column),
    a.PlaceAngel: lambda s, x: e.AngelPlaced(seat=s, card=x.card, column=x.column),
    a.UseAngel: lambda s, x: e.AngelEffectChosen(seat=s, card=x.card),
    a.TargetEnemy: lambda s, x: e.EnemyTargeted(seat=s, owner=x.owner, column=x.column),
    a.TargetTroop: lambda s, x: e.TroopTargeted(seat=s, owner=x.owner, card=x.card),
    a.TargetColumn: lambda s, x: e.ColumnTargeted(seat=s, column=x.column),
    a.TargetResources: lambda s, x: e.ResourcesTargeted(seat=s, resources=list(x.resources)),
    a.CancelEffect: lambda s, x: e.CancelPlayed(seat=s, card=x.card),
    a.DeclineCancel: lambda s, x: e.CancelDeclined(seat=s),
    a.PassAngels: lambda s, x: e.AngelsPassed(seat=s),
    a.OrientReward: lambda s, x: e.RewardOriented(seat=s, side=x.side),
}


# --- folding ---------------------------------------------------------------------------------


def _on_dice(state: State, event: DiceRolled) -> None:
    take_chance(state, event)  # the only dice: the first player
    flow.on_first_player(state, event.values)


def _on_shuffled(state: State, event: DeckShuffled) -> None:
    flow.on_shuffled(state, take_chance(state, event), event.order)


_HANDLERS: dict[type[Event], Callable[[State, Any], None]] = {
    DiceRolled: _on_dice,
    DeckShuffled: _on_shuffled,
    # Each game event's handler records it and closes the decision it answered.
    e.WorkerPlaced: building.on_worker_placed,
    e.CardBought: building.on_card_bought,
    e.AngelDiscarded: hand.on_discarded,
    e.EnemyPlaced: siege.on_enemy_placed,
    e.AngelPlaced: angels.on_placed,
    e.AngelEffectChosen: angels.on_effect_chosen,
    e.EnemyTargeted: angels.on_enemy_targeted,
    e.TroopTargeted: angels.on_troop_targeted,
    e.ColumnTargeted: angels.on_column_targeted,
    e.ResourcesTargeted: angels.on_resources_targeted,
    e.CancelPlayed: responses.on_cancel_played,
    e.CancelDeclined: responses.on_cancel_declined,
    e.AngelsPassed: angels.on_passed,
    e.RewardOriented: reward.on_oriented,
}

assert set(_HANDLERS) >= set(e.EVENT_TYPES)
assert set(_EVENT_FOR) == set(a.ACTION_TYPES)
