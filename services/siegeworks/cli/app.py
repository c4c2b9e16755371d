"""The Typer application every command module adds its commands to."""

from __future__ import annotations

import typer

app = typer.Typer(help="Siegeworks: host, audit and replay castle-siege games.",
                  no_args_is_help=True, add_completion=False)
