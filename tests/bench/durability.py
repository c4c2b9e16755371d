"""Acknowledged appends lost when Redis is killed, per persistence setting (not a test; it
prints figures for docs/durability.md).

    .venv/bin/python tests/bench/durability.py [repeats]

For each setting, a fresh redis-server (a free port of 127.0.0.1, its own temp dir) takes XADDs
to one stream as fast as one client can send them, one at a time, and the client counts the ids
Redis acknowledged. A fraction of a second in, the primary gets SIGKILL (a process crash: what
the kernel already holds survives, unlike a power loss). Then it is restarted from its own files
(or, for the replica setting, the replica is read) and the acknowledged ids missing are counted.
With the replica, an append counts as acknowledged only once ``WAIT 1`` says a replica has it.
Each setting runs ``repeats`` times (default 5); the table gives the median and the worst.
"""

from __future__ import annotations

import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.exceptions import BusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

from siege.eventlog.embedded import find_redis_server

REPEATS = 5
KILL_AFTER_S = (0.6, 1.0)  # the kill comes at a random moment in this range
WAIT_MS = 100  # WAIT 1 <ms> after each append in the replica setting
STREAM = "bench:log"
PAYLOAD = bytes(range(100))  # about one msgpack event
START_TIMEOUT_S = 10.0
NO_PERSISTENCE = ("--appendonly", "no", "--save", "")
SETTINGS: dict[str, tuple[str, ...]] = {
    "no AOF, no RDB": NO_PERSISTENCE,
    "appendfsync everysec": ("--appendonly", "yes", "--appendfsync", "everysec", "--save", ""),
    "appendfsync always": ("--appendonly", "yes", "--appendfsync", "always", "--save", ""),
    # Without the delay the primary waits 5 s for more replicas before the first sync.
    f"WAIT 1 {WAIT_MS} to a replica": (*NO_PERSISTENCE, "--repl-diskless-sync-delay", "0"),
}
REPLICATED = f"WAIT 1 {WAIT_MS} to a replica"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def connect(port: int) -> redis.Redis:
    # No retries: a dead server must end the writer's loop at once, not be reconnected to.
    return redis.Redis(port=port, socket_timeout=10, retry=Retry(NoBackoff(), 0))


class Server:
    """One redis-server in ``folder``; restartable on the same files and port."""

    def __init__(self, binary: str, folder: Path, args: tuple[str, ...]) -> None:
        self.binary, self.folder, self.args = binary, folder, args
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        with open(self.folder / "redis.log", "ab") as log:
            self.process = subprocess.Popen(
                [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
                 "--dir", str(self.folder), "--daemonize", "no", *self.args],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with connect(self.port) as client:
                    client.ping()
                    return self
            except (RedisConnectionError, BusyLoadingError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start; see {self.folder}") from None
                time.sleep(0.02)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait()


@dataclass
class Run:
    acknowledged: int
    seconds: float
    lost: int


def write_until_killed(client: redis.Redis, victim: Server, kill_after_s: float,
                       replicated: bool) -> tuple[list[bytes], float]:
    """Appends until the connection dies; the ids acknowledged and the seconds it wrote."""
    acknowledged: list[bytes] = []
    timer = threading.Timer(kill_after_s, victim.kill)
    started = time.perf_counter()
    timer.start()
    try:
        while True:
            entry_id = client.xadd(STREAM, {"e": PAYLOAD})
            if replicated and client.execute_command("WAIT", 1, WAIT_MS) < 1:
                continue  # not on a replica in time: never acknowledged as safe
            acknowledged.append(entry_id)
    except (RedisConnectionError, RedisTimeoutError):
        pass
    finally:
        timer.join()
    return acknowledged, time.perf_counter() - started


def wait_for_replica(primary: Server) -> None:
    """Until the replica acknowledges a write: after its first sync it may take a second (its
    first REPLCONF ACK) before WAIT counts it."""
    deadline = time.monotonic() + START_TIMEOUT_S
    with connect(primary.port) as client:
        while True:
            client.set("bench:ready", 1)
            if client.execute_command("WAIT", 1, WAIT_MS) >= 1:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the replica did not acknowledge a write")


def one_run(binary: str, setting: str, kill_after_s: float) -> Run:
    folder = Path(tempfile.mkdtemp(prefix="siege-durability-"))
    servers: list[Server] = []
    try:
        primary = Server(binary, folder / "primary", SETTINGS[setting])
        primary.folder.mkdir()
        servers.append(primary.start())
        survivor = primary
        if setting == REPLICATED:
            replica = Server(binary, folder / "replica",
                             (*NO_PERSISTENCE, "--replicaof", "127.0.0.1", str(primary.port)))
            replica.folder.mkdir()
            servers.append(replica.start())
            wait_for_replica(primary)
            survivor = replica
        with connect(primary.port) as client:
            acknowledged, seconds = write_until_killed(client, primary, kill_after_s,
                                                       replicated=setting == REPLICATED)
        if survivor is primary:
            primary.start()  # from its own files
        with connect(survivor.port) as client:
            present = {entry_id for entry_id, _ in client.xrange(STREAM)}
        lost = sum(1 for entry_id in acknowledged if entry_id not in present)
        return Run(acknowledged=len(acknowledged), seconds=seconds, lost=lost)
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else REPEATS
    binary = find_redis_server()
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    draw = random.Random(7)
    began = time.perf_counter()
    print(f"durability: {repeats} SIGKILLs per setting, one client appending 100-byte entries "
          f"one at a time; {version.split()[2]}, files in {tempfile.gettempdir()}")
    print(f"{'setting':<26} {'writes/s':>9} {'acked (median)':>15} {'lost median':>12} "
          f"{'lost max':>9}")
    for setting in SETTINGS:
        runs = [one_run(binary, setting, draw.uniform(*KILL_AFTER_S)) for _ in range(repeats)]
        rate = statistics.median(r.acknowledged / r.seconds for r in runs)
        acked = statistics.median(r.acknowledged for r in runs)
        lost = statistics.median(r.lost for r in runs)
        print(f"{setting:<26} {rate:>9,.0f} {acked:>15,.0f} {lost:>12,.0f} "
              f"{max(r.lost for r in runs):>9,}")
    print(f"({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
