"""``siege keys``: the server's signing keys. ``show`` prints the published public keys (the
keyring ``siege audit`` checks seals against; ``--json`` writes it as a file ``siege audit
--keys`` reads); ``rotate`` makes a new signing key and retires the old one (see
``siegeworks.keys``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.table import Table

from siege.hosting.signing import Keyring, keyring_encoder, retirement_problem
from siegeworks.cli.app import app
from siegeworks.cli.common import RedisUrl, fail, out, run_async
from siegeworks.keys import KeyFileError, key_path, read_keyring, rotate
from siegeworks.redis_target import open_log

keys_app = typer.Typer(invoke_without_command=True, help=(
    "The server's signing keys: every finished match ends with a seal, an Ed25519 signature "
    "by the dice service's key over the log's final hash. Show the published public keys or "
    "rotate the signing key."))
app.add_typer(keys_app, name="keys", short_help="The server's signing keys: show or rotate.")


@keys_app.callback()
def keys(ctx: typer.Context) -> None:
    """Without a command, say which there are."""
    if ctx.invoked_subcommand is None:
        raise fail("say what to do: siege keys show or rotate (siege keys --help)")


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def keyring_table(keyring: Keyring) -> Table:
    table = Table("key", "created", "status")
    table.add_column("public key (Ed25519, hex)", overflow="fold")
    for record in sorted(keyring.values(), key=lambda r: r.created_ms):
        if not record.retired_ms:
            status = "current"
        else:
            problem = retirement_problem(keyring, record)
            status = (f"retired {_when(record.retired_ms)} by {record.retired_by}"
                      if problem is None else f"[red]{problem}[/red]")
        table.add_row(record.key, _when(record.created_ms), status, record.public)
    return table


@keys_app.command("show")
def show(
    as_json: Annotated[bool, typer.Option("--json", help="Print the keyring as JSON, a file "
                                          "for siege audit --keys.")] = False,
    redis_url: RedisUrl = None,
) -> None:
    """Print the published signing keys.

    Example: siege keys show --json > keys.json; siege audit match.jsonl --keys keys.json"""
    async def read() -> Keyring:
        async with open_log(redis_url) as (log, _where, _url):
            return await read_keyring(log.redis)

    keyring = run_async(read())
    if as_json:
        typer.echo(keyring_encoder.encode(keyring).decode())
        return
    if not keyring:
        raise fail("no signing key is published yet: the dice service publishes its key when "
                   "it starts", code=1)
    out.print(keyring_table(keyring))


@keys_app.command("rotate")
def rotate_cmd(redis_url: RedisUrl = None) -> None:
    """Make a new signing key in the dice service's key file (SIEGE_SIGNING_KEY, default
    .siege/keys/signing.key of the checkout) and retire the old one. The new key signs the old one's
    retirement; matches the old key sealed before then still audit. Run it on the machine
    that holds the key file, as the operator.

    Example: SIEGE_SIGNING_KEY=/etc/siege/signing.key siege keys rotate"""
    path = key_path()

    async def turn() -> tuple[str, str]:
        async with open_log(redis_url) as (log, _where, _url):
            seconds, micros = await log.redis.time()
            retired, new = await rotate(log.redis, path, seconds * 1000 + micros // 1000)
            return retired.key, new.key

    try:
        old, new = run_async(turn())
    except KeyFileError as error:
        raise fail(str(error)) from None
    out.print(f"signing key {new} is current (in {path}); {old} is retired")
