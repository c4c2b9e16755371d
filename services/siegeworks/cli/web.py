"""``siege web``: the web gateway, pages for people over the same store."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated

import typer

from siegeworks.cli.app import app
from siegeworks.cli.common import RedisUrl, out, run_async
from siegeworks.redis_target import data_dir, open_log

if TYPE_CHECKING:
    from redis.asyncio import Redis


@app.command()
def web(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free "
                                      "one, printed).")] = 8080,
    redis_url: RedisUrl = None,
    services: Annotated[bool | None, typer.Option(
        "--services/--no-services",
        help="Run the four services (match, rules, dice, scoring) beside the pages, so people "
             "can play at /play. Default: on the embedded store, which has no others; off on a "
             "store given by --redis-url or REDIS_URL, whose own services play its matches.",
        show_default=False)] = None,
) -> None:
    """Serve the web pages: play in the browser at /play, tournaments with live standings, the
    matches, a replay viewer for any match and a spectator's view of a running one. Until
    Ctrl-C.

    Examples: siege web
              siege web --port 9000 --redis-url redis://127.0.0.1:6380/0
              siege web --redis-url redis://127.0.0.1:6380/0 --services"""
    import uvicorn

    from siegeworks.web.app import make_app

    async def serve() -> None:
        async with open_log(redis_url) as (log, where, url):
            listening = socket.create_server((host, port))
            bound = listening.getsockname()[1]
            # Pages with a live stream never close it themselves: on SIGTERM they get a few
            # seconds, then the server stops anyway (EventSource reconnects on its own).
            config = uvicorn.Config(make_app(url), log_level="warning", lifespan="on",
                                    timeout_graceful_shutdown=5)
            async with playing(url, log.redis, services if services is not None
                               else not redis_url):
                out.print(f"serving http://{host}:{bound}/ from {where}", highlight=False)
                await uvicorn.Server(config).serve(sockets=[listening])

    run_async(serve())


@contextlib.asynccontextmanager
async def playing(url: str, redis: Redis, run: bool) -> AsyncIterator[None]:
    """The four services for the block, when ``run``: started, healthy, then stopped after it
    (their output in ``<data dir>/service-logs``)."""
    from siegeworks.supervisor import ServiceProcesses

    if not run:
        yield
        return
    logs = data_dir().resolve() / "service-logs"
    async with ServiceProcesses(url, logs).running(redis, timeout_s=60):
        yield
