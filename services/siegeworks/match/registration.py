"""Tournament entries from outside clients: ``RegisterEntrant`` on the command stream.

The match service appends the entry to the tournament's own stream (compare-and-set, like every
append), so a retried or doubled registration enters a client once.
"""

from __future__ import annotations

from siege.contracts.events import Event
from siege.contracts.messages import EntrantAccepted, RegisterEntrant
from siege.contracts.rejections import RejectionCode
from siege.hosting.lobby import Refusal
from siege.tournament.events import EntrantRegistered
from siege.tournament.state import (
    TournamentState,
    entrant_for,
    is_tournament,
    registration_refusal,
)
from siege.tournament.store import TournamentStore
from siegeworks.bus import tell
from siegeworks.context import ServiceContext
from siegeworks.match.notices import refuse


async def on_register_entrant(ctx: ServiceContext, cmd: RegisterEntrant) -> None:
    if not is_tournament(cmd.tournament_id):
        await refuse(ctx, cmd.client, "cmd.register_entrant", cmd.tournament_id,
                     Refusal(RejectionCode.UNKNOWN_TOURNAMENT, "not a tournament id"))
        return
    refusal: tuple[RejectionCode, str] | None = None

    def owe(state: TournamentState) -> list[Event] | None:
        nonlocal refusal
        refusal = registration_refusal(state, cmd.client)
        if refusal is not None or cmd.client in state.clients.values():
            return None
        return [EntrantRegistered(entrant=entrant_for(cmd.client), bot="", client=cmd.client,
                                  name=" ".join(cmd.name.split()))]

    await TournamentStore(ctx.log, ctx.clock).append_owed(cmd.tournament_id, owe)
    if refusal is not None:
        await refuse(ctx, cmd.client, "cmd.register_entrant", cmd.tournament_id,
                     Refusal(*refusal))
        return
    await tell(ctx.bus, cmd.client, EntrantAccepted(
        tournament_id=cmd.tournament_id, entrant_id=entrant_for(cmd.client)))
