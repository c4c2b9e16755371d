"""``siege tournament`` and ``siege standings``."""

from __future__ import annotations

import csv
import io
import secrets
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Literal

import msgspec
import typer
from redis.asyncio import Redis
from rich.table import Table

from siege.contracts.events import Event
from siege.contracts.messages import MatchFinished
from siege.hosting.clock import SystemClock
from siege.tournament.events import EntrantRegistered, EntrantWithdrew
from siege.tournament.standings import (
    BUCHHOLZ,
    COUNTING_RULE,
    MULTIPLAYER_TIEBREAKS,
    OPPONENTS_POINTS,
    SONNEBORN_BERGER,
    TWO_PLAYER_TIEBREAKS,
    StandingRow,
    round_counts,
    standings,
)
from siege.tournament.state import TournamentState, entrant_for, is_tournament
from siege.tournament.store import TournamentStore
from siegeworks.cli.app import app
from siegeworks.cli.common import (
    ClientId,
    JsonLines,
    RedisUrl,
    ServicesRedisUrl,
    check_table,
    fail,
    human_text_to_stderr,
    out,
    print_json,
    run_as_client,
    run_async,
)
from siegeworks.listing import END_REASONS
from siegeworks.redis_target import data_dir, open_log, redacted

if TYPE_CHECKING:
    from siegeworks.tournament_run import TournamentSpec

Output = Literal["table", "json", "csv"]


