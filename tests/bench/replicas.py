"""Accepted actions/s and CPU per accepted action with 1, 2 and 4 replicas of each service, on a
single Redis and on a six-node Redis Cluster (3 primaries, a replica each), side by side in one
run.

The machine this project is developed on has 2 cores: the services' replicas, the bots' client
and every redis-server share them, so more replicas cannot add throughput here (the scaling
ratio says how much they cost, not what they would bring on more cores). What the figures must
show is that the CPU per accepted action does not grow with the replicas nor with the cluster.

For every store and replica count: the store is emptied, ``replicas`` processes of each of the
four services are started (consumers ``<service>-0`` ... ``<service>-<n-1>``, sharing their
service's consumer groups; on a cluster each reads per slot), and, after a warm-up, WINDOWS
windows of CONCURRENT concurrent 4-player Castle Dash matches between random bots are played
through them (waves of matches until a window holds WINDOW_ACTIONS accepted actions). Every
store and replica count plays the same seeded matches. Figures per window, the median of the
windows reported (tests/bench/services.py's ``Bench`` measures each window):

- accepted actions/s, and p50/p99 of the time from a SubmitAction to the next prompt;
- CPU per accepted action (psutil CPU times before and after the window): every service
  process summed, every redis-server summed (all six nodes on the cluster), and the bots'
  client (this process) apart;
- Redis calls executed per action (INFO commandstats, summed over the primaries on a cluster,
  calls inside scripts included) and commands sent per action (single Redis only: on a
  cluster the redis-py cluster connections count nothing);
- the bare engine's CPU per action (seeded playouts, bot choice included), measured before the
  first window of each configuration and after every window, and the ratio of the services'
  and Redis's CPU per action to it (each window against the mean of the engine figures
  around it: a core's speed drifts within a run).

Three loads (``--load``): ``fixed`` plays the same CONCURRENT matches whatever the replica count,
so each replica sees a share of them (its batches are smaller, it wakes more often per action);
``scaled`` plays CONCURRENT matches, CLIENTS clients and WINDOW_ACTIONS actions per replica,
the case replicas are added for (the load grew), in which every replica sees as much as one
replica alone did; ``light`` plays LIGHT matches per replica (a client each), scaled the same
way but few enough that the cores are not full: processes seldom wait for a core, so what more
processes cost by competing for two cores (caches, switches) is mostly out of the figure, and
every replica's batches are as large as one replica's alone. A 1-replica configuration is the
same under ``fixed`` and ``scaled``, and is run once.

Then the scaling ratio (actions/s with N replicas / with 1, per store and load) and the CPU per
action relative to 1 replica (and the cluster's relative to the single Redis). For scripts, a line
per configuration: ``replicas N single actions/s N cpu/action us N ...`` (services + Redis),
and ``engine cpu/action us N``.

Usage: ``python tests/bench/replicas.py`` (every load: about 10 minutes on the 2-core
machine; ``--load light`` alone about 4); a part of it with ``--stores cluster --replicas 1 4
--load fixed`` (the ratios then compare what was run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import psutil
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from services import (
    BOTS,
    GAME,
    PLAYERS,
    Bench,
    CountingConnection,
    Window,
    cpu_seconds,
    engine_cpu_per_action,
)
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.keys import SHARDS
from siegeworks.cli.common import run_loop
from siegeworks.redis_target import connect
from siegeworks.serve import SERVICES, read_health
from siegeworks.supervisor import ServiceProcesses

REPLICAS = (1, 2, 4)
STORES = ("single", "cluster")
LOADS = ("fixed", "scaled", "light")
CONCURRENT = 50
LIGHT = 2
"""Concurrent matches per replica of the ``light`` load, a bot client each: few enough that the
two cores are not full even with 4 replicas, so no process waits long for a core."""
CLIENTS = 10
"""Bot clients sharing each wave (5 matches each): a client's actions come on its own commands
stream, in its shard, which one replica of the match and rules services reads; with a single
client one replica would do all of that work whatever the replica count."""
WINDOW_ACTIONS = 4_000
"""Accepted actions a window holds at least: two waves of 50 matches (about 2,800 each)."""
WINDOWS = 3
IDLE_S = 4.0
"""How long every process's CPU is sampled with no match running, per configuration."""
HEALTHY_TIMEOUT_S = 90.0
"""Sixteen interpreters importing at once on two cores take a while to write their first beat."""
SPLIT_TIMEOUT_S = 30.0
BOTS_NAME = "bench clients"  # Bench's name for this process's CPU


