"""No service outlives what started it: a supervisor killed outright (SIGKILL, no chance to
stop its children) takes its four service processes with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

pytestmark = pytest.mark.e2e

STARTER = """
import asyncio, sys
from pathlib import Path
from redis.asyncio import Redis
from siegeworks.supervisor import ServiceProcesses

async def main():
    procs = ServiceProcesses(sys.argv[1], Path(sys.argv[2]))
    procs.start_all()
    await procs.wait_healthy(Redis.from_url(sys.argv[1]))
    print(" ".join(str(p.pid) for p in procs.procs.values()), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_services_end_when_their_supervisor_is_killed(redis_url: str, tmp_path) -> None:
    starter = subprocess.Popen([sys.executable, "-c", STARTER, redis_url, str(tmp_path)],
                               stdout=subprocess.PIPE, text=True)
    assert starter.stdout is not None
    pids = [int(p) for p in starter.stdout.readline().split()]
    assert len(pids) == 4 and not any(gone(pid) for pid in pids)
    os.kill(starter.pid, signal.SIGKILL)
    starter.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not all(gone(pid) for pid in pids):
        time.sleep(0.1)  # polling the process table: there is no notice of another's death
    left = [pid for pid in pids if not gone(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []
