"""End-to-end figures through the four service processes, at several offered loads (concurrent
matches), so the knee shows:

- accepted actions/s, and the latency from a SubmitAction to the next prompt of that match
  reaching its client (p50, p99);
- CPU per accepted action of every process (each service, the bench's own bot clients,
  redis-server), from their CPU times sampled before and after each measured window;
- Redis commands per accepted action: the ones sent (a script call counting once; counted by
  the services themselves and reported in their health records, plus the bench's own), and
  every call Redis executed including those inside scripts (INFO commandstats);
- the bare engine's CPU per action measured in the same run (seeded playouts, bot choice
  included), and the ratio of the services' total to it.

At 100 concurrent matches it prints ``cpu ratio N`` and ``redis commands sent per action N`` on
lines of their own, for scripts to read.

Then the honest latency under a flood: 10 concurrent matches measured twice, alone and while a
hostile client (another process) floods its own commands stream with creates and forged
actions as fast as it can; it prints ``honest p99 ms without flood N`` and ``... with flood N``.

Usage: ``python tests/bench/services.py [LOADS...]`` (default 1 10 50 100 200).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import psutil
import redis as redis_sync
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from siege.engine.registry import get_engine
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.keys import log_key
from siege.testing.playout import seeded_playout
from siegeworks.cli.common import run_loop
from siegeworks.remote_run import LatencyProbe, play_remote
from siegeworks.runner import RunConfig
from siegeworks.supervisor import ServiceProcesses

try:  # the code before issue 17 counted nothing (the bench also runs against it)
    from siegeworks.transport.counting import CountingConnection
    from siegeworks.transport.counting import commands_sent as own_commands
except ImportError:
    CountingConnection = None  # type: ignore[assignment,misc]
    own_commands = None  # type: ignore[assignment]

GAME, PLAYERS, BOTS = "castle-dash", 4, ["random"]
MIN_SAMPLES = 4_000
"""Actions a measured window holds at least (as many waves of matches as that takes)."""
SCRIPT_CALLS = ("evalsha", "eval", "fcall", "evalsha_ro", "eval_ro", "fcall_ro")


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def engine_cpu_per_action(seconds: float = 1.0) -> float:
    """The bare engine's CPU seconds per action: seeded playouts of the same game and bots as
    the service runs, bot choice included, for about ``seconds`` of CPU."""
    engine = get_engine(GAME)
    actions = 0

    def count(state: Any, seat: int, action: Any) -> None:
        nonlocal actions
        actions += 1

    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        seeded_playout(engine, BOTS * PLAYERS, seed, on_action=count)
        seed += 1
    return (time.process_time() - start) / actions


def cpu_seconds(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


async def command_calls(redis: Redis | RedisCluster) -> Counter[str]:
    """Calls Redis executed by command (INFO commandstats); on a cluster, summed over the
    primaries (a replica's figures are the replication stream, not the clients' work)."""
    if isinstance(redis, RedisCluster):
        nodes = await redis.info("commandstats", target_nodes=RedisCluster.PRIMARIES)
        total: Counter[str] = Counter()
        for stats in nodes.values():
            total.update({name.removeprefix("cmdstat_"): int(v["calls"])
                          for name, v in stats.items()})
        return total
    stats = await redis.info("commandstats")
    return Counter({name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()})


async def commands_sent_by_services(redis: Redis, after_ms: int) -> int | None:
    """Commands the services have sent, from health records written after ``after_ms`` (waits
    for a fresh beat); None when the services do not count them."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        keys = [k async for k in redis.scan_iter(match="siege:health:*")]
        records = [msgspec.json.decode(v) for v in await redis.mget(keys) if v] if keys else []
        if records and all(r["at_ms"] > after_ms for r in records):
            if not all("commands" in r for r in records):
                return None
            return sum(int(r["commands"]) for r in records)
        await asyncio.sleep(0.05)
    return None


