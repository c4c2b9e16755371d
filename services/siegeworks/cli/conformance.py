"""Checking an outside client against the contract: ``siege conformance``."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Annotated

import msgspec
import typer
from rich import box
from rich.table import Table

from siege.engine.registry import game_names
from siegeworks.cli.app import app
from siegeworks.cli.common import JsonLines, RedisUrl, fail, human_text_to_stderr, out, run_async
from siegeworks.keys import read_keyring
from siegeworks.redis_target import data_dir, open_log

if TYPE_CHECKING:
    from siegeworks.conformance import Verdict


@app.command()
def conformance(
    client: Annotated[str, typer.Option(
        "--client", help="The command that starts your client for one match, with "
        "placeholders {redis} {match} {client} {game} {seat} (also in the environment as "
        "REDIS_URL, SIEGE_MATCH_ID, SIEGE_CLIENT_ID, SIEGE_GAME).")],
    game: Annotated[list[str] | None, typer.Option(
        help="A game to try (repeat for several; default: every hosted game).")] = None,
    clock: Annotated[int, typer.Option(
        min=100, help="Milliseconds the client has for each decision.")] = 10_000,
    join_timeout: Annotated[float, typer.Option(
        min=1, help="Seconds the client has to join its seat.")] = 30.0,
    timeout: Annotated[float, typer.Option(
        min=1, help="Seconds each match may take in all.")] = 300.0,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON line per game on stdout (the table goes to stderr).")] = False,
    redis_url: RedisUrl = None,
) -> None:
    """Offer your client a seat in every game against bots, and report what it did wrong.

    Starts the four services (on an embedded Redis unless REDIS_URL is given), creates one
    match per game with its last seat open, starts your command for it, and judges the client
    by what reached the bus: malformed commands, illegal actions, other rejections, timeouts,
    rejections it ignored, the end of the match, its audit and the client's exit status.
    Exit status 0 when every game passes, 1 otherwise.

    Examples: siege conformance --client 'node clients/js/bot.js --match {match} --client {client}'
              siege conformance --game castellum --clock 2000 --client './bot {redis} {match}'"""
    from siegeworks.conformance import CommandError, Trial, run_trial
    from siegeworks.supervisor import ServiceProcesses

    games = game or game_names()
    unknown = sorted(set(games) - set(game_names()))
    if unknown:
        raise fail(f"unknown game(s) {', '.join(unknown)}; hosted: {', '.join(game_names())}")
    lines = JsonLines(as_json)
    run_id = secrets.token_hex(3)
    trials = [Trial(game=name, match_id=f"conformance-{run_id}-{name}",
                    client=f"kit-{run_id}-{name}", clock_ms=clock) for name in games]

    async def session() -> list[Verdict]:
        async with open_log(redis_url) as (log, where, url):
            out.print(f"siege conformance: {len(trials)} game(s), {clock} ms per decision; "
                      f"Redis in {where}")
            procs = ServiceProcesses(url, data_dir() / "logs")
            verdicts = []
            async with procs.running(log.redis):
                keyring = await read_keyring(log.redis)
                for trial in trials:
                    out.print(f"{trial.game}: match {trial.match_id}, your client "
                              f"{trial.client} on seat {trial.seat}")
                    verdict = await run_trial(log.redis, url, trial, client, keyring,
                                              join_timeout, timeout)
                    lines.emit("verdict", **verdict_fields(verdict))
                    verdicts.append(verdict)
            return verdicts

    with human_text_to_stderr(as_json):
        try:
            verdicts = run_async(session())
        except CommandError as error:
            raise fail(str(error)) from None
        out.print(table(verdicts))
        for verdict in verdicts:
            if not verdict.passed:
                out.print(f"{verdict.game}: " + "; ".join(verdict.problems), highlight=False)
                if verdict.stderr_tail:
                    out.print(f"  the client's last words: {verdict.stderr_tail}",
                              highlight=False, markup=False)
        passed = sum(v.passed for v in verdicts)
        out.print(f"{passed} of {len(verdicts)} game(s) passed")
    if passed != len(verdicts):
        raise typer.Exit(1)


def verdict_fields(verdict: Verdict) -> dict[str, object]:
    fields = msgspec.to_builtins(verdict.__dict__)
    return {**fields, "passed": verdict.passed, "problems": verdict.problems}


def table(verdicts: list[Verdict]) -> Table:
    """One row per game, narrow enough for 80 columns; what failed is listed under it."""
    grid = Table(title="conformance", box=box.SIMPLE, padding=(0, 1), pad_edge=False)
    for column in ("game", "joined", "actions", "rejected", "timeouts", "end", "verdict"):
        grid.add_column(column, no_wrap=True)
    for v in verdicts:
        grid.add_row(v.game, "yes" if v.joined else "no", str(v.decisions),
                     str(sum(v.rejected.values()) + v.malformed), str(v.timeouts),
                     v.reason or "-", "[green]pass[/green]" if v.passed else "[red]FAIL[/red]")
    return grid
