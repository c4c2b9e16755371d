"""A match as the web pages show it: its story in words, seq by seq, and the board a spectator
sees after any seq, drawn by the game's presentation (an SVG of the same drawing ``siege replay
--text`` prints). Nothing here shows what a seat's view hides: the narrator speaks to nobody in
particular and the board is ``view(state, SPECTATOR)``."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import msgspec
from rich.console import Console

from siege.engine.protocol import SPECTATOR
from siege.engine.registry import presentation
from siege.hosting.narration import Narrator
from siege.hosting.replay import fold_to

Entry = tuple[int, bytes, Any]
# Rich's SVG asks for a web font by URL; the pages use the browser's own monospace instead, so
# nothing is fetched from the network.
_WEB_FONT = re.compile(r"@font-face\s*\{[^}]*\}")


class Move(msgspec.Struct, frozen=True):
    seq: int
    text: str


def story(entries: Sequence[Entry]) -> tuple[str, list[str], list[Move], int]:
    """(game, seat names, every told line by seq, the last seq) of a match's log."""
    ms, events = fold_to(entries)
    assert ms.created is not None
    names = seat_names(ms.created.seat_names, ms.created.players)
    narrator = Narrator(presentation(ms.created.game), names)
    moves = [Move(seq, line) for seq, event in events
             if (line := narrator.line(seq, event)) is not None]
    return ms.created.game, names, moves, events[-1][0]


def seat_names(given: Sequence[str], players: int) -> list[str]:
    return list(given) or [f"seat {s}" for s in range(players)]


def spectator_view(entries: Sequence[Entry], seq: int) -> tuple[str, Any, list[str]]:
    """(game, the spectator's view after ``seq``, seat names)."""
    ms, _ = fold_to(entries, seq)
    assert ms.engine is not None and ms.created is not None
    return (ms.created.game, ms.engine.view(ms.game, SPECTATOR),
            seat_names(ms.created.seat_names, ms.created.players))


def seat_view(entries: Sequence[Entry], seat: int) -> tuple[str, Any, list[str]]:
    """(game, ``seat``'s view at the end of the log, seat names)."""
    ms, _ = fold_to(entries)
    assert ms.engine is not None and ms.created is not None
    return (ms.created.game, ms.engine.view(ms.game, seat),
            seat_names(ms.created.seat_names, ms.created.players))


def board_svg(game: str, view: Any, names: Sequence[str], title: str) -> str:
    """The game's board of ``view`` as an SVG picture of an 80-column terminal."""
    console = Console(width=80, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(presentation(game).board(view, names))
    return _WEB_FONT.sub("", console.export_svg(title=title))


def board_text(game: str, view: Any, names: Sequence[str]) -> str:
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(presentation(game).board(view, names))
    return console.export_text()
