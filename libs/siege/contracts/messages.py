"""Messages on the bus (not stored in match logs): commands in, notices and prompts out."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

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


# Descriptions shared by several messages' fields.
_CLIENT = (
    "The sender: `\"\"` or its own client id. The services take the sender from the commands "
    "stream the command came on and fill this in; a command naming another client is refused "
    "(`bad_client`), except on a gateway's stream, which names the person it speaks for "
    "(docs/clients.md, \"Gateways\"). Every answer goes to the sender's inbox (a person's, "
    "to its gateway's, naming it in `to`).")
_TO = (
    "Whom this answer is for, on a gateway's inbox: the person (a client id under the "
    "gateway's prefix, docs/clients.md \"Gateways\") whose command it answers or whose seat "
    "it concerns; `\"\"` on a client's own inbox and on the results stream. Added in contract "
    "2.2: a client of 2.1 ignores it.")
_SEAT = "The seat number, from 0, in the match's seat order (the order of `seat_names`)."
_DECISION = (
    "The decision point's number, as the seat's SeatPrompted gives it and its SubmitAction "
    "echoes it. Numbers rise through a match (decision points and chance requests each take "
    "the next one, from 1), so the ones a seat sees can skip; seats asked at once share one.")
_COMMAND_ID = (
    "The client's own id for this SubmitAction (at most 256 characters; our bots send "
    "`<match id>:<seat>:<decision>`, the JS bot a UUID), echoed in its answer. Unique per "
    "match: the same command again (same id, seat and decision, e.g. a retry) is acknowledged "
    "again and recorded once; the same id for another decision (or seat) is "
    "`duplicate_command`.")
_DETAIL = (
    "A human-readable explanation for logs and people, not for parsing (the code is the "
    "reason): at most 256 UTF-8 bytes, ending in `\u2026` when cut. For `malformed`, what the "
    "decoder found, with the path of the bad field.")
_TOURNAMENT_ID = "The tournament's id: `t-` and 12 lowercase hex digits."


class Message(msgspec.Struct, frozen=True, tag_field="t", kw_only=True):
    """Base of every bus message; the tag goes in field ``t``."""


class CreateMatch(Message, frozen=True, tag="cmd.create_match", kw_only=True):
    """Creates a match (on the sender's commands stream). The match starts once every seat is
    held; each holder then gets a ``SeatGranted`` per seat on its inbox, and a refusal comes
    back as ``CommandRefused``. Creating again under the same terms grants the seats again
    and changes nothing else."""

    match_id: Annotated[MatchId, Meta(description=(
        "The new match's id, chosen by the creator: 1-128 of `A-Z a-z 0-9 _ . : -` and not "
        "shaped like a tournament's id (`t-` and 12 hex digits), else `malformed`; a "
        "tournament table's id only its organiser creates. Make it unique (a random "
        "suffix): an id used before names that match (`match_id_taken` unless it is yours "
        "under the same terms)."))]
    game: Annotated[GameName, Meta(description=(
        "The game to play: one of the hosted games, the keys of `x-siege-games` in the "
        "AsyncAPI document (e.g. `castle-dash`); another is `unknown_game`."))]
    seat_names: Annotated[SeatNames, Meta(description=(
        "One display name per seat, in seat order: their number is the player count, which "
        "must be one the game takes (`bad_seats`)."))]
    options: Annotated[Options, Meta(description=(
        "Match options, names to text values: `decision_timeout_ms` (the whole milliseconds "
        "each decision allows, 1 to 604,800,000; absent, the services' default, 60,000 unless "
        "the operator set another) and the game's own (castle-assault's `decks` and "
        "`warbands`, storm-castle's `intro`). Options the game refuses are `bad_options`."))] = {}
    client: Annotated[ClientId, Meta(description=(
        "The creator: `\"\"` or its own client id (the services take it from the commands "
        "stream the command came on and refuse one naming another client, `bad_client`); "
        "refusals go to its inbox."))] = ""
    clients: Annotated[SeatHolders, Meta(description=(
        "Who holds each seat, in seat order (as many as `seat_names`, else `bad_seats`): the "
        "creator's id, or `\"\"` to leave a seat open for JoinMatch (the match waits in the "
        "lobby `siege:lobby` until every seat is held). Another client may be named only at "
        "a tournament table it registered for (else `bad_client`). Empty: the creator holds "
        "every seat."))] = []


class JoinMatch(Message, frozen=True, tag="cmd.join_match", kw_only=True):
    """Claims a seat of a match created with open seats: ``seat`` -1 takes the lowest free
    one. Joining again returns the seat already held, so a client may simply retry."""

    match_id: Annotated[MatchId, Meta(description=(
        "The match to join: one listed in the lobby (`siege:lobby`) or whose id the creator "
        "gave out. Once the match has started, a join only grants a holder its seat again "
        "(others get `match_full`)."))]
    client: Annotated[ClientId, Meta(description=_CLIENT)] = ""
    seat: Annotated[int, Meta(description=(
        "The seat to claim, from 0; -1 (the default) takes the lowest open one. A client "
        "already seated keeps its seat whatever it asks for."))] = -1
    name: Annotated[DisplayName, Meta(description=(
        "The seat's display name, replacing the creator's name for it; `\"\"` keeps the "
        "creator's. Ignored when the client already holds a seat."))] = ""


class RegisterEntrant(Message, frozen=True, tag="cmd.register_entrant", kw_only=True):
    """Enters a client in a tournament that is open for registration."""

    tournament_id: Annotated[MatchId, Meta(description=(
        _TOURNAMENT_ID + " The organiser prints it; an id of no tournament is "
        "`unknown_tournament`."))]
    client: Annotated[ClientId, Meta(description=_CLIENT)] = ""
    name: Annotated[DisplayName, Meta(description=(
        "A display name for the entrant: the tournament records it (EntrantRegistered) "
        "and its pages show it in standings, rounds and rating changes beside the entrant "
        "id, `c-<client id>`, which stays the entrant's identity."))] = ""


class SubmitAction(Message, frozen=True, tag="cmd.submit_action", kw_only=True):
    """A seat's answer to its open decision (on the sender's commands stream): answered on
    the sender's inbox by ``ActionAcknowledged`` or ``ActionRejected``, matched by
    ``command_id``. The checks and their order are in docs/clients.md."""

    match_id: Annotated[MatchId, Meta(description="The match, as in the prompt.")]
    seat: Annotated[int, Meta(description=_SEAT + " The seat answering: the prompt's.")]
    decision: Annotated[int, Meta(description=(
        _DECISION + " Send the prompt's own: any other is `stale_decision`."))]
    command_id: Annotated[CommandId, Meta(description=_COMMAND_ID + " Make it fresh.")]
    action: Annotated[ActionBytes, Meta(description=(
        "The chosen action's msgpack encoding, as bin: one item of the prompt's `legal` "
        "(its exact bytes, or an equal encoding of the same action), at most 4,096 bytes. "
        "One that is none of the game's actions is `malformed`, one not legal now "
        "`illegal_action`."))]
    token: Annotated[Token, Meta(description=(
        "The seat's token from its SeatGranted; another is `bad_token`."))] = ""
    client: Annotated[ClientId, Meta(description=_CLIENT)] = ""


class ResignMatch(Message, frozen=True, tag="cmd.resign_match", kw_only=True):
    """Give up a match for a seat you hold: it ends at once, that seat ranked last
    (``MatchFinished`` reason ``resigned``). Refused like an action (``ActionRejected``:
    ``bad_token``, ``match_over``, ...); sending it again changes nothing. Added in 1.1."""

    match_id: Annotated[MatchId, Meta(description="The match to give up.")]
    seat: Annotated[int, Meta(description=_SEAT + " The seat that resigns.")]
    command_id: Annotated[CommandId, Meta(description=_COMMAND_ID)]
    token: Annotated[Token, Meta(description=(
        "The seat's token from its SeatGranted; another is `bad_token`."))] = ""
    client: Annotated[ClientId, Meta(description=_CLIENT)] = ""


class WatchMatch(Message, frozen=True, tag="cmd.watch_match", kw_only=True):
    """Follow a match as a spectator, whoever you are: the services write what happens in it
    (``MatchWatched``, public information only) on the match's public stream
    ``{sN}:watch:<match_id>`` (channel ``watch``), which every client may read, for 60 seconds
    from this command; send it again every 20 seconds or so to go on watching. The first
    entry after it is a snapshot (the last 100 lines and the board as it is), the next ones
    what changed. An unknown match is refused (``CommandRefused``, ``unknown_match``). Added
    in 1.2."""

    match_id: Annotated[MatchId, Meta(description="The match to watch.")]
    snapshot: Annotated[bool, Meta(description=(
        "True (the default): start with a snapshot. False: only renew the 60 seconds, when "
        "you watch already."))] = True
    client: Annotated[ClientId, Meta(description=_CLIENT)] = ""


class Said(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a match's story, as a spectator is told it."""

    seq: Annotated[int, Meta(description="The seq of the event it tells of, in the log.")]
    text: Annotated[str, Meta(description=(
        "The event in words (English), naming seats by their `seat_names`; never what a "
        "seat's view hides."))]