@dataclass
class Window:
    concurrent: int
    actions: int = 0
    seconds: float = 0.0
    p50: float = 0.0
    p99: float = 0.0
    cpu_us: dict[str, float] = field(default_factory=dict)  # per process, µs per action
    calls: Counter[str] = field(default_factory=Counter)  # commandstats delta
    sent: float | None = None  # commands sent per action
    log_events: int = 0
    estimated: bool = False  # ``sent`` derived from the calls, not counted

    @property
    def rate(self) -> float:
        return self.actions / self.seconds

    @property
    def total_cpu_us(self) -> float:
        return sum(self.cpu_us.values())


def redis_servers(server: EmbeddedRedis | EmbeddedCluster) -> dict[str, psutil.Process]:
    """The store's redis-server processes: ``redis-server``, or on a cluster every node (its
    replicas too: they apply every write) as ``redis-server :<port>``."""
    nodes = ({f"redis-server :{node.port}": node for node in server.nodes}
             if isinstance(server, EmbeddedCluster) else {"redis-server": server})
    procs = {}
    for name, node in nodes.items():
        assert node.process is not None
        procs[name] = psutil.Process(node.process.pid)
    return procs


class Bench:
    def __init__(self, redis: Redis | RedisCluster, clients: Redis | RedisCluster,
                 server: EmbeddedRedis | EmbeddedCluster,
                 services: Mapping[str, subprocess.Popen[bytes]]) -> None:
        self.redis = redis  # the bench's own queries (INFO, XLEN), not counted
        self.clients = clients  # what the bots' clients send through, counted
        # On a cluster neither the services' nor the bots' redis-py cluster connections count
        # what they send (only the auto-pipelined ones do): no "sent" figure there.
        self.cluster = isinstance(server, EmbeddedCluster)
        self.primaries = server.masters if isinstance(server, EmbeddedCluster) else 1
        self.procs = {name: psutil.Process(p.pid) for name, p in services.items()}
        self.procs["bench clients"] = psutil.Process()
        self.procs.update(redis_servers(server))

    def _cpu(self) -> dict[str, float]:
        return {name: cpu_seconds(p) for name, p in self.procs.items()}

    async def _sent(self) -> int | None:
        if self.cluster:
            return None
        services = await commands_sent_by_services(self.redis, int(time.time() * 1000))
        return None if services is None or own_commands is None else services + own_commands()

    async def one_load(self, concurrent: int, seed: int, min_samples: int = MIN_SAMPLES,
                       clients: int = 1) -> Window:
        """A measured window at ``concurrent`` matches, played by ``clients`` bot clients
        (each its own client id, so its own shard: one client's actions all come on one
        commands stream, which one rules replica reads)."""
        probe = LatencyProbe()
        sent_before = await self._sent()
        calls_before = await command_calls(self.redis)
        cpu_before = self._cpu()
        start = time.perf_counter()
        match_ids: list[str] = []
        # Waves of ``concurrent`` matches until the window holds MIN_SAMPLES actions: one wave
        # at 10 matches is about 1,000 actions, whose p99 is its tenth-slowest sample.
        while not match_ids or len(probe.samples) < min_samples:
            runs = await asyncio.gather(*(
                play_remote(RunConfig(game=GAME, matches=concurrent // clients, players=PLAYERS,
                                      bots=BOTS, seed=seed * 1000 + len(match_ids) * 10 + k),
                            self.clients, probe=probe, stall_timeout_s=120)
                for k in range(clients)))
            match_ids += [match_id for run in runs for match_id in run.match_ids]
        seconds = time.perf_counter() - start
        cpu_after = self._cpu()
        calls = await command_calls(self.redis) - calls_before
        sent_after = await self._sent()
        w = Window(concurrent, len(probe.samples), seconds, pct(probe.samples, 0.5),
                   pct(probe.samples, 0.99))
        w.cpu_us = {name: (cpu_after[name] - cpu_before[name]) * 1e6 / w.actions
                    for name in self.procs}
        # The bench's own INFO calls (one per primary each) are not part of the system's work.
        w.calls = calls - Counter({"info": 2 * self.primaries})
        pipe = self.redis.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.xlen(log_key(match_id))
        w.log_events = sum(await pipe.execute())
        if sent_before is not None and sent_after is not None:
            w.sent = (sent_after - sent_before) / w.actions
        elif not self.cluster:  # code that counts nothing: its append script's calls taken off
            w.estimated = True
            inner = 3 * w.calls["evalsha"] + w.log_events + 2 * len(match_ids)
            w.sent = (sum(w.calls.values()) - inner) / w.actions
        return w


