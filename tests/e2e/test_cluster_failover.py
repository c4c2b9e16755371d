"""Failover: a master of the Redis Cluster is killed in the middle of a tournament; the cluster
promotes its replica, the four services and the tournament runner find the new master by
themselves, and every match of the tournament finishes and audits, or is one the product
reports damaged (its log ends in ``MatchDamaged``: ``siege audit`` and ``siege matches`` say
so, the tournament records the table as damaged): never a match silently missing or stuck.

The master killed is the one serving the slot of a round-2 match under way (its shard's hash
tag, ``{s<shard>}``), once that match has played some actions and has no result yet; the test
then checks that a match whose log that master held had actions accepted both before the kill
and after it, so it fails if the failover was not exercised. Nothing is awaited by sleeping:
every wait polls what it waits for, with a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redis.asyncio
from redis.crc import key_slot
from redis.exceptions import ClusterDownError

from siege.contracts.events import ActionAccepted
from siege.eventlog.embedded_cluster import EmbeddedCluster
from siege.eventlog.keys import RESULTS_HASH, log_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import AuditReport, Entry, audit
from siege.hosting.clock import SystemClock
from siege.hosting.match_state import codec_for
from siege.testing.waiting import wait_until
from siege.tournament.events import match_id_for, table_id_of
from siege.tournament.state import TournamentState, is_tournament
from siege.tournament.store import TournamentStore
from siegeworks.clients.remote import SeatReader
from siegeworks.keys import read_keyring
from siegeworks.listing import match_rows
from siegeworks.redis_target import connect
from siegeworks.serve import read_health
from siegeworks.supervisor import ServiceProcesses
from siegeworks.tournament_run import TournamentSpec, run_tournament

GAME = "castle-dash"
SPEC = TournamentSpec(game=GAME, format="swiss", entrants=24, rounds=3, table_size=4,
                      bots=["random", "greedy"], seed=11, concurrency=6)
TABLES = SPEC.entrants // SPEC.table_size
KILL_ROUND = 2
STARTED_EVENTS = 30
"""A round-2 match with this many events in its log (actions among them; a match has a hundred
or more) and no result is under way: its master is the one killed."""
TOURNAMENT_TIMEOUT_S = 90.0
HEALTH_TIMEOUT_S = 10.0

@pytest.fixture
def services(cluster: EmbeddedCluster, tmp_path: Path) -> Iterator[ServiceProcesses]:
    procs = ServiceProcesses(cluster.cluster_url, tmp_path / "logs",
                             {"SIEGE_CLAIM_IDLE_MS": "500",
                              "SIEGE_MASTER_SEED": SPEC.master_seed().hex()})
    procs.start_all()
    try:
        yield procs
    finally:
        procs.stop_all()  # the test stops them itself and checks how; this is for a failure


async def running_match(admin: redis.asyncio.RedisCluster, ids: list[str]) -> str | None:
    """A match of ``ids`` with at least STARTED_EVENTS events and no result yet, or None."""
    results = await admin.hmget(RESULTS_HASH, ids)
    for match_id, result in zip(ids, results, strict=True):
        if result is None and await admin.xlen(log_key(match_id)) >= STARTED_EVENTS:
            return match_id
    return None


def slot_of_log(match_id: str) -> int:
    return int(key_slot(log_key(match_id).encode()))


def slots_of(port: int) -> set[int]:
    """The slots the master on ``port`` serves, as it says itself."""
    with redis.Redis(port=port, socket_timeout=1) as client:
        rows = client.execute_command("CLUSTER", "SLOTS")
    return {slot for start, end, master, *_ in rows if int(master[1]) == port
            for slot in range(int(start), int(end) + 1)}


def replicas_online(cluster: EmbeddedCluster) -> bool:
    """Whether every master has a replica past its initial sync (``state=online``)."""
    for port in cluster.ports:
        with redis.Redis(port=port, socket_timeout=1) as client:
            info = client.info("replication")
        if info.get("role") == "master" and not any(
                isinstance(v, dict) and v.get("state") == "online"
                for k, v in info.items() if k.startswith("slave")):
            return False
    return True


def keep_node_logs(cluster: EmbeddedCluster, log_dir: Path) -> None:
    """Copies each live node's log beside the services' logs (the cluster deletes its own)."""
    for node in cluster.nodes:
        if node.log_path is not None and node.log_path.is_file():
            with contextlib.suppress(OSError):  # evidence only: never the test's failure
                shutil.copyfile(node.log_path, log_dir / f"redis-{node.port}.log")


def test_a_master_killed_mid_tournament_loses_no_match(
        cluster: EmbeddedCluster, services: ServiceProcesses) -> None:
    tid = SPEC.tournament_id()
    kill_round_ids = [match_id_for(tid, KILL_ROUND, t) for t in range(TABLES)]
    pids = {proc.pid for proc in services.procs.values()}

    async def scenario() -> tuple[TournamentState, tuple[int, int], str, set[int],
                                dict[str, str]]:
        admin = connect(cluster.cluster_url)
        players = connect(cluster.cluster_url)
        try:
            await services.wait_healthy(admin)
            # A promotion can keep only what its replica had: each is linked and streaming.
            await wait_until(lambda: replicas_online(cluster), "every master's replica online")
            tournament = asyncio.create_task(run_tournament(SPEC, players, SystemClock()))
            found: list[str] = []

            async def under_way() -> bool:
                if tournament.done():  # its error, if any; else it ended too soon
                    raise AssertionError(f"the tournament ended first: {tournament.result()}")
                match_id = await running_match(admin, kill_round_ids)
                if match_id is not None:
                    found.append(match_id)
                return match_id is not None

            await wait_until(under_way, "a round-2 match under way", timeout=60, every_s=0.005)
            victim = found[0]
            master = cluster.master_of(log_key(victim))
            victim_slots = slots_of(master)  # the slots of the logs it holds
            processed = {h.pid: h.processed for h in await read_health(admin)}
            keep_node_logs(cluster, services.log_dir)  # the killed node's goes with it
            killed_at_ms = int(time.time() * 1000)
            await asyncio.to_thread(cluster.kill, master)
            dead_at_ms = int(time.time() * 1000)  # from here on its slots had no master
            state = await asyncio.wait_for(tournament, TOURNAMENT_TIMEOUT_S)
            # The nodes learn of the promotion one by one: ask once they all have.
            await asyncio.to_thread(cluster.wait_ready)
            assert cluster.master_of(log_key(victim)) != master, "no replica was promoted"
            recovered_ms = int(time.time() * 1000)
            return (state, (killed_at_ms, dead_at_ms), victim, victim_slots,
                    await health_problems(admin, processed, recovered_ms))
        finally:
            await players.aclose()
            await admin.aclose()
            keep_node_logs(cluster, services.log_dir)

    async def health_problems(admin: redis.asyncio.RedisCluster, processed: dict[int, int],
                              recovered_ms: int) -> dict[str, str]:
        """What is wrong with each service's health, now that the cluster is whole again: each
        process that ran before the kill must still run (none restarted), beat on the cluster
        as it is now, have handled more than before the kill, and dead-lettered nothing."""
        silent: list[str] = []

        async def all_beating() -> bool:
            health = {h.pid: h for h in await read_health(admin)}
            silent[:] = [name for name, proc in services.procs.items()
                         if proc.pid not in health or health[proc.pid].at_ms <= recovered_ms]
            return not silent

        try:
            await wait_until(all_beating, "every service's health record after the failover",
                             timeout=HEALTH_TIMEOUT_S, every_s=0.1)
        except AssertionError:
            return dict.fromkeys(silent, "no health record since the failover")
        problems = {name: f"exited with {proc.returncode}"
                    for name, proc in services.procs.items() if proc.poll() is not None}
        for health in await read_health(admin):
            if health.pid not in pids or health.dead_lettered:
                problems[health.service] = f"{health}"
            elif health.processed <= processed.get(health.pid, 0):
                problems[health.service] = "handled nothing after the kill"
        return problems

    state, (killed_at_ms, dead_at_ms), victim, victim_slots, unhealthy = asyncio.run(scenario())
    assert state.finished and len(state.rounds) == SPEC.rounds

    async def verdicts() -> tuple[dict[str, AuditReport], dict[str, list[Entry]], dict[str, str]]:
        admin = connect(cluster.cluster_url)
        try:
            log = RedisEventLog(admin)
            keyring = await read_keyring(admin)
            ids = [m for m in await log.match_ids() if not is_tournament(m)]
            logs = {m: list(await log.read(m)) for m in ids}
            rows = {row.match_id: row.state for row in await match_rows(admin, log)}
            rebuilt, _, _ = await TournamentStore(log, SystemClock()).load(tid)
            # What the runner went by is what its stream holds (less the seal scoring appends
            # after the end, which the runner does not wait for).
            assert (rebuilt.finished, rebuilt.rounds, rebuilt.recorded) == (
                state.finished, state.rounds, state.recorded), "the stream disagrees"
            return {m: audit(entries, keyring) for m, entries in logs.items()}, logs, rows
        finally:
            await admin.aclose()

    reports, logs, rows = asyncio.run(verdicts())
    # Every table of every round has a log and a record; any other log is a table's replay.
    tables = {match_id_for(tid, paired.round, t)
              for paired in state.rounds.values() for t in range(len(paired.tables))}
    assert len(tables) == SPEC.rounds * TABLES
    assert tables <= set(reports), f"tables without a log: {sorted(tables - set(reports))}"
    assert tables <= set(state.recorded), f"unrecorded: {sorted(tables - set(state.recorded))}"
    assert all(table_id_of(m) in tables for m in reports), sorted(set(reports) - tables)
    for match_id, report in reports.items():
        assert report.ok, report.line()
        recorded = state.recorded.get(match_id)
        if report.damaged is not None:
            # Reported, never missing: the audit, the listing and the tournament all say so.
            assert rows[match_id] == "damaged", (match_id, rows[match_id])
            assert recorded is None or recorded.reason == "damaged", (match_id, recorded)
            continue
        assert recorded is not None, f"{match_id} finished but the tournament has no record"
        assert rows[match_id] == recorded.reason != "damaged", (match_id, rows[match_id])
        assert list(report.ranks) == list(recorded.ranks), match_id
        assert recorded.head == logs[match_id][-1][2].hex(), match_id  # the tournament's anchor
        assert report.seal == "verified", report.line()
    # The failover was exercised: a match whose log the killed master held was played on
    # across it, with actions accepted before the kill and after it (by the promoted replica:
    # the old master was dead by then).
    codec = codec_for(GAME)

    def actions_at(match_id: str) -> list[int]:
        return [env.at for env in (codec.decode(stored) for _, stored, _ in logs[match_id])
                if isinstance(env.event, ActionAccepted)]

    across = [m for m in reports if slot_of_log(m) in victim_slots and actions_at(m)
              and min(actions_at(m)) < killed_at_ms and max(actions_at(m)) > dead_at_ms]
    assert across, (f"no match of the killed master's slots (it held {victim}) was played on "
                    "after the kill")

    # Last, the services: healthy after the failover, and each stops cleanly when asked.
    for name, code in services.stop_all().items():
        if code != 0:
            unhealthy[name] = f"{unhealthy.get(name, '')}; exited with {code} when stopped"
    assert not unhealthy, f"{unhealthy}; logs in {services.log_dir}"


class _ClusterGoneDown:
    """A client whose reads meet a cluster with a slot unserved (or, given, another error)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def xread(self, *args: object, **kwargs: object) -> None:
        raise self.error


def test_a_seat_reader_waits_out_a_cluster_down_and_raises_what_is_not_redis() -> None:
    """A read of the slot of a master that is gone and not yet replaced gets CLUSTERDOWN, which
    redis-py does not retry for a read sent to its slot's node: the runner's reader takes it as
    a lost connection (read again afresh later) rather than ending the tournament with it."""
    async def poll(error: Exception) -> tuple[list[object], bool]:
        reader = SeatReader(_ClusterGoneDown(error))  # type: ignore[arg-type]
        reader.follow("siege:results", "0-0")
        return await reader.poll(), reader._lost

    assert asyncio.run(poll(ClusterDownError("The cluster is down"))) == ([], True)
    with pytest.raises(ValueError, match="a bug of ours"):
        asyncio.run(poll(ValueError("a bug of ours")))
