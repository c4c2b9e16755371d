"""Whom a create may name as a seat's holder besides its creator, and who may create a
tournament table's id.

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

# siege.tournament.events.match_id_for, and replay_id_for of a damaged table (same table, same
# seats: the organiser creates it too, under the same terms).
_TABLE = re.compile(r"(t-[0-9a-f]{12})-r(\d{2})-t(\d{4})(?:-replay[1-9]\d{0,3})?")

NOT_A_TABLE = Refusal(RejectionCode.MATCH_ID_TAKEN, "this id is a tournament table's: only "
                      "the tournament's organiser creates it, once its round is paired")
REFUSED = Refusal(RejectionCode.BAD_CLIENT, "a create may name another client as a holder only "
                  "at a tournament table that client registered for; leave the seat open")


async def naming_refused(ctx: ServiceContext, cmd: CreateMatch,
                         holders: list[str]) -> Refusal | None:
    """Why ``cmd`` may not name the holders it names, or use its id, or None."""
    found = _TABLE.fullmatch(cmd.match_id)
    names_others = any(h and h != cmd.client for h in holders)
    if found is None:
        return REFUSED if names_others else None
    # An id shaped like a tournament's table is that tournament's: only its organiser creates
    # it, once the round is paired, so nobody can take a table's id before it is played.
    state, _, _ = await TournamentStore(ctx.log, ctx.clock).load(found[1])
    paired = state.rounds.get(int(found[2]))
    table_no = int(found[3])
    if state.created is None or paired is None or table_no >= len(paired.tables):
        return NOT_A_TABLE
    if state.created.organiser and state.created.organiser != cmd.client:
        return NOT_A_TABLE
    table = paired.tables[table_no]
    if len(table) != len(holders):
        return REFUSED
    for entrant, holder in zip(table, holders, strict=True):
        if holder and holder != cmd.client and state.clients.get(entrant) != holder:
            return REFUSED
    return None