FLOOD_CLIENT = "flood"


FLOOD_RATE = 10_000
"""Commands per second the hostile client sends (paced): five times what the bench's honest
clients send at 10 matches. Unpaced, on two cores, the flooder and redis-server's work on its
writes take most of the machine, which measures the machine rather than the services."""


def flood(url: str, stop: Any, sent: Any) -> None:
    """A hostile client in a process of its own: creates and actions with a forged token on its
    own stream, 200 per round trip at FLOOD_RATE, until ``stop`` is set; counts in ``sent``."""
    from siege.contracts.messages import CreateMatch, SubmitAction, bus_encoder
    from siege.eventlog.keys import CLIENTS_CHANGED_STREAM, CLIENTS_KEY, commands_key

    r = redis_sync.Redis.from_url(url)
    r.sadd(CLIENTS_KEY, FLOOD_CLIENT)
    r.xadd(CLIENTS_CHANGED_STREAM, {"c": FLOOD_CLIENT})
    stream, n, start = commands_key(FLOOD_CLIENT), 0, time.perf_counter()
    while not stop.is_set():
        ahead = 2 * n / FLOOD_RATE - (time.perf_counter() - start)
        if ahead > 0:
            time.sleep(ahead)
        pipe = r.pipeline(transaction=False)
        for _ in range(100):
            pipe.xadd(stream, {"m": bus_encoder.encode(CreateMatch(
                match_id=f"flood-{n}", game=GAME, seat_names=["a", "b", "c"]))})
            pipe.xadd(stream, {"m": bus_encoder.encode(SubmitAction(
                match_id=f"flood-{n}", seat=0, decision=1, command_id=str(n), action=b"\xc0",
                token="forged"))})
            n += 1
        pipe.execute()
        sent.value = 2 * n


async def flood_figures(bench: Bench, url: str, concurrent: int = 10) -> tuple[Window, Window,
                                                                                float]:
    """Honest figures at ``concurrent`` matches, alone and beside a flooding client; and the
    flood's rate of commands sent per second."""
    alone = await bench.one_load(concurrent, seed=101)
    context = multiprocessing.get_context("spawn")
    stop, sent = context.Event(), context.Value("q", 0)
    flooder = context.Process(target=flood, args=(url, stop, sent), daemon=True)
    flooder.start()
    try:
        while sent.value < 2000:  # the flood is under way before the honest clients start
            await asyncio.sleep(0.05)
        start, before = time.perf_counter(), sent.value
        flooded = await bench.one_load(concurrent, seed=102)
        rate = (sent.value - before) / (time.perf_counter() - start)
    finally:
        stop.set()
        flooder.join(10)
    return alone, flooded, rate


def print_window(w: Window, engine_us: float) -> None:
    per_action = w.actions
    total_calls = sum(w.calls.values())
    scripts = sum(w.calls[name] for name in SCRIPT_CALLS)
    top = ", ".join(f"{name.upper()} {n / per_action:.2f}" for name, n in w.calls.most_common(8))
    cpu = " · ".join(f"{name} {us:,.0f}" for name, us in w.cpu_us.items())
    sent = "n/a" if w.sent is None else f"{'≈' if w.estimated else ''}{w.sent:.2f}"
    print(f"\n{w.concurrent} concurrent matches: {w.rate:,.0f} accepted actions/s "
          f"({w.actions} actions in {w.seconds:.1f} s), p50 {w.p50:.1f} ms, p99 {w.p99:.1f} ms")
    print(f"  CPU µs per action: {cpu} · total {w.total_cpu_us:,.0f} "
          f"= {w.total_cpu_us / engine_us:.1f}× the bare engine ({engine_us:.1f} µs)")
    print(f"  Redis per action: {sent} commands sent (a script call once); "
          f"{total_calls / per_action:.2f} calls executed including inside scripts "
          f"({scripts / per_action:.2f} script calls, {w.log_events / per_action:.2f} log "
          f"events written): {top}")


