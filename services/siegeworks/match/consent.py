"""Whom a create may name as a seat's holder besides its creator.

Naming a client makes the services send it a grant and prompts, so a client could flood any
other client's streams by naming it. A create may name another client only at a table of a
tournament that client registered for (its own ``RegisterEntrant``), exactly as the round's
pairing seats it; otherwise seats are the creator's own or open for ``JoinMatch``.
"""

from __future__ import annotations

import re

from siege.contracts.messages import CreateMatch
from siege.contracts.rejections import RejectionCode
from siege.hosting.lobby import Refusal
from siege.tournament.store import TournamentStore
from siegeworks.context import ServiceContext

_TABLE = re.compile(r"(t-[0-9a-f]{12})-r(\d{2})-t(\d{4})")  # siege.tournament.events.match_id_for

REFUSED = Refusal(RejectionCode.BAD_CLIENT, "a create may name another client as a holder only "
                  "at a tournament table that client registered for; leave the seat open")


async def naming_refused(ctx: ServiceContext, cmd: CreateMatch,
                         holders: list[str]) -> Refusal | None:
    """Why ``cmd`` may not name the holders it names, or None."""
    if all(not h or h == cmd.client for h in holders):
        return None
    found = _TABLE.fullmatch(cmd.match_id)
    if found is None:
        return REFUSED
    state, _, _ = await TournamentStore(ctx.log, ctx.clock).load(found[1])
    paired = state.rounds.get(int(found[2]))
    table_no = int(found[3])
    if paired is None or table_no >= len(paired.tables):
        return REFUSED
    table = paired.tables[table_no]
    if len(table) != len(holders):
        return REFUSED
    for entrant, holder in zip(table, holders, strict=True):
        if holder and holder != cmd.client and state.clients.get(entrant) != holder:
            return REFUSED
    return None
