"""What the rules service decides: accept or reject a command, and what must follow it.

Everything here is derived from the folded log, so a redelivered or duplicated message yields
the same answer, and the compare-and-set append turns a second attempt into a no-op.
"""

from __future__ import annotations

from typing import Any

import msgspec

from siege.contracts.events import (
    ActionAccepted,
    ChanceRequested,
    Event,
    MatchEnded,
    SeatResigned,
)
from siege.contracts.messages import MAX_ACTION_BYTES, ResignMatch, SubmitAction
from siege.contracts.rejections import RejectionCode
from siege.engine.codecs import action_decoder
from siege.hosting.clocks import forfeit_ranks
from siege.hosting.match_state import MatchState

_encoder = msgspec.msgpack.Encoder()


class Rejection(msgspec.Struct, frozen=True):
    code: RejectionCode
    detail: str = ""


def decode_action(ms: MatchState, data: bytes) -> Any | Rejection:
    if len(data) > MAX_ACTION_BYTES:
        return Rejection(RejectionCode.MALFORMED, f"action larger than {MAX_ACTION_BYTES} bytes")
    try:
        assert ms.engine is not None
        return action_decoder(ms.engine.name).decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as err:
        return Rejection(RejectionCode.MALFORMED, f"not an action of this game: {err}")
    except RecursionError:  # msgspec's answer to a value nested thousands deep
        return Rejection(RejectionCode.MALFORMED, "an action nested too deep")


def check_turn(ms: MatchState, seat: int, decision: int) -> Rejection | None:
    """Turn and staleness, shared by the live path and the auditor."""
    if ms.engine is None or ms.created is None:
        return Rejection(RejectionCode.UNKNOWN_MATCH, "no such match")
    if over(ms):
        return Rejection(RejectionCode.MATCH_OVER, "the match is over")
    if not 0 <= seat < ms.created.players:
        return Rejection(RejectionCode.UNKNOWN_SEAT, f"seat {seat} is not in this match")
    pending = ms.engine.pending(ms.game)
    if seat not in pending.seats:
        return Rejection(RejectionCode.NOT_YOUR_TURN, f"seat {seat} may not act now")
    if decision != pending.decision:
        return Rejection(
            RejectionCode.STALE_DECISION, f"decision {decision} is not the open {pending.decision}"
        )
    return None


def over(ms: MatchState) -> bool:
    """Whether nothing a seat sends can change the match any more."""
    assert ms.engine is not None
    return (ms.ended is not None or bool(ms.timed_out) or bool(ms.resigned)
            or ms.engine.is_terminal(ms.game))


def accept_resignation(ms: MatchState, cmd: ResignMatch) -> list[Event] | Rejection | None:
    """The event that records ``cmd``, why it is refused, or None for a repeat of a
    resignation already recorded (nothing more to do). Any seat may resign at any time
    before the end, its turn or not."""
    earlier = ms.command_ids.get(cmd.command_id)
    if earlier is not None:
        if earlier[:2] == (cmd.seat, -1):
            return None
        return Rejection(RejectionCode.DUPLICATE_COMMAND,
                         "this command id was already accepted for another command")
    if ms.engine is None or ms.created is None:
        return Rejection(RejectionCode.UNKNOWN_MATCH, "no such match")
    if over(ms):
        return Rejection(RejectionCode.MATCH_OVER, "the match is over")
    if not 0 <= cmd.seat < ms.created.players:
        return Rejection(RejectionCode.UNKNOWN_SEAT, f"seat {cmd.seat} is not in this match")
    return [SeatResigned(seat=cmd.seat, command_id=cmd.command_id)]


def check_legal(ms: MatchState, seat: int, action: Any) -> Rejection | None:
    assert ms.engine is not None
    if action not in ms.engine.legal_actions(ms.game, seat):
        return Rejection(RejectionCode.ILLEGAL_ACTION, f"{action!r} is not legal now")
    return None


def repeat_of(ms: MatchState, cmd: SubmitAction) -> int | None:
    """The seq of the ActionAccepted that ``cmd`` repeats (the same command id, seat and
    decision: a retry, or a redelivery after a restart), else None."""
    earlier = ms.command_ids.get(cmd.command_id)
    if earlier is None or earlier[:2] != (cmd.seat, cmd.decision):
        return None
    return earlier[2]


def accept_action(ms: MatchState, cmd: SubmitAction) -> list[Event] | Rejection:
    """The events that record ``cmd``, or why it is refused. Does not change ``ms``. A repeat
    of an accepted command (``repeat_of``) is refused here too: callers that acknowledge
    repeats ask ``repeat_of`` first."""
    if cmd.command_id in ms.command_ids:
        return Rejection(RejectionCode.DUPLICATE_COMMAND,
                         "this command id was already accepted for another decision")
    refused = check_turn(ms, cmd.seat, cmd.decision)
    if refused is not None:
        return refused
    action = decode_action(ms, cmd.action)
    if isinstance(action, Rejection):
        return action
    refused = check_legal(ms, cmd.seat, action)
    if refused is not None:
        return refused
    assert ms.engine is not None
    accepted = ActionAccepted(
        seat=cmd.seat,
        decision=cmd.decision,
        command_id=cmd.command_id,
        action=msgspec.Raw(_encoder.encode(action)),
    )
    return [accepted, *ms.engine.apply(ms.game, cmd.seat, action)]


def expected_follow_up(ms: MatchState) -> Event | None:
    """The one event the rules owe the log now, if any: a chance request or the match end."""
    engine = ms.engine
    # Nothing before the seed commitment: chance asked for later is answered by a committed
    # seed, and one order of events (commit, then requests) makes logs reproducible.
    if engine is None or ms.ended is not None or ms.commitment is None:
        return None
    if ms.timed_out or ms.resigned:
        return MatchEnded(ranks=forfeit_ranks(engine.ranks(ms.game),
                                              ms.timed_out + ms.resigned),
                          reason="forfeit" if ms.timed_out else "resigned")
    if engine.is_terminal(ms.game):
        return MatchEnded(ranks=engine.ranks(ms.game))
    if ms.open_request is None:
        need = engine.pending(ms.game).chance
        if need is not None:
            return ChanceRequested(
                kind=need.kind, sides=need.sides, count=need.count, purpose=need.purpose
            )
    return None
