"""``siege acl``: Redis ACL users for a deployment (see ``siege.eventlog.acl``), and one
client's credentials on a live Redis (see ``siege.eventlog.credentials``)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

import typer
from redis.asyncio import Redis
from redis.exceptions import AuthenticationError
from rich.markup import escape
from rich.table import Table

from siege.eventlog import credentials
from siege.eventlog.acl import acl_file, client_rules, env_files, example_passwords, user_names
from siege.eventlog.keys import valid_client_id
from siegeworks.cli.app import app
from siegeworks.cli.common import err, fail, out, run_async
from siegeworks.redis_target import CLUSTER_SUFFIX, connect, redacted

EXAMPLE = Path("deploy/redis/users.acl")
GUIDE = "deploy/redis/credentials.md"

acl_app = typer.Typer(invoke_without_command=True, help=(
    "Redis ACL users: services touch only their keys, clients only their own streams. "
    f"Issue, rotate and revoke one client's credentials on a live Redis ({GUIDE}), or write "
    "a deployment's ACL file."))
app.add_typer(acl_app, name="acl", short_help="Redis ACL users: issue, rotate and revoke a "
              "client's credentials; write an ACL file.")
COMMANDS = "issue, rotate, revoke, list, setuser or file"

OperatorUrl = Annotated[str | None, typer.Option(
    "--redis-url", envvar="REDIS_URL", show_default=False,
    help="The services' Redis, signed in as a user allowed the ACL commands, e.g. "
    "redis://operator:PASSWORD@HOST:6379/0.")]
ClientArg = Annotated[str, typer.Argument(
    show_default=False, help="The client's id (1-64 of A-Z a-z 0-9 _ . -); "
    "its Redis user is client-ID.")]

T = TypeVar("T")


@acl_app.callback()
def acl(ctx: typer.Context) -> None:
    """Without a command, say which there are."""
    if ctx.invoked_subcommand is None:
        raise fail(f"say what to do: siege acl {COMMANDS} (siege acl --help)")


def _check_id(client: str) -> None:
    if not valid_client_id(client):
        raise fail(f"invalid client id {client!r}: 1-64 of A-Z a-z 0-9 _ . -")


def _warn(message: str) -> None:
    err.print(f"[yellow]warning:[/yellow] {escape(message)}", soft_wrap=True)


def _as_operator(redis_url: str | None, work: Callable[[Redis], Coroutine[Any, Any, T]]) -> T:
    """Runs ``work`` on the Redis at ``redis_url``; refusals become one-line errors."""
    if not redis_url:
        raise fail("say which Redis: --redis-url or REDIS_URL (as the operator user)")

    async def session() -> T:
        redis = connect(redis_url)
        try:
            return await work(redis)
        except AuthenticationError as error:
            raise credentials.CredentialsError(
                f"Redis refused the sign-in of {redacted(redis_url)}: {error}") from None
        finally:
            await redis.aclose()

    try:
        return run_async(session())
    except credentials.CredentialsError as error:
        raise fail(str(error)) from None


def client_url(redis_url: str, client: str, password: str) -> str:
    """The URL the client connects with: ``redis_url``'s scheme, host, port and database, with
    the client's user and password (a unix socket is for local users: then redis://HOST)."""
    parts = urlsplit(redis_url)
    user = f"{credentials.user_name(client)}:{password}"
    if parts.scheme.endswith(CLUSTER_SUFFIX):  # the same seeds: every node knows the client
        return f"{parts.scheme}://{user}@{parts.netloc.rpartition('@')[2]}"
    scheme = parts.scheme if parts.scheme in ("redis", "rediss") else "redis"
    host = parts.hostname if parts.scheme != "unix" and parts.hostname else "HOST"
    if ":" in host:
        host = f"[{host}]"
    port = parts.port if parts.scheme != "unix" and parts.port else 6379
    database = parts.path.strip("/") if parts.scheme != "unix" else ""
    return f"{scheme}://{user}@{host}:{port}/{database or '0'}"


def _print_url(redis_url: str, client: str, password: str, done: str) -> None:
    out.print(client_url(redis_url, client, password), soft_wrap=True, markup=False,
              highlight=False)
    err.print(f"{done} client-{client} on {redacted(redis_url)}; the URL above holds its "
              "password and is shown only this once", soft_wrap=True, markup=False,
              highlight=False)


@acl_app.command("issue")
def issue(
    client: ClientArg,
    replace: Annotated[bool, typer.Option(
        help="If the client exists already, delete it first (its password and open "
        "connections go) and issue it anew.")] = False,
    redis_url: OperatorUrl = None,
) -> None:
    """Admit a client: a Redis user with a fresh password, registered with the services.

    Prints the client's connection URL, with its password, only this once.

    Example: REDIS_URL=redis://operator:PASSWORD@redis:6379/0 siege acl issue alice"""
    _check_id(client)

    async def work(redis: Redis) -> str:
        try:
            return await credentials.issue(redis, client, replace=replace, warn=_warn)
        except credentials.ClientExistsError as error:
            raise credentials.ClientExistsError(
                f"{error} (siege acl rotate {client}, or siege acl issue {client} --replace)"
            ) from None

    password = _as_operator(redis_url, work)
    _print_url(redis_url or "", client, password, "issued")


