"""Finding a match to join: ``siege lobby``."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from siege.contracts.lobby import OpenSeats
from siegeworks.cli.app import app
from siegeworks.cli.common import ServicesRedisUrl, fail, out, print_json, run_async
from siegeworks.match.lobby import read_listing
from siegeworks.redis_target import check_url, connect


@app.command()
def lobby(
    game: Annotated[str | None, typer.Option(help="Only matches of this game.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="A JSON list, one object per match "
                                          "(the fields of OpenSeats in docs/contract).")]
    = False,
    redis_url: ServicesRedisUrl = "",
) -> None:
    """List the matches waiting for players: game, open seats, creator and options.

    Any client may read the lobby (the hash siege:lobby, see docs/clients.md); join a seat with
    siege join MATCH_ID --client ID, or JoinMatch from your own client.

    Examples: siege lobby --game castellum
              siege lobby --json | jq '.[0].match_id'"""
    if not redis_url:
        raise fail("say which Redis the services use: --redis-url or REDIS_URL")
    url = check_url(redis_url)

    async def read() -> list[OpenSeats]:
        redis = connect(url)
        try:
            return await read_listing(redis)
        finally:
            await redis.aclose()

    found = [listing for listing in run_async(read()) if game is None or listing.game == game]
    if as_json:
        print_json(found)
        return
    if not found:
        out.print("no match is waiting for players" + (f" in {game}" if game else ""))
        return
    table = Table(title="matches waiting for players")
    for column in ("match", "game", "open seats", "of", "creator", "options"):
        table.add_column(column)
    for listing in found:
        table.add_row(listing.match_id, listing.game,
                      ", ".join(f"{seat} ({listing.seat_names[seat]})" for seat in listing.open),
                      str(listing.seats), listing.creator,
                      " ".join(f"{k}={v}" for k, v in sorted(listing.options.items())))
    out.print(table)
