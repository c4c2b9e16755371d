"""Running the services: ``siege serve``, ``health`` and ``contract``."""

from __future__ import annotations

import os
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import msgspec
import typer
from rich.markup import escape

import siege
from siege.contracts.schema import contract as generate_contract
from siege.contracts.version import VersionNotRaisedError
from siege.hosting.examples import example_files
from siegeworks.cli.app import app
from siegeworks.cli.common import ServicesRedisUrl, err, fail, out, print_json, run_async
from siegeworks.metrics import (
    DEFAULT_METRICS_HOST,
    METRICS_HOST_ENV,
    METRICS_PORT_ENV,
    MetricsServerError,
)
from siegeworks.redis_config import SAFE_POLICY, Guarantees, NotAllowed, read_guarantees
from siegeworks.redis_target import connect

if TYPE_CHECKING:
    from siegeworks.serve import Health


def checkout_contract_folder() -> Path:
    """``docs/contract`` of the checkout this code runs from, wherever the command is run;
    ``./docs/contract`` for an installed copy that has no checkout around it."""
    checkout = Path(siege.__file__).resolve().parents[2] / "docs" / "contract"
    return checkout if checkout.is_dir() else Path("docs/contract")


@app.command()
def contract(
    folder: Annotated[Path | None, typer.Option(
        "--out", help="Folder to write the contract into (default: docs/contract of this "
        "checkout, from wherever you run it).")] = None,
    check: Annotated[bool, typer.Option(
        help="Only compare with the files in the folder; exit 1 when they differ.")] = False,
) -> None:
    """Write (or check) the published contract from the code: JSON Schema, AsyncAPI, each
    game's reference data and worked example, and the versions file.

    Examples: siege contract
              siege contract --check"""
    folder = folder or checkout_contract_folder()
    versions_file = folder / "versions.json"
    try:
        versions = msgspec.json.decode(versions_file.read_bytes(), type=dict[str, str]) \
            if versions_file.is_file() else {}
        files = generate_contract(versions) | example_files()
    except msgspec.DecodeError as error:
        raise fail(f"{versions_file}: {error}") from None
    except VersionNotRaisedError as error:
        raise fail(str(error), code=1) from None
    differ = []
    for name, data in files.items():
        path = folder / name
        if check:
            if not path.is_file() or path.read_bytes() != data:
                differ.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        out.print(f"wrote {path}")
    if differ:
        err.print(f"contract out of date in {folder}: {', '.join(differ)} (run: siege contract)")
        raise typer.Exit(1)
    if check:
        out.print(f"contract in {folder} matches the code")


@app.command("serve")
def serve_cmd(
    service: Annotated[str, typer.Argument(help="match, rules, dice, scoring or archiver.")],
    consumer: Annotated[str | None, typer.Option(
        envvar="SIEGE_CONSUMER",
        help="Stable consumer name; a restart under the same name re-reads its pending entries."
    )] = None,
    redis_url: ServicesRedisUrl = "",
    metrics_port: Annotated[int, typer.Option(
        envvar=METRICS_PORT_ENV, min=0, max=65535,
        help="Serve Prometheus metrics on /metrics, and /livez and /readyz, on this port; "
        "0: no metrics server.")] = 0,
    metrics_host: Annotated[str, typer.Option(
        envvar=METRICS_HOST_ENV,
        help="The address the metrics server listens on (0.0.0.0 in a container).")]
    = DEFAULT_METRICS_HOST,
) -> None:
    """Run one service process until SIGTERM.

    Example: REDIS_URL=redis://siege-match:PASSWORD@redis:6379/0 siege serve match

    Metrics: siege serve rules --metrics-port 9102 (curl 127.0.0.1:9102/metrics; docs/metrics.md)

    The archiver (docs/archives.md) takes SIEGE_ARCHIVE (where archives go),
    SIEGE_ARCHIVE_DELAY_S (how long a finished match stays in Redis first, 60) and
    SIEGE_ARCHIVE_EVERY_S (how often it looks, 2)."""
    from siegeworks.headroom import StoreBusyAtError, store_busy_at
    from siegeworks.serve import PROCESSES, serve
    from siegeworks.supervisor import die_with_parent

    if service not in PROCESSES:
        raise fail(f"unknown service {service!r}; choose from {', '.join(PROCESSES)}")
    if not redis_url:
        raise fail("serve needs --redis-url or REDIS_URL")
    try:  # every service reads it (siegeworks.headroom): the match service refuses new
        # matches past it, the archiver stops waiting out its delay
        store_busy_at()
    except StoreBusyAtError as error:
        raise fail(escape(str(error))) from None
    die_with_parent()
    if service == "archiver":
        _serve_archiver(redis_url, consumer or "archiver-0", metrics_port, metrics_host)
        return
    _, redis_says = run_async(_read_redis(redis_url, with_health=False))
    if isinstance(redis_says, NotAllowed):
        err.print(f"[yellow]warning:[/yellow] not checking maxmemory-policy, that is the "
                  f"operator's: {escape(redis_says.describe())}", soft_wrap=True)
    elif redis_says.evicts:
        err.print(f"[red]error:[/red] refusing to start: Redis has maxmemory-policy "
                  f"{escape(redis_says.maxmemory_policy)}, so it may delete match logs when "
                  f"memory is full (set maxmemory-policy {SAFE_POLICY})", soft_wrap=True)
        raise typer.Exit(2)
    claim_idle_ms = int(os.environ.get("SIEGE_CLAIM_IDLE_MS", "2000"))
    try:
        run_async(serve(service, redis_url, consumer or f"{service}-0",
                        claim_idle_ms=claim_idle_ms, metrics_port=metrics_port,
                        metrics_host=metrics_host))
    except MetricsServerError as error:
        raise fail(escape(str(error))) from None


