"""The web gateway: pages for people (tournaments live, the matches, a replay viewer, spectators),
served from the store's projections and the matches' public streams.

It holds no game logic (the boards and words are the games' presentations) and no secret: it
reads match logs and tournament streams, and watches running matches as any client may, under
its own client id. Live pages are server-sent events: a tournament's page is told each time its
stream grows, a spectator's each time the match's public stream does.
"""

from __future__ import annotations

import asyncio
import contextlib
import urllib.parse
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
from jinja2 import Environment, FileSystemLoader, select_autoescape
from redis.asyncio import Redis
from redis.exceptions import RedisError
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from siege.archive.reading import ArchivingLog
from siege.archive.stores import ArchiveStore
from siege.archive.tombstones import read_tombstone
from siege.engine.codecs import view_decoder
from siege.engine.registry import game_names, get_engine, presentation
from siege.eventlog.keys import KEYS_HASH, RESULTS_HASH, log_key, valid_match_id
from siege.hosting.clock import SystemClock
from siege.hosting.export import dump
from siege.hosting.replay import ReplayError
from siege.tournament.state import is_tournament
from siege.tournament.store import TournamentStore
from siegeworks.listing import STATES, match_rows, tournament_rows
from siegeworks.match.lobby import read_listing
from siegeworks.redis_target import archive_store, connect
from siegeworks.serve import SERVICES, read_health
from siegeworks.web import play, replaying, tournaments
from siegeworks.web.feeds import Feeds

HERE = Path(__file__).parent
BOARDS_KEPT = 512
HEALTH_EVERY_S = 2.0
STOP_WITHIN_S = 3.0
QUIET_BLOCK_MS = 2_000

_templates = Environment(loader=FileSystemLoader(HERE / "templates"),
                         autoescape=select_autoescape(["html"]))
_templates.filters["zip"] = zip
_templates.filters["clock_words"] = lambda ms: clock_words(ms)


def page(name: str, status: int = 200, **values: Any) -> HTMLResponse:
    return HTMLResponse(_templates.get_template(name).render(**values), status_code=status)


def not_found(what: str) -> HTMLResponse:
    return page("missing.html", status=404, what=what)


