"""Through the services' handlers in one process: hosted Castle Assault matches end, and each
log passes the audit (every action legal when taken, every roll and shuffle the seed's)."""

from __future__ import annotations

import asyncio

from siege.eventlog.log import MemoryEventLog
from siege.hosting.audit import audit
from siegeworks.runner import RunConfig, play_matches


def test_hosted_matches_finish_and_pass_the_audit() -> None:
    log = MemoryEventLog()
    cfg = RunConfig(game="castle-assault", matches=2, players=2, bots=["greedy", "random"],
                    seed=5, fixed_clock_ms=1_700_000_000_000,
                    options={"warbands": "dwarves,dragons"})

    async def run() -> list:
        result = await play_matches(cfg, log)
        assert sorted(f.match_id for f in result.finished) == sorted(result.match_ids)
        return [await log.read(match_id) for match_id in result.match_ids]

    for entries in asyncio.run(run()):
        report = audit(entries)
        assert report.ok, report.line()
        assert sorted(report.ranks) == [1, 2]
