"""What every game's presentation tests check the same way: a board drawn as text at 80
columns, and a line of words that is one line and no Python repr."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from siege.engine.presentation import Presentation

REPR = re.compile(r"\w\(\w+=|<\w+ object|\w+\(\)")


def render(presentation: Presentation, view: Any, names: Sequence[str]) -> str:
    """The board of ``view`` as an 80-column terminal shows it."""
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(presentation.board(view, names))
    return console.export_text()


def assert_line(line: str) -> None:
    """One non-empty line of words, not a repr."""
    assert isinstance(line, str)
    assert line.strip(), "an empty line"
    assert "\n" not in line
    assert not ("(" in line and "=" in line), f"looks like a repr: {line!r}"
    assert not REPR.search(line), f"looks like a repr: {line!r}"
