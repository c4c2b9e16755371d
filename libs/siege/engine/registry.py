"""Game name to engine. Engines are imported on first use, so a service loads only its games."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from siege.engine.presentation import Presentation
from siege.engine.protocol import Engine

HOSTED: dict[str, str] = {
    "castle-dash": "siege.games.castle_dash.engine:CastleDash",
    "mission": "siege.games.mission.engine:MissionGame",
    "castellum": "siege.games.castellum.engine:Castellum",
    "storm-the-castle": "siege.games.storm_castle.engine:StormTheCastle",
    "castle-assault": "siege.games.castle_assault.engine:CastleAssault",
}
_extra: dict[str, Engine[Any]] = {}


class UnknownGameError(LookupError):
    pass


def register(engine: Engine[Any]) -> None:
    """Adds an engine that is not one of the hosted games (tests use a tiny one)."""
    _extra[engine.name] = engine


def game_names() -> list[str]:
    return sorted(HOSTED)


@cache
def _hosted(name: str) -> Engine[Any]:
    module, _, cls = HOSTED[name].partition(":")
    return getattr(import_module(module), cls)()


def get_engine(name: str) -> Engine[Any]:
    if name in _extra:
        return _extra[name]
    if name not in HOSTED:
        raise UnknownGameError(f"unknown game {name!r}; hosted games: {', '.join(game_names())}")
    return _hosted(name)


def reference_data(name: str) -> dict[str, Any]:
    """What a client needs to read a hosted game's views, as plain JSON-ready data: the names
    and text of its cards, the spaces of its board, the order of its lists, the meaning of its
    codes. Each game keeps it in its package's ``reference`` module (``reference()``); the
    contract publishes it beside the schemas (``docs/contract/games/<game>.json``)."""
    if name not in HOSTED:
        raise UnknownGameError(f"unknown game {name!r}; hosted games: {', '.join(game_names())}")
    package = HOSTED[name].partition(":")[0].rsplit(".", 1)[0]
    data: dict[str, Any] = import_module(f"{package}.reference").reference()
    return data


def presentation(name: str) -> Presentation:
    """How a hosted game reads to people (:mod:`siege.engine.presentation`): its package's
    ``presentation.PRESENTATION``."""
    if name not in HOSTED:
        raise UnknownGameError(f"unknown game {name!r}; hosted games: {', '.join(game_names())}")
    package = HOSTED[name].partition(":")[0].rsplit(".", 1)[0]
    found: Presentation = import_module(f"{package}.presentation").PRESENTATION
    return found
