"""Decision clocks are judged by one clock, Redis': a service whose host clock is wrong, or a
rules service that stalls while answers arrive, forfeits nobody who answered in time
(docs/decisions/0008-one-clock.md)."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import redis
import redis.asyncio

from siege.contracts.events import MatchEnded, SeatTimedOut
from siege.eventlog.keys import SHARDS, deadlines_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.clock import SystemClock
from siege.hosting.clocks import check_timeout, parse_member
from siege.hosting.loader import MatchLoader
from siege.hosting.match_state import codec_for
from siegeworks.remote_run import play_remote
from siegeworks.runner import RunConfig, RunResult
from siegeworks.supervisor import ServiceProcesses

Run = Callable[[Awaitable[Any]], Any]
SKEW_MS = -120_000
TIMEOUT_MS = 3000
MATCHES = 20


def config(seed: int, matches: int) -> RunConfig:
    return RunConfig(game="castle-dash", matches=matches, players=3, bots=["greedy", "random"],
                     seed=seed, options={"decision_timeout_ms": str(TIMEOUT_MS)})


def start(procs: ServiceProcesses, rules_env: dict[str, str]) -> None:
    """The four services; only the rules process gets ``rules_env`` (its host clock)."""
    for service in ("match", "dice", "scoring"):
        procs.start(service)
    procs.start("rules", env=rules_env)


async def outcomes(client: redis.asyncio.Redis, match_ids: list[str],
                   unfair: list[str] | None = None) -> tuple[int, list[str]]:
    """How many seats timed out over these matches, and each match's end reason (audited:
    every audit passes, or, given ``unfair``, the audit lines of those that fail go there)."""
    log, codec = RedisEventLog(client), codec_for("castle-dash")
    timeouts, reasons = 0, []
    for match_id in match_ids:
        entries = await log.read(match_id)
        report = audit(entries)
        if unfair is not None and not report.ok:
            unfair.append(report.line())
        else:
            assert report.ok, report.line()
        events = [codec.decode(stored).event for _, stored, _ in entries]
        timeouts += sum(isinstance(e, SeatTimedOut) for e in events)
        reasons += [e.reason for e in events if isinstance(e, MatchEnded)]
    return timeouts, reasons


def play_with(redis_url: str, client: redis.asyncio.Redis, logs: Path, run: Run, seed: int,
              env: dict[str, str], rules_env: dict[str, str],
              unfair: list[str] | None = None, matches: int = MATCHES) -> tuple[int, list[str]]:
    with redis.Redis.from_url(redis_url) as sync_client:
        sync_client.flushdb()
    procs = ServiceProcesses(redis_url, logs, {"SIEGE_CLAIM_IDLE_MS": "500", **env})

    async def scenario() -> tuple[int, list[str]]:
        start(procs, rules_env)
        try:
            await procs.wait_healthy(client)
            result = await play_remote(config(seed, matches=matches), client,
                                       stall_timeout_s=60)
            return await outcomes(client, result.match_ids, unfair)
        finally:
            codes = procs.stop_all()
            assert all(code == 0 for code in codes.values()), codes

    return run(scenario())


def test_a_rules_host_clock_two_minutes_behind_forfeits_nobody(
        redis_url: str, redis_client: redis.asyncio.Redis, tmp_path: Path, run: Run) -> None:
    skewed = {"SIEGE_CLOCK_SKEW_MS": str(SKEW_MS)}
    # The lever is real: judged by the host's clocks (as before), the same skew forfeits.
    # Whether a run shows it depends on the match clock's tick (every 100 ms) landing between a
    # prompt and its answer, a few milliseconds apart: so more matches than below, and up to
    # five runs, are given the chance (20 matches showed it in about one run of three).
    for attempt in range(5):
        unfair: list[str] = []
        timeouts, reasons = play_with(redis_url, redis_client, tmp_path / f"host{attempt}",
                                      run, 41 + 2 * attempt, {"SIEGE_CLOCK": "host"}, skewed,
                                      unfair, matches=3 * MATCHES)
        if timeouts:
            break
    assert timeouts > 0 and "forfeit" in reasons
    # And the audit, which judges each timeout against the match's clock, refuses them.
    assert unfair and all("before its deadline" in line for line in unfair), unfair
    # On Redis' clock (the default) the rules host's clock does not matter.
    timeouts, reasons = play_with(redis_url, redis_client, tmp_path / "redis", run, 42,
                                  {}, skewed)
    assert timeouts == 0
    assert len(reasons) == MATCHES and "forfeit" not in reasons


async def clocks(client: redis.asyncio.Redis) -> list[bytes]:
    """Every decision clock there is, over the shards."""
    async with client.pipeline(transaction=False) as pipe:
        for shard in range(SHARDS):
            pipe.zrange(deadlines_key(shard), 0, -1)
        return [member for members in await pipe.execute() for member in members]


async def asked(client: redis.asyncio.Redis) -> bool:
    """Whether some deadline on the clock belongs to a decision its match is still waiting for."""
    loader = MatchLoader(RedisEventLog(client), SystemClock(), light=False)
    for member in await clocks(client):
        match_id, seat, decision = parse_member(member.decode())
        if check_timeout(await loader.load(match_id), seat, decision):
            return True
    return False


def test_a_stalled_rules_service_forfeits_no_answer_that_arrived_in_time(
        redis_url: str, redis_client: redis.asyncio.Redis, tmp_path: Path, run: Run) -> None:
    procs = ServiceProcesses(redis_url, tmp_path / "logs", {"SIEGE_CLAIM_IDLE_MS": "500"})

    async def scenario() -> tuple[RunResult, int]:
        async with procs.running(redis_client):
            playing = asyncio.create_task(
                play_remote(config(43, matches=6), redis_client, stall_timeout_s=60))
            rules = procs.procs["rules"].pid
            while True:  # stopped while a seat is being asked (not between an append and its
                # prompt, which leaves only an answered decision's clock, rightly dropped)
                while not await clocks(redis_client):
                    await asyncio.sleep(0.001)
                os.kill(rules, signal.SIGSTOP)  # the bots answer what they were asked, in time
                if await asked(redis_client):
                    break
                os.kill(rules, signal.SIGCONT)
            try:
                await asyncio.sleep(TIMEOUT_MS / 1000 * 2)  # every deadline passes meanwhile
                held = len(await clocks(redis_client))
            finally:
                os.kill(rules, signal.SIGCONT)
            return await playing, held

    result, held = run(scenario())
    timeouts, reasons = run(outcomes(redis_client, result.match_ids))
    assert timeouts == 0
    assert held > 0  # the deadlines did pass during the stall, and were held
    assert len(reasons) == 6 and "forfeit" not in reasons
    assert "deadline_held" in (tmp_path / "logs" / "match.log").read_text()