@dataclass
class Config:
    store: str
    replicas: int
    load: str = "fixed"
    windows: list[Window] = field(default_factory=list)
    engine_us: list[float] = field(default_factory=list)  # per window, around it
    service_names: dict[str, str] = field(default_factory=dict)  # consumer -> service
    shards: dict[str, list[int]] | None = None
    exit_codes: dict[str, int] = field(default_factory=dict)
    log_records: Counter[str] = field(default_factory=Counter)  # "level: event" in the logs
    batch_entries: dict[str, float] = field(default_factory=dict)  # service -> mean per batch
    started_s: float = 0.0
    idle: dict[str, float] = field(default_factory=dict)  # CPU s per s with no match running
    # Per window, the cores that processes other than the bench's were using meanwhile (other
    # people's work on a shared machine): throughput is only comparable where it is near 0.
    others: list[float] = field(default_factory=list)
    # Per window, the cores the services, Redis and the bots' clients kept busy: 2 is a full
    # machine here, where every process queues for a core.
    busy: list[float] = field(default_factory=list)
    # Per window, context switches per action of the services and Redis: (voluntary, the
    # process waited: a wake-up per read that found nothing ready; involuntary, the scheduler
    # took the core away: processes outnumbering cores).
    switches: list[tuple[float, float]] = field(default_factory=list)

    @property
    def scale(self) -> int:
        """How many times the 1-replica load this configuration plays."""
        return self.replicas if self.load in ("scaled", "light") else 1

    @property
    def matches(self) -> int:
        """Concurrent matches in a window."""
        return (LIGHT if self.load == "light" else CONCURRENT) * self.scale

    @property
    def clients(self) -> int:
        return self.matches if self.load == "light" else CLIENTS * self.scale

    @property
    def window_actions(self) -> int:
        """Accepted actions a window holds at least."""
        return WINDOW_ACTIONS * (1 if self.load == "light" else self.scale)

    @property
    def key(self) -> tuple[str, str, int]:
        return self.load, self.store, self.replicas

    def per_window(self, figure: Callable[[Window], float]) -> float:
        return statistics.median(figure(w) for w in self.windows)

    def services_us(self, w: Window) -> float:
        return sum(us for name, us in w.cpu_us.items() if name in self.service_names)

    def service_us(self, w: Window, service: str) -> float:
        return sum(us for name, us in w.cpu_us.items() if self.service_names.get(name) == service)

    @staticmethod
    def redis_us(w: Window) -> float:
        return sum(us for name, us in w.cpu_us.items() if name.startswith("redis-server"))

    def system_us(self, w: Window) -> float:
        return self.services_us(w) + self.redis_us(w)

    @property
    def idle_system(self) -> float:
        """CPU seconds per second the services and Redis spend with nothing to do."""
        return sum(rate for name, rate in self.idle.items()
                   if name in self.service_names or name.startswith("redis-server"))

    def net_us(self, w: Window) -> float:
        """``system_us`` less what the processes would have spent idle over the window: the
        part that comes with the actions rather than with the number of processes."""
        return self.system_us(w) - self.idle_system * w.seconds * 1e6 / w.actions

    @property
    def net(self) -> float:
        return self.per_window(self.net_us)

    def per_action(self, command: str) -> float:
        return (sum(w.calls[command] for w in self.windows)
                / sum(w.actions for w in self.windows))

    @property
    def rate(self) -> float:
        return self.per_window(lambda w: w.rate)

    @property
    def system(self) -> float:
        return self.per_window(self.system_us)

    def service(self, service: str) -> float:
        return self.per_window(lambda w: self.service_us(w, service))

    @property
    def bots(self) -> float:
        return self.per_window(lambda w: w.cpu_us[BOTS_NAME])

    @property
    def engine(self) -> float:
        return statistics.median(self.engine_us)

    @property
    def times_engine(self) -> float:
        return statistics.median(self.system_us(w) / e
                                 for w, e in zip(self.windows, self.engine_us, strict=True))