class MatchWatched(Message, frozen=True, tag="note.match_watched", kw_only=True):
    """What a spectator may know of a match, on its public stream (see ``WatchMatch``): the
    events since the last entry in words and the board as everyone sees it."""

    match_id: Annotated[str, Meta(description="The match.")]
    game: Annotated[str, Meta(description="The match's game (a key of `x-siege-games`).")]
    seat_names: Annotated[list[str], Meta(description=(
        "Each seat's display name, in seat order, as in the match's MatchCreated."))]
    seq: Annotated[int, Meta(description="The log's head: what this entry tells goes up to it.")]
    snapshot: Annotated[bool, Meta(description=(
        "True for the first entry after a WatchMatch: `lines` are the last ones of the "
        "match so far rather than those since the previous entry."))] = False
    lines: Annotated[list[Said], Meta(description="What happened, in order.")]
    view: Annotated[msgspec.Raw, Meta(description=(
        "The spectator's view: an embedded msgpack value of the game's view type "
        "(`x-siege-games`, `view`) with `seat` -1, nobody's secrets."))]
    over: Annotated[bool, Meta(description=(
        "The match has ended; nothing more will be written here."))] = False


class SeatGranted(Message, frozen=True, tag="note.seat_granted", kw_only=True):
    """Sent to a seat's holder (and again on a repeated create or join): ``token`` authorises
    commands for this seat of this match; the seat's prompts arrive on ``stream``."""

    match_id: Annotated[str, Meta(description="The match the seat belongs to.")]
    game: Annotated[str, Meta(description=(
        "The match's game (a key of `x-siege-games`): which view and action types its "
        "prompts carry."))]
    seat: Annotated[int, Meta(description=_SEAT + " The seat granted.")]
    token: Annotated[str, Meta(description=(
        "The seat's credential, 64 lowercase hex digits (an HMAC-SHA256 of the match id and "
        "the seat under the services' secret): put it in every SubmitAction for this seat. "
        "It is the same on every grant of the seat and never written to a log; keep it "
        "secret."))]
    stream: Annotated[str, Meta(description=(
        "The Redis stream of this seat's prompts, "
        "`siege:client:{s<client shard>}:<client id>:seat:<match_id>:<seat>`: XREAD it from "
        "`0-0`, one "
        "SeatPrompted per decision."))]
    to: Annotated[ClientId, Meta(description=_TO)] = ""


