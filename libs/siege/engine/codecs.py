"""Decoders for a game's actions and views, built once per game."""

from __future__ import annotations

from functools import cache
from typing import Any, Union, get_type_hints

import msgspec

from siege.engine.registry import get_engine


def _action_union(game: str) -> Any:
    return Union[tuple(get_engine(game).action_types)]  # noqa: UP007 - built at run time


@cache
def action_decoder(game: str) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(_action_union(game))


@cache
def action_list_decoder(game: str) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(list[_action_union(game)])  # type: ignore[misc]


def view_type(game: str) -> Any:
    """The struct ``view`` returns, read from the engine's annotations."""
    engine = get_engine(game)
    return get_type_hints(type(engine).view).get("return", Any)


@cache
def view_decoder(game: str) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(view_type(game))
