"""Starts, watches and stops the four service processes for ``siege run`` and the e2e tests."""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from redis.asyncio import Redis

from siegeworks.serve import SERVICES, read_health


class ServiceStartError(RuntimeError):
    pass


PARENT_ENV = "SIEGE_SUPERVISOR_PID"


def die_with_parent() -> None:
    """For a service a supervisor started (``SIEGE_SUPERVISOR_PID`` set): SIGTERM when that
    process dies, even killed outright, so no service outlives the ``siege run`` or test that
    started it (Linux's PR_SET_PDEATHSIG; elsewhere nothing changes). Checked once after
    asking, since the parent may have died before."""
    parent = os.environ.get(PARENT_ENV)
    if not parent or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    if os.getppid() != int(parent):
        os.kill(os.getpid(), signal.SIGTERM)


PR_SET_PDEATHSIG = 1


class ServiceProcesses:
    def __init__(self, redis_url: str, log_dir: Path, env: dict[str, str] | None = None,
                 services: tuple[str, ...] = SERVICES,
                 service_urls: dict[str, str] | None = None) -> None:
        self.redis_url = redis_url
        # Per service, a URL of its own (its own ACL user); else ``redis_url``.
        self.service_urls = service_urls or {}
        self.log_dir = log_dir
        self.env = {**os.environ, **(env or {}), "REDIS_URL": redis_url}
        self.services = services
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.exit_codes: dict[str, int] = {}

    def start(self, service: str, consumer: str | None = None, args: Sequence[str] = (),
              env: Mapping[str, str] | None = None) -> None:
        """Starts ``service`` with ``args`` after its own and ``env`` over the shared one."""
        self.log_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_dir / f"{service}.log", "ab") as log:
            self.procs[service] = subprocess.Popen(
                [sys.executable, "-m", "siegeworks.cli", "serve", service,
                 "--consumer", consumer or f"{service}-0", *args],
                # The service ends with this process, however it ends (see die_with_parent).
                env={**self.env, "REDIS_URL": self.service_urls.get(service, self.redis_url),
                     **(env or {}), PARENT_ENV: str(os.getpid())},
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def start_all(self) -> None:
        for service in self.services:
            self.start(service)

    async def wait_healthy(self, redis: Redis, timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for service, proc in self.procs.items():
                if proc.poll() is not None:
                    log = self.log_dir / f"{service}.log"
                    raise ServiceStartError(f"{service} exited with {proc.returncode}; see {log}")
            up = {h.service for h in await read_health(redis)}
            if up >= set(self.procs):
                return
            await asyncio.sleep(0.05)
        raise ServiceStartError(f"services not healthy after {timeout_s}s; logs in {self.log_dir}")

    @asynccontextmanager
    async def running(self, redis: Redis) -> AsyncIterator[ServiceProcesses]:
        """All services started and healthy for the block; stopped after it, whatever happens
        (their exit codes are then in ``exit_codes``)."""
        self.start_all()
        try:
            await self.wait_healthy(redis)
            yield self
        finally:
            self.exit_codes = self.stop_all()

    def kill(self, service: str) -> None:
        """SIGKILL, as a crash would: no clean-up, pending entries stay pending."""
        proc = self.procs[service]
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def stop_all(self, timeout_s: float = 10.0) -> dict[str, int]:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        codes = {}
        for service, proc in self.procs.items():
            try:
                codes[service] = proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                codes[service] = proc.wait()
        return codes
