"""The import direction the layout promises: libraries never reach into services."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_libraries_never_import_services() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "libs").rglob("*.py")
        if re.search(r"^\s*(from|import)\s+siegeworks\b", path.read_text(), re.M)
    ]
    assert offenders == []


def test_no_library_outside_dice_imports_random() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "libs").rglob("*.py")
        if "dice" not in path.parts
        and re.search(r"^\s*(import random|from random import)", path.read_text(), re.M)
    ]
    assert offenders == []
