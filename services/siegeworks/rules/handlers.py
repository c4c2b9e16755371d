"""Rules service: the only place that knows a game.

It accepts or rejects actions, appends what the game calls for next (a chance request, the
end), and prompts the seats that may act with their own view and legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from siege.contracts.events import Event
from siege.contracts.messages import ActionRejected, LogAppended, SeatPrompted, SubmitAction
from siege.eventlog.keys import view_key
from siege.hosting.clocks import deadline_member, timeout_ms
from siege.hosting.match_state import MatchState
from siege.hosting.rules import Rejection, accept_action, expected_follow_up
from siegeworks.bus import LOG, reply_topic
from siegeworks.context import ServiceContext

_encoder = msgspec.msgpack.Encoder()


async def on_submit_action(ctx: ServiceContext, cmd: SubmitAction) -> None:
    outcome: list[Event] | Rejection = []

    def owe(ms: MatchState) -> Sequence[Event] | None:
        nonlocal outcome
        outcome = accept_action(ms, cmd)
        return outcome if isinstance(outcome, list) else None

    ms, appended = await ctx.loader.append_owed(cmd.match_id, owe, optimistic=True)
    if isinstance(outcome, Rejection):
        await ctx.bus.publish(reply_topic(cmd.client), ActionRejected(
            match_id=cmd.match_id, seat=cmd.seat, command_id=cmd.command_id,
            code=outcome.code, detail=outcome.detail))
        if ms.created is None:  # no such match: nothing owed, nothing worth caching
            ctx.loader.forget(cmd.match_id)
            return
        # A redelivered command after a crash lands here as a duplicate: finish what the crash
        # may have cut short (the follow-up, the prompts), which the log says is still owed.
        await on_log_appended(ctx, LogAppended(
            match_id=cmd.match_id, first=ms.head_seq, last=ms.head_seq))
    elif appended:
        await ctx.bus.clear_deadline(deadline_member(cmd.match_id, cmd.seat, cmd.decision))
        note = await announce(ctx, ms, len(outcome))
        # What follows the action (a chance request, the end, the next prompts) is derived at
        # once instead of a hop later; the pointer, when it arrives, then finds nothing owed.
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
    return note


async def prompt_seats(ctx: ServiceContext, ms: MatchState) -> None:
    engine = ms.engine
    if engine is None or ms.ended is not None:
        for seat in range(ms.created.players if ms.created else 0):
            ctx.prompted.pop((ms.match_id, seat), None)
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
        due = ctx.clock.now_ms() + timeout_ms(ms, ctx.decision_timeout_ms)
        await ctx.bus.set_deadline(deadline_member(ms.match_id, seat, pending.decision), due)
        legal = [msgspec.Raw(_encoder.encode(a)) for a in engine.legal_actions(ms.game, seat)]
        view = msgspec.Raw(_encoder.encode(engine.view(ms.game, seat)))
        # Only the seat's holder can read this stream (ACL pattern on its client prefix).
        await ctx.bus.publish(view_key(holders[seat], ms.match_id, seat), SeatPrompted(
            match_id=ms.match_id, seat=seat, decision=pending.decision, view=view, legal=legal))
