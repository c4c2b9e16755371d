"""A match's log: ``siege export``, ``audit`` and ``replay``."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import msgspec
import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from siege.contracts.events import Event
from siege.engine.protocol import SPECTATOR
from siege.engine.registry import presentation
from siege.hosting.audit import AuditFailure, AuditReport
from siege.hosting.bulk import Verdict, audit_many, default_jobs, match_verdict, tournament_verdict
from siege.hosting.clock import SystemClock
from siege.hosting.export import Entry, ExportFormatError, dump, read_export, write_export
from siege.hosting.match_state import MatchState
from siege.hosting.narration import Narrator
from siege.hosting.replay import ReplayError, fold_to, replay_to
from siege.hosting.signing import Keyring, keyring_decoder
from siege.tournament.state import is_tournament
from siege.tournament.store import TournamentStore
from siegeworks.cli.app import app
from siegeworks.cli.common import RedisUrl, err, fail, out, run_async
from siegeworks.keys import read_keyring
from siegeworks.redis_target import open_log


async def _entries(source: str, redis_url: str | None) -> list[Entry]:
    path = Path(source)
    if path.is_file():
        return read_export(path)  # type: ignore[return-value]
    if is_tournament(source):
        raise fail(f"{source!r} is a tournament, not a match: see siege standings {source}")
    async with open_log(redis_url) as (log, where, _url):
        entries = await log.read(source)
    if not entries:
        raise fail(f"no file and no match named {source!r} in {where}")
    return entries


@app.command()
def export(
    match_ids: Annotated[list[str] | None, typer.Argument(
        help="Match to export (with --parquet: matches, none for every one, live or archived).",
        show_default=False)] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="File to write; - for "
                                                "standard output.")] = None,
    parquet: Annotated[Path | None, typer.Option(
        "--parquet", help="Write the matches as Parquet tables (matches, seats, actions, "
        "results) into this folder instead.")] = None,
    redis_url: RedisUrl = None,
) -> None:
    """Write a match's full log to a file (JSON Lines; see docs/export-format.md), or matches
    as Parquet tables for analysis (DuckDB, pandas, polars), live and archived alike.

    Examples: siege export castle-dash-s7-00000 -o match.jsonl;
    siege export --parquet tables/ (then: duckdb -c "select game, count(*) from
    'tables/matches.parquet' group by game")"""
    named = list(match_ids or [])
    if parquet is not None:
        if output is not None:
            raise fail("give -o FILE (one match's log) or --parquet DIR (tables), not both")
        _export_tables(named, parquet, redis_url)
        return
    if len(named) != 1 or output is None:
        raise fail("siege export MATCH_ID -o FILE writes one match's log (or use --parquet "
                   "DIR for tables of many)")
    match_id = named[0]
    entries = run_async(_entries(match_id, redis_url))
    if str(output) == "-":
        sys.stdout.buffer.write(dump(entries))  # type: ignore[arg-type]
        return
    try:
        write_export(output, entries)  # type: ignore[arg-type]
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}") from None
    out.print(f"wrote {len(entries)} events of {match_id} to {output}")