@acl_app.command("rotate")
def rotate(client: ClientArg, redis_url: OperatorUrl = None) -> None:
    """Give a client a fresh password and print its new connection URL (only this once).

    The old password is refused from now on; connections already signed in with it stay open
    (revoke and issue again to close them too).

    Example: siege acl rotate alice --redis-url redis://operator:PASSWORD@redis:6379/0"""
    _check_id(client)
    password = _as_operator(redis_url, lambda redis: credentials.rotate(
        redis, client, warn=_warn))
    _print_url(redis_url or "", client, password, "rotated")


@acl_app.command("revoke")
def revoke(client: ClientArg, redis_url: OperatorUrl = None) -> None:
    """Shut a client out: its Redis user and its open connections go at once.

    Also takes it out of the registry the services read commands from.

    Example: siege acl revoke alice --redis-url redis://operator:PASSWORD@redis:6379/0"""
    _check_id(client)
    _as_operator(redis_url, lambda redis: credentials.revoke(redis, client, warn=_warn))
    out.print(f"revoked client-{client}", markup=False, highlight=False)


@acl_app.command("list")
def list_(redis_url: OperatorUrl = None) -> None:
    """List the clients with a Redis user, and those the services read commands from.

    Example: siege acl list --redis-url redis://operator:PASSWORD@redis:6379/0"""
    entries = _as_operator(redis_url, credentials.list_clients)
    if not entries:
        out.print("no clients")
        return
    table = Table("client", "redis user", "registered")
    for entry in entries:
        table.add_row(entry.client, f"client-{entry.client}" if entry.has_user else "-",
                      "yes" if entry.registered else "no")
    out.print(table)


@acl_app.command("setuser")
def setuser(client: ClientArg) -> None:
    """Print the ACL SETUSER command that admits a client, without connecting to Redis.

    The command carries a fresh password; run it yourself, then register the client
    (`siege acl issue` does both on a live Redis).

    Example: siege acl setuser alice"""
    _check_id(client)
    password = secrets.token_urlsafe(24)
    rules = " ".join(client_rules(client))
    out.print(f"ACL SETUSER client-{client} {rules} >{password}", soft_wrap=True,
              markup=False, highlight=False)
    out.print(f"# the client connects as redis://client-{client}:{password}@HOST:PORT/0",
              soft_wrap=True, markup=False, highlight=False)


@acl_app.command("file")
def file(
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="Write a complete ACL file with fresh passwords to this path, and each "
        "user's env file (REDIS_URL with its password) into the folder env beside it.")]
    = None,
    example: Annotated[bool, typer.Option(
        help=f"Rewrite {EXAMPLE} and its env files, the checked-in example with placeholder "
        "passwords.")] = False,
    host: Annotated[str, typer.Option(
        help="host:port the env files' REDIS_URL names (compose's Redis is redis:6379).")]
    = "redis:6379",
    cluster: Annotated[bool, typer.Option(
        "--cluster", help="The Redis is a Redis Cluster: the env files' REDIS_URL is a "
        "redis+cluster:// URL with --host as its seed node.")] = False,
) -> None:
    """Write an ACL file of every user, for redis.conf's aclfile, and an env file per user
    beside it (env/<name>.env: match, rules, dice, scoring, archiver, auditor, web, operator,
    client-alice),
    so compose.yaml and the systemd units take the same passwords (never typed twice).

    The users: operator, the four services and the archiver, an auditor, the web gateway and
    an example client.

    Examples: siege acl file --out deploy/redis/users.acl
              siege acl file --out /etc/redis/users.acl --host 127.0.0.1:6379
              siege acl file --out users.acl --host redis-0.redis:6379 --cluster"""
    if out_file is None and not example:
        raise fail("say what to write: --out FILE or --example")
    if out_file is not None:
        passwords = {name: secrets.token_urlsafe(24) for name in user_names()}
        _write_private(out_file, acl_file(passwords))
        folder = out_file.parent / "env"
        for name, text in env_files(passwords, host, cluster).items():
            _write_private(folder / name, text)
        out.print(f"wrote {out_file} and {folder}/*.env (mode 600): users "
                  f"{', '.join(user_names())}")
    if example:
        EXAMPLE.parent.mkdir(parents=True, exist_ok=True)
        EXAMPLE.write_text(acl_file(example_passwords()))
        folder = EXAMPLE.parent / "env"
        folder.mkdir(exist_ok=True)
        for name, text in env_files(example_passwords(), host).items():
            (folder / name).write_text(text)
        out.print(f"wrote {EXAMPLE} and {folder}/*.env")


def _write_private(path: Path, text: str) -> None:
    """Created private: the passwords are never readable by others, not even for a moment."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as written:
        written.write(text)
    path.chmod(0o600)
