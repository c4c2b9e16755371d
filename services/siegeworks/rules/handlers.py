"""Rules service: the only place that knows a game.

It accepts or rejects actions, appends what the game calls for next (a chance request, the
end), and prompts the seats that may act with their own view and legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from siege.contracts.events import Event
from siege.contracts.messages import (
    MAX_ACTION_BYTES,
    MAX_DETAIL,
    ActionAcknowledged,
    ActionRejected,
    LogAppended,
    Message,
    ResignMatch,
    SeatPrompted,
    SubmitAction,
    WatchMatch,
    clipped,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import view_key
from siege.hosting.clocks import deadline_member, timeout_ms
from siege.hosting.match_state import MatchState
from siege.hosting.rules import (
    Rejection,
    accept_action,
    accept_resignation,
    expected_follow_up,
    repeat_of,
)
from siegeworks.bus import LOG, tell
from siegeworks.context import ServiceContext
from siegeworks.rules import watching

_encoder = msgspec.msgpack.Encoder()


def check_command(ctx: ServiceContext, cmd: SubmitAction) -> Rejection | None:
    """What is refused before the match's log is consulted: an oversized action, a token that
    is not this seat's (checked here, where the action is taken, so a command travels one hop
    from its client; see docs/decisions/0005-the-hot-path.md)."""
    if len(cmd.action) > MAX_ACTION_BYTES:
        return Rejection(RejectionCode.MALFORMED, f"action over {MAX_ACTION_BYTES} bytes")
    if not ctx.tokens.check(cmd.match_id, cmd.seat, cmd.token):
        return Rejection(RejectionCode.BAD_TOKEN, "no valid token for this seat of this match")
    return None


async def on_command(ctx: ServiceContext, message: Message) -> None:
    """The command stream: actions and resignations are the rules' own; everything else is the
    match service's (which reads the same stream in a group of its own)."""
    if isinstance(message, SubmitAction):
        await on_submit_action(ctx, message)
    elif isinstance(message, ResignMatch):
        await on_resign(ctx, message)
    elif isinstance(message, WatchMatch):
        await watching.on_watch(ctx, message)


async def on_resign(ctx: ServiceContext, cmd: ResignMatch) -> None:
    """A seat gives up: SeatResigned and the end it calls for, in one append."""
    if not ctx.tokens.check(cmd.match_id, cmd.seat, cmd.token):
        await reject(ctx, cmd, Rejection(RejectionCode.BAD_TOKEN,
                                         "no valid token for this seat of this match"))
        return
    refused: list[Rejection] = []
    before = [0]

    def owe(ms: MatchState) -> Sequence[Event] | None:
        before[0] = ms.head_seq
        outcome = accept_resignation(ms, cmd)
        if isinstance(outcome, Rejection):
            refused[:] = [outcome]
            return None
        return outcome

    ms, appended = await ctx.loader.append_owed(cmd.match_id, owe, follow_up=expected_follow_up)
    if refused:
        await reject(ctx, cmd, refused[0])
        if ms.created is None:
            ctx.loader.forget(cmd.match_id)
        return
    if appended:  # the end goes to scoring and dice; nobody is asked anything any more
        await announce(ctx, ms, ms.head_seq - before[0])
        await prompt_seats(ctx, ms)


async def reject(ctx: ServiceContext, cmd: SubmitAction | ResignMatch,
                 refused: Rejection) -> None:
    # The detail may quote the action (an illegal one's repr): cut to its bound, so a rejection
    # never costs its inbox more than MAX_INBOX_ENTRY_BYTES; the ids are bounded on decoding.
    ctx.on_refused(cmd.client)
    await tell(ctx.bus, cmd.client, ActionRejected(
        match_id=cmd.match_id, seat=cmd.seat, command_id=cmd.command_id, code=refused.code,
        detail=clipped(refused.detail, MAX_DETAIL)))


async def acknowledge(ctx: ServiceContext, cmd: SubmitAction, seq: int) -> None:
    await tell(ctx.bus, cmd.client, ActionAcknowledged(
        match_id=cmd.match_id, seat=cmd.seat, decision=cmd.decision,
        command_id=cmd.command_id, seq=seq))


