"""Match service: creates matches and checks the shape of incoming commands.

Everything about a game is left to the rules service.
"""

from __future__ import annotations

from siege.contracts.events import MatchCreated
from siege.contracts.messages import (
    MAX_ACTION_BYTES,
    ActionRejected,
    CreateMatch,
    LogAppended,
    SubmitAction,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.registry import UnknownGameError, get_engine
from siegeworks.bus import LOG, REPLIES, RULES
from siegeworks.context import ServiceContext


def created_event(cmd: CreateMatch) -> MatchCreated:
    engine = get_engine(cmd.game)
    players = len(cmd.seat_names)
    if not engine.min_players <= players <= engine.max_players:
        raise ValueError(
            f"{cmd.game} takes {engine.min_players}..{engine.max_players} players, not {players}"
        )
    return MatchCreated(game=cmd.game, players=players, seat_names=cmd.seat_names,
                        options=cmd.options)


async def on_create_match(ctx: ServiceContext, cmd: CreateMatch) -> None:
    try:
        event = created_event(cmd)
    except (UnknownGameError, ValueError) as err:
        ctx.logger.warning("create_refused", match_id=cmd.match_id, reason=str(err))
        return
    ms, appended = await ctx.loader.append_owed(
        cmd.match_id, lambda ms: [event] if ms.head_seq == 0 else None
    )
    # A repeated create (a re-run with the same seed, a redelivery) re-announces the head, so
    # the other services resume a match left unfinished and report one already finished.
    first = 1 if appended else ms.head_seq
    await ctx.bus.publish(LOG, LogAppended(
        match_id=cmd.match_id, first=first, last=ms.head_seq, reannounce=not appended))


async def on_submit_action(ctx: ServiceContext, cmd: SubmitAction) -> None:
    if len(cmd.action) > MAX_ACTION_BYTES:
        await ctx.bus.publish(REPLIES, ActionRejected(
            match_id=cmd.match_id, seat=cmd.seat, command_id=cmd.command_id,
            code=RejectionCode.MALFORMED, detail=f"action over {MAX_ACTION_BYTES} bytes"))
        return
    await ctx.bus.publish(RULES, cmd)
