"""The ``siege`` command line, one module per group of commands, apart from the services:
``matches`` (games, run, play, join), ``logs`` (export, audit, replay), ``tournament``,
``access`` (acl), ``service`` (serve, health, contract), ``deck`` (Castle Assault decks),
``dead`` (dead letters) and ``damage`` (mark a match that cannot finish)."""

# ruff: noqa: I001  (the command modules are imported in the order `siege --help` lists them)
from __future__ import annotations

from siegeworks.cli import matches, logs, tournament, access, service, deck, dead
from siegeworks.cli import damage
from siegeworks.cli.app import app

__all__ = ["access", "app", "damage", "dead", "deck", "logs", "matches", "service", "tournament"]
