"""A Redis that comes back older than it was (a restart from an older snapshot) in the middle
of a run: the services notice, say so, forget what they cached, and every match finishes from
what the logs still hold."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio

from siege.eventlog.embedded import _free_port, find_redis_server
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.match_state import codec_for
from siegeworks.remote_run import play_remote
from siegeworks.runner import RunConfig
from siegeworks.serve import read_health
from siegeworks.supervisor import ServiceProcesses

Run = Callable[[Awaitable[Any]], Any]


class Server:
    """A redis-server that snapshots only when told (SAVE) and can be killed and restarted on
    the same port from its own files."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [find_redis_server(), "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.folder), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with redis.Redis.from_url(self.url) as r:
                    r.ping()
                    if not r.info("persistence").get("loading"):
                        return
            except redis.ConnectionError:
                pass
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path)
    s.start()
    yield s
    if s.proc is not None and s.proc.poll() is None:
        s.kill()


async def logged(admin: redis.asyncio.Redis, match_ids: list[str]) -> int:
    log = RedisEventLog(admin)
    return sum([len(await log.read(m)) for m in match_ids])


def test_a_store_that_comes_back_older_is_noticed_and_loses_no_match(server: Server, tmp_path: Path,
                                                              run: Run) -> None:
    """Every service notices (a log holding fewer events than it saw, or another service's
    word), says so in its health record, forgets its caches and goes on serving: every match
    goes on from where its log came back to, to its end. (Before, the services' caches stayed
    ahead of the logs, nothing was said, and the matches waited for ever.)"""
    # A prompt or answer the rewind took away is waited out on the seat's clock: long enough
    # that nobody forfeits in ordinary play on a loaded machine, short enough not to hold the
    # test for a minute when that happens.
    cfg = RunConfig(game="castle-dash", matches=6, players=3, bots=["random"], seed=77,
                    options={"decision_timeout_ms": "15000"})
    ids = [cfg.match_id(i) for i in range(cfg.matches)]
    procs = ServiceProcesses(server.url, tmp_path / "logs", {"SIEGE_CLAIM_IDLE_MS": "500"})

    async def scenario() -> tuple[int, int, int, list[Any], list[Any]]:
        admin = redis.asyncio.Redis.from_url(server.url)
        players = redis.asyncio.Redis.from_url(server.url)
        try:
            async with procs.running(admin):
                pids = {name: proc.pid for name, proc in procs.procs.items()}
                playing = asyncio.create_task(play_remote(cfg, players, stall_timeout_s=90))
                while await logged(admin, ids) < 150:
                    await asyncio.sleep(0.02)
                await admin.save()  # the snapshot Redis will come back to
                at_snapshot = await logged(admin, ids)
                while await logged(admin, ids) < at_snapshot + 300 and not playing.done():
                    await asyncio.sleep(0.02)
                before_kill = await logged(admin, ids)
                server.kill()
                server.start()  # from the snapshot: every event after it is gone
                fresh = redis.asyncio.Redis.from_url(server.url)  # admin's link died with it
                try:
                    came_back = await logged(fresh, ids)
                    deadline = time.monotonic() + 30
                    while True:
                        health = await read_health(fresh)
                        if len(health) == 4 and all(h.rewinds for h in health):
                            break
                        assert time.monotonic() < deadline, health
                        await asyncio.sleep(0.1)
                    # Every match goes on from what its log still holds, to its end.
                    result = await asyncio.wait_for(playing, 120)
                    assert len(result.finished) == cfg.matches
                    logs = [await RedisEventLog(fresh).read(m) for m in ids]
                    alive = {name: proc.pid for name, proc in procs.procs.items()
                             if proc.poll() is None}
                    assert alive == pids
                    return at_snapshot, before_kill, came_back, health, logs
                finally:
                    playing.cancel()
                    await fresh.aclose()
        finally:
            await players.aclose()
            await admin.aclose()

    at_snapshot, before_kill, came_back, health, logs = run(scenario())
    assert came_back <= at_snapshot < before_kill  # the store really went back
    for h in health:
        assert h.warnings and any(
            said in w for w in h.warnings for said in ("went back", "fewer", "restarted")), h
    for entries in logs:
        assert audit(entries).ok, audit(entries).line()
    kinds = {type(codec_for("castle-dash").decode(stored).event).__name__
             for entries in logs for _, stored, _ in entries}
    # Every match reached its end. (A seat whose answer met a service that had not yet noticed
    # the rewind may still be forfeited on a loaded machine: what the issue asks is an end.)
    ends = [codec_for("castle-dash").decode(stored).event for entries in logs
            for _, stored, _ in entries[-3:]]
    assert sum(type(e).__name__ == "MatchEnded" for e in ends) == len(logs)
    assert "MatchEnded" in kinds
