"""Starts, watches and stops the four service processes for ``siege run`` and the e2e tests, or
several replicas of each for the benchmarks (each under a consumer name of its own)."""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from redis.asyncio import Redis

from siegeworks.errors import ServiceStartError
from siegeworks.serve import SERVICES, read_health

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
        # Every process started and not killed, by its consumer name (``rules-0``, ``rules-1``,
        # ...): replicas of one service side by side. ``service_of`` names each one's service.
        self.consumers: dict[str, subprocess.Popen[bytes]] = {}
        self.service_of: dict[str, str] = {}
        # By service, the process started last of those in ``consumers``: what callers that run
        # one process per service use (a replacement under a new consumer name takes its place).
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.exit_codes: dict[str, int] = {}

    def start(self, service: str, consumer: str | None = None, args: Sequence[str] = (),
              env: Mapping[str, str] | None = None) -> None:
        """Starts ``service`` with ``args`` after its own and ``env`` over the shared one, as
        consumer ``consumer`` (``<service>-0`` by default). Its output goes to ``<service>.log``
        for the default consumer, else to ``<consumer>.log``: a file per replica, since two
        processes' buffered writes to one file would cut each other's lines."""
        consumer = consumer or f"{service}-0"
        self.log_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path(service, consumer), "ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "siegeworks.cli", "serve", service,
                 "--consumer", consumer, *args],
                # The service ends with this process, however it ends (see die_with_parent).
                env={**self.env, "REDIS_URL": self.service_urls.get(service, self.redis_url),
                     **(env or {}), PARENT_ENV: str(os.getpid())},
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.consumers.pop(consumer, None)  # the newest last, for ``procs`` after a kill
        self.consumers[consumer] = self.procs[service] = proc
        self.service_of[consumer] = service

    def log_path(self, service: str, consumer: str) -> Path:
        name = service if consumer == f"{service}-0" else consumer
        return self.log_dir / f"{name}.log"

    def start_all(self) -> None:
        for service in self.services:
            self.start(service)

    async def wait_healthy(self, redis: Redis, timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for consumer, proc in self.consumers.items():
                if proc.poll() is not None:
                    service = self.service_of[consumer]
                    log = self.log_path(service, consumer)
                    raise ServiceStartError(f"{service} ({consumer}) exited with "
                                            f"{proc.returncode}; see {log}")
            # Every process's own record: one replica up says nothing of the others.
            up = {(h.service, h.consumer) for h in await read_health(redis)}
            if up >= {(self.service_of[c], c) for c in self.consumers}:
                return
            await asyncio.sleep(0.05)
        raise ServiceStartError(f"services not healthy after {timeout_s}s; logs in {self.log_dir}")

    @asynccontextmanager
    async def running(self, redis: Redis,
                      timeout_s: float = 30.0) -> AsyncIterator[ServiceProcesses]:
        """All services started and healthy for the block; stopped after it, whatever happens
        (their exit codes are then in ``exit_codes``)."""
        self.start_all()
        try:
            await self.wait_healthy(redis, timeout_s)
            yield self
        finally:
            self.exit_codes = self.stop_all()

    def kill(self, name: str) -> None:
        """SIGKILL, as a crash would: no clean-up, pending entries stay pending. ``name`` is a
        consumer, or a service for its process in ``procs``. The process is forgotten: its
        service's entry in ``procs`` falls back to the newest replica left, and ``stop_all``
        reports only the processes it stops."""
        proc = self.consumers.get(name) or self.procs[name]
        consumer = next(c for c, p in self.consumers.items() if p is proc)
        service = self.service_of.pop(consumer)
        del self.consumers[consumer]
        left = [p for c, p in self.consumers.items() if self.service_of[c] == service]
        if left:
            self.procs[service] = left[-1]
        else:
            self.procs.pop(service, None)
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def stop_all(self, timeout_s: float = 10.0) -> dict[str, int]:
        """SIGTERM to every process, then their exit codes: by service name for a service
        with one process (as callers that start one each expect), else by consumer name."""
        for proc in self.consumers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        count = Counter(self.service_of.values())
        codes = {}
        for consumer, proc in self.consumers.items():
            service = self.service_of[consumer]
            name = service if count[service] == 1 else consumer
            try:
                codes[name] = proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                codes[name] = proc.wait()
        return codes
