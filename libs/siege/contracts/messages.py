"""Messages on the bus (not stored in match logs): commands in, notices and prompts out."""

from __future__ import annotations

import msgspec

from siege.contracts.rejections import RejectionCode

MAX_ACTION_BYTES = 4096


class Message(msgspec.Struct, frozen=True, tag_field="t", kw_only=True):
    pass


class CreateMatch(Message, frozen=True, tag="cmd.create_match", kw_only=True):
    match_id: str
    game: str
    seat_names: list[str]
    options: dict[str, str] = {}
    # Where the seat tokens go (a stream the creator reads); they are never in the match log.
    reply_to: str = "siege:replies"


class SubmitAction(Message, frozen=True, tag="cmd.submit_action", kw_only=True):
    match_id: str
    seat: int
    decision: int
    command_id: str
    action: bytes  # msgpack of one of the game's actions
    token: str = ""  # the seat's token from MatchSeated


class MatchSeated(Message, frozen=True, tag="note.match_seated", kw_only=True):
    """Sent to the creator: ``tokens[seat]`` authorises commands for that seat of this match."""

    match_id: str
    tokens: list[str]


class LogAppended(Message, frozen=True, tag="note.log_appended", kw_only=True):
    """A pointer to new entries of a match log; readers fetch them from the log itself."""

    match_id: str
    first: int
    last: int
    # True when nothing was appended and the head is announced again (a repeated create),
    # so services resume the match; on Redis the append script writes the ordinary pointers.
    reannounce: bool = False


class SeatPrompted(Message, frozen=True, tag="note.seat_prompted", kw_only=True):
    """What one seat may know now and what it may do; sent only to that seat."""

    match_id: str
    seat: int
    decision: int
    view: msgspec.Raw
    legal: list[msgspec.Raw]


class ActionRejected(Message, frozen=True, tag="note.action_rejected", kw_only=True):
    match_id: str
    seat: int
    command_id: str
    code: RejectionCode
    detail: str = ""


class MatchFinished(Message, frozen=True, tag="note.match_finished", kw_only=True):
    match_id: str
    game: str
    seat_names: list[str]
    ranks: list[int]


BUS_MESSAGES = (
    CreateMatch, SubmitAction, MatchSeated, LogAppended, SeatPrompted, ActionRejected,
    MatchFinished,
)
bus_encoder = msgspec.msgpack.Encoder()
bus_decoder = msgspec.msgpack.Decoder(
    CreateMatch | SubmitAction | MatchSeated | LogAppended | SeatPrompted | ActionRejected
    | MatchFinished
)
