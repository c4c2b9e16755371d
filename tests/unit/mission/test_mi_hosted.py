"""Through the services in one process: a hosted Sally Forth match ends, and its log passes the
audit (every action legal when taken, every shuffle and roll the revealed seed's)."""

from __future__ import annotations

import asyncio

from siege.engine.registry import register
from siege.eventlog.log import MemoryEventLog
from siege.games.mission.engine import MissionGame
from siege.hosting.audit import audit
from siegeworks.runner import RunConfig, play_matches


def test_hosted_matches_finish_and_pass_the_audit() -> None:
    register(MissionGame())  # until the lead adds the game to the hosted registry
    log = MemoryEventLog()
    cfg = RunConfig(game="mission", matches=2, players=2, bots=["random"], seed=11,
                    fixed_clock_ms=1_700_000_000_000)

    async def run() -> list:
        result = await play_matches(cfg, log)
        assert sorted(f.match_id for f in result.finished) == sorted(result.match_ids)
        return [await log.read(match_id) for match_id in result.match_ids]

    for entries in asyncio.run(run()):
        report = audit(entries)
        assert report.ok, report.line()
        assert sorted(report.ranks)[0] == 1
