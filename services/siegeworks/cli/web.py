"""``siege web``: the web gateway, pages for people over the same store."""

from __future__ import annotations

import socket
from typing import Annotated

import typer

from siegeworks.cli.app import app
from siegeworks.cli.common import RedisUrl, out, run_async
from siegeworks.redis_target import open_log


@app.command()
def web(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free "
                                      "one, printed).")] = 8080,
    redis_url: RedisUrl = None,
) -> None:
    """Serve the web pages: tournaments with live standings, the matches, a replay viewer for
    any match and a spectator's view of a running one. Until Ctrl-C.

    Examples: siege web
              siege web --port 9000 --redis-url redis://127.0.0.1:6380/0"""
    import uvicorn

    from siegeworks.web.app import make_app

    async def serve() -> None:
        async with open_log(redis_url) as (_log, where, url):
            listening = socket.create_server((host, port))
            bound = listening.getsockname()[1]
            # Pages with a live stream never close it themselves: on SIGTERM they get a few
            # seconds, then the server stops anyway (EventSource reconnects on its own).
            config = uvicorn.Config(make_app(url), log_level="warning", lifespan="on",
                                    timeout_graceful_shutdown=5)
            out.print(f"serving http://{host}:{bound}/ from {where}", highlight=False)
            await uvicorn.Server(config).serve(sockets=[listening])

    run_async(serve())