class EntrantAccepted(Message, frozen=True, tag="note.entrant_accepted", kw_only=True):
    """Sent to a registering client: its entrant id; its matches come as ``SeatGranted``."""

    tournament_id: Annotated[str, Meta(description=_TOURNAMENT_ID + " The one entered.")]
    entrant_id: Annotated[str, Meta(description=(
        "The client's entrant id in the tournament, `c-<client id>`: pairings, tables and "
        "standings name it so. Registering again returns the same id."))]
    to: Annotated[ClientId, Meta(description=_TO)] = ""


class TournamentEnded(Message, frozen=True, tag="note.tournament_ended", kw_only=True):
    """Sent to each outside entrant when its tournament is over: no more seats will come."""

    tournament_id: Annotated[str, Meta(description=_TOURNAMENT_ID + " The one that ended.")]
    to: Annotated[ClientId, Meta(description=_TO)] = ""


class CommandRefused(Message, frozen=True, tag="note.command_refused", kw_only=True):
    """A create, join or registration that changed nothing, and why (to the sender's inbox);
    for a refusal that waiting overcomes, ``retry_after_ms`` says how long to wait."""

    command: Annotated[Tag, Meta(description=(
        "The refused command's tag: `cmd.create_match`, `cmd.join_match` or "
        "`cmd.register_entrant`; for an unreadable entry the tag it had, if any (it can be "
        "`cmd.submit_action` when its match, seat or command id could not be read), else "
        "`cmd.unknown`."))]
    subject: Annotated[MatchId, Meta(description=(
        "The match or tournament id the command named (cut to 128 UTF-8 bytes), `\"\"` if "
        "none could be read: match on it to tell refusals of different commands apart."))]
    code: Annotated[RejectionCode, Meta(description=(
        "Why: for a create, join or registration one of `bad_client`, `rate_limited`, "
        "`malformed`, `unknown_game`, `bad_seats`, `bad_options`, `match_id_taken`, "
        "`store_busy`, `unknown_match`, `unknown_seat`, `seat_taken`, `match_full`, "
        "`unknown_tournament`, `registration_closed` (docs/clients.md); services before 2.1 "
        "sent `store_full` where they now send `store_busy`."))]
    detail: Annotated[Detail, Meta(description=_DETAIL)] = ""
    retry_after_ms: Annotated[int, Meta(ge=0, description=(
        "The milliseconds to wait before sending the command again, never sooner; 0: no hint. "
        "Set on `store_busy` (1,000 at the threshold, growing with the memory used, at most "
        "30,000); 0 on the other codes. Added in contract 2.1: a client of 2.0 ignores it, "
        "and a refusal from a service before 2.1 decodes with 0."))] = 0
    to: Annotated[ClientId, Meta(description=_TO)] = ""


