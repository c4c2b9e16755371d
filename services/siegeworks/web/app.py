"""The web gateway: pages for people (tournaments live, the matches, a replay viewer, spectators),
served from the store's projections and the matches' public streams.

It holds no game logic (the boards and words are the games' presentations) and no secret: it
reads match logs and tournament streams, and watches running matches as any client may, under
its own client id. Live pages are server-sent events: a tournament's page is told each time its
stream grows, a spectator's each time the match's public stream does.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
from jinja2 import Environment, FileSystemLoader, select_autoescape
from redis.asyncio import Redis
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from siege.engine.codecs import view_decoder
from siege.eventlog.keys import KEYS_HASH, RESULTS_HASH, log_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.clock import SystemClock
from siege.hosting.export import dump
from siege.hosting.replay import ReplayError
from siege.tournament.state import is_tournament
from siege.tournament.store import TournamentStore
from siegeworks.listing import STATES, match_rows, tournament_rows
from siegeworks.web import replaying, tournaments
from siegeworks.web.feeds import Feeds

HERE = Path(__file__).parent
BOARDS_KEPT = 512

_templates = Environment(loader=FileSystemLoader(HERE / "templates"),
                         autoescape=select_autoescape(["html"]))
_templates.filters["zip"] = zip


def page(name: str, status: int = 200, **values: Any) -> HTMLResponse:
    return HTMLResponse(_templates.get_template(name).render(**values), status_code=status)


def not_found(what: str) -> HTMLResponse:
    return page("missing.html", status=404, what=what)


class Gateway:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.log = RedisEventLog(redis)
        # Boards drawn, by (match, seq): a position never changes, and two hundred spectators
        # of one match are told the same positions.
        self._boards: OrderedDict[tuple[str, int], str] = OrderedDict()
        self.feeds = Feeds(redis)

    def _board(self, match_id: str, seq: int, game: str, view: Any, names: list[str]) -> str:
        key = (match_id, seq)
        svg = self._boards.get(key)
        if svg is None:
            svg = replaying.board_svg(game, view, names, f"{match_id} after seq {seq}")
            self._boards[key] = svg
            if len(self._boards) > BOARDS_KEPT:
                self._boards.popitem(last=False)
        return svg

    # --- pages --------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        matches = await match_rows(self.redis, self.log)
        return page("index.html", matches=len(matches),
                    running=sum(r.state == "running" for r in matches),
                    tournaments=len(await tournament_rows(self.log)))

    async def matches(self, request: Request) -> Response:
        state, game = request.query_params.get("state"), request.query_params.get("game")
        player = request.query_params.get("player")
        wanted = STATES.get(state or "")
        rows = [r for r in await match_rows(self.redis, self.log)
                if (wanted is None or r.state in wanted) and (not game or r.game == game)
                and (not player or player in r.seat_names)]
        return page("matches.html", rows=rows, state=state or "", game=game or "",
                    player=player or "")

    async def match(self, request: Request) -> Response:
        match_id = request.path_params["match_id"]
        entries = await self._entries(match_id)
        if not entries:
            return not_found(f"no match {match_id!r}")
        finished = await self.redis.hexists(RESULTS_HASH, match_id)
        try:
            game, names, moves, last = replaying.story(entries)
        except ReplayError as error:  # a changed log: the page still checks it, and says where
            return page("match.html", match_id=match_id, game="", names=[], moves=[],
                        last=entries[-1][0], running=False, broken=str(error))
        return page("match.html", match_id=match_id, game=game, names=names, moves=moves,
                    last=last, running=not finished, broken="")

    async def board(self, request: Request) -> Response:
        match_id = request.path_params["match_id"]
        found = await self._view_at(request)
        if isinstance(found, Response):
            return found
        game, view, names, seq = found
        return Response(self._board(match_id, seq, game, view, names),
                        media_type="image/svg+xml")

    async def view(self, request: Request) -> Response:
        found = await self._view_at(request)
        if isinstance(found, Response):
            return found
        game, view, names, seq = found
        return JSONResponse({"seq": seq, "game": game, "seat_names": names,
                             "view": msgspec.to_builtins(view),
                             "board": replaying.board_text(game, view, names)})

    async def export(self, request: Request) -> Response:
        """The match's log as ``siege export`` writes it: what the page's verifier checks."""
        match_id = request.path_params["match_id"]
        entries = await self._entries(match_id)
        if not entries:
            return not_found(f"no match {match_id!r}")
        return Response(dump(entries), media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{match_id}.jsonl"'})

    async def keys(self, request: Request) -> Response:
        """The published signing keys (``siege keys show --json``), by key id."""
        stored = await self.redis.hgetall(KEYS_HASH)
        return JSONResponse({k.decode(): msgspec.json.decode(v) for k, v in stored.items()})

    async def verify(self, request: Request) -> Response:
        return page("verify.html")

    async def watching(self, request: Request) -> Response:
        match_id = request.path_params["match_id"]
        if not await self._entries(match_id, count=1):
            return not_found(f"no match {match_id!r} (a match waiting for players has no log)")
        return page("watch.html", match_id=match_id)

    async def watch_events(self, request: Request) -> Response:
        return EventSourceResponse(self._watched(request.path_params["match_id"]))

    async def tournaments(self, request: Request) -> Response:
        return page("tournaments.html", rows=await tournament_rows(self.log))

    async def tournament(self, request: Request) -> Response:
        tid = request.path_params["tournament_id"]
        shown = await self._tournament(tid)
        if shown is None:
            return not_found(f"no tournament {tid!r}")
        return page("tournament.html", t=shown)

    async def tournament_events(self, request: Request) -> Response:
        return EventSourceResponse(self._tournament_changes(request.path_params["tournament_id"]))

    # --- reading ------------------------------------------------------------------------------

    async def _entries(self, match_id: str, count: int | None = None) -> list[Any]:
        if is_tournament(match_id):
            return []
        if count is not None:
            return list(await self.redis.xrange(log_key(match_id), count=count))
        return list(await self.log.read(match_id))

    async def _view_at(self, request: Request) -> tuple[str, Any, list[str], int] | Response:
        match_id = request.path_params["match_id"]
        entries = await self._entries(match_id)
        if not entries:
            return not_found(f"no match {match_id!r}")
        last = entries[-1][0]
        try:
            seq = int(request.query_params.get("seq", last))
        except ValueError:
            seq = 0
        if not 1 <= seq <= last:
            return JSONResponse({"error": f"seq must be a number from 1 to {last}"},
                                status_code=400)
        try:
            game, view, names = replaying.spectator_view(entries, seq)
        except ReplayError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return game, view, names, seq

    async def _tournament(self, tid: str) -> tournaments.Shown | None:
        if not is_tournament(tid):
            return None
        state, _, _ = await TournamentStore(self.log, SystemClock()).load(tid)
        if state.created is None:
            return None
        return await tournaments.shown(self.redis, state)

    async def _tournament_changes(self, tid: str) -> AsyncIterator[dict[str, str]]:
        """The standings and rounds again each time the tournament's stream grows."""
        key = log_key(tid)
        last = await self.redis.xrevrange(key, count=1)
        cursor = last[0][0] if last else b"0-0"
        while True:
            reply = await self.redis.xread({key: cursor}, count=1000, block=15_000)
            if not reply:
                continue
            cursor = reply[0][1][-1][0]
            shown = await self._tournament(tid)
            if shown is None:
                continue
            yield {"event": "standings",
                   "data": _templates.get_template("standings.html").render(t=shown)}
            if shown.finished:
                return

    async def _watched(self, match_id: str) -> AsyncIterator[dict[str, str]]:
        """A match's public stream as it happens: each entry's lines, then its board."""
        page = self.feeds.follow(match_id)
        try:
            while True:
                item = await page.get()
                if isinstance(item, str):
                    yield {"event": "refused", "data": item}
                    return
                lines = _templates.get_template("said.html").render(lines=item.lines)
                yield {"event": "said", "data": lines}
                try:
                    view = view_decoder(item.game).decode(item.view)
                    svg = self._board(match_id, item.seq, item.game, view, item.seat_names)
                    yield {"event": "board", "data": svg.replace("\n", " ")}
                except (msgspec.DecodeError, msgspec.ValidationError, KeyError):
                    pass  # a game this version cannot draw: the lines still tell the match
                if item.over:
                    yield {"event": "over", "data": str(item.seq)}
                    return
        finally:
            await self.feeds.leave(match_id, page)


def make_app(redis_url: str) -> Starlette:
    state: dict[str, Gateway] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        redis = Redis.from_url(redis_url)
        state["gateway"] = Gateway(redis)
        try:
            yield
        finally:
            await redis.aclose()

    def on(name: str) -> Any:
        async def handle(request: Request) -> Response:
            return await getattr(state["gateway"], name)(request)
        return handle

    routes = [
        Route("/", on("index")),
        Route("/matches", on("matches")),
        Route("/matches/{match_id}", on("match")),
        Route("/matches/{match_id}/board.svg", on("board")),
        Route("/matches/{match_id}/view.json", on("view")),
        Route("/matches/{match_id}/export.jsonl", on("export")),
        Route("/matches/{match_id}/watch", on("watching")),
        Route("/keys.json", on("keys")),
        Route("/verify", on("verify")),
        Route("/matches/{match_id}/watch/events", on("watch_events")),
        Route("/tournaments", on("tournaments")),
        Route("/tournaments/{tournament_id}", on("tournament")),
        Route("/tournaments/{tournament_id}/events", on("tournament_events")),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