def _serve_archiver(redis_url: str, consumer: str, metrics_port: int, metrics_host: str) -> None:
    from siege.archive.stores import StoreError, open_store
    from siegeworks.archiver.service import DELAY_S, EVERY_S, serve_archiver
    from siegeworks.redis_target import archive_url

    try:
        store = open_store(archive_url())
        delay_s = float(os.environ.get("SIEGE_ARCHIVE_DELAY_S", DELAY_S))
        every_s = float(os.environ.get("SIEGE_ARCHIVE_EVERY_S", EVERY_S))
    except StoreError as error:
        raise fail(escape(str(error))) from None
    except ValueError:
        raise fail("SIEGE_ARCHIVE_DELAY_S and SIEGE_ARCHIVE_EVERY_S are seconds, e.g. 60 or "
                   "0.5") from None
    if delay_s < 0 or every_s <= 0:
        raise fail("SIEGE_ARCHIVE_DELAY_S must be 0 or more and SIEGE_ARCHIVE_EVERY_S more "
                   "than 0")
    try:
        run_async(serve_archiver(redis_url, consumer, store, delay_s=delay_s, every_s=every_s,
                                 metrics_port=metrics_port, metrics_host=metrics_host))
    except MetricsServerError as error:
        raise fail(escape(str(error))) from None


async def _read_redis(redis_url: str, *, with_health: bool = True
                      ) -> tuple[list[Health], Guarantees | NotAllowed]:
    """The services' health records (when asked) and what the Redis guarantees."""
    from siegeworks.serve import read_health

    client = connect(redis_url)
    try:
        records = await read_health(client) if with_health else []
        return records, await read_guarantees(client)
    finally:
        await client.aclose()


@app.command()
def health(
    redis_url: ServicesRedisUrl = "",
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object: the services' records and what Redis guarantees.")]
    = False,
) -> None:
    """Show the health records the running services write every second (counters, lag,
    pending entries, batch p99, matches running: the figures of their /metrics), then what
    the Redis guarantees about the match logs (eviction, persistence, replicas) and what it
    may lose. Exits 1 when no service runs or when Redis may evict keys.

    Example: siege health --redis-url redis://127.0.0.1:6379/0"""
    if not redis_url:
        raise fail("health needs --redis-url or REDIS_URL")
    records, redis_says = run_async(_read_redis(redis_url))
    failing = not records or (isinstance(redis_says, Guarantees) and redis_says.evicts)
    if as_json:
        print_json({"services": records, "redis": _redis_doc(redis_says)})
        if failing:
            raise typer.Exit(1)
        return
    if not records:
        out.print("no service is running")
    for h in records:
        out.print(f"{h.service} {h.consumer} pid {h.pid}: processed {h.processed}, "
                  f"failed {h.failed}, dead-lettered {h.dead_lettered}, claimed {h.claimed}"
                  f"{_figures(h)}")
        for warning in getattr(h, "warnings", []):
            out.print(f"[bold red]warning:[/bold red] {h.service} {h.consumer}: "
                      f"{escape(warning)}", soft_wrap=True)
    if isinstance(redis_says, NotAllowed):
        out.print(f"redis: not checked: {escape(redis_says.describe())}", soft_wrap=True)
    else:
        out.print(f"redis: {escape(redis_says.describe())}", soft_wrap=True)
        for problem in redis_says.problems():
            out.print(f"[bold red]problem:[/bold red] {escape(problem)}", soft_wrap=True)
    if failing:
        raise typer.Exit(1)


def _figures(h: Health) -> str:
    """The lag, pending, batch p99 and matches running of a record, after its counters; none
    for a record of a service version that did not measure them."""
    if h.lag is None:
        return ""
    p99 = "-" if h.batch_p99_ms is None else f"{h.batch_p99_ms:.1f} ms"
    shards = "" if h.shards is None else f", shards {_ranges(h.shards)}"
    return (f", lag {h.lag}, pending {h.pending}, batch p99 {p99}, "
            f"matches running {h.matches_running}{shards}")


def _ranges(shards: list[int]) -> str:
    """``0-7,12`` for shards 0 to 7 and 12; ``none`` for none."""
    runs: list[list[int]] = []
    for shard in sorted(shards):
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs) or "none"


def _redis_doc(redis_says: Guarantees | NotAllowed) -> dict[str, object]:
    if isinstance(redis_says, NotAllowed):
        return {"checked": False, "reason": redis_says.describe()}
    return {"checked": True, **asdict(redis_says), "evicts": redis_says.evicts,
            "problems": redis_says.problems()}
