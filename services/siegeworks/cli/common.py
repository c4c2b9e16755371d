"""What every ``siege`` command shares: consoles, the Redis option, clean errors."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
import sys
from collections.abc import Callable, Coroutine, Iterator
from typing import Annotated, Any, TextIO, TypeVar
from urllib.parse import urlsplit

import msgspec
import typer
from redis.asyncio import Redis
from redis.exceptions import AuthenticationError, RedisError
from redis.exceptions import ConnectionError as RedisConnectionError
from rich.console import Console

from siege.bots.registry import UnknownBotError, make_bot
from siege.engine.registry import UnknownGameError, get_engine
from siege.eventlog.embedded import EmbeddedRedisError
from siege.eventlog.keys import valid_client_id
from siegeworks.errors import InputEndedError, JoinRefusedError, ServiceStartError, StalledError
from siegeworks.redis_target import RedisUrlError, check_url, connect


def _whole_lines(stream: TextIO) -> bool:
    """Whether lines to ``stream`` are left whole: into a pipe or a file (a log, grep, a CI
    page) with no COLUMNS given, where rich would cut them at 80 columns without knowing the
    reader's width. At a terminal, or with COLUMNS set, that width."""
    return not stream.isatty() and not os.environ.get("COLUMNS", "").isdigit()


out = Console(soft_wrap=_whole_lines(sys.stdout))
err = Console(stderr=True, soft_wrap=_whole_lines(sys.stderr))

RedisUrl = Annotated[str | None, typer.Option(
    "--redis-url", envvar="REDIS_URL",
    help="Redis holding the match logs; without it an embedded Redis is started.")]


