"""Messages on the bus (not stored in match logs): commands in, notices and prompts out."""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.contracts.rejections import RejectionCode

# Limits on every field of a command, so that no client can put more than a few KB into a match
# log, a lobby or an inbox. A command over any of them fails to decode (msgspec.ValidationError)
# and is dead-lettered unread. Lengths of strings count characters (code points), of bytes
# bytes, of lists items, of maps entries.
MAX_MATCH_ID = 128  # a match or tournament id (siege.eventlog.keys.MATCH_ID)
MAX_CLIENT_ID = 64  # a client id (siege.eventlog.keys.CLIENT_ID); "" in CreateMatch.clients
MAX_GAME_NAME = 64  # a game's name (the longest, "castle-assault", has 14)
MAX_SEATS = 8  # seats of one match: the most any game takes is 6 (castle-dash)
MAX_SEAT_NAME = 80  # a seat's name: a display name, or a tournament entrant id "c-<client id>"
MAX_DISPLAY_NAME = 64  # the name a client gives itself in JoinMatch or RegisterEntrant
MAX_OPTIONS = 16  # options of one match (no game reads more than three)
MAX_OPTION_KEY = 64  # an option's name ("decision_timeout_ms" has 19)
MAX_OPTION_VALUE = 8192  # castle-assault's "decks" (JSON): the longest legal pair has 1,591
MAX_COMMAND_ID = 256  # bots send "<match id>:<seat>:<decision>", the JS bot a UUID: <= 151
MAX_TOKEN = 64  # a seat token: the hex of an HMAC-SHA256 (siege.hosting.seats)
MAX_ACTION_BYTES = 4096  # one action's msgpack (the largest legal action is far smaller)

# Limits on what the services echo back in a notice (CommandRefused, ActionRejected).
MAX_TAG = 64  # a command's tag, in CommandRefused.command
MAX_DETAIL = 256  # a notice's detail: the services send at most this many UTF-8 bytes
MAX_INBOX_ENTRY_BYTES = 4096
"""The largest msgpack body of any message the services put on a client's inbox: the worst
case is a MatchFinished of MAX_SEATS names of MAX_SEAT_NAME 4-byte characters, 3.1 KB; an
ActionRejected is at most 1.9 KB, a CommandRefused 0.5 KB. An inbox capped at NOTICE_CAP
(10,000) entries thus holds at most about 41 MB, and a flood of rejections about 19 MB."""

MatchId = Annotated[str, msgspec.Meta(max_length=MAX_MATCH_ID)]
ClientId = Annotated[str, msgspec.Meta(max_length=MAX_CLIENT_ID)]
GameName = Annotated[str, msgspec.Meta(max_length=MAX_GAME_NAME)]
SeatName = Annotated[str, msgspec.Meta(max_length=MAX_SEAT_NAME)]
DisplayName = Annotated[str, msgspec.Meta(max_length=MAX_DISPLAY_NAME)]
SeatNames = Annotated[list[SeatName], msgspec.Meta(max_length=MAX_SEATS)]
SeatHolders = Annotated[list[ClientId], msgspec.Meta(max_length=MAX_SEATS)]
OptionKey = Annotated[str, msgspec.Meta(max_length=MAX_OPTION_KEY)]
OptionValue = Annotated[str, msgspec.Meta(max_length=MAX_OPTION_VALUE)]
Options = Annotated[dict[OptionKey, OptionValue], msgspec.Meta(max_length=MAX_OPTIONS)]
CommandId = Annotated[str, msgspec.Meta(max_length=MAX_COMMAND_ID)]
Token = Annotated[str, msgspec.Meta(max_length=MAX_TOKEN)]
ActionBytes = Annotated[bytes, msgspec.Meta(max_length=MAX_ACTION_BYTES)]
Tag = Annotated[str, msgspec.Meta(max_length=MAX_TAG)]
Detail = Annotated[str, msgspec.Meta(max_length=MAX_DETAIL)]

_ELLIPSIS = "\u2026"