async def on_submit_action(ctx: ServiceContext, cmd: SubmitAction) -> None:
    refused = check_command(ctx, cmd)
    if refused is not None:
        await reject(ctx, cmd, refused)
        return
    outcome: list[Event] | Rejection | int = []
    head = 0

    def owe(ms: MatchState) -> Sequence[Event] | None:
        nonlocal outcome, head
        repeated = repeat_of(ms, cmd)
        outcome = accept_action(ms, cmd) if repeated is None else repeated
        head = ms.head_seq
        return outcome if isinstance(outcome, list) else None

    # What follows the action (a chance request, the end) goes in the same append.
    ms, appended = await ctx.loader.append_owed(cmd.match_id, owe, optimistic=True,
                                                follow_up=expected_follow_up)
    if isinstance(outcome, Rejection | int):
        if isinstance(outcome, int):
            await acknowledge(ctx, cmd, outcome)
        else:
            await reject(ctx, cmd, outcome)
        if ms.created is None:  # no such match: nothing owed, nothing worth caching
            ctx.loader.forget(cmd.match_id)
            return
        # A redelivered command after a crash lands here as a repeat: finish what the crash
        # may have cut short (the follow-up, the prompts), which the log says is still owed.
        await on_log_appended(ctx, LogAppended(
            match_id=cmd.match_id, first=ms.head_seq, last=ms.head_seq))
    elif appended:
        await acknowledge(ctx, cmd, head + 1)  # the action's ActionAccepted comes first
        await ctx.bus.clear_deadline(deadline_member(cmd.match_id, cmd.seat, cmd.decision))
        note = await announce(ctx, ms, ms.head_seq - head)
        # The next prompts are sent at once: the append left no pointer back to this service
        # (on one bus in one process it does, and then finds nothing owed).
        await on_log_appended(ctx, note)


async def on_log_appended(ctx: ServiceContext, note: LogAppended) -> None:
    def owe(ms: MatchState) -> Sequence[Event] | None:
        event = expected_follow_up(ms)
        return [event] if event is not None else None

    ms, appended = await ctx.loader.append_owed(note.match_id, owe, min_seq=note.last)
    if appended:
        await announce(ctx, ms, 1)
    elif note.last == ms.head_seq and ms.open_request is None:
        # Only the newest pointer prompts, so a burst of appends sends each seat one prompt.
        await prompt_seats(ctx, ms)


async def announce(ctx: ServiceContext, ms: MatchState, count: int) -> LogAppended:
    note = LogAppended(match_id=ms.match_id, first=ms.head_seq - count + 1, last=ms.head_seq)
    await ctx.bus.publish(LOG, note)
    await watching.tell(ctx, ms)
    return note


async def prompt_seats(ctx: ServiceContext, ms: MatchState) -> None:
    await watching.tell(ctx, ms)
    engine = ms.engine
    if engine is None or ms.ended is not None:
        seats = ms.created.players if ms.created else 0
        for seat in range(seats):
            ctx.prompted.pop((ms.match_id, seat), None)
        ctx.tokens.forget(ms.match_id, seats)
        return
    pending = engine.pending(ms.game)
    holders = ms.created.clients if ms.created else []
    for seat in sorted(pending.seats):
        key = (ms.match_id, seat)
        if ctx.prompted.get(key) == pending.decision:
            continue
        # Remembered only once the prompt is really out: a failed flush must not make a later
        # redelivery skip a prompt that never reached the seat.
        await ctx.bus.after_flush(lambda k=key, d=pending.decision: ctx.prompted.__setitem__(k, d))
        allowed = timeout_ms(ms, ctx.decision_timeout_ms)
        due = ctx.clock.now_ms() + allowed
        await ctx.bus.set_deadline(deadline_member(ms.match_id, seat, pending.decision), due)
        legal = [msgspec.Raw(_encoder.encode(a)) for a in engine.legal_actions(ms.game, seat)]
        view = msgspec.Raw(_encoder.encode(engine.view(ms.game, seat)))
        # Only the seat's holder can read this stream (ACL pattern on its client prefix).
        await ctx.bus.publish(view_key(holders[seat], ms.match_id, seat), SeatPrompted(
            match_id=ms.match_id, seat=seat, decision=pending.decision, view=view, legal=legal,
            deadline_ms=due, timeout_ms=allowed))