async def idle_cpu(bench: Bench, seconds: float = IDLE_S) -> dict[str, float]:
    """CPU seconds per second of every process while no match runs: heartbeats, lease ticks,
    timed reads, the cluster's gossip. A fixed cost per process, which a window's CPU per
    action includes divided by however many actions/s the machine makes."""
    before = {name: cpu_seconds(p) for name, p in bench.procs.items()}
    start = time.perf_counter()
    await asyncio.sleep(seconds)  # the measured interval itself: nothing waits on anything
    after = {name: cpu_seconds(p) for name, p in bench.procs.items()}
    elapsed = time.perf_counter() - start
    return {name: (after[name] - before[name]) / elapsed for name in before}


def context_switches(bench: Bench, names: Collection[str]) -> tuple[int, int]:
    """Voluntary and involuntary context switches so far of the processes ``names``."""
    counts = [bench.procs[name].num_ctx_switches() for name in names]
    return sum(c.voluntary for c in counts), sum(c.involuntary for c in counts)


def busy_cpu_seconds() -> float:
    """CPU seconds every process on the machine has spent, in user and system mode (what a
    process's own CPU times count; the kernel's interrupt work is left out)."""
    times = psutil.cpu_times()
    return times.user + times.system + getattr(times, "nice", 0.0)


@contextmanager
def store(kind: str) -> Iterator[tuple[str, EmbeddedRedis | EmbeddedCluster]]:
    """A private store on free ports (never 6379), and the URL the services and ``siege``
    take for it."""
    if kind == "single":
        with EmbeddedRedis() as server:
            yield server.url, server
    else:
        with EmbeddedCluster(masters=3, replicas=1) as cluster:
            yield cluster.cluster_url, cluster


async def flush(redis: Redis | RedisCluster) -> None:
    """Every configuration starts from an empty store: the same matches replayed need their
    ids free, and neither the last configuration's logs nor its clients' streams (every wave
    is a client of its own, whose commands stream every read names) weigh on the next."""
    if isinstance(redis, RedisCluster):
        await redis.flushdb(target_nodes=RedisCluster.PRIMARIES)
    else:
        await redis.flushdb()


async def wait_for_split(redis: Redis | RedisCluster,
                         timeout_s: float = SPLIT_TIMEOUT_S) -> dict[str, list[int]] | None:
    """When the services' replicas share the shards by leases (their health records say which
    they hold), waits until every service's replicas hold every shard once, as evenly as can
    be, so the windows measure the settled split rather than the first replica holding all;
    returns the shards by consumer (None when the records name none, or on a timeout, said)."""
    deadline = time.monotonic() + timeout_s
    held: dict[str, list[int]] = {}
    while True:
        health = await read_health(redis)
        if not health or any(getattr(h, "shards", None) is None for h in health):
            return None
        held = {f"{h.service}/{h.consumer}": sorted(h.shards or []) for h in health}
        settled = True
        for service in SERVICES:
            mine = [h.shards or [] for h in health if h.service == service]
            every = sorted(s for shards in mine for s in shards)
            sizes = [len(shards) for shards in mine]
            settled &= every == list(range(SHARDS)) and max(sizes) - min(sizes) <= 1
        if settled:
            return held
        if time.monotonic() > deadline:
            print(f"  note: shards not split evenly after {timeout_s:.0f} s: {held}")
            return held
        # The replicas look at each other once a lease tick (a second): poll a few times a tick.
        await asyncio.sleep(0.2)