def clipped(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes (so at most ``limit`` characters), ending
    in an ellipsis when cut: all a notice may echo of what a client sent."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    keep = limit - len(_ELLIPSIS.encode())
    return data[:keep].decode("utf-8", "ignore") + _ELLIPSIS


class Message(msgspec.Struct, frozen=True, tag_field="t", kw_only=True):
    pass


class CreateMatch(Message, frozen=True, tag="cmd.create_match", kw_only=True):
    match_id: MatchId
    game: GameName
    seat_names: SeatNames
    options: Options = {}
    # The creator: "" or its own id (the services take it from the stream the command came on
    # and refuse one naming another client); refusals go to its inbox.
    client: ClientId = ""
    # Who holds each seat; "" leaves a seat open for JoinMatch, and the match starts once every
    # seat is held. Empty: the creator holds them all.
    clients: SeatHolders = []


class JoinMatch(Message, frozen=True, tag="cmd.join_match", kw_only=True):
    """Claims a seat of a match created with open seats: ``seat`` -1 takes the lowest free
    one. Joining again returns the seat already held, so a client may simply retry."""

    match_id: MatchId
    client: ClientId = ""  # "" or the sender's own id, as for every command
    seat: int = -1
    name: DisplayName = ""  # the seat's display name; "" keeps the creator's


class RegisterEntrant(Message, frozen=True, tag="cmd.register_entrant", kw_only=True):
    """Enters a client in a tournament that is open for registration."""

    tournament_id: MatchId
    client: ClientId = ""  # "" or the sender's own id, as for every command
    name: DisplayName = ""


class SubmitAction(Message, frozen=True, tag="cmd.submit_action", kw_only=True):
    match_id: MatchId
    seat: int
    decision: int
    command_id: CommandId
    action: ActionBytes  # msgpack of one of the game's actions
    token: Token = ""  # the seat's token from SeatGranted
    # "" or the sender's own id, as for every command: a refusal goes to the sender's inbox.
    client: ClientId = ""


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

    command: Tag  # the refused command's tag, e.g. "cmd.join_match"
    subject: MatchId  # the match or tournament id it named (cut to MAX_MATCH_ID bytes)
    code: RejectionCode
    detail: Detail = ""


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
    # The seat's clock: the answer must reach Redis by ``deadline_ms`` (milliseconds since the
    # epoch on the one clock the system judges by, Redis' own, which also stamps the ids of
    # the entries you XADD), and the match gives ``timeout_ms`` per decision.
    deadline_ms: int = 0
    timeout_ms: int = 0


class ActionAcknowledged(Message, frozen=True, tag="note.action_acknowledged", kw_only=True):
    """Sent to the sender of an accepted ``SubmitAction``: its action is in the log at ``seq``.
    A repeat of the same command (same ``command_id``, seat and decision: a retry, or a
    redelivery after a service restarted) is acknowledged again, never refused."""

    match_id: MatchId
    seat: int
    decision: int
    command_id: CommandId
    seq: int


class ActionRejected(Message, frozen=True, tag="note.action_rejected", kw_only=True):
    match_id: MatchId
    seat: int
    command_id: CommandId
    code: RejectionCode
    detail: Detail = ""


class MatchFinished(Message, frozen=True, tag="note.match_finished", kw_only=True):
    match_id: str
    game: str
    seat_names: list[str]
    ranks: list[int]
    creator: str = ""  # who created the match: a runner adopts only results of its own
    # How it ended: "finished" (the game's own end), "forfeit" (a seat's clock ran out; it is
    # ranked last) or "damaged" (an operator's MatchDamaged: no result, ``ranks`` is empty).
    reason: str = "finished"
    # The hash (hex) of the log's last entry, its seal: a tournament records it with the result,
    # so the tournament's log pins the exact match log (docs/decisions/0010-signed-matches.md).
    head: str = ""


BUS_MESSAGES = (
    CreateMatch, JoinMatch, RegisterEntrant, SubmitAction, SeatGranted, EntrantAccepted,
    TournamentEnded, CommandRefused, LogAppended, SeatPrompted, ActionAcknowledged,
    ActionRejected, MatchFinished,
)
bus_encoder = msgspec.msgpack.Encoder()
bus_decoder = msgspec.msgpack.Decoder(
    CreateMatch | JoinMatch | RegisterEntrant | SubmitAction | SeatGranted | EntrantAccepted
    | TournamentEnded | CommandRefused | LogAppended | SeatPrompted | ActionAcknowledged
    | ActionRejected | MatchFinished
)
