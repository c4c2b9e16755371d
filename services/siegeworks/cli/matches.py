"""Playing matches: ``siege games``, ``run``, ``play`` and ``join``.

The runners, the clients and the service supervisor are imported by the commands that use
them: every ``siege`` command imports this module, and they would double its start-up time."""

from __future__ import annotations

import asyncio
import getpass
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer
from redis.asyncio import Redis
from rich.table import Table

from siege.bots.registry import bot_names
from siege.contracts.messages import MAX_DISPLAY_NAME, MatchFinished
from siege.engine.registry import game_names, get_engine
from siege.hosting.clocks import MAX_TIMEOUT_MS
from siegeworks.cli.app import app
from siegeworks.cli.common import (
    ClientId,
    JsonLines,
    RedisUrl,
    ServicesRedisUrl,
    check_table,
    default_players,
    fail,
    human_text_to_stderr,
    out,
    run_as_client,
    run_async,
)
from siegeworks.cli.options import Decks, game_options
from siegeworks.keys import read_keyring
from siegeworks.listing import END_REASONS
from siegeworks.redis_target import data_dir, open_log, redacted

if TYPE_CHECKING:
    from siegeworks.runner import RunConfig, RunResult


@app.command()
def games() -> None:
    """List the hosted games, their player counts and their bots.

    Example: siege games"""
    for name in game_names():
        engine = get_engine(name)
        out.print(f"{name}: {engine.min_players}-{engine.max_players} players; "
                  f"bots: {', '.join(bot_names(name))}")


@app.command()
def run(
    game: Annotated[str, typer.Option(help="Game to play.")] = "castle-dash",
    matches: Annotated[int, typer.Option(min=1, help="Number of matches.")] = 20,
    players: Annotated[int | None, typer.Option(
        min=1, help="Seats per match (default: 4, or the nearest count the game allows).")]
    = None,
    bots: Annotated[str, typer.Option(help="Comma-separated bots, cycled over the seats.")]
    = "greedy,random",
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible run.")] = None,
    fixed_clock: Annotated[int | None, typer.Option(
        min=0, help="Stamp every event with this time (ms) instead of the clock.")] = None,
    in_process: Annotated[bool, typer.Option(
        help="Run the four services' handlers in this process over an in-memory bus.")] = False,
    open_seats: Annotated[int, typer.Option(
        min=0, help="Leave the last N seats of each match for outside clients to join "
        "(JoinMatch; see docs/clients.md). Waits for them.")] = 0,
    decks: Decks = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="JSON Lines on stdout for scripts and clients (the match ids first, "
        "then each result and audit, then a summary); the usual text goes to stderr.")]
    = False,
    redis_url: RedisUrl = None,
) -> None:
    """Play bot matches, store their logs in Redis, and audit every one.

    Examples: siege run --game castle-assault --matches 10 --bots greedy,random --seed 7
              siege run --open-seats 1 --json | jq -r 'select(.event=="matches").match_ids[]'"""
    from siegeworks.runner import RunConfig

    players = default_players(game, players)
    check_table(game, players, bots)
    options = game_options(game, players, decks)
    if open_seats and in_process:
        raise fail("--open-seats needs the services: outside clients cannot reach one process")
    if open_seats >= players:
        raise fail(f"--open-seats {open_seats} leaves no seat for a bot; at most {players - 1}")
    cfg = RunConfig(game=game, matches=matches, players=players, bots=bots.split(","),
                    seed=seed, fixed_clock_ms=fixed_clock, open_seats=open_seats,
                    options=options)
    with human_text_to_stderr(as_json):
        failed = run_async(_run(cfg, redis_url, in_process, JsonLines(as_json)))
    if failed:
        raise typer.Exit(1)


