"""Game name to engine. Engines register here so the host, the CLI and the auditor find them."""

from __future__ import annotations

from typing import Any

from siege.engine.protocol import Engine


class UnknownGameError(LookupError):
    pass


def engines() -> dict[str, Engine[Any]]:
    from siege.games.castle_dash.engine import CastleDash

    found: list[Engine[Any]] = [CastleDash()]
    return {engine.name: engine for engine in found}


def get_engine(name: str) -> Engine[Any]:
    table = engines()
    if name not in table:
        raise UnknownGameError(f"unknown game {name!r}; hosted games: {', '.join(sorted(table))}")
    return table[name]
