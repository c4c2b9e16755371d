"""Re-verifies a match from its log alone: the hash chain, the dice, every action, the result.

Two passes. The first checks the chain (sequence, previous hash, stored hash) and decodes every
entry. The second folds the decoded events while re-deriving each one: a chance request must be
what the engine waits for, each roll or shuffle must be what the revealed seed gives, each action
must be legal when it was taken and must produce exactly the game events that follow it, and the
end must be the engine's ranking. The first bad sequence number is reported.

A match an operator marked damaged (``MatchDamaged``) ends there with no result: its log passes
when everything before the mark checks out and only the seed reveal follows it, and the report
says it is damaged, with the reason, rather than finished.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Sequence
from typing import Any

import msgspec

from siege.contracts.envelope import GENESIS, Envelope, digest
from siege.contracts.events import (
    SCHEMA_VERSION,
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
from siege.dice import fair
from siege.engine.registry import UnknownGameError, get_engine
from siege.hosting.chance import answer
from siege.hosting.clocks import ARRIVAL_TOLERANCE_MS, check_timeout, timeout_ms
from siege.hosting.export import ExportFormatError, parse
from siege.hosting.loader import CORE_CODEC
from siege.hosting.lobby import options_refused
from siege.hosting.match_state import MatchState, codec_for, fold
from siege.hosting.rules import (
    Rejection,
    check_legal,
    check_turn,
    decode_action,
    expected_follow_up,
)
from siege.hosting.signing import Keyring, seal_problem

Entry = tuple[int, bytes, bytes | None]


class AuditFailure(msgspec.Struct, frozen=True):
    seq: int
    reason: str


class AuditReport(msgspec.Struct):
    match_id: str = ""
    game: str = ""
    events: int = 0
    seat_names: list[str] = []
    ranks: list[int] = []
    failure: AuditFailure | None = None
    damaged: str | None = None  # the reason, when the log ends in MatchDamaged
    # The server's seal: "verified" (by the key ``sealed_by`` of the keyring given), "unsigned"
    # (the log has none), or "unchecked" (it has one, but no keyring was given).
    seal: str = "unsigned"
    sealed_by: str = ""

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def state(self) -> str:
        """``finished``, ``damaged: <reason>`` or ``failed``."""
        if self.failure is not None:
            return "failed"
        return "finished" if self.damaged is None else f"damaged: {self.damaged}"

    @property
    def proved(self) -> str:
        """What the seal adds: the key that signed, or why nothing does."""
        if self.seal == "verified":
            return f"signed by {self.sealed_by}"
        return "not signed" if self.seal == "unsigned" else f"seal by {self.sealed_by} unchecked"

    def line(self) -> str:
        if self.failure is None and self.damaged is not None:
            return (f"audit {self.match_id}: OK, {self.state} ({self.events} events, chain, "
                    f"dice, actions; no result; {self.proved})")
        if self.failure is None:
            return (f"audit {self.match_id}: OK ({self.events} events, chain, dice, actions, "
                    f"result; {self.proved})")
        failure = self.failure
        return f"audit {self.match_id or '?'}: FAILED at seq {failure.seq}: {failure.reason}"


class _Bad(Exception):
    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.failure = AuditFailure(seq, reason)


def audit_export(data: bytes, keyring: Keyring | None = None) -> AuditReport:
    """Audits an export file's bytes; a malformed line fails at that line's seq."""
    try:
        entries = parse(data)
    except ExportFormatError as error:
        return AuditReport(failure=AuditFailure(error.seq, error.reason))
    return audit(entries, keyring)


def audit(entries: Sequence[Entry], keyring: Keyring | None = None) -> AuditReport:
    """Audits a log; with ``keyring`` (the published keys) its seal is checked too."""
    report = AuditReport(events=len(entries))
    if not entries:
        report.failure = AuditFailure(1, "the log is empty")
        return report
    envelopes, chain_failure = _check_chain(entries, report)
    try:
        _check_events(envelopes, report, complete=chain_failure is None, keyring=keyring)
    except _Bad as bad:
        report.failure = bad.failure
        return report
    if chain_failure is not None:
        report.failure = chain_failure
    return report


def _check_chain(
    entries: Sequence[Entry], report: AuditReport
) -> tuple[list[Envelope[Any]], AuditFailure | None]:
    """Decoded envelopes up to the first chain fault, and that fault."""
    out: list[Envelope[Any]] = []
    prev = GENESIS
    codec = CORE_CODEC
    for position, (seq, stored, stored_hash) in enumerate(entries, start=1):
        try:
            if seq != position:
                raise _Bad(position, f"expected seq {position}, found {seq}")
            actual = digest(stored)
            if stored_hash is not None and stored_hash != actual:
                raise _Bad(seq, "stored hash does not match the event's bytes")
            try:
                env = codec.decode(stored)
            except (msgspec.DecodeError, msgspec.ValidationError) as err:
                raise _Bad(seq, f"undecodable event: {err}") from None
            if env.seq != seq:
                raise _Bad(seq, f"event says seq {env.seq}")
            if env.prev != prev:
                raise _Bad(seq, "previous-hash link broken (an event before it was changed, "
                                "removed or reordered)")
            if env.v != SCHEMA_VERSION:
                raise _Bad(seq, f"unknown schema version {env.v}")
            if position == 1:
                if not isinstance(env.event, MatchCreated):
                    raise _Bad(seq, "the first event is not MatchCreated")
                report.match_id, report.game = env.match_id, env.event.game
                try:
                    codec = codec_for(env.event.game)
                except UnknownGameError as err:
                    raise _Bad(seq, str(err)) from None
            elif env.match_id != report.match_id:
                raise _Bad(seq, f"event belongs to match {env.match_id!r}")
        except _Bad as bad:
            return out, bad.failure
        out.append(env)
        prev = actual
    return out, None


def _revealed_seed(envelopes: list[Envelope[Any]]) -> bytes | None:
    """The revealed seed, checked against the commitment at the reveal's own seq: a changed
    reveal is the reveal's fault, not the first draw's it would make look wrong."""
    commitment = next((e.event.commitment for e in envelopes
                       if isinstance(e.event, SeedCommitted)), None)
    for env in envelopes:
        if isinstance(env.event, SeedRevealed):
            try:
                seed = bytes.fromhex(env.event.seed)
            except ValueError:
                raise _Bad(env.seq, "revealed seed is not hex") from None
            if commitment is not None and fair.commitment(seed) != commitment:
                raise _Bad(env.seq, "revealed seed does not match the commitment")
            return seed
    return None


def _check_events(envelopes: list[Envelope[Any]], report: AuditReport, complete: bool,
                  keyring: Keyring | None = None) -> None:
    """Semantic checks; on a log cut short by a chain fault (``complete`` false) the checks
    that need what lies beyond the fault (the revealed seed, the end) are left to that fault."""
    if not envelopes:
        return
    seed = _revealed_seed(envelopes)
    ms = MatchState(report.match_id)
    owed: deque[GameEvent] = deque()  # game events the last accepted action must produce
    action_seq = 0  # the seq of that action
    opened: tuple[int, int] = (-1, 0)  # the open decision and when it opened (ms)
    for env in envelopes:
        seq, event = env.seq, env.event
        if env.at < ms.head_at:
            raise _Bad(seq, f"time runs backwards: stamped {env.at}, after {ms.head_at}")
        if owed and not isinstance(event, GameEvent):
            raise _Bad(action_seq, "the action's events are incomplete")
        if isinstance(event, GameEvent) and owed and event != owed[0]:
            raise _Bad(action_seq, f"the action does not produce the events after it (seq {seq} "
                                   "differs)")
        if isinstance(event, ActionAccepted):
            action_seq = seq
        if isinstance(event, SeatTimedOut):
            _check_deadline(ms, seq, env.at, opened[1])
        if ms.sealed is not None:
            raise _Bad(seq, "event after MatchSealed: the seal ends the log")
        if isinstance(event, MatchSealed):
            _check_seal(env, report, ms, keyring)
        elif ms.revealed is not None:
            raise _Bad(seq, "event after the seed was revealed (only the seal may follow)")
        if ms.ended is not None and not isinstance(event, SeedRevealed | MatchSealed):
            ended = "MatchDamaged" if ms.damaged is not None else "MatchEnded"
            raise _Bad(seq, f"{type(event).__name__} after {ended}: only the seed reveal "
                            "(and the seal) may follow the end")
        _check_one(ms, seq, event, seed, owed)
        fold(ms, seq, digest(b""), event)
        ms.head_at = env.at
        if ms.engine is not None and ms.ended is None and not owed:
            decision = ms.engine.pending(ms.game).decision
            if decision != opened[0]:
                opened = (decision, env.at)
    if not complete:
        return
    last = envelopes[-1].seq
    if owed:
        raise _Bad(action_seq, "the action's events are missing at the end of the log")
    if ms.ended is None:
        raise _Bad(last + 1, "the log ends before MatchEnded (or MatchDamaged)")
    if ms.revealed is None:
        raise _Bad(last + 1, "the log ends before SeedRevealed, so no roll can be checked")
    assert ms.created is not None
    report.seat_names = list(ms.created.seat_names)
    report.ranks = list(ms.ended.ranks)
    report.damaged = ms.damaged.reason if ms.damaged is not None else None


def _check_deadline(ms: MatchState, seq: int, at: int, opened_at: int) -> None:
    """A seat times out only once its clock has run: the decision opened at ``opened_at`` (the
    time of the entry that opened it), and the seat had the match's time for it. The services
    judge by one clock (Redis'), with estimates that may differ by up to the tolerance. A match
    without its own ``decision_timeout_ms`` had the server's default, which its log does not
    record: only the order of times is checked then."""
    if ms.created is None or "decision_timeout_ms" not in ms.created.options:
        return
    allowed = timeout_ms(ms)
    if at + ARRIVAL_TOLERANCE_MS < opened_at + allowed:
        raise _Bad(seq, f"timed out {opened_at + allowed - at} ms before its deadline "
                        f"({allowed} ms from {opened_at})")


def _check_seal(env: Envelope[Any], report: AuditReport, ms: MatchState,
                keyring: Keyring | None) -> None:
    """The seal comes right after the reveal, and (given the keys) proves what precedes it."""
    sealed = env.event
    assert isinstance(sealed, MatchSealed)
    if ms.revealed is None:
        raise _Bad(env.seq, "MatchSealed before the seed was revealed")
    report.sealed_by = sealed.key
    if keyring is None:
        report.seal = "unchecked"
        return
    problem = seal_problem(keyring, sealed, report.match_id, env.seq - 1, env.prev, env.at)
    if problem is not None:
        raise _Bad(env.seq, problem)
    report.seal = "verified"


def _check_one(
    ms: MatchState,
    seq: int,
    event: Event,
    seed: bytes | None,
    owed: deque[GameEvent],
) -> None:
    if isinstance(event, GameEvent):
        if not owed:
            raise _Bad(seq, "game event without an accepted action")
        if event != owed.popleft():
            raise _Bad(seq, "game event differs from what the accepted action produces")
    elif isinstance(event, ActionAccepted):
        _check_action(ms, seq, event, owed)
    elif isinstance(event, ChanceRequested | MatchEnded):
        if event != expected_follow_up(ms):
            raise _Bad(seq, f"{type(event).__name__} is not what the game calls for here")
    elif isinstance(event, DiceRolled | DeckShuffled):
        _check_chance(ms, seq, event, seed)
    elif isinstance(event, MatchDamaged):
        if ms.commitment is None:
            raise _Bad(seq, "MatchDamaged before the seed was committed")
        if not event.reason.strip():
            raise _Bad(seq, "MatchDamaged without a reason")
    elif isinstance(event, MatchCreated):
        if seq != 1:
            raise _Bad(seq, "a second MatchCreated")
        engine = get_engine(event.game)
        if not engine.min_players <= event.players <= engine.max_players:
            raise _Bad(seq, f"{event.players} players is outside what {event.game} allows")
        if len(event.seat_names) != event.players:
            raise _Bad(seq, "seat names do not match the player count")
        refused = options_refused(event)
        if refused is not None:
            raise _Bad(seq, f"the game refuses this match's options: {refused}")
    elif isinstance(event, SeedCommitted):
        if ms.commitment is not None:
            raise _Bad(seq, "a second seed commitment")
    elif isinstance(event, PlayerSeedAdded):
        if ms.commitment is None:
            raise _Bad(seq, "a player seed before the commitment")
    elif isinstance(event, SeedRevealed):
        if ms.ended is None:
            raise _Bad(seq, "seed revealed before the match ended")
        if hashlib.sha256(bytes.fromhex(event.seed)).hexdigest() != ms.commitment:
            raise _Bad(seq, "revealed seed does not match the commitment")
    elif isinstance(event, SeatTimedOut) and not check_timeout(ms, event.seat, event.decision):
        raise _Bad(seq, f"seat {event.seat} was not being asked decision {event.decision}")
    elif isinstance(event, SeatResigned) and (
            ms.created is None or not 0 <= event.seat < ms.created.players):
        raise _Bad(seq, f"seat {event.seat} resigned, but the match has no such seat")


def _check_action(ms: MatchState, seq: int, event: ActionAccepted, owed: deque[GameEvent]) -> None:
    refused = check_turn(ms, event.seat, event.decision)
    if refused is not None:
        raise _Bad(seq, f"action refused: {refused.code.value}: {refused.detail}")
    action = decode_action(ms, bytes(event.action))
    if isinstance(action, Rejection):
        raise _Bad(seq, f"action refused: {action.code.value}: {action.detail}")
    refused = check_legal(ms, event.seat, action)
    if refused is not None:
        raise _Bad(seq, f"illegal action: {refused.detail}")
    if event.command_id in ms.command_ids:
        raise _Bad(seq, "command id accepted twice")
    assert ms.engine is not None
    owed.extend(ms.engine.apply(ms.game, event.seat, action))


def _check_chance(
    ms: MatchState, seq: int, event: DiceRolled | DeckShuffled, seed: bytes | None
) -> None:
    if ms.commitment is None:
        raise _Bad(seq, "chance answered before the seed was committed")
    if ms.open_request is None or ms.open_request[0] != event.request:
        raise _Bad(seq, "chance outcome answers no open request")
    if seed is None:
        return  # no reveal: the log's end is reported instead, as the first thing missing
    if fair.commitment(seed) != ms.commitment:
        raise _Bad(seq, "revealed seed does not match the commitment")
    if event != answer(ms, seed):
        raise _Bad(seq, "outcome differs from what the committed seed gives")
