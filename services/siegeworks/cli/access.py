"""``siege acl``: Redis ACL users for a deployment (see ``siege.eventlog.acl``)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer

from siege.eventlog.acl import acl_file, client_rules, example_passwords, user_names
from siege.eventlog.keys import valid_client_id
from siegeworks.cli.app import app
from siegeworks.cli.common import fail, out

EXAMPLE = Path("deploy/redis/users.acl")


@app.command()
def acl(
    client: Annotated[str | None, typer.Option(
        help="Print the ACL SETUSER command that admits one more client, with a fresh "
        "password.")] = None,
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="Write a complete ACL file with fresh passwords to this path.")] = None,
    example: Annotated[bool, typer.Option(
        help=f"Rewrite {EXAMPLE}, the checked-in example with placeholder passwords.")] = False,
) -> None:
    """Redis ACL users: services touch only their keys, clients only their own streams."""
    if client is not None:
        if not valid_client_id(client):
            raise fail(f"invalid client id {client!r}: 1-64 of A-Z a-z 0-9 _ . -")
        password = secrets.token_urlsafe(24)
        rules = " ".join(client_rules(client))
        out.print(f"ACL SETUSER client-{client} {rules} >{password}", soft_wrap=True)
        out.print(f"# the client connects as redis://client-{client}:{password}@HOST:PORT/0",
                  soft_wrap=True)
    if out_file is not None:
        passwords = {name: secrets.token_urlsafe(24) for name in user_names()}
        out_file.write_text(acl_file(passwords))
        out_file.chmod(0o600)
        out.print(f"wrote {out_file} (mode 600): users {', '.join(user_names())}")
    if example:
        EXAMPLE.parent.mkdir(parents=True, exist_ok=True)
        EXAMPLE.write_text(acl_file(example_passwords()))
        out.print(f"wrote {EXAMPLE}")
    if client is None and out_file is None and not example:
        raise fail("say what to write: --client NAME, --out FILE or --example")
