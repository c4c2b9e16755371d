"""A tournament's stream: the same append-only, hash-chained log as a match's (compare-and-set
appends through the same script), folded into a :class:`TournamentState`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from siege.contracts.envelope import GENESIS, EventCodec, seal
from siege.contracts.events import Event
from siege.eventlog.log import AppendConflict, EventLog
from siege.hosting.clock import Clock
from siege.tournament.events import TOURNAMENT_EVENTS, TournamentFinished
from siege.tournament.state import TournamentState, evolve

CODEC = EventCodec(TOURNAMENT_EVENTS)


class TournamentConflictError(RuntimeError):
    pass


class TournamentStore:
    def __init__(self, log: EventLog, clock: Clock) -> None:
        self.log = log
        self.clock = clock

    async def load(self, tournament_id: str) -> tuple[TournamentState, int, bytes]:
        state = TournamentState()
        entries = await self.log.read(tournament_id)
        for _, stored, _ in entries:
            evolve(state, CODEC.decode(stored).event)
        seq, _, head = entries[-1] if entries else (0, b"", GENESIS)
        return state, seq, head

    async def append_owed(
        self, tournament_id: str, owe: Callable[[TournamentState], Sequence[Event] | None],
        attempts: int = 8,
    ) -> TournamentState:
        """Appends what ``owe`` derives from the current stream; re-derives after a lost race.
        Pointers go to the general shard bus, which no service reads, except the one for the
        end, which goes to scoring."""
        for _ in range(attempts):
            state, seq, head = await self.load(tournament_id)
            events = owe(state)
            if not events:
                return state
            sealed = seal(CODEC, tournament_id, seq, head, events, self.clock.now_ms())
            # Only the end concerns a service: scoring applies the ratings then.
            audience = "scoring" if isinstance(events[-1], TournamentFinished) else None
            result = await self.log.append(tournament_id, seq, head,
                                           [(s, h) for _, s, h in sealed], audience=audience)
            if not isinstance(result, AppendConflict):
                for event in events:
                    evolve(state, event)
                return state
        raise TournamentConflictError(f"{tournament_id}: stream kept moving")
