"""The state of a match after any event, folded from its stored bytes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState


class ReplayError(ValueError):
    pass


class Snapshot(msgspec.Struct):
    match_id: str
    game: str
    seq: int
    last_event: str
    decision: int | None
    waiting_for: Any
    ended: Any
    state: Any


def replay_to(entries: Sequence[tuple[int, bytes, Any]], to: int | None = None) -> Snapshot:
    if not entries:
        raise ReplayError("the log is empty")
    last = entries[-1][0] if to is None else to
    if last > entries[-1][0]:
        raise ReplayError(f"--to {last} is past the end of the log (seq {entries[-1][0]})")
    ms = MatchState("")
    try:
        decode_entries(ms, [e for e in entries if e[0] <= last])
    except (msgspec.DecodeError, msgspec.ValidationError) as err:
        raise ReplayError(f"undecodable log ({err}); run siege audit to locate it") from None
    if ms.engine is None or ms.created is None:
        raise ReplayError("the log does not start with MatchCreated")
    codec = ms.codec
    assert codec is not None
    envelope = codec.decode(entries[last - 1][1])
    ms.match_id = envelope.match_id
    pending = ms.engine.pending(ms.game)
    waiting: Any = (
        {"chance": msgspec.to_builtins(pending.chance)} if pending.chance
        else {"seats": sorted(pending.seats)}
    )
    return Snapshot(
        match_id=envelope.match_id, game=ms.created.game, seq=last,
        last_event=type(envelope.event).__name__, decision=pending.decision,
        waiting_for=waiting, ended=msgspec.to_builtins(ms.ended) if ms.ended else None,
        state=msgspec.to_builtins(ms.game),
    )
