"""The state of a match after any event, folded from its stored bytes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from siege.contracts.events import Event
from siege.hosting.loader import CORE_CODEC
from siege.hosting.match_state import MatchState, fold


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


def fold_to(entries: Sequence[tuple[int, bytes, Any]],
            to: int | None = None) -> tuple[MatchState, list[tuple[int, Event]]]:
    """The match folded up to seq ``to`` (the end by default), and its events up to there."""
    if not entries:
        raise ReplayError("the log is empty")
    last = entries[-1][0] if to is None else to
    if last > entries[-1][0]:
        raise ReplayError(f"--to {last} is past the end of the log (seq {entries[-1][0]})")
    ms = MatchState("")
    events: list[tuple[int, Event]] = []
    try:
        for seq, stored, digest in entries:
            if seq > last:
                break
            envelope = (ms.codec or CORE_CODEC).decode(stored)
            fold(ms, seq, digest, envelope.event)
            ms.head_at, ms.match_id = envelope.at, envelope.match_id
            events.append((seq, envelope.event))
    except (msgspec.DecodeError, msgspec.ValidationError) as err:
        raise ReplayError(f"undecodable log ({err}); run siege audit to locate it") from None
    except Exception as err:  # noqa: BLE001 - a changed log may make the game fail anyhow
        # Only a log the game's own rules would never have written gets here (one changed and
        # re-chained by hand): say where the replay stopped, never a traceback.
        raise ReplayError(f"the game cannot replay seq {seq} ({type(err).__name__}: {err}); "
                          "run siege audit to find what was changed") from None
    if ms.engine is None or ms.created is None:
        raise ReplayError("the log does not start with MatchCreated")
    return ms, events


def replay_to(entries: Sequence[tuple[int, bytes, Any]], to: int | None = None) -> Snapshot:
    ms, events = fold_to(entries, to)
    assert ms.engine is not None and ms.created is not None
    pending = ms.engine.pending(ms.game)
    waiting: Any = (
        {"chance": msgspec.to_builtins(pending.chance)} if pending.chance
        else {"seats": sorted(pending.seats)}
    )
    seq, last = events[-1]
    return Snapshot(
        match_id=ms.match_id, game=ms.created.game, seq=seq,
        last_event=type(last).__name__, decision=pending.decision,
        waiting_for=waiting, ended=msgspec.to_builtins(ms.ended) if ms.ended else None,
        state=msgspec.to_builtins(ms.game),
    )
