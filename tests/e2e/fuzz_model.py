"""The fuzz's model of the live system: the matches set up for the barrage, what the test
knows of each, and the answer the services must give to each entry written to
``siege:commands``, predicted from the state before the barrage (which no fuzz entry may change).
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
    CreateMatch,
    JoinMatch,
    Message,
    RegisterEntrant,
    SubmitAction,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.codecs import action_decoder
from siege.eventlog.keys import REPLIES_STREAM, inbox_key, valid_client_id
from siege.hosting.lobby import OPEN, Refusal, seat_holders
from siege.hosting.match_state import MatchState
from siege.hosting.seats import seat_token
from siegeworks.serve import decode_entry

Fields = dict[bytes, bytes]

FUZZER = "fuzzer"
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
    over: bool
    decision: int
    pending: frozenset[int]
    legal: dict[int, list[Any]]
    command_ids: set[str]
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
        holders=list(created.clients), over=over,
        decision=pending.decision if pending else -1,
        pending=pending.seats if pending else frozenset(),
        legal={s: engine.legal_actions(ms.game, s) for s in (pending.seats if pending else ())},
        command_ids=set(ms.command_ids), accepted=[])


# --------------------------------------------------------------------------------------------
# Predictions


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
    entry_id: str = ""
    dead: bool = False  # undecodable: must be dead-lettered
    outcome: Rejected | Refused | Granted | None = None
    join_subject: str | None = None  # a join's refusal, checked unless its id was contested


class StateChangingError(Exception):
    """The command would legitimately change something (a legal action, a lobby seat taken,
    a match started over a lobby): not a fuzz input, the example is discarded."""


@dataclass
class Model:
    """Predicts the services' answer to each entry, from the state before the barrage (which no
    fuzz entry may change)."""

    secret: bytes
    known: dict[str, Known]
    lobby_clients: list[str]
    contested: set[str] = field(default_factory=set)  # ids a fuzz create may have started

    def reply_topic(self, client: str) -> str:
        return inbox_key(client) if valid_client_id(client) else REPLIES_STREAM

    def predict(self, fields: Fields, note: str) -> Shot:
        shot = Shot(fields=fields, note=note)
        try:
            message = as_in_a_service(decode_entry, fields)
        except Exception:
            shot.dead = True
            return shot
        shot.outcome = self.answer(message, shot)
        return shot

    def answer(self, message: Message, shot: Shot) -> Rejected | Refused | Granted | None:
        if isinstance(message, SubmitAction):
            return self.submit(message)
        if isinstance(message, CreateMatch):
            return self.create(message)
        if isinstance(message, JoinMatch):
            return self.join(message, shot)
        if isinstance(message, RegisterEntrant):
            # No tournament exists here.
            if not valid_client_id(message.client):
                return None
            return Refused(inbox_key(message.client), REGISTER, message.tournament_id,
                           RejectionCode.UNKNOWN_TOURNAMENT)
        return None  # a notice is no command: nothing may happen to any match

    def submit(self, cmd: SubmitAction) -> Rejected:
        def rejected(code: RejectionCode) -> Rejected:
            return Rejected(self.reply_topic(cmd.client), cmd.match_id, cmd.seat, cmd.command_id,
                            code)

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

    def create(self, cmd: CreateMatch) -> Refused | None:
        holders = seat_holders(cmd)
        if isinstance(holders, Refusal):
            if not valid_client_id(cmd.client):
                return None  # "with no valid sender there is nobody to tell"
            return Refused(inbox_key(cmd.client), "cmd.create_match", cmd.match_id,
                           holders.code)
        if cmd.match_id == LOBBY:
            return None  # the lobby stays as it is; its holders get their grants again
        if cmd.match_id not in self.known:
            self.contested.add(cmd.match_id)  # a new match or lobby: unpredictable from here
        return None  # a started match: its holders get their grants again, nothing else

    def join(self, cmd: JoinMatch, shot: Shot) -> Refused | Granted | None:
        def refused(code: RejectionCode) -> Refused | None:
            if not valid_client_id(cmd.client):
                return None
            shot.join_subject = cmd.match_id
            return Refused(inbox_key(cmd.client), "cmd.join_match", cmd.match_id, code)

        k = self.known.get(cmd.match_id)
        if k is not None:
            if cmd.client in k.holders:
                return Granted(inbox_key(cmd.client), cmd.match_id)
            return refused(RejectionCode.MATCH_FULL)
        if cmd.match_id == LOBBY:
            if not valid_client_id(cmd.client):
                return None
            if cmd.client in self.lobby_clients:
                return Granted(inbox_key(cmd.client), cmd.match_id)
            if cmd.seat == -1 or (0 <= cmd.seat < len(self.lobby_clients)
                                  and self.lobby_clients[cmd.seat] == OPEN):
                raise StateChangingError("a join that takes a lobby seat")
            if not 0 <= cmd.seat < len(self.lobby_clients):
                return refused(RejectionCode.UNKNOWN_SEAT)
            return refused(RejectionCode.SEAT_TAKEN)
        return refused(RejectionCode.UNKNOWN_MATCH)