class JsonLines:
    """A command's machine-readable output: one JSON object per line on stdout, each with an
    ``event`` naming what it reports (docs/clients.md, "Finding matches"). Off, it writes
    nothing."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def emit(self, event: str, **fields: Any) -> None:
        if self.on:
            sys.stdout.write(msgspec.json.encode({"event": event, **fields}).decode() + "\n")
            sys.stdout.flush()  # a reader acts on each line as it comes (the match ids first)


def print_json(doc: Any) -> None:
    """``doc`` as JSON on stdout: indented for a person at a terminal, one compact line for a
    pipe or a file."""
    encoded = msgspec.json.encode(doc)
    if sys.stdout.isatty():
        encoded = msgspec.json.format(encoded, indent=2)
    sys.stdout.write(encoded.decode() + "\n")


@contextlib.contextmanager
def human_text_to_stderr(move: bool) -> Iterator[None]:
    """While ``move``, what the command prints for people goes to stderr, leaving stdout to
    its JSON lines."""
    if not move:
        yield
        return
    previous = out.file
    out.file = sys.stderr
    try:
        yield
    finally:
        out.file = previous


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}")
    return typer.Exit(code)


T = TypeVar("T")


class Terminated(Exception):  # noqa: N818 - a signal, not an error of ours
    pass


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


GC_THRESHOLDS = (20_000, 20, 50)
"""The collector's thresholds while a loop runs: a process of ours makes and drops many small
objects per message, and with Python's (700, 10, 10) its young collections ran every few
messages and its full ones paused the whole loop (up to 35 ms) often enough to make the slowest
1% of actions (docs/performance.md: p99 at 100 matches 52-53 ms before, 44-45 after)."""


@contextlib.contextmanager
def collecting_less() -> Iterator[None]:
    """Runs the block with :data:`GC_THRESHOLDS`, everything made before it (modules, tables,
    compiled scripts) frozen out of every collection; puts both back after."""
    previous = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()


def run_loop(work: Coroutine[Any, Any, T]) -> T:
    """Runs ``work`` on uvloop where it is installed (Linux and macOS): measured 8% less CPU
    per action through the four services at 100 matches (docs/performance.md), with the
    same behaviour; the standard loop elsewhere. The collector runs less often meanwhile
    (:func:`collecting_less`)."""
    with collecting_less():
        try:
            import uvloop
        except ImportError:
            return asyncio.run(work)
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(work)


def run_async(work: Coroutine[Any, Any, T]) -> T:
    """Runs a command's coroutine; what goes wrong outside our control becomes a clear error.

    SIGTERM ends the command like Ctrl-C: the coroutine is unwound, so service processes it
    started are stopped rather than left running without it."""
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return run_loop(work)
    except Terminated:
        raise fail("terminated", code=143) from None
    except KeyboardInterrupt:
        raise fail("interrupted (Ctrl-C)", code=130) from None
    except InputEndedError as error:
        raise fail(str(error), code=1) from None
    except RedisUrlError as error:
        raise fail(str(error)) from None
    except RedisConnectionError as error:
        raise fail(auth_problem(error) or f"cannot reach Redis: {error}") from None
    except RedisError as error:
        raise fail(auth_problem(error) or str(error)) from None
    except (EmbeddedRedisError, ServiceStartError, StalledError) as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")) from None
    finally:
        signal.signal(signal.SIGTERM, previous)


def auth_problem(error: RedisError) -> str | None:
    """A password problem said as one, not as the protocol message the server happens to send
    (HELLO, NOAUTH, WRONGPASS); None for any other error."""
    text = str(error)
    if "invalid username-password" in text or "WRONGPASS" in text:
        return ("Redis refused the user name or password in the URL "
                "(redis://USER:PASSWORD@HOST:PORT/0)")
    if isinstance(error, AuthenticationError) or "NOAUTH" in text or (
            "HELLO" in text and "authenticated" in text):
        return ("Redis requires authentication: give the user and password in the URL "
                "(redis://USER:PASSWORD@HOST:PORT/0)")
    return None


DEFAULT_PLAYERS = 4



def default_players(game: str, players: int | None) -> int:
    """The seat count asked for, else 4 brought within what the game allows (an unknown game
    is left for ``check_table`` to name)."""
    if players is not None:
        return players
    try:
        engine = get_engine(game)
    except UnknownGameError:
        return DEFAULT_PLAYERS
    return max(engine.min_players, min(engine.max_players, DEFAULT_PLAYERS))


def check_table(game: str, players: int, bots: str) -> None:
    """A known game, a player count it allows, and bots it has: else a clear error."""
    try:
        engine = get_engine(game)
        for name in bots.split(","):
            make_bot(game, name)
    except (UnknownGameError, UnknownBotError) as error:
        raise fail(str(error)) from None
    if not engine.min_players <= players <= engine.max_players:
        raise fail(f"{game} takes {engine.min_players} to {engine.max_players} players")


ClientId = Annotated[str, typer.Option(
    "--client", help="Your client id (1-64 of A-Z a-z 0-9 _ . -).")]
ServicesRedisUrl = Annotated[str, typer.Option(
    "--redis-url", envvar="REDIS_URL", help="The Redis the services use.")]


def run_as_client(client: str, redis_url: str,
                  play: Callable[[Redis], Coroutine[Any, Any, T]]) -> T:
    """Runs ``play`` as the outside client ``client`` on the services' Redis; a bad id, no
    Redis, a refusal or a timeout become clear errors."""
    if not valid_client_id(client):
        raise fail(f"invalid client id {client!r}: 1-64 of A-Z a-z 0-9 _ . -")
    if not redis_url:
        raise fail("say which Redis the services use: --redis-url or REDIS_URL")

    redis_url = check_url(redis_url)
    user = urlsplit(redis_url).username or ""
    if user.startswith("client-") and user != f"client-{client}":
        # The services take a command's sender from the stream it is written on, and this user
        # may write only its own: say so rather than fail on a refused write.
        raise fail(f"signed in as {user}, who acts only as client {user[7:]!r}: "
                   f"use --client {user[7:]}")

    async def session() -> T:
        redis = connect(redis_url)
        try:
            return await play(redis)
        finally:
            await redis.aclose()

    try:
        return run_async(session())
    except (JoinRefusedError, TimeoutError, UnknownBotError) as error:
        raise fail(str(error), code=1) from None