def _export_tables(named: list[str], folder: Path, redis_url: str | None) -> None:
    from siege.hosting.tables import TableRows, write_parquet

    rows = TableRows()

    async def gather() -> int:
        async with open_log(redis_url) as (log, where, _url):
            ids = named or [m for m in await log.match_ids() if not is_tournament(m)]
            with Progress(TextColumn("export"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=err, transient=True) as progress:
                task = progress.add_task("export", total=len(ids))
                for match_id in ids:
                    entries = await log.read(match_id)
                    if not entries and named:
                        raise fail(f"no match named {match_id!r} in {where}")
                    rows.add(match_id, entries)
                    progress.advance(task)
            return len(ids)

    asked = run_async(gather())
    try:
        counts = write_parquet(folder, rows)
    except OSError as error:
        raise fail(f"cannot write {folder}: {error.strerror or error}") from None
    tables = ", ".join(f"{name} {count}" for name, count in counts.items())
    out.print(f"wrote {counts.get('matches', 0)} of {asked} matches to {folder} as Parquet "
              f"({tables} rows)", highlight=False)
    for match_id, why in rows.skipped:
        err.print(f"skipped {match_id}: {why}", highlight=False, markup=False)


@app.command("audit")
def audit_cmd(
    sources: Annotated[list[str], typer.Argument(
        help="Export files, folders of them (*.jsonl), match ids or tournament ids (every "
        "match the tournament recorded, each checked against the head it recorded).",
        show_default=False)],
    keys: Annotated[Path | None, typer.Option(
        "--keys", help="The signing keys to trust (siege keys show --json); by default those "
        "published in the Redis of --redis-url.")] = None,
    allow_unsigned: Annotated[bool, typer.Option(
        "--allow-unsigned", help="Accept a log without the server's seal (exit 0 if the rest "
        "holds).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per log: what was "
                                          "proved, or the first bad seq and why.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="Processes auditing in "
                                      "parallel; 0 = one per core.")] = 0,
    redis_url: RedisUrl = None,
) -> None:
    """Re-verify matches from their logs alone: the hash chain, the seed commitment and every
    draw, the legality of every action, the result, the order of times and every timeout
    against its deadline, and the server's seal. Exit 0 when every log is valid, 1 naming the
    first bad seq of each that is not (or when a log is unsigned, unless --allow-unsigned).

    Examples: siege audit castle-dash-s7-00000; siege audit match.jsonl --keys keys.json;
    siege audit exports/ t-0123456789ab --json"""
    try:
        broken: dict[int, AuditReport] = {}
        streams: list[tuple[str, list[Entry]]] = []
        found = run_async(_gather(sources, redis_url, keys is None, broken, streams))
    except ExportFormatError as error:  # a single file: its line is named
        out.print(f"audit {sources[0]}: FAILED at seq {error.seq}: {error.reason}")
        raise typer.Exit(1) from None
    logs, keyring = found
    if keys is not None:
        keyring = _keyring(keys)
    started = time.perf_counter()
    todo = [i for i in range(len(logs)) if i not in broken]
    wanted = [logs[i][1] for i in todo]
    if len(logs) > 1 and not as_json:
        with Progress(TextColumn("audit"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err, transient=True) as progress:
            task = progress.add_task("audit", total=len(wanted))
            audited = audit_many(wanted, keyring, jobs, lambda i, r: progress.advance(task))
    else:
        audited = audit_many(wanted, keyring, jobs)
    elapsed = time.perf_counter() - started
    by_place = {**broken, **dict(zip(todo, audited, strict=True))}
    reports = [by_place[i] for i in range(len(logs))]
    verdicts = [match_verdict(source, report, anchor, entries, allow_unsigned)
                for (source, entries, anchor), report in zip(logs, reports, strict=True)]
    verdicts += [tournament_verdict(name, entries, keyring, allow_unsigned)
                 for name, entries in streams]
    if as_json:
        for verdict in verdicts:
            typer.echo(msgspec.json.encode(verdict).decode())
    elif len(verdicts) == 1:
        _print_one(reports[0], verdicts[0])
    else:
        _print_table(verdicts, elapsed, jobs or default_jobs())
    raise typer.Exit(0 if all(v.ok for v in verdicts) else 1)


def _print_one(report: AuditReport, verdict: Verdict) -> None:
    out.print(report.line())
    if report.ok and not verdict.ok:
        out.print(f"audit {report.match_id}: {verdict.reason}")


def _print_table(verdicts: list[Verdict], elapsed: float, cores: int) -> None:
    table = Table("match", "events", "result", "proved", "status")
    for v in verdicts:
        status = "[green]OK[/green]" if v.ok else (
            f"[red]FAILED at seq {v.failed_seq}[/red]: {v.reason}" if v.failed_seq
            else f"[red]FAILED[/red]: {v.reason}")
        table.add_row(v.match_id or v.source, str(v.events), v.state, ", ".join(v.proved),
                      status)
    out.print(table)
    passed = sum(v.ok for v in verdicts)
    rate = len(verdicts) / elapsed if elapsed > 0 else 0.0
    out.print(f"{len(verdicts)} audited: {passed} passed, {len(verdicts) - passed} failed "
              f"({rate:.0f} matches/s on {min(cores, len(verdicts))} processes)")


async def _gather(sources: list[str], redis_url: str | None, want_keys: bool,
                  broken: dict[int, AuditReport], streams: list[tuple[str, list[Entry]]]
                  ) -> tuple[list[tuple[str, list[Entry], str | None]], Keyring]:
    """Every log named (source, entries, the head a tournament recorded for it or None), and
    the published keys (when wanted). An export file that does not parse goes in ``broken``
    (by its place), its report the failure; a tournament's own stream goes in ``streams``."""
    files: list[tuple[str, Path]] = []
    names: list[str] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(path.glob("*.jsonl"))
            if not found:
                raise fail(f"{source} holds no export files (*.jsonl)")
            files.extend((str(p), p) for p in found)
        elif path.is_file():
            files.append((source, path))
        else:
            names.append(source)
    logs: list[tuple[str, list[Entry], str | None]] = []
    for source, path in files:
        try:
            logs.append((source, read_export(path), None))  # type: ignore[arg-type]
        except ExportFormatError as error:
            if len(sources) == 1 and len(files) == 1:
                raise
            broken[len(logs)] = AuditReport(failure=AuditFailure(error.seq, error.reason))
            logs.append((source, [], None))
        except OSError as error:
            raise fail(f"cannot read {source}: {error.strerror or error}") from None
    keyring: Keyring = {}
    if names or want_keys:
        async with open_log(redis_url) as (log, where, _url):
            for name in names:
                if is_tournament(name):
                    state, seq, _ = await TournamentStore(log, SystemClock()).load(name)
                    if not seq:
                        raise fail(f"no tournament named {name!r} in {where}")
                    streams.append((name, await log.read(name)))
                    for match_id, recorded in state.recorded.items():
                        logs.append((match_id, await log.read(match_id), recorded.head))
                    continue
                entries = await log.read(name)
                if not entries:
                    raise fail(f"no file and no match named {name!r} in {where}")
                logs.append((name, entries, None))
            if want_keys:
                keyring = await read_keyring(log.redis)
    return logs, keyring


def _keyring(path: Path) -> Keyring:
    try:
        return keyring_decoder.decode(path.read_bytes())
    except OSError as error:
        raise fail(f"cannot read {path}: {error.strerror or error}") from None
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise fail(f"{path} is not a keyring (siege keys show --json): {error}") from None


@app.command()
def replay(
    source: Annotated[str, typer.Argument(help="An export file or a match id.")],
    to: Annotated[int | None, typer.Option("--to", min=1, help="Stop after this seq.")] = None,
    text: Annotated[bool, typer.Option("--text", help=(
        "The match as people read it: a numbered move list and the board, as a spectator "
        "sees it (no seat's secrets), after the last event or --to SEQ."))] = False,
    redis_url: RedisUrl = None,
) -> None:
    """Print the state of a match after any event (the last one by default), as JSON, or
    with --text as a move list and a board.

    Example: siege replay castle-dash-s1-00000 --to 40 --text"""
    try:
        entries = run_async(_entries(source, redis_url))
        if text:
            _print_text(*fold_to(entries, to))
            return
        snapshot = replay_to(entries, to)
    except (ExportFormatError, ReplayError) as error:
        raise fail(str(error)) from None
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(snapshot), indent=2).decode())
    sys.stdout.write("\n")


def _print_text(ms: MatchState, events: list[tuple[int, Event]]) -> None:
    """The move list (seq, then the line a spectator is told) and the spectator's board."""
    assert ms.engine is not None and ms.created is not None
    shown = presentation(ms.created.game)
    names = ms.created.seat_names or [f"seat {s}" for s in range(ms.created.players)]
    narrator = Narrator(shown, names)
    out.print(f"[bold]{shown.title}[/bold]  {ms.match_id}", highlight=False)
    for seq, event in events:
        line = narrator.line(seq, event)
        if line is not None:
            out.print(f"{seq:>5}  {line}", highlight=False, markup=False)
    out.print()
    out.print(f"[bold]After seq {events[-1][0]}[/bold]", highlight=False)
    out.print(shown.board(ms.engine.view(ms.game, SPECTATOR), names))
