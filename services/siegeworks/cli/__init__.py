"""The ``siege`` command line, one module per group of commands, apart from the services:
``matches`` (games, run, play, join), ``watching`` (watch), ``lobby`` (matches waiting for
players), ``listing`` (matches, tournaments), ``logs`` (export, audit, replay),
``tournament``, ``access`` (acl),
``service`` (serve, health, contract), ``archive`` (finished matches out of Redis),
``deck`` (Castle Assault decks), ``dead`` (dead letters), ``damage`` (mark a match that
cannot finish), ``keys`` (the server's signing keys)
``conformance`` (checking an outside client) and ``web`` (the web gateway)."""

# ruff: noqa: I001  (the command modules are imported in the order `siege --help` lists them)
from __future__ import annotations

from siegeworks.cli import matches, watching, lobby, listing, logs, tournament, access, service
from siegeworks.cli import archive, deck, dead, damage, keys, conformance, web
from siegeworks.cli.app import app

__all__ = ["access", "app", "archive", "conformance", "damage", "dead", "deck", "keys", "listing",
           "lobby", "logs", "matches", "service", "tournament", "watching", "web"]
