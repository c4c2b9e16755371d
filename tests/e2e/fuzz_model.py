"""The fuzz's model of the live system: the matches set up for the barrage, what the test
knows of each, and the answer the services must give to each entry a fuzzing client writes to
its own commands stream (``commands_key(sender)``), predicted from the state before the barrage
(which no fuzz entry may change).

The stream is the sender's identity: a command whose ``client`` is "" is the sender's, one naming
another client is refused (``bad_client``), and every answer goes to the sender's own inbox.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from siege.contracts.events import ActionAccepted
from siege.contracts.messages import (
    MAX_ACTION_BYTES,
    MAX_COMMAND_ID,
    MAX_MATCH_ID,
    MAX_TAG,
    CreateMatch,
    JoinMatch,
    Message,
    RegisterEntrant,
    SubmitAction,
    clipped,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.codecs import action_decoder
from siege.eventlog.keys import inbox_key, valid_match_id
from siege.hosting.lobby import OPEN, Refusal, seat_holders
from siege.hosting.match_state import MatchState
from siege.hosting.seats import seat_token
from siegeworks import quotas
from siegeworks.serve import decode_entry, trusted_copy

Fields = dict[bytes, bytes]

FUZZER = "fuzzer"  # the fuzzing client: holds every seat of the live matches, created the lobby
FUZZER_B = "fuzzer-b"  # a second fuzzing client, holding nothing
SENDERS = (FUZZER, FUZZER_B)
CREATE = "cmd.create_match"
JOIN = "cmd.join_match"
REGISTER = "cmd.register_entrant"
SERVICE_RECURSION_LIMIT = 1000  # Python's default, which the services run with

FINISHED = "fz-done"
LOBBY = "fz-lobby"
LOBBY_HOLDERS = [FUZZER, OPEN, OPEN]
# match id -> (game, players, decisions played before the barrage)
LIVE = {
    "fz-live-a": ("castle-dash", 3, 0),
    "fz-live-b": ("castle-dash", 4, 5),
    "fz-live-c": ("mission", 2, 4),
    "fz-live-d": ("castellum", 3, 3),
}
GAMES = ("castle-dash", "mission", "castellum")


def as_in_a_service(decode: Callable[[Any], Any], data: Any) -> Any:
    """``decode(data)`` as a service process would run it: on a fresh stack under Python's
    default recursion limit. msgspec refuses nesting deeper than the limit allows, and
    hypothesis raises the limit while it runs, so in the test a deeply nested body would
    otherwise decode where a service's raises RecursionError."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = decode(data)
        except Exception as exc:
            outcome["error"] = exc

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(SERVICE_RECURSION_LIMIT)
    try:
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    finally:
        sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


# --------------------------------------------------------------------------------------------
# What the test knows of each match


@dataclass
class Known:
    """A match as its log showed it before the barrage."""

    match_id: str
    game: str
    players: int
    holders: list[str]
    creator: str
    options: dict[str, str]
    over: bool
    decision: int
    pending: frozenset[int]
    legal: dict[int, list[Any]]
    command_ids: dict[str, tuple[int, int, int]]  # each accepted id: seat, decision, seq
    accepted: list[ActionAccepted]


def known_of(ms: MatchState) -> Known:
    """What the test knows of the match ``ms``: its seats, whether it is over, and the decision
    it waits for, with every seat's legal actions."""
    engine, created = ms.engine, ms.created
    assert engine is not None and created is not None
    over = ms.ended is not None or bool(ms.timed_out) or engine.is_terminal(ms.game)
    pending = engine.pending(ms.game) if not over else None
    assert over or ms.open_request is None, f"{ms.match_id}: dice still owed"
    return Known(
        match_id=ms.match_id, game=created.game, players=created.players,
        holders=list(created.clients), creator=created.creator, options=dict(created.options),
        over=over,
        decision=pending.decision if pending else -1,
        pending=pending.seats if pending else frozenset(),
        legal={s: engine.legal_actions(ms.game, s) for s in (pending.seats if pending else ())},
        command_ids=dict(ms.command_ids), accepted=[])


# --------------------------------------------------------------------------------------------
# Predictions


def subject_of(match_or_tournament_id: str) -> str:
    """The ``subject`` a refusal echoes of an id: cut to its bound (``clipped``)."""
    return clipped(match_or_tournament_id[:MAX_MATCH_ID], MAX_MATCH_ID)


@dataclass(frozen=True)
class Rejected:
    topic: str
    match_id: str
    seat: int
    command_id: str
    code: RejectionCode


@dataclass(frozen=True)
class Refused:
    topic: str
    command: str
    subject: str
    code: RejectionCode


@dataclass(frozen=True)
class Granted:
    topic: str
    match_id: str


@dataclass
class Shot:
    fields: Fields
    note: str
    sender: str = FUZZER  # the client whose commands stream the entry is written to
    entry_id: str = ""
    dead: bool = False  # undecodable: must be dead-lettered
    outcome: Rejected | Refused | Granted | None = None


class StateChangingError(Exception):
    """The command would legitimately change something (a legal action, a lobby seat taken,
    a match started over a lobby), or its answer is not predictable (a sender near its quota):
    not a fuzz input, the example is discarded."""


