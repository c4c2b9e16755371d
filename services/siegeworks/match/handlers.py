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
    MatchSeated,
    SubmitAction,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.registry import UnknownGameError, get_engine
from siege.hosting.seats import check_token, seat_token
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
    if ms.created is not None and ms.created.game == cmd.game:
        # Tokens go to the creator only (and again on a repeated create): never into the log.
        tokens = [seat_token(ctx.seat_secret, cmd.match_id, s) for s in range(event.players)]
        await ctx.bus.publish(cmd.reply_to, MatchSeated(match_id=cmd.match_id, tokens=tokens))
    # A repeated create (a re-run with the same seed, a redelivery) re-announces the head, so
    # the other services resume a match left unfinished and report one already finished.
    first = 1 if appended else ms.head_seq
    await ctx.bus.publish(LOG, LogAppended(
        match_id=cmd.match_id, first=first, last=ms.head_seq, reannounce=not appended))


def check_command(ctx: ServiceContext, cmd: SubmitAction) -> tuple[RejectionCode, str] | None:
    """What the match service refuses before any game is consulted."""
    if len(cmd.action) > MAX_ACTION_BYTES:
        return RejectionCode.MALFORMED, f"action over {MAX_ACTION_BYTES} bytes"
    if not check_token(ctx.seat_secret, cmd.match_id, cmd.seat, cmd.token):
        return RejectionCode.BAD_TOKEN, "no valid token for this seat of this match"
    return None


async def on_submit_action(ctx: ServiceContext, cmd: SubmitAction) -> None:
    refused = check_command(ctx, cmd)
    if refused is None:
        await ctx.bus.publish(RULES, cmd)
        return
    code, detail = refused
    await ctx.bus.publish(REPLIES, ActionRejected(
        match_id=cmd.match_id, seat=cmd.seat, command_id=cmd.command_id, code=code,
        detail=detail))
