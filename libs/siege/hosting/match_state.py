"""The host's fold of a match log: the engine's state plus what every game shares
(head of the chain, the open chance request, the dice stream position, the end).

A damaged match (``MatchDamaged``) folds into an end like any other: ``ended`` is a
``MatchEnded`` with reason ``"damaged"`` and no ranks at all (every seat unranked, not all tied:
a tie is a result and scores like a draw, while a damaged match has no result), so every guard
that stops at an end (turns, clocks, the rules' follow-ups, the dice reveal) stops here too;
``damaged`` keeps the operator's event and its reason."""

from __future__ import annotations

from typing import Any

from siege.contracts.envelope import GENESIS, EventCodec
from siege.contracts.events import (
    ActionAccepted,
    ChanceRequested,
    DeckShuffled,
    DiceRolled,
    Event,
    GameEvent,
    MatchCreated,
    MatchDamaged,
    MatchEnded,
    MatchSealed,
    PlayerSeedAdded,
    SeatResigned,
    SeatTimedOut,
    SeedCommitted,
    SeedRevealed,
)
from siege.engine.protocol import Engine
from siege.engine.registry import get_engine

DAMAGED_END = MatchEnded(ranks=[], reason="damaged")
"""What a damaged match ends with, as far as the fold says: no ranks."""


class MatchState:
    __slots__ = (
        "match_id", "engine", "codec", "created", "game", "head_seq", "head_hash",
        "commitment", "player_seeds", "open_request", "next_roll", "ended", "revealed",
        "command_ids", "light", "timed_out", "resigned", "damaged", "sealed", "head_at",
    )

    def __init__(self, match_id: str, light: bool = False) -> None:
        self.match_id = match_id
        # A light state skips the game engine: enough for the dice service, which needs only
        # the requests, the stream position and the end, and never knows the game.
        self.light = light
        self.engine: Engine[Any] | None = None
        self.codec: EventCodec | None = None
        self.created: MatchCreated | None = None
        self.game: Any = None
        self.head_seq = 0
        self.head_hash = GENESIS
        # The time stamped on the head entry: an append never stamps an earlier one, so a
        # log's times never run backwards even where services' clock estimates differ a little.
        self.head_at = 0
        self.commitment: str | None = None
        self.player_seeds: list[bytes] = []
        # seq and body of the ChanceRequested still waiting for its answer
        self.open_request: tuple[int, ChanceRequested] | None = None
        self.next_roll = 0
        self.ended: MatchEnded | None = None
        self.revealed: str | None = None
        self.damaged: MatchDamaged | None = None
        # Each accepted command id: its seat, its decision and the seq of its ActionAccepted,
        # so a repeat of the same command is acknowledged again rather than refused.
        self.command_ids: dict[str, tuple[int, int, int]] = {}
        self.timed_out: list[int] = []  # seats that let their clock run out (a forfeit)
        self.resigned: list[int] = []  # seats whose holder gave the match up
        self.sealed: MatchSealed | None = None  # the server's signature: the log is complete


_CODECS: dict[str, EventCodec] = {}


def codec_for(game: str) -> EventCodec:
    """One codec per game, shared, since building decoders is not free."""
    if game not in _CODECS:
        _CODECS[game] = EventCodec(get_engine(game).event_types)
    return _CODECS[game]


def fold(ms: MatchState, seq: int, digest: bytes, event: Event) -> None:
    """Applies one stored event (already checked by whoever calls) to ``ms``."""
    ms.head_seq = seq
    ms.head_hash = digest
    if isinstance(event, GameEvent):
        if not ms.light:
            ms.game = ms.engine.evolve(ms.game, event)  # type: ignore[union-attr]
    elif isinstance(event, ActionAccepted):
        ms.command_ids[event.command_id] = (event.seat, event.decision, seq)
    elif isinstance(event, ChanceRequested):
        ms.open_request = (seq, event)
        if not ms.light:
            ms.game = ms.engine.evolve(ms.game, event)  # type: ignore[union-attr]
    elif isinstance(event, DiceRolled | DeckShuffled):
        ms.open_request = None
        used = len(event.values) if isinstance(event, DiceRolled) else max(len(event.order) - 1, 0)
        ms.next_roll = event.first_index + used
        if not ms.light:
            ms.game = ms.engine.evolve(ms.game, event)  # type: ignore[union-attr]
    elif isinstance(event, MatchCreated):
        ms.created = event
        ms.codec = codec_for(event.game)
        if not ms.light:
            ms.engine = get_engine(event.game)
            ms.game = ms.engine.initial_state(event)
    elif isinstance(event, SeedCommitted):
        ms.commitment = event.commitment
    elif isinstance(event, PlayerSeedAdded):
        ms.player_seeds.append(bytes.fromhex(event.seed))
    elif isinstance(event, SeatResigned):
        ms.resigned.append(event.seat)
        ms.command_ids[event.command_id] = (event.seat, -1, seq)
    elif isinstance(event, SeatTimedOut):
        ms.timed_out.append(event.seat)
        if not ms.light:
            ms.game = ms.engine.evolve(ms.game, event)  # type: ignore[union-attr]
    elif isinstance(event, MatchEnded):
        ms.ended = event
    elif isinstance(event, MatchDamaged):
        ms.damaged = event
        ms.ended = DAMAGED_END
    elif isinstance(event, SeedRevealed):
        ms.revealed = event.seed
    elif isinstance(event, MatchSealed):
        ms.sealed = event
