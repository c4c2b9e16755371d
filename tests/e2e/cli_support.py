"""Running the `siege` command as a user does: a separate process, its own data folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SIEGE = [sys.executable, "-m", "siegeworks.cli"]


def siege(args: list[str], data_dir: Path, path: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["SIEGE_DATA_DIR"] = str(data_dir)
    env["COLUMNS"] = "200"
    if path is not None:
        env["PATH"] = path
    return subprocess.run(SIEGE + args, env=env, capture_output=True, text=True, timeout=300)
