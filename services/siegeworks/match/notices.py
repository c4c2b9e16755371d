"""What the match service tells one client, on that client's inbox alone (a gateway's person's
is the gateway's, naming the person: ``siegeworks.bus.tell``)."""

from __future__ import annotations

from siege.contracts.messages import (
    MAX_DETAIL,
    MAX_MATCH_ID,
    CommandRefused,
    SeatGranted,
    clipped,
)
from siege.eventlog.keys import valid_client_id, view_key
from siege.hosting.lobby import Refusal
from siege.hosting.seats import seat_token
from siegeworks.bus import tell
from siegeworks.context import ServiceContext


async def refuse(ctx: ServiceContext, client: str, command: str, subject: str,
                 refusal: Refusal, retry_after_ms: int = 0) -> None:
    """Tells ``client`` why its command changed nothing (and, with ``retry_after_ms``, when to
    send it again). Subject and detail may quote what the client sent (an illegal option, a bad
    id): they are cut to their bounds, so a refusal never costs its inbox more than
    MAX_INBOX_ENTRY_BYTES, however large the command was."""
    subject, detail = clipped(subject, MAX_MATCH_ID), clipped(refusal.detail, MAX_DETAIL)
    ctx.on_refused(client)
    hint = {"retry_after_ms": retry_after_ms} if retry_after_ms else {}
    ctx.logger.info("command_refused", command=command, subject=subject, code=refusal.code,
                    detail=detail, **hint)
    if valid_client_id(client):  # with no valid sender there is nobody to tell
        await tell(ctx.bus, client, CommandRefused(
            command=command, subject=subject, code=refusal.code, detail=detail,
            retry_after_ms=retry_after_ms))


async def grant(ctx: ServiceContext, match_id: str, game: str, seat: int, client: str) -> None:
    """Hands a seat's token to its holder, never to the log or a shared stream."""
    await tell(ctx.bus, client, SeatGranted(
        match_id=match_id, game=game, seat=seat,
        token=seat_token(ctx.seat_secret, match_id, seat),
        stream=view_key(client, match_id, seat)))
