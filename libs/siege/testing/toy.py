"""Dice Race, a two-seat toy game for testing the host, the auditor and the services.

Seats take turns; the seat to act rolls one or two d6 and adds them to its score; the first to
reach the target wins. It has every kind of step a real game has (a decision, a chance request,
a terminal ranking) and its logs are short, so tests can afford to tamper with every byte.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from siege.contracts.events import DiceRolled, Event, GameEvent, MatchCreated
from siege.engine.protocol import Action, ChanceNeeded, Pending, ranks_from_keys


class Roll(Action, frozen=True, tag="toy.roll", kw_only=True):
    dice: Literal[1, 2]


class RollChosen(GameEvent, frozen=True, tag="toy.roll_chosen", kw_only=True):
    seat: int
    dice: int


class ToyState(msgspec.Struct):
    players: int
    target: int
    scores: list[int]
    turn: int = 0
    decision: int = 1
    rolling: int = 0  # dice owed by chance for the current turn


class ToyView(msgspec.Struct, frozen=True):
    scores: list[int]
    turn: int


class DiceRace:
    name: ClassVar[str] = "dice-race"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    event_types: ClassVar[tuple[type[GameEvent], ...]] = (RollChosen,)
    action_types: ClassVar[tuple[type[Action], ...]] = (Roll,)

    def initial_state(self, created: MatchCreated) -> ToyState:
        target = int(created.options.get("target", "8"))
        return ToyState(players=created.players, target=target, scores=[0] * created.players)

    def pending(self, state: ToyState) -> Pending:
        if self.is_terminal(state):
            return Pending(decision=state.decision)
        if state.rolling:
            return Pending(decision=state.decision, chance=ChanceNeeded(
                kind="dice", sides=6, count=state.rolling, purpose="race"))
        return Pending(decision=state.decision, seats=frozenset({state.turn}))

    def legal_actions(self, state: ToyState, seat: int) -> list[Roll]:
        if seat not in self.pending(state).seats:
            return []
        return [Roll(dice=1), Roll(dice=2)]

    def apply(self, state: ToyState, seat: int, action: Roll) -> list[GameEvent]:
        return [RollChosen(seat=seat, dice=action.dice)]

    def evolve(self, state: ToyState, event: Event) -> ToyState:
        if isinstance(event, RollChosen):
            state.rolling = event.dice
        elif isinstance(event, DiceRolled):
            state.scores[state.turn] += sum(event.values)
            state.rolling = 0
            state.turn = (state.turn + 1) % state.players
            state.decision += 1
        return state

    def is_terminal(self, state: ToyState) -> bool:
        return max(state.scores) >= state.target

    def ranks(self, state: ToyState) -> list[int]:
        return ranks_from_keys(list(state.scores))

    def view(self, state: ToyState, seat: int) -> ToyView:
        return ToyView(scores=list(state.scores), turn=state.turn)