class Gateway:
    def __init__(self, redis: Redis, store: ArchiveStore | None = None) -> None:
        self.redis = redis
        # Archived matches read as live ones: their pages, replays and /verify stay.
        self.log = ArchivingLog(redis, store or archive_store())
        # Boards drawn, by (match, seq): a position never changes, and two hundred spectators
        # of one match are told the same positions.
        self._boards: OrderedDict[tuple[str, int], str] = OrderedDict()
        self.feeds = Feeds(redis)
        self.people = play.People(redis, self.log)
        self._missing: list[str] = []
        self._health_at = -HEALTH_EVERY_S

    def _board(self, match_id: str, seq: int, game: str, view: Any, names: list[str],
               kind: str = "html") -> str:
        """The spectator's board after ``seq``: the game's scene as HTML (``kind`` "html"), or
        the terminal's drawing as SVG ("svg"), kept for the last ``BOARDS_KEPT`` asked for."""
        key = (match_id, seq, kind)
        drawn = self._boards.get(key)
        if drawn is None:
            drawn = (scene_html(game, view, names, seq=seq) if kind == "html" else
                     replaying.board_svg(game, view, names, f"{match_id} after seq {seq}"))
            self._boards[key] = drawn
            if len(self._boards) > BOARDS_KEPT:
                self._boards.popitem(last=False)
        return drawn

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
        finished = (await self.redis.hexists(RESULTS_HASH, match_id)
                    or await read_tombstone(self.redis, match_id) is not None)
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
        if request.url.path.endswith(".svg"):
            return Response(self._board(match_id, seq, game, view, names, "svg"),
                            media_type="image/svg+xml")
        return HTMLResponse(self._board(match_id, seq, game, view, names))

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

    # --- playing -----------------------------------------------------------------------------

    async def _person(self, request: Request, keep: bool = False) -> tuple[play.Person, bool]:
        """The person this browser is (its cookie: the one credential for its tables), and
        whether the id was made just now. An id with nothing kept is remembered only with
        ``keep`` (the person asked for something): a page merely looked at, or a cookie made
        up, costs the gateway nothing, and finds no table but its own."""
        client = request.cookies.get(play.PERSON_COOKIE, "")
        if play.is_person_id(client):
            return await self.people.get(client, keep=keep), False
        made = self.people.stranger()
        return (await self.people.get(made.client) if keep else made), True

    def _as(self, response: Response, person: play.Person, new: bool) -> Response:
        if new:  # a bearer credential for the person's seats: never readable by scripts
            response.set_cookie(play.PERSON_COOKIE, person.client, max_age=30 * 86400,
                                httponly=True, samesite="strict")
        return response

    async def missing(self) -> str:
        """What keeps a match from starting on this store, in words ("" when nothing): the
        services play every match, and a store may have none running (checked at most every
        ``HEALTH_EVERY_S``: a health record is one key per process)."""
        now = asyncio.get_running_loop().time()
        if now - self._health_at >= HEALTH_EVERY_S:
            try:
                up = {h.service for h in await read_health(self.redis)}
            except RedisError:
                up = set(SERVICES)  # the store's own trouble is told where it happens
            self._missing, self._health_at = [s for s in SERVICES if s not in up], now
        if not self._missing:
            return ""
        return (f"No {', '.join(self._missing)} service is running on this store, so no match "
                "can start: run `siege web` without --redis-url (it runs them on its own store),"
                " `siege web --services`, or `siege serve <service>` for each.")

    async def playing(self, request: Request) -> Response:
        person, new = await self._person(request)
        listing = [o for o in await read_listing(self.redis)
                   if o.match_id not in person.tables]
        tables = sorted(person.tables.values(), key=lambda t: (t.over, t.match_id))
        return self._as(page("play.html", games=play_choices(), tables=tables, lobby=listing,
                             problem=person.problem, client=person.client,
                             missing=await self.missing(), clocks=play.CLOCKS,
                             default_clock=play.DEFAULT_CLOCK), person, new)

    async def play_new(self, request: Request) -> Response:
        person, new = await self._person(request, keep=True)
        form = await form_of(request)
        try:
            game, bots, people = play.checked_new(
                str(form.get("game", "")), str(form.get("players", "")),
                str(form.get("people", "0")), str(form.get("bot", "random")))
            clock_ms = play.checked_clock(str(form.get("clock", play.DEFAULT_CLOCK)))
        except ValueError as error:
            person.problem = str(error)
            return self._as(RedirectResponse("/play", status_code=303), person, new)
        person.problem = ""
        match_id = await self.people.start(person, game, bots, people,
                                           display_name(form), clock_ms)
        return self._as(RedirectResponse(f"/play/{match_id}", status_code=303), person, new)

    async def play_join(self, request: Request) -> Response:
        person, new = await self._person(request, keep=True)
        form = await form_of(request)
        match_id = str(form.get("match_id", ""))
        if not valid_match_id(match_id):
            person.problem = f"no such match {match_id[:64]!r}"
            return self._as(RedirectResponse("/play", status_code=303), person, new)
        game = await self._game_of(match_id)
        if game is None:
            person.problem = f"no match {match_id!r} is waiting for players"
            return self._as(RedirectResponse("/play", status_code=303), person, new)
        await person.join(match_id, game, name=display_name(form))
        return self._as(RedirectResponse(f"/play/{match_id}", status_code=303), person, new)

    async def enter(self, request: Request) -> Response:
        person, new = await self._person(request, keep=True)
        tid = request.path_params["tournament_id"]
        if await self._tournament(tid) is None:
            return not_found(f"no tournament {tid!r}")
        form = await form_of(request)
        await person.enter(tid, display_name(form))
        return self._as(RedirectResponse("/play", status_code=303), person, new)

    async def table(self, request: Request) -> Response:
        match_id = request.path_params["match_id"]
        person, new = await self._person(request)
        table = person.tables.get(match_id)
        game = table.game if table is not None else person.asked.get(match_id)
        if game is None:
            return self._as(not_found(f"you hold no seat of {match_id!r} and asked for none"),
                            person, new)
        rules = presentation(game).rules_summary
        if table is not None and table.over and not table.final:
            await self.people.final_board(table)
        return self._as(page("table.html", match_id=match_id, table=table, rules=rules,
                             missing=await self.missing() if table is None else ""),
                        person, new)

    async def _game_of(self, match_id: str) -> str | None:
        """The game of a match that has begun (its log) or waits for players (the lobby)."""
        if not valid_match_id(match_id):
            return None
        created = await play.created(self.redis, match_id)
        if created is not None:
            return created.game
        return next((o.game for o in await read_listing(self.redis) if o.match_id == match_id),
                    None)

    async def table_events(self, request: Request) -> Response:
        person, _ = await self._person(request)
        return EventSourceResponse(self._table_changes(person, request.path_params["match_id"]))

    async def act(self, request: Request) -> Response:
        person, _ = await self._person(request)
        seat = person.seats.get(request.path_params["match_id"])
        if seat is None:
            return JSONResponse({"error": "you hold no seat of this match"}, status_code=404)
        try:
            body = await request.json()
            decision, index = int(body["decision"]), int(body["index"])
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": "send {decision, index}"}, status_code=400)
        problem = await seat.choose(decision, index)
        if problem is not None:
            return JSONResponse({"error": problem}, status_code=409)
        return JSONResponse({"ok": True})

    async def auto(self, request: Request) -> Response:
        """Turns taking a single choice by itself on or off for one table."""
        person, _ = await self._person(request)
        table = person.tables.get(request.path_params["match_id"])
        if table is None:
            return JSONResponse({"error": "you hold no seat of this match"}, status_code=404)
        try:
            on = (await request.json())["on"]
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": "send {on: true or false}"}, status_code=400)
        if not isinstance(on, bool):
            return JSONResponse({"error": "send {on: true or false}"}, status_code=400)
        table.auto = on
        return JSONResponse({"ok": True})

    async def resign(self, request: Request) -> Response:
        person, _ = await self._person(request)
        seat = person.seats.get(request.path_params["match_id"])
        if seat is None:
            return JSONResponse({"error": "you hold no seat of this match"}, status_code=404)
        await seat.resign()
        return JSONResponse({"ok": True})

    async def _table_changes(self, person: play.Person,
                             match_id: str) -> AsyncIterator[dict[str, str]]:
        """The table's turn each time it changes, and the match's public lines as they come."""
        changes: asyncio.Queue[str] = asyncio.Queue()
        if match_id not in person.asked:
            yield {"event": "refused", "data": f"you hold no seat of {match_id}"}
            return
        said = ""
        while (table := person.tables.get(match_id)) is None:  # the grant is on its way
            if match_id in person.refused:
                yield {"event": "refused", "data": person.refused[match_id]}
                return
            if (missing := await self.missing()) != said:
                said = missing
                yield {"event": "missing", "data": missing}
            await asyncio.sleep(0.05)
        table.pages.add(changes)
        feed = self.feeds.follow(match_id)
        heard = asyncio.create_task(feed.get())
        changed = asyncio.create_task(changes.get())
        taken = 0  # of the table's choices taken by themselves, those told to this page

        def newly_taken() -> list[dict[str, str]]:
            nonlocal taken
            told = [{"event": "taken", "data": words} for words in table.taken[taken:]]
            taken = len(table.taken)
            return told
        try:
            for item in newly_taken():
                yield item
            yield {"event": "turn", "data": _turn_html(table)}
            while True:
                done, _ = await asyncio.wait({heard, changed},
                                             return_when=asyncio.FIRST_COMPLETED)
                if changed in done:
                    changed = asyncio.create_task(changes.get())
                    for item in newly_taken():
                        yield item
                    yield {"event": "turn", "data": _turn_html(table)}
                    if table.over:
                        yield {"event": "over", "data": table.match_id}
                        return
                if heard in done:
                    item = heard.result()
                    heard = asyncio.create_task(feed.get())
                    if not isinstance(item, str):
                        yield {"event": "said", "data": _templates.get_template(
                            "said.html").render(lines=item.lines)}
        finally:
            heard.cancel()
            changed.cancel()
            table.pages.discard(changes)
            await self.feeds.leave(match_id, feed)

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
            # Under redis-py's socket timeout (5 s by default in redis-py 8): a longer block
            # would end the page's stream with a timeout while the tournament is quiet.
            reply = await self.redis.xread({key: cursor}, count=1000, block=QUIET_BLOCK_MS)
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
                    drawn = self._board(match_id, item.seq, item.game, view, item.seat_names)
                    yield {"event": "board", "data": drawn.replace("\n", " ")}
                except (msgspec.DecodeError, msgspec.ValidationError, KeyError):
                    pass  # a game this version cannot draw: the lines still tell the match
                if item.over:
                    yield {"event": "over", "data": str(item.seq)}
                    return
        finally:
            await self.feeds.leave(match_id, page)


