"""Decoders for a game's actions and views, built once per game."""

from __future__ import annotations

from functools import cache
from typing import Any, Union

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


@cache
def view_decoder(game: str) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(getattr(get_engine(game), "view_type", Any))
