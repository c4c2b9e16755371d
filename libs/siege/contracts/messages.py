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
    client: str  # the creator: refusals go to its inbox
    # Who holds each seat; "" leaves a seat open for JoinMatch, and the match starts once every
    # seat is held. Empty: the creator holds them all.
    clients: list[str] = []


class JoinMatch(Message, frozen=True, tag="cmd.join_match", kw_only=True):
    """Claims a seat of a match created with open seats: ``seat`` -1 takes the lowest free
    one. Joining again returns the seat already held, so a client may simply retry."""

    match_id: str
    client: str
    seat: int = -1
    name: str = ""  # the seat's display name; "" keeps the creator's


class RegisterEntrant(Message, frozen=True, tag="cmd.register_entrant", kw_only=True):
    """Enters a client in a tournament that is open for registration."""

    tournament_id: str
    client: str
    name: str = ""


class SubmitAction(Message, frozen=True, tag="cmd.submit_action", kw_only=True):
    match_id: str
    seat: int
    decision: int
    command_id: str
    action: bytes  # msgpack of one of the game's actions
    token: str = ""  # the seat's token from SeatGranted
    client: str = ""  # the sender: a refusal goes to its inbox ("" : the shared replies stream)


class SeatGranted(Message, frozen=True, tag="note.seat_granted", kw_only=True):
    """Sent to a seat's holder (and again on a repeated create or join): ``token`` authorises
    commands for this seat of this match; the seat's prompts arrive on ``stream``."""

    match_id: str
    game: str
    seat: int
    token: str
    stream: str


class EntrantAccepted(Message, frozen=True, tag="note.entrant_accepted", kw_only=True):
    """Sent to a registering client: its entrant id; its matches come as ``SeatGranted``."""

    tournament_id: str
    entrant_id: str


class TournamentEnded(Message, frozen=True, tag="note.tournament_ended", kw_only=True):
    """Sent to each outside entrant when its tournament is over: no more seats will come."""

    tournament_id: str


class CommandRefused(Message, frozen=True, tag="note.command_refused", kw_only=True):
    """A create, join or registration that changed nothing, and why (to the sender's inbox)."""

    command: str  # the refused command's tag, e.g. "cmd.join_match"
    subject: str  # the match or tournament id it named
    code: RejectionCode
    detail: str = ""


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
    CreateMatch, JoinMatch, RegisterEntrant, SubmitAction, SeatGranted, EntrantAccepted,
    TournamentEnded, CommandRefused, LogAppended, SeatPrompted, ActionRejected, MatchFinished,
)
bus_encoder = msgspec.msgpack.Encoder()
bus_decoder = msgspec.msgpack.Decoder(
    CreateMatch | JoinMatch | RegisterEntrant | SubmitAction | SeatGranted | EntrantAccepted
    | TournamentEnded | CommandRefused | LogAppended | SeatPrompted | ActionRejected
    | MatchFinished
)