async def form_of(request: Request) -> dict[str, str]:
    """An HTML form's fields (urlencoded, as the pages send them): the standard library's
    parser, without the multipart one Starlette would need for ``request.form()``."""
    body = (await request.body())[:16_384].decode("utf-8", errors="replace")
    return {k: v[0] for k, v in urllib.parse.parse_qs(body).items()}


def scene_html(game: str, view: Any, names: list[str], told: int | None = None,
               seq: int = 0) -> str:
    """The game's scene of ``view`` as the pages draw it (templates/scene.html), naming the
    seq it shows where one is given."""
    drawn = presentation(game).scene
    if drawn is None:
        return ""
    macro = _templates.get_template("scene.html").module.scene  # type: ignore[attr-defined]
    return str(macro(drawn(view, names, told), seq=seq))


def display_name(form: dict[str, str]) -> str:
    """The name a person typed, trimmed to what a seat name may be; a guest's where none."""
    name = " ".join(str(form.get("name", "")).split())[:32]
    return name or play.DEFAULT_NAME


def _turn_html(table: play.Table) -> str:
    return _templates.get_template("turn.html").render(table=table)


def play_choices() -> list[tuple[str, int, int, int]]:
    """(game, fewest, most, usual players) of every hosted game, for the new-match form: the
    usual count is the fewest that makes a match of more than one seat."""
    choices = []
    for game in game_names():
        engine = get_engine(game)
        low, high = engine.min_players, engine.max_players
        choices.append((game, low, high, min(max(low, 2), high)))
    return choices