class LogAppended(Message, frozen=True, tag="note.log_appended", kw_only=True):
    """A pointer to new entries of a match log; readers fetch them from the log itself.

    Between the services only: no client receives it. On Redis the pointer is not this
    message but plain fields ``m`` (match id), ``f`` and ``l`` on the shard's bus streams
    ``{s<shard>}:bus:<audience>``; the pointer of a one-event append also carries that entry's
    fields ``e`` and ``h`` as the log holds them, so a reader one entry behind need not read
    the log."""

    match_id: Annotated[str, Meta(description="The match whose log grew.")]
    first: Annotated[int, Meta(description="The seq of the first new entry.")]
    last: Annotated[int, Meta(description=(
        "The seq of the last new entry, the log's head when it was written."))]
    reannounce: Annotated[bool, Meta(description=(
        "True when nothing was appended and the head is announced again (a repeated "
        "create; `first` and `last` are then both the head), so the services resume the "
        "match; on Redis the append script writes the ordinary pointers."))] = False


class SeatPrompted(Message, frozen=True, tag="note.seat_prompted", kw_only=True):
    """What one seat may know now and what it may do; sent only to that seat.

    It comes on the seat's own stream (``SeatGranted.stream``), one entry per decision with
    entry id ``<decision>-1``, never repeated."""

    match_id: Annotated[str, Meta(description="The match.")]
    seat: Annotated[int, Meta(description=_SEAT + " The seat asked.")]
    decision: Annotated[int, Meta(description=(
        _DECISION + " Answer with it in SubmitAction.decision."))]
    view: Annotated[msgspec.Raw, Meta(description=(
        "What the seat may know now: an embedded msgpack value (a map inside the message, "
        "not bin) of the game's view type (`x-siege-games`, `view`)."))]
    legal: Annotated[list[msgspec.Raw], Meta(description=(
        "Every action the seat may take now, each an embedded msgpack value (a map tagged "
        "by `t`) of one of the game's action types: send one back, encoded, as "
        "SubmitAction.action."))]
    deadline_ms: Annotated[int, Meta(description=(
        "When the answer must have reached Redis: milliseconds since the Unix epoch on the "
        "Redis server's clock, the one the system judges by, which also stamps the ids of "
        "the entries you XADD with `*`. A seat still asked for this decision after then "
        "times out (SeatTimedOut) and forfeits. 0: no deadline given."))] = 0
    timeout_ms: Annotated[int, Meta(description=(
        "The milliseconds the match gives each decision (its `decision_timeout_ms`, else the "
        "services' default); 0: not given."))] = 0


class ActionAcknowledged(Message, frozen=True, tag="note.action_acknowledged", kw_only=True):
    """Sent to the sender of an accepted ``SubmitAction``: its action is in the log at ``seq``.
    A repeat of the same command (same ``command_id``, seat and decision: a retry, or a
    redelivery after a service restarted) is acknowledged again, never refused."""

    match_id: Annotated[MatchId, Meta(description="The match, as in the command.")]
    seat: Annotated[int, Meta(description=_SEAT + " The seat that acted, as in the command.")]
    decision: Annotated[int, Meta(description=(
        _DECISION + " Here: the one the action answered, as in the command."))]
    command_id: Annotated[CommandId, Meta(description=(
        _COMMAND_ID + " Here: the accepted command's."))]
    seq: Annotated[int, Meta(description=(
        "The seq (1-based position in the match log) of the action's ActionAccepted; the "
        "game events it produced follow it."))]
    to: Annotated[ClientId, Meta(description=_TO)] = ""


