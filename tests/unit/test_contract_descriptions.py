"""Every schema of the published contract, and every field in it, says what it means.

A client author works from docs/contract alone, so a type without its meaning is not enough:
each struct needs a docstring (its schema's description) and each field a
``msgspec.Meta(description=...)``. The tag field ``t`` is described by its struct.
"""

from __future__ import annotations

from typing import Any

import msgspec

from siege.contracts.envelope import Envelope
from siege.contracts.events import CORE_EVENT_TYPES
from siege.contracts.lobby import OpenSeats
from siege.contracts.messages import BUS_MESSAGES
from siege.engine.codecs import view_type
from siege.engine.registry import game_names, get_engine


def tag_fields(types: list[Any]) -> dict[str, str]:
    """Struct name -> its tag field (``t`` for every message, event and action; the lobby's
    ``OpenSeats`` has msgspec's default, ``type``), for every struct ``types`` reach."""
    found: dict[str, str] = {}
    seen: set[int] = set()

    def walk(node: Any) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, msgspec.inspect.StructType):
            origin = getattr(node.cls, "__origin__", node.cls)
            if node.tag_field is not None:
                found[origin.__name__] = node.tag_field
            for field in node.fields:
                walk(field.type)
        elif isinstance(node, msgspec.inspect.Type):
            for value in msgspec.structs.asdict(node).values():
                for item in value if isinstance(value, tuple) else (value,):
                    if isinstance(item, msgspec.inspect.Type):
                        walk(item)

    for info in msgspec.inspect.multi_type_info(types):
        walk(info)
    return found


def undescribed(types: list[Any]) -> list[str]:
    """``Schema`` for each schema without a description, ``Schema.field`` for each field but
    the struct's tag field."""
    _, components = msgspec.json.schema_components(types)
    tags = tag_fields(types)
    missing: list[str] = []
    for name, schema in sorted(components.items()):
        if not str(schema.get("description", "")).strip():
            missing.append(name)
        tag = tags.get(str(schema.get("title", name)).split("[")[0])
        for field, prop in schema.get("properties", {}).items():
            if field != tag and not str(prop.get("description", "")).strip():
                missing.append(f"{name}.{field}")
    return missing


def test_every_bus_message_and_core_event_and_every_field_is_described() -> None:
    types = [*BUS_MESSAGES, OpenSeats, *CORE_EVENT_TYPES, Envelope[msgspec.Raw]]
    missing = undescribed(types)
    assert not missing, f"{len(missing)} without a description: {', '.join(missing)}"


def test_every_hosted_games_events_actions_and_view_and_every_field_is_described() -> None:
    missing: list[str] = []
    for game in game_names():
        engine = get_engine(game)
        types = [*engine.event_types, *engine.action_types, view_type(game)]
        missing += [f"{game}: {name}" for name in undescribed(types)]
    assert not missing, f"{len(missing)} without a description: {', '.join(missing)}"


def test_a_missing_description_is_named() -> None:
    class Bare(msgspec.Struct, tag_field="t", tag="x.bare"):
        count: int
        said: str = ""

    class Told(msgspec.Struct):
        """Has a docstring."""

        said: Any = msgspec.field(default="")

    class Other(msgspec.Struct, tag="x.other"):
        """Tagged in msgspec's default field, ``type``."""

        t: Any

    assert undescribed([Bare, Told, Other]) == [
        "Bare", "Bare.count", "Bare.said", "Other.t", "Told.said"]
