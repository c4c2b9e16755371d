"""``siege watch``: follow a running match as a spectator, move by move."""

from __future__ import annotations

import time
from typing import Annotated

import msgspec
import typer

from siege.contracts.messages import MatchWatched
from siege.engine.codecs import view_decoder
from siege.engine.registry import UnknownGameError, presentation
from siegeworks.cli.app import app
from siegeworks.cli.common import ClientId, ServicesRedisUrl, fail, out, run_as_client


class Screen:
    """What a spectator's terminal shows: each line as it comes, and the board on the first
    entry, at the end and at most every ``board_every_s`` seconds between."""

    def __init__(self, board_every_s: float) -> None:
        self.board_every_s = board_every_s
        self.board_at = 0.0

    def __call__(self, entry: MatchWatched) -> None:
        if entry.snapshot:
            out.print(f"[bold]watching {entry.match_id}[/bold] ({entry.game}, "
                      f"{len(entry.seat_names)} seats: {', '.join(entry.seat_names)})",
                      highlight=False)
        for said in entry.lines:
            out.print(f"{said.seq:>5}  {said.text}", highlight=False, markup=False)
        now = time.monotonic()
        if entry.snapshot or entry.over or now - self.board_at >= self.board_every_s:
            self.board_at = now
            self.board(entry)

    def board(self, entry: MatchWatched) -> None:
        try:
            shown = presentation(entry.game)
            view = view_decoder(entry.game).decode(entry.view)
        except (UnknownGameError, msgspec.DecodeError, msgspec.ValidationError):
            return  # a game or view this version cannot read: the lines still tell the match
        out.print(shown.board(view, entry.seat_names))


@app.command("watch")
def watch_cmd(
    match_id: Annotated[str, typer.Argument(help="The match to follow.")],
    client: ClientId,
    board_every: Annotated[float, typer.Option(
        min=0, help="Draw the board at most every this many seconds (0: after every move)."
    )] = 5.0,
    timeout: Annotated[float | None, typer.Option(
        min=1, help="Stop watching after this many seconds (default: until the end)."
    )] = None,
    redis_url: ServicesRedisUrl = "",
) -> None:
    """Watch a match as a spectator: every move in words as it happens and the board as
    everyone sees it (no seat's hand, deck order or sealed choice). A finished match shows
    its last moves and final board.

    Example: siege watch castle-dash-s1-00000 --client alice"""
    from siegeworks.clients.watcher import WatchRefusedError, watch

    try:
        last = run_as_client(client, redis_url, lambda redis: watch(
            redis, client, match_id, Screen(board_every), timeout))
    except WatchRefusedError as error:
        raise fail(str(error)) from None
    except TimeoutError as error:
        raise fail(str(error), code=1) from None
    out.print(f"{match_id} is over (seq {last.seq})", highlight=False)
