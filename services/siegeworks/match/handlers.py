"""Match service: creates matches, seats clients and checks the shape of incoming commands.

Everything about a game is left to the rules service.
"""

from __future__ import annotations

from siege.contracts.messages import (
    MAX_MATCH_ID,
    RULES_COMMANDS,
    CreateMatch,
    JoinMatch,
    LogAppended,
    Message,
    RegisterEntrant,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import valid_match_id
from siege.eventlog.log import MatchArchivedError
from siege.hosting.lobby import (
    Lobby,
    Refusal,
    claim,
    created_event,
    seat_holders,
    taken_by_other,
)
from siege.hosting.match_state import MatchState
from siegeworks.bus import LOG
from siegeworks.context import ServiceContext
from siegeworks.match.consent import naming_refused
from siegeworks.match.notices import grant, refuse
from siegeworks.match.registration import on_register_entrant


async def on_create_match(ctx: ServiceContext, cmd: CreateMatch) -> None:
    # A busy store (siegeworks.headroom) takes no new match; a create of one under way (a
    # creator recovering its tokens) is answered as ever.
    if ctx.room.busy and (await ctx.loader.load(cmd.match_id)).created is None:
        ctx.loader.forget(cmd.match_id)
        await refuse(ctx, cmd.client, "cmd.create_match", cmd.match_id,
                     Refusal(RejectionCode.STORE_BUSY, ctx.room.describe()),
                     ctx.room.retry_after_ms)
        return
    holders = seat_holders(cmd)
    if not isinstance(holders, Refusal):
        holders = await naming_refused(ctx, cmd, holders) or holders
    if isinstance(holders, Refusal):
        await refuse(ctx, cmd.client, "cmd.create_match", cmd.match_id, holders)
        return
    # A lobby already open for this id stays what it is: a second create (a redelivery, or
    # anyone's create for the same id) must not take the match from clients seated there.
    lobby = await ctx.lobbies.get(cmd.match_id)
    if (lobby is None and not all(holders)
            and (await ctx.loader.load(cmd.match_id)).created is None):
        ctx.loader.forget(cmd.match_id)  # nothing to cache about a match without a log
        if await ctx.log.archived(cmd.match_id):  # no lobby for an id played already
            await refuse(ctx, cmd.client, "cmd.create_match", cmd.match_id, ARCHIVED)
            return
        lobby = await ctx.lobbies.open(cmd.match_id, Lobby(
            create=cmd, clients=holders, seat_names=list(cmd.seat_names)))
    if lobby is not None:
        first = lobby.create
        if first.client != cmd.client or (first.game, first.options, len(first.seat_names)) != (
                cmd.game, cmd.options, len(cmd.seat_names)):
            await refuse(ctx, cmd.client, "cmd.create_match", cmd.match_id, Refusal(
                RejectionCode.MATCH_ID_TAKEN, "another client created this match id, or "
                "with other terms"))
            return
        for seat, client in enumerate(lobby.clients):
            if client:
                await grant(ctx, cmd.match_id, lobby.create.game, seat, client)
        return
    await start(ctx, cmd, holders, list(cmd.seat_names))


ARCHIVED = Refusal(RejectionCode.MATCH_ID_TAKEN, "this match was played and archived: its id "
                   "is taken for good (siege replay and siege audit read it)")


async def start(ctx: ServiceContext, cmd: CreateMatch, holders: list[str],
                seat_names: list[str], grants: bool = True) -> None:
    """Starts the log of a match whose seats are all held (or re-announces one started);
    ``grants`` False when each holder was granted its seat as it joined."""
    event = created_event(cmd, holders, seat_names)
    try:
        ms, appended = await ctx.loader.append_owed(
            cmd.match_id, lambda ms: [event] if ms.head_seq == 0 else None
        )
    except MatchArchivedError:
        ctx.loader.forget(cmd.match_id)
        await refuse(ctx, cmd.client, "cmd.create_match", cmd.match_id, ARCHIVED)
        return
    if ms.created is None:
        return
    taken = None if appended else taken_by_other(ms.created, cmd)
    if taken is not None:  # the id names another client's match: nothing of it is granted
        await refuse(ctx, cmd.client, "cmd.create_match", cmd.match_id, taken)
        return
    # Tokens go to the holders again on a repeated create: a creator that lost them recovers.
    for seat, client in enumerate(ms.created.clients if grants else ()):
        await grant(ctx, cmd.match_id, cmd.game, seat, client)
    # A repeated create (a re-run with the same seed, a redelivery) re-announces the head, so
    # the other services resume a match left unfinished and report one already finished.
    first = 1 if appended else ms.head_seq
    await ctx.bus.publish(LOG, LogAppended(
        match_id=cmd.match_id, first=first, last=ms.head_seq, reannounce=not appended))


async def on_join_match(ctx: ServiceContext, cmd: JoinMatch) -> None:
    if not valid_match_id(cmd.match_id):  # no match can have it: say so, not "unknown"
        await refuse(ctx, cmd.client, "cmd.join_match", cmd.match_id, Refusal(
            RejectionCode.MALFORMED, f"a match id is 1-{MAX_MATCH_ID} of A-Z a-z 0-9 _ . : -"))
        return
    ms = await ctx.loader.load(cmd.match_id)
    if ms.created is not None:
        await rejoin(ctx, ms, cmd)
        return
    ctx.loader.forget(cmd.match_id)  # any id may be asked for: cache only matches that exist
    outcome = await ctx.lobbies.change(
        cmd.match_id, lambda lobby: claim(lobby, cmd.client, cmd.seat, cmd.name))
    if outcome is None:
        outcome = Refusal(RejectionCode.UNKNOWN_MATCH, "no match waiting for players")
    if isinstance(outcome, Refusal):
        await refuse(ctx, cmd.client, "cmd.join_match", cmd.match_id, outcome)
        return
    lobby, seat = outcome
    await grant(ctx, cmd.match_id, lobby.create.game, seat, cmd.client)
    if lobby.full:
        await start(ctx, lobby.create, lobby.clients, lobby.seat_names, grants=False)
        await ctx.lobbies.close(cmd.match_id)


async def rejoin(ctx: ServiceContext, ms: MatchState, cmd: JoinMatch) -> None:
    """A join after the match started: only a seat's holder gets its grant again."""
    assert ms.created is not None
    if cmd.client in ms.created.clients:
        await grant(ctx, cmd.match_id, ms.created.game, ms.created.clients.index(cmd.client),
                    cmd.client)
    else:
        await refuse(ctx, cmd.client, "cmd.join_match", cmd.match_id,
                     Refusal(RejectionCode.MATCH_FULL, "the match has started"))


async def on_command(ctx: ServiceContext, message: Message) -> None:
    """Everything a client writes on the command stream."""
    if isinstance(message, CreateMatch):
        await on_create_match(ctx, message)
    elif isinstance(message, JoinMatch):
        await on_join_match(ctx, message)
    elif isinstance(message, RULES_COMMANDS):
        pass  # the rules service reads these from this same stream, in its own group
    elif isinstance(message, RegisterEntrant):
        await on_register_entrant(ctx, message)
    else:  # a notice is no command: nobody to answer, so the log line is all
        ctx.logger.warning("not_a_command", type=type(message).__name__)
