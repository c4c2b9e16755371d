"""The README's rulings name tests that exist, so no ruling goes unpinned."""

from __future__ import annotations

import re
from pathlib import Path

from siege.games.storm_castle import board

README = Path(board.__file__).parent / "README.md"
HERE = Path(__file__).parent


def test_every_test_the_rulings_name_exists() -> None:
    text = README.read_text()
    assert "Rulings" in text and "ruling" in text
    refs = re.findall(r"`(\w+)::(\w+|\*)`", text)
    tests = {path.stem.removeprefix("test_sc_"): set(re.findall(r"^def (test_\w+)",
                                                                path.read_text(), re.M))
             for path in HERE.glob("test_sc_*.py")}
    missing = [(f, t) for f, t in refs if f not in tests or (t != "*" and t not in tests[f])]
    assert len(refs) > 40 and missing == []
