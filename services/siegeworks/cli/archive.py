"""``siege archive``: moves finished matches out of Redis into archives, now (docs/archives.md).
``siege serve archiver`` does the same continuously."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from siegeworks.cli.app import app
from siegeworks.cli.common import JsonLines, RedisUrl, err, fail, out, run_async

if TYPE_CHECKING:  # the archiving machinery is imported by the command that uses it
    from siege.archive.archiving import Outcome
    from siege.archive.stores import ArchiveStore

ArchiveOption = Annotated[str | None, typer.Option(
    "--archive", envvar="SIEGE_ARCHIVE",
    help="Where archives go: a folder, file:///path or s3://bucket/prefix (endpoint from "
    "AWS_ENDPOINT_URL); default: archive in the siege home (.siege/archive).")]


@app.command("archive")
def archive_cmd(
    matches: Annotated[list[str] | None, typer.Argument(
        help="Matches (or tournaments) to archive; none: every finished one.",
        show_default=False)] = None,
    delay: Annotated[float, typer.Option(
        "--delay", min=0, help="Only matches that finished at least this many seconds ago.")]
    = 0.0,
    archive: ArchiveOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per match.")] = False,
    redis_url: RedisUrl = None,
) -> None:
    """Archive finished matches now: each is audited, written to a compressed, checksummed
    archive, read back, and only then removed from Redis, leaving a tombstone saying where it
    went. Every reader (audit, replay, export, matches, standings, the web pages) reads it
    from there. Exit 1 if a finished match fails its audit (it stays in Redis).

    Examples: siege archive; siege archive castle-dash-s7-00000;
    siege archive --delay 3600 --archive s3://siege-archive/prod"""
    from siege.archive.archiving import FAILED_AUDIT
    from siege.archive.stores import StoreError, open_store
    from siegeworks.redis_target import archive_url

    try:
        store = open_store(archive or archive_url())
    except StoreError as error:
        raise fail(escape(str(error))) from None
    try:
        outcomes, elapsed = run_async(_archive(list(matches or []), delay, store, redis_url,
                                               as_json))
    except StoreError as error:
        raise fail(escape(str(error))) from None
    lines = JsonLines(as_json)
    for o in outcomes:
        lines.emit("archive", match_id=o.match_id, state=o.state, detail=o.detail,
                   bytes=o.size, log_bytes=o.raw)
    done = [o for o in outcomes if o.done]
    refused = [o for o in outcomes if o.state == FAILED_AUDIT]
    if not as_json:
        for o in outcomes:
            if not o.done or matches:
                out.print(f"{o.match_id}: {o.state}" + (f" ({o.detail})" if o.detail else ""),
                          highlight=False, markup=False)
        size, raw = sum(o.size for o in done), sum(o.raw for o in done)
        ratio = f", {raw / size:.1f}:1" if size else ""
        out.print(f"archived {len(done)} matches to {store.url} ({raw / 1024:.0f} KB of logs "
                  f"in {size / 1024:.0f} KB{ratio}; {len(done) / max(elapsed, 1e-9):.0f} "
                  f"matches/s); {len(refused)} refused", highlight=False)
    raise typer.Exit(1 if refused else 0)


async def _archive(named: list[str], delay: float, store: ArchiveStore, redis_url: str | None,
                   quiet: bool) -> tuple[list[Outcome], float]:
    from siegeworks.archiver.finding import live_ids, ready
    from siegeworks.archiver.service import archiver_on
    from siegeworks.redis_target import open_log

    async with open_log(redis_url) as (reader, _where, _url):
        archiver = archiver_on(reader.redis, store, "siege-archive")
        # The live logs only (the archiver's, not the reader's): what is archived stays so.
        ids = named or await ready(archiver.redis, await live_ids(archiver.log),
                                   int(delay * 1000), int(time.time() * 1000))
        started = time.perf_counter()
        if len(ids) > 1 and not quiet:
            with Progress(TextColumn("archive"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=err, transient=True) as progress:
                task = progress.add_task("archive", total=len(ids))
                outcomes = await archiver.archive_all(ids, each=lambda o: progress.advance(task))
        else:
            outcomes = await archiver.archive_all(ids)
        return outcomes, time.perf_counter() - started