@app.command()
def tournament(
    game: Annotated[str, typer.Option(help="Game to play.")] = "castle-dash",
    format: Annotated[str, typer.Option(
        "--format", help="swiss, round-robin or elimination.")] = "swiss",
    entrants: Annotated[int, typer.Option(min=2, help="Number of bot entrants.")] = 16,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds (Swiss).")] = 4,
    table_size: Annotated[int, typer.Option(min=2, help="Seats per table.")] = 4,
    bots: Annotated[str, typer.Option(help="Comma-separated bots, cycled over the entrants.")]
    = "greedy,random",
    concurrency: Annotated[int | None, typer.Option(
        min=1, help="Matches played at once (default: a whole round).")] = None,
    seed: Annotated[int | None, typer.Option(
        min=0, help="Seed for a reproducible tournament: the same inputs and seed give the "
        "same tournament (default: a new one, whose seed is printed).")] = None,
    advance: Annotated[int, typer.Option(
        min=0, help="Elimination at tables of 3+: how many of each table go on (0: half).")] = 0,
    pause_after: Annotated[int | None, typer.Option(
        min=0, help="Stop after this round; run the same command again to resume.")] = None,
    outside: Annotated[int, typer.Option(
        min=0, help="How many of the entrants are outside clients, who register over the bus "
        "(RegisterEntrant; `siege register`) before round 1.")] = 0,
    registration_timeout: Annotated[float, typer.Option(
        min=0, help="Seconds to wait for outside clients; then round 1 starts with whoever "
        "has registered.")] = 300.0,
    replay_damaged: Annotated[bool, typer.Option(
        "--replay-damaged", help="First play every damaged table (siege damage) again, "
        "under <table id>-replay<N>; its result then stands for the table.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="JSON Lines on stdout (the tournament id first, each match's result, "
        "the final standings); the usual text goes to stderr.")] = False,
    redis_url: RedisUrl = None,
) -> None:
    """Run (or resume) a tournament of bot entrants (and outside clients) through the
    services.

    A damaged match counts for nobody and the tournament goes on without it; replays happen
    only when asked, on a run or resume with --replay-damaged.

    Examples: siege tournament --entrants 8 --rounds 3 --seed 7
              siege tournament --entrants 8 --seed 7 --pause-after 1   (run again to resume)"""
    from siegeworks.tournament_run import TournamentSpec

    check_table(game, table_size, bots)
    if entrants < table_size:
        raise fail(f"{entrants} entrants cannot fill a table of {table_size}")
    if format not in ("swiss", "round-robin", "elimination"):
        raise fail(f"unknown format {format!r}; choose swiss, round-robin or elimination")
    if outside > entrants:
        raise fail(f"--outside {outside} is more than the {entrants} entrants")
    spec = TournamentSpec(game=game, format=format, entrants=entrants,  # type: ignore[arg-type]
                          rounds=rounds, table_size=table_size, bots=bots.split(","),
                          seed=secrets.randbelow(2**31) if seed is None else seed,
                          concurrency=concurrency, advance=advance, outside=outside,
                          registration_timeout_s=registration_timeout)
    lines = JsonLines(as_json)
    with human_text_to_stderr(as_json):
        out.print(f"tournament {spec.tournament_id()}"
                  + ("" if seed is not None else f" (seed {spec.seed}: give --seed {spec.seed} "
                     "to resume or repeat it)"))
        lines.emit("tournament", tournament_id=spec.tournament_id(), seed=spec.seed,
                   game=game, format=format, entrants=entrants, table_size=table_size)
        run_async(_tournament(spec, redis_url, pause_after, replay_damaged, lines))


async def _tournament(spec: TournamentSpec, redis_url: str | None,
                      pause_after: int | None, replay_damaged: bool = False,
                      lines: JsonLines | None = None) -> None:
    from siegeworks.serve import PROCESSES
    from siegeworks.supervisor import ServiceProcesses
    from siegeworks.tournament_run import run_tournament

    lines = lines or JsonLines(False)
    async with open_log(redis_url) as (log, where, url):
        out.print(f"{spec.entrants} entrants, {spec.format}, {spec.game} tables of "
                  f"{spec.table_size}; logs in {where}")
        if spec.outside:
            out.print(f"outside clients register at {redacted(url)}: "
                      f"siege register {spec.tournament_id()} --client ID", soft_wrap=True)
            lines.emit("registration", tournament_id=spec.tournament_id(), redis=redacted(url),
                       places=spec.outside)
        procs = ServiceProcesses(url, data_dir() / "logs",
                                 {"SIEGE_MASTER_SEED": spec.master_seed().hex()},
                                 services=PROCESSES)
        played = 0

        def on_match(result: MatchFinished) -> None:
            nonlocal played
            played += 1
            lines.emit("finished", match_id=result.match_id, seat_names=result.seat_names,
                       ranks=result.ranks, reason=result.reason)
            if played % max(1, spec.entrants // spec.table_size // 4) == 0:
                out.print(f"  {played} matches finished")

        async with procs.running(log.redis):
            state = await run_tournament(spec, log.redis, SystemClock(), out.print,
                                         pause_after, on_match, replay_damaged)
        await _print_standings(log.redis, state, "table")
        if lines.on:
            assert state.created is not None
            rows = standings(state.entrants, state.order,
                             two_player=state.created.table_size == 2,
                             withdrawn=frozenset(state.withdrawn))
            lines.emit("standings", tournament_id=spec.tournament_id(),
                       finished=state.finished, rows=msgspec.to_builtins(rows))


@app.command()
def withdraw(
    tournament_id: Annotated[str, typer.Argument(help="The tournament's id.")],
    entrant: Annotated[str, typer.Argument(help="The entrant leaving it.")],
    redis_url: RedisUrl = None,
) -> None:
    """Withdraw an entrant: it keeps its standing and is not paired again.

    Example: siege withdraw t-0123456789ab random-3"""
    _amend(tournament_id, redis_url, lambda s: (
        f"{entrant} is not an entrant" if entrant not in s.entrants else
        f"{entrant} has withdrawn already" if entrant in s.withdrawn else None,
        [EntrantWithdrew(entrant=entrant)]))


@app.command()
def enter(
    tournament_id: Annotated[str, typer.Argument(help="The tournament's id.")],
    entrant: Annotated[str, typer.Argument(help="The new entrant's name.")],
    bot: Annotated[str, typer.Option(help="The bot that plays for it.")] = "random",
    redis_url: RedisUrl = None,
) -> None:
    """Enter late: the entrant is paired from the next round on, with no points so far.

    Example: siege enter t-0123456789ab latecomer --bot greedy"""
    def check(s: TournamentState) -> tuple[str | None, list[Event]]:
        assert s.created is not None
        check_table(s.created.game, s.created.table_size, bot)
        problem = f"{entrant} is an entrant already" if entrant in s.entrants else None
        return problem, [EntrantRegistered(entrant=entrant, bot=bot)]

    _amend(tournament_id, redis_url, check)


def tournament_id_only(tournament_id: str) -> None:
    """A match id (or anything else) where a tournament's id belongs: a clear error, never a
    log read with the wrong codec."""
    if not is_tournament(tournament_id):
        raise fail(f"{tournament_id!r} is not a tournament id (t- and 12 hex digits); for a "
                   f"match, see siege replay {tournament_id}")


def _amend(tournament_id: str, redis_url: str | None,
           change: Callable[[TournamentState], tuple[str | None, list[Event]]]) -> None:
    tournament_id_only(tournament_id)

    async def amend() -> None:
        async with open_log(redis_url) as (log, where, _url):
            store = TournamentStore(log, SystemClock())
            state, _, _ = await store.load(tournament_id)
            if state.created is None:
                raise fail(f"no tournament {tournament_id!r} in {where}")
            if state.finished:
                raise fail("the tournament has finished")
            problem, _ = change(state)
            if problem:
                raise fail(problem)
            await store.append_owed(tournament_id, lambda s: change(s)[1]
                                    if change(s)[0] is None else None)
            out.print(f"{tournament_id}: done; it takes effect from the next pairing")

    run_async(amend())


@app.command("standings")
def standings_cmd(
    tournament_id: Annotated[str, typer.Argument(help="The tournament's id.")],
    format: Annotated[str, typer.Option("--format", help="table, json or csv.")] = "table",
    redis_url: RedisUrl = None,
) -> None:
    """Print a tournament's standings (at any time), one row per entrant.

    A forfeit counts as played (the forfeiting seats last); a damaged match counts for nobody
    (no points, not played) and its table may be replayed; the table's footer counts both per
    round.

    Example: siege standings t-0123456789ab --format csv"""
    if format not in ("table", "json", "csv"):
        raise fail(f"unknown output format {format!r}; choose table, json or csv")
    tournament_id_only(tournament_id)

    async def show() -> None:
        async with open_log(redis_url) as (log, where, _url):
            # Through the archives too: a finished tournament's stream may have left Redis.
            state, _, _ = await TournamentStore(log, SystemClock()).load(tournament_id)
            if state.created is None:
                raise fail(f"no tournament {tournament_id!r} in {where}")
            await _print_standings(log.redis, state, format)  # type: ignore[arg-type]

    run_async(show())


async def _print_standings(redis: Redis, state: TournamentState, fmt: Output) -> None:
    from siegeworks.scoring.ratings import change_by_entrant, tournament_changes

    assert state.created is not None
    rows = standings(state.entrants, state.order, two_player=state.created.table_size == 2,
                     withdrawn=frozenset(state.withdrawn))
    change = change_by_entrant(await tournament_changes(redis, state))
    if fmt == "json":
        doc = [{**msgspec.to_builtins(r), "rating_change": round(change.get(r.entrant, 0), 3)}
               for r in rows]
        print_json(doc)
        return
    breaks = list(TWO_PLAYER_TIEBREAKS if state.created.table_size == 2 else MULTIPLAYER_TIEBREAKS)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["rank", "entrant", "points", *breaks, "played", "byes", "withdrawn",
                         "no_show", "rating_change"])
        for r in rows:
            writer.writerow([r.rank, r.entrant, r.points, *(r.tiebreaks.get(b, "") for b in breaks),
                             r.played, r.byes, "true" if r.withdrawn else "false",
                             "true" if r.no_show else "false",
                             round(change.get(r.entrant, 0), 3)])
        sys.stdout.write(buffer.getvalue())
        return
    _table(state, rows, breaks, change)


def _table(state: TournamentState, rows: list[StandingRow], breaks: list[str],
           change: dict[str, float]) -> None:
    done = "final" if state.finished else f"after round {state.current_round}"
    table = Table(title=f"{state.tid} standings ({done})")
    # Short headers, so the table fits 80 columns; the footer says what each tie-break is.
    for column in ("rank", "entrant", "points", *(SHORT.get(b, b) for b in breaks), "played",
                   "byes", "rating"):
        table.add_column(column, no_wrap=True)
    for r in rows:
        marks = [word for word, on in (("withdrawn", r.withdrawn), ("no-show", r.no_show)) if on]
        table.add_row(str(r.rank), r.entrant + (f" ({', '.join(marks)})" if marks else ""),
                      f"{r.points:g}", *(f"{r.tiebreaks.get(b, 0):g}" for b in breaks),
                      str(r.played), str(r.byes), f"{change.get(r.entrant, 0):+.2f}")
    out.print(table)
    out.print("tie-breaks: " + "; ".join(f"{SHORT.get(b, b)} = {MEANING[b]}" for b in breaks)
              + "; rating = the rating change over this tournament", soft_wrap=True)
    for line in counts_footer(state):
        out.print(line, soft_wrap=True)


SHORT = {BUCHHOLZ: "buchholz", SONNEBORN_BERGER: "s-b", OPPONENTS_POINTS: "opp pts"}
MEANING = {BUCHHOLZ: "the sum of the opponents' points",
           SONNEBORN_BERGER: "the points of the opponents beaten, plus half of those drawn",
           OPPONENTS_POINTS: "the sum of the points of everyone met at a table"}


def counts_footer(state: TournamentState) -> list[str]:
    """Per round, how its matches ended; then the rule by which each kind counts."""
    lines = []
    for c in round_counts(state.order):
        still = sum(1 for r in state.damaged_tables() if r.round == c.round)
        lines.append(f"round {c.round}: {c.matches} matches, {c.forfeited} forfeited, "
                     f"{c.damaged} damaged ({still} not replayed), {c.replayed} replays")
    lines.append(f"counting: {COUNTING_RULE}")
    return lines


@app.command()
def register(
    tournament_id: Annotated[str, typer.Argument(help="A tournament open for registration.")],
    client: ClientId,
    bot: Annotated[str, typer.Option(help="The bot that plays your matches.")] = "random",
    human: Annotated[bool, typer.Option(
        "--human", help="Play your matches yourself at this terminal, one table after "
        "another, with the same screen as siege play.")] = False,
    timeout: Annotated[float, typer.Option(help="Give up after this many seconds.")] = 3600.0,
    redis_url: ServicesRedisUrl = "",
) -> None:
    """Enter a tournament as an outside client and play every match you are seated at.

    Examples: siege register t-0123456789ab --client alice --bot greedy
              siege register t-0123456789ab --client alice --human"""
    from siegeworks.clients.human import HumanSeat, Lines
    from siegeworks.clients.joiner import enter_and_play

    tournament_id_only(tournament_id)
    lines = Lines()
    person = (lambda bus, grant: HumanSeat(bus, client, grant.game, grant.seat, lines)) \
        if human else None
    results = run_as_client(client, redis_url, lambda redis: enter_and_play(
        redis, client, tournament_id, bot, client.encode(), timeout, make_player=person))
    me = entrant_for(client)
    for match_id, result in sorted(results.items()):
        out.print(f"{match_id}: {_placed(result, me)}", highlight=False)
    out.print(f"{tournament_id} over: {len(results)} matches played", highlight=False)


def _placed(result: MatchFinished, entrant: str) -> str:
    """How a match went for one entrant: "you placed 2 of 4 (a clock ran out)"."""
    why = END_REASONS.get(result.reason, result.reason)
    if entrant in result.seat_names and result.ranks:
        seat = result.seat_names.index(entrant)
        return f"you placed {result.ranks[seat]} of {len(result.ranks)} ({why})"
    return why