def engine_line(engine_s: float) -> str:
    return (f"bare engine: {engine_s * 1e6:.1f} µs CPU per action ({1 / engine_s:,.0f} "
            f"actions/s on one core), {GAME} {PLAYERS}p, {BOTS[0]} bots")


async def main(loads: list[int]) -> None:
    # The engine is measured right before and right after every window, and each window is
    # compared with the mean of the two: on a shared machine the speed of a core drifts within
    # a run, and a ratio against a figure taken minutes apart drifts with it.
    engine_samples = [engine_cpu_per_action()]
    print(engine_line(engine_samples[0]))
    windows: list[Window] = []
    engine_of: dict[int, float] = {}
    with EmbeddedRedis() as server, tempfile.TemporaryDirectory() as logs:
        redis = Redis.from_url(server.url)
        clients = Redis.from_url(server.url, **({"connection_class": CountingConnection}
                                                if CountingConnection else {}))
        services = ServiceProcesses(server.url, Path(logs))
        try:
            async with services.running(redis):
                bench = Bench(redis, clients, server, services.procs)
                # Warm-up: imports, scripts, caches.
                await bench.one_load(5, seed=999, min_samples=0)
                for i, concurrent in enumerate(loads):
                    w = await bench.one_load(concurrent, seed=i)
                    engine_samples.append(engine_cpu_per_action())
                    engine_of[i] = (engine_samples[-2] + engine_samples[-1]) / 2 * 1e6
                    windows.append(w)
                    print_window(w, engine_of[i])
                alone, flooded, rate = await flood_figures(bench, server.url)
                print("\nthe honest clients beside the flood (their CPU per action includes "
                      "the services' work on the flood; the flooder's own process is not shown):")
                print_window(flooded, engine_of[len(loads) - 1])
        finally:
            await clients.aclose()
            await redis.aclose()
    names = list(windows[0].cpu_us) if windows else []
    print("\nconcurrent | actions/s | p50 ms | p99 ms | " + " | ".join(names)
          + " | total µs | engine µs | × engine | sent/action | calls/action")
    for i, w in enumerate(windows):
        engine_us = engine_of[i]
        sent = "n/a" if w.sent is None else f"{'≈' if w.estimated else ''}{w.sent:.2f}"
        print(f"{w.concurrent:>10} | {w.rate:>9,.0f} | {w.p50:>6.1f} | {w.p99:>6.1f} | "
              + " | ".join(f"{w.cpu_us[n]:,.0f}" for n in names)
              + f" | {w.total_cpu_us:,.0f} | {engine_us:.1f} | {w.total_cpu_us / engine_us:.1f}"
              f" | {sent} | "
              f"{sum(w.calls.values()) / w.actions:.2f}")
    print(f"\nhonest clients at {alone.concurrent} matches, alone: {alone.rate:,.0f} actions/s, "
          f"p50 {alone.p50:.1f} ms, p99 {alone.p99:.1f} ms; beside one client flooding "
          f"{rate:,.0f} commands/s on its own stream: {flooded.rate:,.0f} actions/s, "
          f"p50 {flooded.p50:.1f} ms, p99 {flooded.p99:.1f} ms")
    print(f"honest p99 ms without flood {alone.p99:.1f}")
    print(f"honest p99 ms with flood {flooded.p99:.1f}")
    for i, w in enumerate(windows):
        if w.concurrent == 100:
            print(f"cpu ratio {w.total_cpu_us / engine_of[i]:.1f}")
            print(f"redis commands sent per action {'n/a' if w.sent is None else f'{w.sent:.2f}'}")


if __name__ == "__main__":
    levels = [int(x) for x in sys.argv[1:]] or [1, 10, 50, 100, 200]
    run_loop(main(levels))