def clock_words(ms: int) -> str:
    """A decision clock in words: "a day", "10 minutes", "30 seconds"."""
    for unit_ms, one, many in ((86_400_000, "a day", "days"), (3_600_000, "an hour", "hours"),
                               (60_000, "a minute", "minutes"), (1_000, "a second", "seconds")):
        if ms >= unit_ms and ms % unit_ms == 0:
            count = ms // unit_ms
            return one if count == 1 else f"{count} {many}"
    return f"{ms} ms"


def make_app(redis_url: str) -> Starlette:
    state: dict[str, Gateway] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        redis = connect(redis_url)
        state["gateway"] = app.state.gateway = Gateway(redis)
        await state["gateway"].people.open()  # the tables in play before a restart, played on
        try:
            yield
        finally:
            # Bounded: a stop asked for (SIGTERM) happens within seconds, whatever a reader of
            # the bus is waiting on; the tables are kept in Redis, so nothing is lost.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(STOP_WITHIN_S):
                    await state["gateway"].people.close()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(STOP_WITHIN_S):
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
        Route("/matches/{match_id}/board.html", on("board")),
        Route("/matches/{match_id}/view.json", on("view")),
        Route("/matches/{match_id}/export.jsonl", on("export")),
        Route("/matches/{match_id}/watch", on("watching")),
        Route("/keys.json", on("keys")),
        Route("/play", on("playing")),
        Route("/play/new", on("play_new"), methods=["POST"]),
        Route("/play/join", on("play_join"), methods=["POST"]),
        Route("/play/{match_id}", on("table")),
        Route("/play/{match_id}/events", on("table_events")),
        Route("/play/{match_id}/act", on("act"), methods=["POST"]),
        Route("/play/{match_id}/resign", on("resign"), methods=["POST"]),
        Route("/play/{match_id}/auto", on("auto"), methods=["POST"]),
        Route("/tournaments/{tournament_id}/enter", on("enter"), methods=["POST"]),
        Route("/verify", on("verify")),
        Route("/matches/{match_id}/watch/events", on("watch_events")),
        Route("/tournaments", on("tournaments")),
        Route("/tournaments/{tournament_id}", on("tournament")),
        Route("/tournaments/{tournament_id}/events", on("tournament_events")),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
