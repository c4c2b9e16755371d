"""Given/when/then over any engine: ``given`` folds events, ``when`` applies a legal action and
folds what it produced, ``roll`` and ``shuffle`` answer chance as the dice service would (with
chosen outcomes), and ``replay`` folds a whole history again through the wire encoding."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from siege.contracts.envelope import EventCodec
from siege.contracts.events import (
    ChanceRequested,
    DeckShuffled,
    DiceRolled,
    Event,
    MatchCreated,
)
from siege.engine.protocol import ChanceNeeded, Engine


class Scenario:
    def __init__(self, engine: Engine[Any], created: MatchCreated) -> None:
        self.engine = engine
        self.state = engine.initial_state(created)
        self.events: list[Event] = [created]

    def fold(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = self.engine.evolve(self.state, event)

    given = fold

    def when(self, seat: int, action: Any) -> list[Event]:
        legal = self.engine.legal_actions(self.state, seat)
        assert action in legal, f"{action!r} is not legal for seat {seat}: {legal!r}"
        out = self.engine.apply(self.state, seat, action)
        self.fold(*out)
        return list(out)

    def legal(self, seat: int) -> list[Any]:
        return self.engine.legal_actions(self.state, seat)

    def need(self) -> ChanceNeeded:
        need = self.engine.pending(self.state).chance
        assert need is not None, f"not waiting for chance: {self.engine.pending(self.state)!r}"
        return need

    def roll(self, *values: int, purpose: str | None = None) -> None:
        need = self.need()
        assert need.kind == "dice" and len(values) == need.count, (values, need)
        assert purpose is None or need.purpose == purpose, need
        assert all(1 <= v <= need.sides for v in values), (values, need)
        self.fold(ChanceRequested(kind="dice", sides=need.sides, count=need.count,
                                  purpose=need.purpose),
                  DiceRolled(request=len(self.events) + 1, first_index=0, values=list(values)))

    def shuffle(self, order: Sequence[int] | None = None) -> None:
        need = self.need()
        assert need.kind == "shuffle", need
        order = list(range(need.count)) if order is None else list(order)
        self.fold(ChanceRequested(kind="shuffle", count=need.count, purpose=need.purpose),
                  DeckShuffled(request=len(self.events) + 1, first_index=0, order=order))

    @property
    def waiting(self) -> frozenset[int]:
        return self.engine.pending(self.state).seats

    @property
    def decision(self) -> int:
        return self.engine.pending(self.state).decision


def replay(engine: Engine[Any], events: Iterable[Event]) -> Any:
    """Folds events again from scratch, each through a msgpack encode/decode round trip."""
    codec = EventCodec(engine.event_types)
    events = list(events)
    first = events[0]
    assert isinstance(first, MatchCreated)
    state = engine.initial_state(first)
    for event in events[1:]:
        state = engine.evolve(state, codec.decode_event(codec.encode_event(event)))
    return state
