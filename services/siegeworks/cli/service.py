"""Running the services: ``siege serve``, ``health`` and ``contract``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from redis.asyncio import Redis

from siege.contracts.schema import contract as generate_contract
from siegeworks.cli.app import app
from siegeworks.cli.common import RedisUrl, err, fail, out, run_async
from siegeworks.serve import SERVICES, read_health, serve


@app.command()
def contract(
    folder: Annotated[Path, typer.Option("--out", help="Folder to write the contract into.")]
    = Path("docs/contract"),
    check: Annotated[bool, typer.Option(
        help="Only compare with the files in the folder; exit 1 when they differ.")] = False,
) -> None:
    """Write (or check) the published contract: JSON Schema and AsyncAPI, from the code."""
    differ = []
    for name, data in generate_contract().items():
        path = folder / name
        if check:
            if not path.is_file() or path.read_bytes() != data:
                differ.append(name)
            continue
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        out.print(f"wrote {path}")
    if differ:
        err.print(f"contract out of date: {', '.join(differ)} (run: siege contract)")
        raise typer.Exit(1)
    if check:
        out.print("contract matches the code")


@app.command("serve")
def serve_cmd(
    service: Annotated[str, typer.Argument(help="match, rules, dice or scoring.")],
    consumer: Annotated[str | None, typer.Option(
        envvar="SIEGE_CONSUMER",
        help="Stable consumer name; a restart under the same name re-reads its pending entries."
    )] = None,
    redis_url: RedisUrl = None,
) -> None:
    """Run one service process until SIGTERM."""
    if service not in SERVICES:
        raise fail(f"unknown service {service!r}; choose from {', '.join(SERVICES)}")
    if not redis_url:
        raise fail("serve needs --redis-url or REDIS_URL")
    claim_idle_ms = int(os.environ.get("SIEGE_CLAIM_IDLE_MS", "2000"))
    run_async(serve(service, redis_url, consumer or f"{service}-0",
                      claim_idle_ms=claim_idle_ms))


@app.command()
def health(redis_url: RedisUrl = None) -> None:
    """Show the health records the running services write every second."""
    if not redis_url:
        raise fail("health needs --redis-url or REDIS_URL")

    async def read() -> list:
        client = Redis.from_url(redis_url)
        try:
            return await read_health(client)
        finally:
            await client.aclose()

    records = run_async(read())
    if not records:
        out.print("no service is running")
        raise typer.Exit(1)
    for h in records:
        out.print(f"{h.service} {h.consumer} pid {h.pid}: processed {h.processed}, "
                  f"failed {h.failed}, dead-lettered {h.dead_lettered}, claimed {h.claimed}")