async def _run(cfg: RunConfig, redis_url: str | None, in_process: bool,
               lines: JsonLines) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from siegeworks.runner import audit_match, play_matches

    async with open_log(redis_url) as (log, where, url):
        lines.emit("matches", game=cfg.game, players=cfg.players, seed=cfg.seed,
                   open_seats=cfg.open_seats, redis=redacted(url),
                   match_ids=[cfg.match_id(i) for i in range(cfg.matches)])
        mode = "in one process" if in_process else "through the match, rules, dice and scoring"\
            " services"
        out.print(f"siege run: {cfg.matches} x {cfg.game}, {cfg.players} players, "
                  f"bots {','.join(cfg.seat_bots())}, "
                  f"{'unseeded' if cfg.seed is None else f'seed {cfg.seed}'}, {mode}; "
                  f"logs in {where}")
        with Progress(TextColumn("matches"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=out, transient=False) as progress:
            task = progress.add_task("play", total=cfg.matches)
            done = 0
            every = max(1, cfg.matches // 10)
            ended: set[str] = set()

            def advance(result: MatchFinished) -> None:
                nonlocal done
                done += 1
                ended.add(result.match_id)
                lines.emit("finished", match_id=result.match_id, game=result.game,
                           seat_names=result.seat_names, ranks=result.ranks,
                           reason=result.reason)
                progress.advance(task)
                if not out.is_terminal and (done % every == 0 or done == cfg.matches):
                    # A log file gets a line now and then instead of a bar it cannot redraw.
                    out.print(f"finished {done}/{cfg.matches}: {result.match_id}")
            try:
                if in_process:
                    result = await play_matches(cfg, log, on_finished=advance)
                else:
                    result = await _run_services(cfg, url, log.redis, advance)
            except asyncio.CancelledError:  # Ctrl-C or SIGTERM: say what is left behind
                left = [cfg.match_id(i) for i in range(cfg.matches)
                        if cfg.match_id(i) not in ended]
                out.print(left_behind(cfg, len(ended), left, in_process), soft_wrap=True)
                lines.emit("interrupted", finished=sorted(ended), unfinished=left)
                raise
        _print_results(result.finished)
        keyring = (result.wired.keyring if result.wired is not None
                   else await read_keyring(log.redis))
        failed = 0
        for match_id in result.match_ids:
            report = await audit_match(log, match_id, keyring)
            failed += not report.ok or report.seal != "verified"
            out.print(report.line())
            lines.emit("audited", match_id=match_id, ok=report.ok, state=report.state,
                       events=report.events, seal=report.seal, sealed_by=report.sealed_by,
                       failed_seq=report.failure.seq if report.failure else 0,
                       reason=report.failure.reason if report.failure else "")
        unfinished = len(result.match_ids) - len(result.finished)
        lines.emit("summary", finished=len(result.finished), unfinished=unfinished,
                   audits_passed=len(result.match_ids) - failed, audits_failed=failed)
        out.print(f"{len(result.finished)} finished, {unfinished} unfinished, "
                  f"{len(result.match_ids) - failed} audits passed, {failed} failed")
        return failed + unfinished


def _service_env(cfg: RunConfig) -> dict[str, str]:
    """What a seeded or fixed-clock run tells the services it starts."""
    env = {}
    if cfg.seed is not None:
        env["SIEGE_MASTER_SEED"] = cfg.master_seed().hex()  # type: ignore[union-attr]
    if cfg.fixed_clock_ms is not None:
        env["SIEGE_FIXED_CLOCK_MS"] = str(cfg.fixed_clock_ms)
    return env


async def _run_services(cfg: RunConfig, url: str, redis: Redis,
                        advance: Callable[[MatchFinished], None]) -> RunResult:
    from siegeworks.remote_run import play_remote
    from siegeworks.serve import PROCESSES, read_health
    from siegeworks.supervisor import ServiceProcesses

    # The four services, and the archiver that moves finished matches out of Redis.
    procs = ServiceProcesses(url, data_dir() / "logs", _service_env(cfg), services=PROCESSES)
    try:
        async with procs.running(redis):
            out.print("services up: " + ", ".join(
                f"{h.service} (pid {h.pid})" for h in await read_health(redis)))
            if cfg.open_seats:
                out.print(f"waiting for outside clients on {cfg.open_seats} open seat(s) of "
                          f"each match (JoinMatch on each client's own commands stream at "
                          f"{redacted(url)}); "
                          "match ids: "
                          + ", ".join(cfg.match_id(i) for i in range(cfg.matches)),
                          soft_wrap=True)
            # Outside clients may take their time to join: only the bots' own clocks apply.
            stall = float("inf") if cfg.open_seats else 60.0
            return await play_remote(cfg, redis, advance, stall_timeout_s=stall)
    finally:
        out.print("services stopped: " + ", ".join(
            f"{s} exit {c}" for s, c in procs.exit_codes.items()))


UNITS_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000}


def clock_ms(text: str) -> int | None:
    """``--clock`` in milliseconds: ``none`` is the longest clock a match may have (a week),
    else a number and a unit (ms, s, m, h; seconds without one); None when it is no time."""
    text = text.strip().lower()
    if text in ("none", "off"):
        return MAX_TIMEOUT_MS
    number = text.rstrip("mshd")
    unit = text[len(number):] or "s"
    if not number.isdigit() or unit not in UNITS_MS:
        return None
    value = int(number) * UNITS_MS[unit]
    return value if 1 <= value <= MAX_TIMEOUT_MS else None


def left_behind(cfg: RunConfig, finished: int, left: list[str], in_process: bool) -> str:
    """What an interrupted run leaves: which matches did not end, and what becomes of them."""
    if not left:
        return f"interrupted after all {finished} matches finished"
    fate = ("they were in this process only and are lost" if in_process else
            "their logs stay in Redis; the next time the services run, their clocks run out "
            "and they end as forfeits (the results table says so)")
    shown = ", ".join(left[:5]) + (f" and {len(left) - 5} more" if len(left) > 5 else "")
    return (f"interrupted: {finished} of {cfg.matches} matches finished, {len(left)} did not "
            f"({shown}); {fate}")


def _print_results(finished: list[MatchFinished]) -> None:
    table = Table(title="results")
    table.add_column("match")
    table.add_column("end")
    table.add_column("winner(s)")
    table.add_column("ranking")
    wins: dict[str, float] = {}
    for result in finished:
        winners = [n for n, r in zip(result.seat_names, result.ranks, strict=True) if r == 1]
        order = sorted(zip(result.ranks, result.seat_names, strict=True))
        table.add_row(result.match_id, result.reason, ", ".join(winners),
                      "  ".join(f"{rank}. {name}" for rank, name in order))
        for name in winners:
            bot = name.rsplit("-", 1)[0]
            wins[bot] = wins.get(bot, 0) + 1 / len(winners)
    out.print(table)
    if finished:
        out.print("wins by bot: " + ", ".join(
            f"{bot} {count:g}" for bot, count in sorted(wins.items())))


def seat_name_of(given: str | None) -> str:
    """The person's seat name: the one given, else the login name; never "you", which every
    other reader (spectators, replays, the other seats) would read as themselves."""
    name = " ".join((given if given is not None else login_name()).split())
    if not name:
        raise fail("--name: give a name of at least one letter")
    if len(name) > MAX_DISPLAY_NAME or name.casefold() == "you":
        raise fail(f"--name {name!r}: give a name of 1 to {MAX_DISPLAY_NAME} characters, "
                   "not \"you\"")
    return name


def login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no such user in the password database (a container)
        return "player"


@app.command()
def play(
    game: Annotated[str, typer.Option(help="Game to play.")] = "castle-dash",
    players: Annotated[int | None, typer.Option(
        min=1, help="Seats, yours included (default: 4, or the nearest count the game "
        "allows).")] = None,
    seat: Annotated[int, typer.Option(min=0, help="Your seat.")] = 0,
    bots: Annotated[str, typer.Option(
        help="Comma-separated bots for the other seats, cycled.")] = "greedy,random",
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible match.")] = None,
    in_process: Annotated[bool, typer.Option(
        help="Run the services' handlers in this process instead of as processes.")] = False,
    clock: Annotated[str, typer.Option(
        help="Time for each decision: 90s, 10m, 1h, or none (a casual game: a week).")]
    = "none",
    decks: Decks = None,
    name: Annotated[str | None, typer.Option(
        help="Your seat's name, as everyone else reads it (default: your login name); your "
             "own screen says \"you\".", show_default=False)] = None,
    auto: Annotated[bool, typer.Option(
        "--auto/--no-auto", help="Take a decision with a single choice by itself, and say "
                                 "so.")] = False,
    redis_url: RedisUrl = None,
) -> None:
    """Play one match at this terminal against bots, over the bus like any other client.

    Each prompt tells what happened since your last turn, draws the board and shows your
    clock, which counts down while you think (the last word 10 seconds before it runs out).
    Type a number to act, ? for help, rules for the game's rules, or resign to give the
    match up; Ctrl-C leaves.

    Examples: siege play --game castellum --players 3 --seat 1;
    siege play --game storm-the-castle --clock 10m --auto --name Ada"""
    from siegeworks.clients.human import HumanSeat
    from siegeworks.remote_run import play_human_remote
    from siegeworks.runner import RunConfig, audit_match, play_with_human
    from siegeworks.supervisor import ServiceProcesses

    players = default_players(game, players)
    check_table(game, players, bots)
    if seat >= players:
        raise fail(f"seat {seat} is not one of the {players} seats")
    allowed = clock_ms(clock)
    if allowed is None:
        raise fail(f"--clock {clock!r}: give a time such as 90s, 10m or 1h, or none")
    shown_as = seat_name_of(name)
    if in_process and allowed != MAX_TIMEOUT_MS:
        raise fail("--clock needs the services: one process keeps no clocks")
    cfg = RunConfig(game=game, matches=1, players=players, bots=bots.split(","), seed=seed,
                    options={**game_options(game, players, decks),
                             "decision_timeout_ms": str(allowed)})

    async def session() -> None:
        async with open_log(redis_url) as (log, _where, url):
            if in_process:
                result = await play_with_human(
                    cfg, log, seat, lambda bus, client, recap: HumanSeat(
                        bus, client, game, seat, recap=recap, auto=auto), shown_as)
            else:
                procs = ServiceProcesses(url, data_dir() / "logs", _service_env(cfg))
                async with procs.running(log.redis):
                    out.print("you play over the bus, through the match, rules, dice and "
                              "scoring services")
                    result = await play_human_remote(cfg, log.redis, seat, shown_as, auto)
            if not result.finished:
                out.print("the match did not finish")
                return
            ended = result.finished[0]
            why = END_REASONS.get(ended.reason, ended.reason)
            place = (f"you placed {ended.ranks[seat]} of {players}" if ended.ranks
                     else "no result")
            out.print(f"\nmatch {result.match_ids[0]} over ({why}): {place}", highlight=False)
            table = Table(title="final table")
            for column in ("place", "seat", "name"):
                table.add_column(column)
            for rank, number, name in sorted(zip(ended.ranks, range(players),
                                                 ended.seat_names, strict=False)):
                table.add_row(str(rank), str(number) + (" (you)" if number == seat else ""),
                              name)
            out.print(table)
            keyring = (result.wired.keyring if result.wired is not None
                       else await read_keyring(log.redis))
            out.print((await audit_match(log, result.match_ids[0], keyring)).line())

    run_async(session())


@app.command()
def join(
    match_id: Annotated[str, typer.Argument(help="A match with open seats.")],
    client: ClientId,
    bot: Annotated[str, typer.Option(help="The bot that plays your seat.")] = "random",
    seat: Annotated[int, typer.Option(help="The seat to claim; -1 for any open one.")] = -1,
    timeout: Annotated[float, typer.Option(help="Give up after this many seconds.")] = 300.0,
    redis_url: ServicesRedisUrl = "",
) -> None:
    """Join an open seat of a running match as an outside client and play it with a bot.

    Example: siege join castle-dash-s1-00000 --client alice --bot greedy"""
    from siegeworks.clients.joiner import join_and_play

    result = run_as_client(client, redis_url, lambda redis: join_and_play(
        redis, client, match_id, bot, client.encode(), seat, timeout))
    out.print(f"{match_id} over: ranks {result.ranks}")