def log_records(log_dir: Path) -> tuple[Counter[str], dict[str, float]]:
    """The services' warnings and errors (``level: event``), and output that is no log record
    (a traceback); and each service's mean entries per batch over the run (its replicas'
    ``batch_handled`` records together)."""
    found: Counter[str] = Counter()
    batches: dict[str, list[int]] = {}
    for path in sorted(log_dir.glob("*.log")):
        for line in path.read_text(errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if not isinstance(record, dict):
                found[f"not a record in {path.stem}: {line[:80]}"] += 1
                continue
            if record.get("event") == "batch_handled":
                batches.setdefault(path.stem.split("-")[0], []).append(int(record["entries"]))
            if record.get("level") in ("warning", "error", "critical"):
                error = f" ({str(record['error'])[:100]})" if "error" in record else ""
                found[f"{record['level']} in {path.stem}: {record.get('event')}{error}"] += 1
    return found, {service: statistics.mean(sizes) for service, sizes in batches.items()}


async def one_config(kind: str, url: str, server: EmbeddedRedis | EmbeddedCluster,
                     redis: Redis | RedisCluster, clients: Redis | RedisCluster,
                     replicas: int, load: str, log_dir: Path) -> Config:
    cfg = Config(kind, replicas, load)
    await flush(redis)
    services = ServiceProcesses(url, log_dir)
    start = time.perf_counter()
    try:
        for service in SERVICES:
            for i in range(replicas):
                services.start(service, consumer=f"{service}-{i}")
        cfg.service_names = dict(services.service_of)
        await services.wait_healthy(redis, timeout_s=HEALTHY_TIMEOUT_S)
        cfg.shards = await wait_for_split(redis)
        cfg.started_s = time.perf_counter() - start
        bench = Bench(redis, clients, server, services.consumers)
        await bench.one_load(5, seed=999, min_samples=0)  # warm-up: imports, scripts, caches
        cfg.idle = await idle_cpu(bench)
        engine = [engine_cpu_per_action() * 1e6]
        for k in range(WINDOWS):
            ours_before = sum(cpu_seconds(p) for p in bench.procs.values())
            system = [name for name in bench.procs if name != BOTS_NAME]
            switched = context_switches(bench, system)
            busy_before, began = busy_cpu_seconds(), time.perf_counter()
            # The same seeds in every configuration: every one plays the same matches.
            w = await bench.one_load(cfg.matches, seed=k,
                                     min_samples=cfg.window_actions,
                                     clients=cfg.clients)
            ours = sum(cpu_seconds(p) for p in bench.procs.values()) - ours_before
            elapsed = time.perf_counter() - began
            cfg.others.append(max(0.0, busy_cpu_seconds() - busy_before - ours) / elapsed)
            cfg.busy.append(ours / elapsed)
            engine.append(engine_cpu_per_action() * 1e6)
            cfg.windows.append(w)
            now = context_switches(bench, system)
            cfg.switches.append(((now[0] - switched[0]) / w.actions,
                                 (now[1] - switched[1]) / w.actions))
            cfg.engine_us.append((engine[-2] + engine[-1]) / 2)
            print(f"  window {k + 1}: {w.rate:,.0f} actions/s ({w.actions} in {w.seconds:.1f} s),"
                  f" services {cfg.services_us(w):,.0f} + redis {cfg.redis_us(w):,.0f} µs/action"
                  f" (engine {cfg.engine_us[-1]:.1f}), bots {w.cpu_us[BOTS_NAME]:,.0f}; "
                  f"{cfg.busy[-1]:.2f} cores busy; other processes on the machine meanwhile: "
                  f"{cfg.others[-1]:.2f} cores")
    finally:
        cfg.exit_codes = services.stop_all()
    cfg.log_records, cfg.batch_entries = log_records(log_dir)
    return cfg


def print_config(cfg: Config) -> None:
    w0 = cfg.windows[0]
    per_process = " · ".join(
        f"{name} {statistics.median(w.cpu_us[name] for w in cfg.windows):,.0f}"
        for name in w0.cpu_us if name in cfg.service_names or name.startswith("redis-server"))
    print(f"  median µs per action by process: {per_process}")
    idle = " · ".join(f"{name} {rate * 1000:.1f}" for name, rate in cfg.idle.items()
                      if name in cfg.service_names or name.startswith("redis-server"))
    print(f"  idle, ms of CPU per second: {idle} · services + redis {cfg.idle_system * 1000:.0f}")
    calls = Counter({name: cfg.per_action(name) for w in cfg.windows for name in w.calls})
    print("  Redis calls per action: " + ", ".join(f"{name.upper()} {n:.2f}"
                                                   for name, n in calls.most_common(8)))
    print("  entries per batch (mean over the run, per replica): " + " · ".join(
        f"{service} {cfg.batch_entries[service]:.1f}" for service in SERVICES
        if service in cfg.batch_entries))
    if cfg.shards is not None:
        print("  shards held: " + ", ".join(f"{who} {len(s)}" for who, s in cfg.shards.items()))
    bad = {name: code for name, code in cfg.exit_codes.items() if code != 0}
    print(f"  services started and healthy in {cfg.started_s:.1f} s; "
          + (f"exit codes not 0: {bad}" if bad else "every one exited 0")
          + "; in their logs: " + (", ".join(f"{n}× {what}" for what, n in
                                            cfg.log_records.most_common(6)) or "no warnings"))


def base(by: dict[tuple[str, str, int], Config], c: Config) -> tuple[Config, Config]:
    """What ``c`` is compared with: the fewest replicas run on its store under its load, and
    the single Redis with its replicas and load (itself when that was not run)."""
    fewest = min(n for load, store, n in by if (load, store) == (c.load, c.store))
    return by[(c.load, c.store, fewest)], by.get((c.load, "single", c.replicas), c)


def label(c: Config) -> str:
    return f"{c.store:<8} {c.load:<6} {c.replicas:>8}"


LABEL = f"{'store':<8} {'load':<6} {'replicas':>8}"


def print_tables(configs: list[Config]) -> None:
    by = {c.key: c for c in configs}
    print("\nCPU µs per accepted action (medians of the windows); services = every replica of "
          "the four services; redis = every redis-server (6 nodes on the cluster); × engine = "
          "(services + redis) / the bare engine; others = cores used by other "
          "processes on the machine during the windows; fewest = the run with the fewest "
          "replicas on that store under that load (1 in a whole run); load fixed = the same "
          f"{CONCURRENT} matches whatever the replicas, scaled = {CONCURRENT} per replica, "
          f"light = {LIGHT} per replica, which leave the cores some rest; cores = cores the "
          "services, Redis and the bots kept busy (2 is all of this machine)")
    print(f"{LABEL} | {'actions/s':>9} | {'× fewest':>8} | {'p50 ms':>6} | "
          f"{'p99 ms':>6} | {'services':>8} | {'redis':>6} | {'svc+redis':>9} | "
          f"{'vs fewest':>9} | {'vs single':>9} | {'bots':>5} | {'engine':>6} | "
          f"{'× engine':>8} | {'cores':>5} | {'others':>6}")
    for c in configs:
        one, single = base(by, c)
        print(f"{label(c)} | {c.rate:>9,.0f} | {c.rate / one.rate:>8.2f} | "
              f"{c.per_window(lambda w: w.p50):>6.1f} | {c.per_window(lambda w: w.p99):>6.1f} | "
              f"{c.per_window(c.services_us):>8,.0f} | {c.per_window(c.redis_us):>6,.0f} | "
              f"{c.system:>9,.0f} | {c.system / one.system:>9.2f} | "
              f"{c.system / single.system:>9.2f} | "
              f"{c.bots:>5,.0f} | {c.engine:>6.1f} | "
              f"{c.times_engine:>8.1f} | {statistics.median(c.busy):>5.2f} | "
              f"{statistics.median(c.others):>6.2f}")
    print("\nwhere it goes, µs per accepted action (medians): each service with all its replicas; "
          "idle = CPU of the services and Redis with no match running, ms per second; net = "
          "services + redis less that idle rate over the window")
    print(f"{LABEL} | " + " | ".join(f"{s:>7}" for s in SERVICES)
          + f" | {'redis':>6} | {'bots':>5} | {'idle ms/s':>9} | {'net':>5} | {'vs fewest':>9} | "
          f"{'XREADGROUP/act':>14} | {'rules/batch':>11} | {'calls/act':>9} | {'sent/act':>8} | "
          f"{'waits/act':>9} | {'preempt/act':>11}")
    for c in configs:
        one, _ = base(by, c)
        sent = [w.sent for w in c.windows if w.sent is not None]
        print(f"{label(c)} | "
              + " | ".join(f"{c.service(s):>7,.0f}" for s in SERVICES)
              + f" | {c.per_window(c.redis_us):>6,.0f} | {c.bots:>5,.0f} | "
              f"{c.idle_system * 1000:>9.0f} | {c.net:>5,.0f} | {c.net / one.net:>9.2f} | "
              f"{c.per_action('xreadgroup'):>14.2f} | "
              f"{c.batch_entries.get('rules', 0.0):>11.1f} | "
              f"{c.per_window(lambda w: sum(w.calls.values()) / w.actions):>9.2f} | "
              + (f"{statistics.median(sent):>8.2f}" if sent else f"{'n/a':>8}")
              + f" | {statistics.median(v for v, _ in c.switches):>9.2f}"
              f" | {statistics.median(i for _, i in c.switches):>11.2f}")
    print("(rules/batch: entries per batch a rules replica handled, mean over the run; sent/act: "
          "commands sent, a script call once, single Redis only; calls/act: calls executed, "
          "inside scripts too, summed over the primaries on the cluster; waits/act and "
          "preempt/act: voluntary and involuntary context switches of the services and Redis "
          "per action, the second the cost of more processes than cores)")


def print_lines(configs: list[Config]) -> None:
    engine = statistics.median(e for c in configs for e in c.engine_us)
    print(f"\nengine cpu/action us {engine:.1f}")
    by = {c.key: c for c in configs}
    for c in configs:
        one, single = base(by, c)
        print(f"replicas {c.replicas} {c.store} load {c.load} actions/s {c.rate:.0f} cpu/action us "
              f"{c.system:.0f} bots us {c.bots:.0f} "
              f"scaling {c.rate / one.rate:.2f} cpu vs fewest {c.system / one.system:.2f} "
              f"cpu vs single {c.system / single.system:.2f} "
              f"x engine {c.times_engine:.1f} idle ms/s {c.idle_system * 1000:.0f} "
              f"net us {c.net:.0f}")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="example: python tests/bench/replicas.py "
                                            "--stores cluster --replicas 1 4 --load fixed")
    parser.add_argument("--stores", nargs="+", choices=STORES, default=list(STORES),
                        help="which stores to measure (default: both)")
    parser.add_argument("--replicas", nargs="+", type=int, default=list(REPLICAS),
                        help="replica counts to measure; the fewest is the base of the ratios "
                             "(default: 1 2 4)")
    parser.add_argument("--load", nargs="+", choices=LOADS, default=list(LOADS),
                        help="fixed: the same matches whatever the replicas; scaled: as many "
                             f"matches per replica as one replica plays; light: {LIGHT} matches "
                             "per replica, which leave the cores some rest (default: all three)")
    args = parser.parse_args()
    if any(n < 1 for n in args.replicas):
        parser.error("--replicas: every count must be 1 or more")
    return args


