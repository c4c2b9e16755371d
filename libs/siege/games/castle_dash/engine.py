"""The Castle Dash engine: the :class:`siege.engine.protocol.Engine` the host drives.

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
from siege.games.castle_dash import actions as a
from siege.games.castle_dash import events as e
from siege.games.castle_dash.rules import battle, claims, flow, loot, placement
from siege.games.castle_dash.seating import MAX_PLAYERS, MIN_PLAYERS
from siege.games.castle_dash.state import State, new_state
from siege.games.castle_dash.views import CastleDashView, view_for


class CastleDash:
    name: ClassVar[str] = "castle-dash"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    event_types: ClassVar[tuple[type[GameEvent], ...]] = e.EVENT_TYPES
    action_types: ClassVar[tuple[type[Action], ...]] = a.ACTION_TYPES

    def initial_state(self, created: MatchCreated) -> State:
        if not MIN_PLAYERS <= created.players <= MAX_PLAYERS:
            raise ValueError(f"Castle Dash seats {MIN_PLAYERS}-{MAX_PLAYERS}, "
                             f"not {created.players}")
        state = new_state(created.players)
        flow.advance(state)  # opens the first chance node: shuffling the Armory deck
        return state

    def pending(self, state: State) -> Pending:
        if state.chance is not None:
            return Pending(decision=state.decision, chance=state.chance)
        return Pending(decision=state.decision, seats=frozenset(state.waiting))

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if seat not in state.waiting:
            return []
        phase = state.phase
        if phase == "place":
            return placement.legal(state, seat)
        if phase == "battle":
            fight = state.battle
            if fight is None:
                return [a.CHOOSE_BATTLE[o] for o in battle.contested(state, seat)]
            if fight.step == "cannon_wait":
                return [a.choose_cannonballs(k) for k in range(state.cannonballs[seat] + 1)]
            cards = battle.playable(state, fight, fight.card_side)
            return [*(a.PLAY_CARD[card] for card in cards), a.END_PLAY]
        if phase == "claim":
            holder, card = state.current
            aims = claims.targets(state, holder, card) or []
            return [a.ResolveFlagCard(card=card, target=t) for t in aims]
        if phase == "loot":
            castle, attacker = state.current
            return [a.Loot(choice=choice) for choice in loot.options(state, castle, attacker)]
        return []

    def apply(self, state: State, seat: int, action: Any) -> list[GameEvent]:
        # Legality is the host's check (``action in legal_actions``); repeating it here would
        # double the cost of every move. Only the seat is checked, which is cheap.
        if seat not in state.waiting:
            raise IllegalActionError(f"seat {seat} is not asked to act")
        kind = type(action)
        if kind is a.PlaceSoldiers:
            return [e.SoldiersPlaced(seat=seat, opponent=action.opponent, count=action.count)]
        if kind is a.ClaimArmory:
            return [e.ArmoryClaimed(seat=seat, card=action.card)]
        if kind is a.ChooseCannonballs:
            return [e.CannonballsChosen(seat=seat, opponent=self._opponent(state, seat),
                                        count=action.count)]
        if kind is a.PlayArmoryCard:
            return [e.ArmoryCardPlayed(seat=seat, opponent=self._opponent(state, seat),
                                       card=action.card)]
        if kind is a.EndArmoryPlay:
            return [e.ArmoryPlayEnded(seat=seat, opponent=self._opponent(state, seat))]
        if kind is a.ChooseBattle:
            return [e.BattleChosen(seat=seat, opponent=action.opponent)]
        if kind is a.ResolveFlagCard:
            return [e.FlagCardResolved(seat=seat, card=action.card, target=action.target)]
        if kind is a.Loot:
            return [e.LootTaken(seat=seat, castle=state.current[0], choice=action.choice)]
        raise IllegalActionError(f"not a Castle Dash action: {action!r}")

    @staticmethod
    def _opponent(state: State, seat: int) -> int:
        fight = state.battle
        if fight is None or seat not in fight.sides:
            raise IllegalActionError(f"seat {seat} is not in a battle")
        return fight.sides[1 - fight.sides.index(seat)]

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
        # Most coins stolen, then most captives rescued, then most coins held in all: the
        # castle's own coins still at home plus the coins stolen.
        return ranks_from_keys([
            (state.stolen[p], state.rescued[p], state.coins[p] + state.stolen[p])
            for p in range(state.players)
        ])

    def view(self, state: State, seat: int) -> CastleDashView:
        return view_for(state, seat)


# --- folding ---------------------------------------------------------------------------------


_DICE_HANDLERS: dict[str, Callable[[State, list[int]], None]] = {
    battle.BATTLE_PURPOSE: battle.on_battle_dice,
    battle.CANNON_PURPOSE: battle.on_cannon_dice,
    flow.FIRST_PLAYER_PURPOSE: flow.on_first_player,
}


def _on_dice(state: State, event: DiceRolled) -> None:
    _DICE_HANDLERS[take_chance(state, event)](state, event.values)


def _on_shuffled(state: State, event: DeckShuffled) -> None:
    take_chance(state, event)  # the only shuffles: the Armory deck and its reshuffles
    flow.on_shuffled(state, event.order)


_HANDLERS: dict[type[Event], Callable[[State, Any], None]] = {
    DiceRolled: _on_dice,
    DeckShuffled: _on_shuffled,
    # Each game event's handler records it and closes the decision it answered.
    e.SoldiersPlaced: placement.on_soldiers_placed,
    e.ArmoryClaimed: placement.on_armory_claimed,
    e.FlagCardResolved: claims.on_flag_card_resolved,
    e.BattleChosen: battle.on_battle_chosen,
    e.CannonballsChosen: battle.on_cannonballs_chosen,
    e.ArmoryCardPlayed: battle.on_card_played,
    e.ArmoryPlayEnded: battle.on_play_ended,
    e.LootTaken: loot.on_loot_taken,
}

assert set(_HANDLERS) >= set(e.EVENT_TYPES)
