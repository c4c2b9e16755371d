"""``siege dead``: the dead-letter stream (``siege:dead``) for an operator: list, show, replay,
drop (see ``siegeworks.transport.dead_letters``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

import typer
from redis.asyncio import Redis
from rich.markup import escape
from rich.table import Table

from siegeworks.cli.app import app
from siegeworks.cli.common import err, fail, out, run_async
from siegeworks.redis_target import connect
from siegeworks.transport import dead_letters
from siegeworks.transport.dead_letters import DeadLetter, DeadLetterError

dead_app = typer.Typer(invoke_without_command=True, help=(
    "The dead letters: bus entries the services gave up on (undecodable, or a handler that "
    "kept failing), with where they came from and why. List and show them, replay them onto "
    "the stream they came from, or drop them."))
app.add_typer(dead_app, name="dead", short_help="Dead letters: list, show, replay or drop "
              "what the services gave up on.")
COMMANDS = "list, show, replay or drop"

OperatorUrl = Annotated[str | None, typer.Option(
    "--redis-url", envvar="REDIS_URL", show_default=False,
    help="The services' Redis, as a user allowed to read and write the services' streams, "
    "e.g. redis://operator:PASSWORD@HOST:6379/0.")]
DeadId = Annotated[str, typer.Argument(show_default=False,
                                       help="A dead letter's id, as siege dead list shows it.")]

T = TypeVar("T")


@dead_app.callback()
def dead(ctx: typer.Context) -> None:
    """Without a command, say which there are."""
    if ctx.invoked_subcommand is None:
        raise fail(f"say what to do: siege dead {COMMANDS} (siege dead --help)")


def _on_redis(redis_url: str | None, work: Callable[[Redis], Coroutine[Any, Any, T]]) -> T:
    """Runs ``work`` on the services' Redis; a dead letter that cannot be is a one-line error."""
    if not redis_url:
        raise fail("say which Redis the services use: --redis-url or REDIS_URL")

    async def session() -> T:
        redis = connect(redis_url)
        try:
            return await work(redis)
        finally:
            await redis.aclose()

    try:
        return run_async(session())
    except DeadLetterError as error:
        raise fail(str(error)) from None


def _when(letter: DeadLetter) -> str:
    return datetime.fromtimestamp(letter.at_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")


@dead_app.command("list")
def list_cmd(
    limit: Annotated[int | None, typer.Option(
        "--limit", min=1, help="Only the newest N.", show_default=False)] = None,
    redis_url: OperatorUrl = None,
) -> None:
    """List the dead letters, oldest first.

    Each with its id, the stream and group it came from, why, when (UTC), its size and what it
    is (the message's type and match id, when it decodes).

    Example: REDIS_URL=redis://operator:PASSWORD@redis:6379/0 siege dead list --limit 20"""
    letters = _on_redis(redis_url, lambda r: dead_letters.list_dead(r, limit))
    if not letters:
        out.print("no dead letters")
        return
    table = Table("id", "stream", "group", "reason", "when (UTC)", "bytes", "message",
                  box=None, pad_edge=False)
    for letter in letters:
        table.add_row(letter.id, escape(letter.stream), escape(letter.group),
                      escape(letter.reason), _when(letter), str(letter.size),
                      escape(letter.summary()))
    out.print(table, soft_wrap=True)


@dead_app.command("show")
def show(dead_id: DeadId, redis_url: OperatorUrl = None) -> None:
    """Show everything a dead letter holds, as JSON.

    Where it came from, why, its fields, and the message decoded (null if it does not decode).

    Example: siege dead show 1700000000000-0 --redis-url redis://operator:PASSWORD@redis:6379"""
    letter = _on_redis(redis_url, lambda r: dead_letters.get_dead(r, dead_id))
    out.print_json(json.dumps(letter.as_json()))


@dead_app.command("replay")
def replay(
    dead_ids: Annotated[list[str] | None, typer.Argument(
        show_default=False, help="Dead letters' ids, as siege dead list shows them.")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every dead letter (those that cannot "
                                       "be replayed are kept and named).")] = False,
    redis_url: OperatorUrl = None,
) -> None:
    """Write dead letters back onto the stream they came from, and delete them here.

    They become new entries the services read again (a client's commands go back on its own
    stream). Refused for a stream that no longer exists or is not a stream. Fix the cause
    first: an entry that still fails comes back dead.

    Example: siege dead replay 1700000000000-0 1700000000000-1 (or: siege dead replay --all)"""
    if bool(dead_ids) == all_:
        raise fail("say which: dead letter ids, or --all")

    async def work(redis: Redis) -> tuple[list[tuple[DeadLetter, str]], list[str]]:
        if not all_:
            letters = [await dead_letters.get_dead(redis, i) for i in dead_ids or ()]
            return await dead_letters.replay(redis, letters), []
        kept, good = [], []
        for letter in await dead_letters.list_dead(redis):
            try:
                await dead_letters.check_replayable(redis, letter)
            except DeadLetterError as error:
                kept.append(str(error))
                continue
            good.append(letter)
        return await dead_letters.replay(redis, good), kept

    done, kept = _on_redis(redis_url, work)
    for letter, new_id in done:
        out.print(f"replayed {letter.id} onto {escape(letter.stream)} as {new_id}",
                  soft_wrap=True, highlight=False)
    for reason in kept:
        err.print(f"[yellow]kept:[/yellow] {escape(reason)}", soft_wrap=True, highlight=False)
    if not done and not kept:
        out.print("no dead letters")
    if kept:
        raise typer.Exit(1)


@dead_app.command("drop")
def drop(
    dead_ids: Annotated[list[str], typer.Argument(
        show_default=False, help="Dead letters' ids, as siege dead list shows them.")],
    redis_url: OperatorUrl = None,
) -> None:
    """Delete dead letters for good.

    Every id must exist, or nothing is deleted.

    Example: siege dead drop 1700000000000-0 --redis-url redis://operator:PASSWORD@redis:6379"""
    count = _on_redis(redis_url, lambda r: dead_letters.drop(r, dead_ids))
    out.print(f"dropped {count} dead letter{'s' if count != 1 else ''}")
