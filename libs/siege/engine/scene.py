"""A board as a page draws it: zones of pieces, every word real text, built from one seat's view
(so it can never show what that view hides). Each game lays its own scene out like the physical
game (``Presentation.scene``); the web pages draw every scene with one renderer, in seat colours,
and make a piece clickable when a legal action names it (``Presentation.target``).

Pure data: no HTML, no I/O. A piece's ``id`` is what an action's target names, so it must be
unique within a scene and stable from one decision to the next (a place keeps its id as pieces
move through it; a card keeps its id from hand to table).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import msgspec

Kind = Literal["place", "card", "back", "unit", "token", "step", "here", "info", "gap"]
"""How a piece looks: a place on the map, a card face up, a card face down (its back), a unit or
a token standing somewhere, a step of a track, the step a track's marker is on, a line of facts,
or a cell of a grid that is no place at all (drawn blank; its label is for screen readers)."""
Layout = Literal["row", "grid", "column", "track"]
"""How a zone sets out its pieces: in a row that wraps, in a grid ``columns`` wide (it scrolls
inside its own box where the screen is narrower), one under another, or as a track of steps."""


class Piece(msgspec.Struct, frozen=True, kw_only=True):
    label: str  # the name printed on it, as the actions name it
    id: str = ""  # what an action targets; "" for a piece nothing ever targets
    lines: tuple[str, ...] = ()  # more to read on it (strength, cost, what stands there)
    seat: int = -1  # whose colour it is drawn in; -1 for nobody's
    kind: Kind = "place"
    note: str = ""  # a longer text (a card's rules), shown on hover and to screen readers


class Zone(msgspec.Struct, frozen=True, kw_only=True):
    title: str = ""
    layout: Layout = "row"
    columns: int = 0  # for a grid
    seat: int = -1  # a seat's own area (its castle, its hand) is drawn in its colour
    pieces: tuple[Piece, ...] = ()
    zones: tuple[Zone, ...] = ()  # zones inside this one, after its pieces


class Scene(msgspec.Struct, frozen=True, kw_only=True):
    status: tuple[str, ...] = ()  # a line or two above the board: round, phase, who is to act
    zones: tuple[Zone, ...] = ()


def pieces(scene: Scene) -> Iterator[Piece]:
    """Every piece of a scene, zones inside zones included, in drawing order."""
    for zone in scene.zones:
        yield from _in_zone(zone)


def _in_zone(zone: Zone) -> Iterator[Piece]:
    yield from zone.pieces
    for inner in zone.zones:
        yield from _in_zone(inner)


def piece_ids(scene: Scene) -> set[str]:
    return {piece.id for piece in pieces(scene) if piece.id}
