"""Running the `siege` command as a user does: a separate process, its own data folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

SIEGE = [sys.executable, "-m", "siegeworks.cli"]


def hears_ctrl_c() -> None:
    """For ``preexec_fn`` of a ``siege`` a test interrupts: Ctrl-C's default action in the
    child. A process started with SIGINT ignored (a background job of a script, as a CI
    runner may start the tests) passes that on to every process it starts, and Python then
    leaves SIGINT ignored: the Ctrl-C the test sends would never arrive."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def siege(args: list[str], data_dir: Path, path: str | None = None,
          **env: str) -> subprocess.CompletedProcess:
    """``siege ARGS`` in ``data_dir`` (its data folder and working directory), with no
    REDIS_URL unless given in ``env``; ``path`` replaces PATH."""
    base = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    base.update(SIEGE_HOME=str(data_dir), SIEGE_DATA_DIR=str(data_dir), COLUMNS="200")
    base.update(env)
    if path is not None:
        base["PATH"] = path
    return subprocess.run(SIEGE + args, env=base, capture_output=True, text=True, timeout=300,
                          cwd=data_dir)
