"""A tournament's stream: the same append-only, hash-chained log as a match's (compare-and-set
appends through the same script), folded into a :class:`TournamentState`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from siege.contracts.envelope import GENESIS, EventCodec, seal
from siege.contracts.events import Event
from siege.eventlog.keys import NO_POINTER
from siege.eventlog.log import AppendConflict, EventLog
from siege.hosting import signing
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
        Only the end's append leaves a pointer, for the dice service; the others leave none
        (``NO_POINTER``): no service acts on them, and a pointer on the general shard bus
        ``{sN}:bus``, which nothing reads and no group trims, would stay there for ever."""
        for _ in range(attempts):
            state, seq, head = await self.load(tournament_id)
            events = owe(state)
            if not events:
                return state
            sealed = seal(CODEC, tournament_id, seq, head, events, self.clock.now_ms())
            # Only the end concerns a service: the dice service seals the stream, then scoring
            # applies the ratings. Whoever runs the tournament reads its stream itself.
            audience = "dice" if isinstance(events[-1], TournamentFinished) else NO_POINTER
            result = await self.log.append(tournament_id, seq, head,
                                           [(s, h) for _, s, h in sealed], audience=audience)
            if not isinstance(result, AppendConflict):
                for event in events:
                    evolve(state, event)
                return state
        raise TournamentConflictError(f"{tournament_id}: stream kept moving")


async def seal_finished(log: EventLog, tournament_id: str, private: Ed25519PrivateKey) -> bool:
    """Seals a finished tournament's stream (once): the server's signature over its last
    entry, dated as that entry (so a stream is the same bytes however often it is resumed).
    The seal's pointer goes to scoring. True if this call sealed it."""
    entries = await log.read(tournament_id)
    if not entries:
        return False
    state = TournamentState()
    envelopes = [CODEC.decode(stored) for _, stored, _ in entries]
    for envelope in envelopes:
        evolve(state, envelope.event)
    if not state.finished or state.sealed is not None:
        return False
    seq, _, head = entries[-1]
    event = signing.seal(private, tournament_id, seq, head)
    sealed = seal(CODEC, tournament_id, seq, head, [event], envelopes[-1].at)
    result = await log.append(tournament_id, seq, head, [(s, h) for _, s, h in sealed],
                              audience="scoring")
    return not isinstance(result, AppendConflict)
