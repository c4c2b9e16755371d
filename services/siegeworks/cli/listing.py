"""What exists, without copying ids out of earlier output: ``siege matches`` and
``siege tournaments``."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import typer
from redis.asyncio import Redis
from rich.table import Table

from siege.contracts.events import MatchCreated
from siege.contracts.messages import MatchFinished
from siege.eventlog.keys import RESULTS_HASH, log_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.clock import SystemClock
from siege.hosting.loader import CORE_CODEC
from siege.tournament.standings import standings
from siege.tournament.state import is_tournament
from siege.tournament.store import TournamentStore
from siegeworks.cli.app import app
from siegeworks.cli.common import RedisUrl, fail, out, print_json, run_async
from siegeworks.match.lobby import read_listing
from siegeworks.redis_target import open_log


class MatchRow(msgspec.Struct, kw_only=True):
    match_id: str
    game: str
    seats: int
    state: str  # open, running, finished, forfeit, damaged
    seat_names: list[str] = []
    ranks: list[int] = []
    open_seats: list[int] = []


async def match_rows(redis: Redis, log: RedisEventLog) -> list[MatchRow]:
    """Every match the store holds, with its state: open (waiting in the lobby), running (a
    log without a result) or how it ended (the result's reason)."""
    rows = [MatchRow(match_id=o.match_id, game=o.game, seats=o.seats, state="open",
                     seat_names=list(o.seat_names), open_seats=list(o.open))
            for o in await read_listing(redis)]
    ids = [m for m in await log.match_ids() if not is_tournament(m)]
    if not ids:
        return rows
    results = await redis.hmget(RESULTS_HASH, ids)
    decoder = msgspec.msgpack.Decoder(MatchFinished)
    running = [m for m, raw in zip(ids, results, strict=True) if raw is None]
    async with redis.pipeline(transaction=False) as pipe:
        for match_id in running:
            pipe.xrange(log_key(match_id), count=1)
        firsts = dict(zip(running, await pipe.execute(), strict=True))
    for match_id, raw in zip(ids, results, strict=True):
        if raw is not None:
            done = decoder.decode(raw)
            rows.append(MatchRow(match_id=match_id, game=done.game, seats=len(done.seat_names),
                                 state=done.reason, seat_names=done.seat_names,
                                 ranks=done.ranks))
            continue
        entries = firsts[match_id]
        if not entries:
            continue
        created: Any = CORE_CODEC.decode(entries[0][1][b"e"]).event
        if isinstance(created, MatchCreated):
            rows.append(MatchRow(match_id=match_id, game=created.game, seats=created.players,
                                 state="running", seat_names=list(created.seat_names)))
    return sorted(rows, key=lambda r: r.match_id)


STATES = {"open": {"open"}, "running": {"running"},
          "finished": {"finished", "forfeit", "damaged"}}


@app.command()
def matches(
    running: Annotated[bool, typer.Option("--running", help="Only matches being played.")]
    = False,
    waiting: Annotated[bool, typer.Option("--open", help="Only matches waiting for players.")]
    = False,
    finished: Annotated[bool, typer.Option("--finished", help="Only matches that ended.")]
    = False,
    game: Annotated[str | None, typer.Option(help="Only matches of this game.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="A JSON list, one object per "
                                          "match.")] = False,
    redis_url: RedisUrl = None,
) -> None:
    """List the matches the store holds: id, game, seats, state and result.

    Examples: siege matches --finished --game castellum
              siege matches --open --json"""
    wanted = set().union(*(STATES[name] for name, on in
                           (("running", running), ("open", waiting), ("finished", finished))
                           if on)) or None

    async def read() -> list[MatchRow]:
        async with open_log(redis_url) as (log, _where, _url):
            return await match_rows(log.redis, log)

    rows = [r for r in run_async(read()) if (wanted is None or r.state in wanted)
            and (game is None or r.game == game)]
    if as_json:
        print_json(rows)
        return
    if not rows:
        out.print("no match" + (f" of {game}" if game else "") + " here")
        return
    table = Table(title=f"{len(rows)} match(es)")
    table.add_column("match", no_wrap=True)
    for column in ("game", "seats", "state", "result"):
        table.add_column(column, overflow="fold")
    for r in rows:
        table.add_row(r.match_id, r.game, str(r.seats), r.state, _result(r))
    out.print(table)


def _result(row: MatchRow) -> str:
    if row.state == "open":
        return "open seats " + ", ".join(map(str, row.open_seats))
    if not row.ranks:
        return ""
    winners = [name for name, rank in zip(row.seat_names, row.ranks, strict=True) if rank == 1]
    return "won by " + ", ".join(winners)


class TournamentRow(msgspec.Struct, kw_only=True):
    tournament_id: str
    game: str
    format: str
    entrants: int
    state: str  # registration, round N of M, finished
    leader: str = ""


@app.command()
def tournaments(
    as_json: Annotated[bool, typer.Option("--json", help="A JSON list, one object per "
                                          "tournament.")] = False,
    redis_url: RedisUrl = None,
) -> None:
    """List the tournaments the store holds: id, game, format, entrants, state and leader.

    Example: siege tournaments"""
    async def read() -> list[TournamentRow]:
        async with open_log(redis_url) as (log, _where, _url):
            store = TournamentStore(log, SystemClock())
            rows = []
            for tid in [m for m in await log.match_ids() if is_tournament(m)]:
                state, _, _ = await store.load(tid)
                if state.created is None:
                    continue
                created = state.created
                table = standings(state.entrants, state.order,
                                  two_player=created.table_size == 2,
                                  withdrawn=frozenset(state.withdrawn))
                where = ("finished" if state.finished else
                         f"round {state.current_round}" if state.current_round else
                         "registration")
                rows.append(TournamentRow(tournament_id=tid, game=created.game,
                                          format=created.format, entrants=len(state.entrants),
                                          state=where,
                                          leader=table[0].entrant if table and state.order
                                          else ""))
            return rows

    rows = run_async(read())
    if as_json:
        print_json(rows)
        return
    if not rows:
        raise fail("no tournament here", code=1)
    grid = Table(title=f"{len(rows)} tournament(s)")
    grid.add_column("tournament", no_wrap=True)
    for column in ("game", "format", "entrants", "state", "leader"):
        grid.add_column(column, overflow="fold")
    for r in rows:
        grid.add_row(r.tournament_id, r.game, r.format, str(r.entrants), r.state, r.leader)
    out.print(grid)
