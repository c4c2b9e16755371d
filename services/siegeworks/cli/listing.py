"""What exists, without copying ids out of earlier output: ``siege matches`` and
``siege tournaments``."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from siegeworks.cli.app import app
from siegeworks.cli.common import RedisUrl, fail, out, print_json, run_async
from siegeworks.listing import STATES, MatchRow, TournamentRow, match_rows, tournament_rows
from siegeworks.redis_target import open_log


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
            return await tournament_rows(log)

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