# Per sender and kind, how many commands the fuzz may send in all: below every bucket's burst,
# less what the set-up and the end of the test send, so no fuzz entry is ever over its quota
# (the buckets start full and only refill). A command past it is not a fuzz input.
QUOTA_MARGIN = 200
_KIND = {CreateMatch: quotas.CREATES, RegisterEntrant: quotas.CREATES,
         JoinMatch: quotas.JOINS, SubmitAction: quotas.ACTIONS}
_TAG = {CreateMatch: CREATE, JoinMatch: JOIN, RegisterEntrant: REGISTER}


@dataclass
class Model:
    """Predicts the services' answer to each entry, from the state before the barrage (which no
    fuzz entry may change)."""

    secret: bytes
    known: dict[str, Known]
    lobby_clients: list[str]
    lobby_create: CreateMatch | None = None  # the create that opened the lobby (its terms)
    contested: set[str] = field(default_factory=set)  # ids a fuzz create may have started
    # (inbox, match id): seats granted again to their holders by a repeated create
    regrants: set[tuple[str, str]] = field(default_factory=set)
    sent: dict[tuple[str, str], int] = field(default_factory=dict)  # (sender, kind) -> admitted

    @property
    def contested_subjects(self) -> set[str]:
        return {subject_of(m) for m in self.contested}

    def predict(self, fields: Fields, note: str, sender: str = FUZZER) -> Shot:
        shot = Shot(fields=fields, note=note, sender=sender)
        try:
            message = as_in_a_service(decode_entry, fields)
        except Exception:
            shot.dead = True
            shot.outcome = self.unreadable(fields, sender)
            return shot
        shot.outcome = self.attributed(trusted_copy(sender, message)[1], sender)
        return shot

    def unreadable(self, fields: Fields, sender: str) -> Rejected | Refused:
        """An entry that is no command is answered ``malformed`` on its sender's inbox (and
        dead-lettered): as the action it still names, else with what its tag and subject say."""
        try:
            body = as_in_a_service(msgspec.msgpack.decode, fields[b"m"])
        except Exception:  # noqa: BLE001 - no m, or not msgpack: nothing can be read of it
            body = None
        body = body if isinstance(body, dict) else {}
        tag = body.get("t") if isinstance(body.get("t"), str) else "cmd.unknown"
        match_id, seat, cid = body.get("match_id"), body.get("seat"), body.get("command_id")
        if (tag == "cmd.submit_action" and isinstance(match_id, str) and isinstance(cid, str)
                and type(seat) is int):
            return Rejected(inbox_key(sender), match_id[:MAX_MATCH_ID], seat,
                            cid[:MAX_COMMAND_ID], RejectionCode.MALFORMED)
        subject = body.get("match_id") or body.get("tournament_id")
        return Refused(inbox_key(sender), clipped(tag, MAX_TAG),
                       subject_of(subject) if isinstance(subject, str) else "",
                       RejectionCode.MALFORMED)

    def attributed(self, message: Any, sender: str) -> Rejected | Refused | Granted | None:
        """The stream says who sent it: a ``client`` of "" is the sender, any other is refused
        (to the sender, never to the client it names), before anything else is looked at."""
        if not isinstance(message, Message):
            return None  # a doorbell entry on a client's stream: rung by nobody, read by nobody
        named = getattr(message, "client", None)
        if named is not None and named not in ("", sender):
            if isinstance(message, SubmitAction):
                return Rejected(inbox_key(sender), message.match_id, message.seat,
                                message.command_id, RejectionCode.BAD_CLIENT)
            subject = getattr(message, "match_id", None) or getattr(message, "tournament_id", "")
            return Refused(inbox_key(sender), _TAG[type(message)], subject_of(subject),
                           RejectionCode.BAD_CLIENT)
        if named == "":
            message = msgspec.structs.replace(message, client=sender)  # type: ignore[type-var]
        kind = _KIND.get(type(message))
        if kind is not None:
            admitted = self.sent.get((sender, kind), 0) + 1
            if admitted > quotas.default_rates()[kind].burst - QUOTA_MARGIN:
                raise StateChangingError("a command near its sender's quota")
            self.sent[sender, kind] = admitted
        return self.answer(message, sender)

    def answer(self, message: Message, sender: str) -> Rejected | Refused | Granted | None:
        """The answer to ``message``, its ``client`` now ``sender``."""
        if isinstance(message, SubmitAction):
            return self.submit(message, sender)
        if isinstance(message, CreateMatch):
            return self.create(message, sender)
        if isinstance(message, JoinMatch):
            return self.join(message, sender)
        if isinstance(message, RegisterEntrant):
            # No tournament exists here.
            return Refused(inbox_key(sender), REGISTER, subject_of(message.tournament_id),
                           RejectionCode.UNKNOWN_TOURNAMENT)
        return None  # a notice is no command: nothing may happen to any match

    def submit(self, cmd: SubmitAction, sender: str) -> Rejected | None:
        def rejected(code: RejectionCode) -> Rejected:
            return Rejected(inbox_key(sender), cmd.match_id, cmd.seat, cmd.command_id, code)

        if len(cmd.action) > MAX_ACTION_BYTES:
            return rejected(RejectionCode.MALFORMED)
        if cmd.token != seat_token(self.secret, cmd.match_id, cmd.seat):
            return rejected(RejectionCode.BAD_TOKEN)
        if cmd.match_id in self.contested:
            raise StateChangingError("a signed command for a match the fuzz may have created")
        k = self.known.get(cmd.match_id)
        if k is None:
            return rejected(RejectionCode.UNKNOWN_MATCH)
        if cmd.command_id in k.command_ids:
            if k.command_ids[cmd.command_id][:2] == (cmd.seat, cmd.decision):
                return None  # the same command again: acknowledged again, not refused
            return rejected(RejectionCode.DUPLICATE_COMMAND)
        if k.over:
            return rejected(RejectionCode.MATCH_OVER)
        if not 0 <= cmd.seat < k.players:
            return rejected(RejectionCode.UNKNOWN_SEAT)
        if cmd.seat not in k.pending:
            return rejected(RejectionCode.NOT_YOUR_TURN)
        if cmd.decision != k.decision:
            return rejected(RejectionCode.STALE_DECISION)
        try:
            action = as_in_a_service(action_decoder(k.game).decode, cmd.action)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            return rejected(RejectionCode.MALFORMED)
        if action in k.legal[cmd.seat]:
            raise StateChangingError("a legal action")
        return rejected(RejectionCode.ILLEGAL_ACTION)

    def create(self, cmd: CreateMatch, sender: str) -> Refused | None:
        def refused(code: RejectionCode) -> Refused:
            return Refused(inbox_key(sender), CREATE, subject_of(cmd.match_id), code)

        holders = seat_holders(cmd)
        if isinstance(holders, Refusal):
            return refused(holders.code)
        # Seats are the creator's own or open: naming another client as a holder is allowed only
        # at a table of a tournament it registered for, and no tournament exists here
        # (services/siegeworks/match/consent.py).
        if any(h not in (OPEN, sender) for h in holders):
            return refused(RejectionCode.BAD_CLIENT)
        # An id that exists belongs to its creator, and to the terms it was created with
        # (docs/clients.md: "another client created that id, or you created it with another
        # game, options or seat count"): the same create again only grants its seats again.
        if cmd.match_id == LOBBY:
            lobby = self.lobby_create
            assert lobby is not None, "the model needs the lobby's create"
            terms = (lobby.client, lobby.game, dict(lobby.options), len(self.lobby_clients))
            holding = [c for c in self.lobby_clients if c != OPEN]
        elif cmd.match_id in self.known:
            k = self.known[cmd.match_id]
            terms = (k.creator, k.game, k.options, k.players)
            holding = k.holders
        else:
            self.contested.add(cmd.match_id)  # a new match or lobby: unpredictable from here
            return None
        if (sender, cmd.game, dict(cmd.options), len(holders)) != terms:
            return refused(RejectionCode.MATCH_ID_TAKEN)
        self.regrants.update((inbox_key(c), cmd.match_id) for c in holding)
        return None

    def join(self, cmd: JoinMatch, sender: str) -> Refused | Granted | None:
        def refused(code: RejectionCode) -> Refused:
            return Refused(inbox_key(sender), JOIN, subject_of(cmd.match_id), code)

        if not valid_match_id(cmd.match_id):
            return refused(RejectionCode.MALFORMED)
        k = self.known.get(cmd.match_id)
        if k is not None:
            if sender in k.holders:
                return Granted(inbox_key(sender), cmd.match_id)
            return refused(RejectionCode.MATCH_FULL)
        if cmd.match_id == LOBBY:
            if sender in self.lobby_clients:
                return Granted(inbox_key(sender), cmd.match_id)
            if cmd.seat == -1 or (0 <= cmd.seat < len(self.lobby_clients)
                                  and self.lobby_clients[cmd.seat] == OPEN):
                raise StateChangingError("a join that takes a lobby seat")
            if not 0 <= cmd.seat < len(self.lobby_clients):
                return refused(RejectionCode.UNKNOWN_SEAT)
            return refused(RejectionCode.SEAT_TAKEN)
        return refused(RejectionCode.UNKNOWN_MATCH)

    def unpredictable(self, answer: Rejected | Refused) -> bool:
        """Whether the answer hangs on what the fuzz's own creates did (which of two creates
        of one id came first; streams of different clients keep no order between them), so it
        is checked on neither side. A ``bad_client`` answer never does: it comes first."""
        if answer.code == RejectionCode.BAD_CLIENT:
            return False
        if isinstance(answer, Rejected):
            # A signed command for an id that a fuzz create used may reach the rules service
            # before or after the match exists.
            return answer.match_id in self.contested
        if answer.subject not in self.contested_subjects:
            return False
        # A join's answer depends on the lobby; a create of a taken id on who took it first.
        return answer.command == JOIN or (
            answer.command == CREATE and answer.code == RejectionCode.MATCH_ID_TAKEN)