async def main(stores: list[str], replica_counts: list[int], loads: list[str]) -> None:
    cores = psutil.cpu_count() or os.cpu_count()
    print(f"{GAME}, {PLAYERS} players, {BOTS[0]} bots, {CONCURRENT} concurrent matches "
          f"played by {CLIENTS} clients, "
          f"{WINDOWS} windows of at least {WINDOW_ACTIONS:,} accepted actions per configuration "
          f"(load: {' and '.join(loads)}; scaled plays that many per replica, light {LIGHT} "
          "matches per replica by as many clients)")
    print(f"this machine has {cores} cores: the replicas, the bots' clients and Redis share them, "
          "so more replicas cannot add throughput here; what the figures must show is that CPU "
          "per action does not grow with replicas or with the cluster")
    configs: list[Config] = []
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as logs:
        for kind in stores:
            with store(kind) as (url, server):
                redis = connect(url)
                # The bots' client counts what it sends on a single Redis (Bench's "sent").
                clients = (connect(url, connection_class=CountingConnection)
                           if kind == "single" and CountingConnection else connect(url))
                try:
                    for load in loads:
                        for replicas in replica_counts:
                            wanted = Config(kind, replicas, load)
                            done = [c for c in configs if (c.store, c.replicas, c.matches,
                                                           c.clients, c.scale)
                                    == (kind, replicas, wanted.matches, wanted.clients,
                                        wanted.scale)]
                            if done:  # the same load under either name: measured once
                                configs.append(replace(done[0], load=load))
                                continue
                            print(f"\n{kind} Redis, {replicas} replica(s) of each service, "
                                  f"{wanted.matches} concurrent matches ({load} load):")
                            cfg = await one_config(kind, url, server, redis, clients, replicas,
                                                   load, Path(logs) / f"{kind}-{load}-{replicas}")
                            configs.append(cfg)
                            print_config(cfg)
                finally:
                    await clients.aclose()
                    await redis.aclose()
    print_tables(configs)
    print_lines(configs)
    print(f"\n({cores} cores: throughput is bounded by the machine, not by the replicas; "
          f"whole run {time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    options = parse_args()
    run_loop(main(options.stores, options.replicas, options.load))
