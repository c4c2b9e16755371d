"""A match's log: ``siege export``, ``audit`` and ``replay``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import msgspec
import typer

from siege.hosting.audit import audit
from siege.hosting.export import Entry, ExportFormatError, dump, read_export, write_export
from siege.hosting.replay import ReplayError, replay_to
from siege.hosting.signing import Keyring, keyring_decoder
from siege.tournament.state import is_tournament
from siegeworks.cli.app import app
from siegeworks.cli.common import RedisUrl, fail, out, run_async
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
    match_id: Annotated[str, typer.Argument(help="Match to export.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="File to write; - for "
                                         "standard output.")],
    redis_url: RedisUrl = None,
) -> None:
    """Write a match's full log to a file (JSON Lines; see docs/export-format.md).

    Example: siege export castle-dash-s7-00000 -o match.jsonl"""
    entries = run_async(_entries(match_id, redis_url))
    if str(output) == "-":
        sys.stdout.buffer.write(dump(entries))  # type: ignore[arg-type]
        return
    try:
        write_export(output, entries)  # type: ignore[arg-type]
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}") from None
    out.print(f"wrote {len(entries)} events of {match_id} to {output}")


@app.command("audit")
def audit_cmd(
    source: Annotated[str, typer.Argument(help="An export file or a match id.")],
    keys: Annotated[Path | None, typer.Option(
        "--keys", help="The signing keys to trust (siege keys show --json); by default those "
        "published in the Redis of --redis-url.")] = None,
    allow_unsigned: Annotated[bool, typer.Option(
        "--allow-unsigned", help="Accept a log without the server's seal (exit 0 if the rest "
        "holds).")] = False,
    redis_url: RedisUrl = None,
) -> None:
    """Re-verify a match from its log alone: the hash chain, the dice, every action, the
    result, and the server's seal. Exit 0 when valid, 1 with the first bad seq (or when the
    log is unsigned, unless --allow-unsigned).

    Example: siege audit castle-dash-s7-00000; siege audit match.jsonl --keys keys.json"""
    try:
        entries = run_async(_entries(source, redis_url))
    except ExportFormatError as error:
        out.print(f"audit {source}: FAILED at seq {error.seq}: {error.reason}")
        raise typer.Exit(1) from None
    report = audit(entries, _keyring(keys) if keys is not None else run_async(
        _published_keys(redis_url)))
    out.print(report.line())
    if report.ok and report.seal != "verified" and not allow_unsigned:
        out.print(f"audit {report.match_id}: not signed by the server: the log proves nothing "
                  "about who wrote it (--allow-unsigned accepts it)")
        raise typer.Exit(1)
    raise typer.Exit(0 if report.ok else 1)


def _keyring(path: Path) -> Keyring:
    try:
        return keyring_decoder.decode(path.read_bytes())
    except OSError as error:
        raise fail(f"cannot read {path}: {error.strerror or error}") from None
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise fail(f"{path} is not a keyring (siege keys show --json): {error}") from None


async def _published_keys(redis_url: str | None) -> Keyring:
    async with open_log(redis_url) as (log, _where, _url):
        return await read_keyring(log.redis)


@app.command()
def replay(
    source: Annotated[str, typer.Argument(help="An export file or a match id.")],
    to: Annotated[int | None, typer.Option("--to", min=1, help="Stop after this seq.")] = None,
    redis_url: RedisUrl = None,
) -> None:
    """Print the state of a match after any event (the last one by default)."""
    try:
        entries = run_async(_entries(source, redis_url))
        snapshot = replay_to(entries, to)
    except (ExportFormatError, ReplayError) as error:
        raise fail(str(error)) from None
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(snapshot), indent=2).decode())
    sys.stdout.write("\n")