class ActionRejected(Message, frozen=True, tag="note.action_rejected", kw_only=True):
    """Sent to the sender of a refused ``SubmitAction`` (to its inbox): the command changed
    nothing and never enters the match log. An unreadable entry that still names a
    SubmitAction's match, seat and command id is answered so too, with ``malformed``."""

    match_id: Annotated[MatchId, Meta(description=(
        "The match the command named (cut to 128 characters)."))]
    seat: Annotated[int, Meta(description=_SEAT + " The seat the command named.")]
    command_id: Annotated[CommandId, Meta(description=(
        _COMMAND_ID + " Here: the refused command's (cut to 256 characters)."))]
    code: Annotated[RejectionCode, Meta(description=(
        "Why: the first check that failed, in the order of docs/clients.md: `bad_client`, "
        "`rate_limited`, `malformed` (an unreadable entry, an action over 4,096 bytes), "
        "`bad_token`, `duplicate_command`, `unknown_match`, `match_over`, `unknown_seat`, "
        "`not_your_turn`, `stale_decision`, `malformed` (none of the game's actions), "
        "`illegal_action`."))]
    detail: Annotated[Detail, Meta(description=_DETAIL)] = ""
    to: Annotated[ClientId, Meta(description=_TO)] = ""


class MatchFinished(Message, frozen=True, tag="note.match_finished", kw_only=True):
    """A match's result: on every holder's inbox, on the public stream ``siege:results`` and,
    under its match id, in the hash ``siege:results:by-match``. It is recorded once per match;
    a repeated notice for the same match is the same result."""

    match_id: Annotated[str, Meta(description="The match that ended.")]
    game: Annotated[str, Meta(description="The match's game (a key of `x-siege-games`).")]
    seat_names: Annotated[list[str], Meta(description=(
        "Each seat's display name, in seat order, as in the match's MatchCreated."))]
    ranks: Annotated[list[int], Meta(description=(
        "One rank per seat, in seat order: 1 for the winners, otherwise 1 + the number of "
        "seats ranked better (1, 1, 3); equal ranks tie. Empty for a damaged match."))]
    creator: Annotated[str, Meta(description=(
        "The client that created the match (`\"\"` for logs from before creators were "
        "recorded): a runner adopts only results of its own."))] = ""
    reason: Annotated[str, Meta(description=(
        "How it ended: `finished` (the game's own end), `forfeit` (a seat's clock ran out; "
        "it is ranked last) or `damaged` (an operator's MatchDamaged: no result, `ranks` is "
        "empty, it counts for nobody)."))] = "finished"
    head: Annotated[str, Meta(description=(
        "The sha256 of the log's last entry (its MatchSealed on a server that signs) as 64 "
        "lowercase hex digits: a tournament records it with the result, so the tournament's "
        "log pins the exact match log (docs/decisions/0010-signed-matches.md)."))] = ""
    timed_out: Annotated[list[int], Meta(description=(
        "The seats whose clock ran out, in the order they did, when `reason` is `forfeit` "
        "(they share last place); empty otherwise. Added in contract 1.1."))] = []
    resigned: Annotated[list[int], Meta(description=(
        "The seats that resigned (ResignMatch), when `reason` is `resigned`; empty "
        "otherwise. Added in contract 1.1."))] = []
    to: Annotated[ClientId, Meta(description=_TO)] = ""


BUS_MESSAGES = (
    CreateMatch, JoinMatch, RegisterEntrant, SubmitAction, ResignMatch, WatchMatch,
    SeatGranted, EntrantAccepted, TournamentEnded, CommandRefused, LogAppended, SeatPrompted,
    ActionAcknowledged, ActionRejected, MatchFinished, MatchWatched,
)
bus_encoder = msgspec.msgpack.Encoder()
bus_decoder = msgspec.msgpack.Decoder(
    CreateMatch | JoinMatch | RegisterEntrant | SubmitAction | ResignMatch | WatchMatch
    | SeatGranted | EntrantAccepted | TournamentEnded | CommandRefused | LogAppended
    | SeatPrompted | ActionAcknowledged | ActionRejected | MatchFinished | MatchWatched
)

RULES_COMMANDS = (SubmitAction, ResignMatch, WatchMatch)
"""The commands the rules service handles; the match service passes them by."""
