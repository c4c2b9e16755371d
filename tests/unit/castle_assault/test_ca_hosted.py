"""Through the services' handlers in one process: hosted Castle Assault matches end, each log
passes the audit, and the audit refuses a log (however well re-chained) whose deck is illegal."""

from __future__ import annotations

import asyncio

import msgspec

from siege.contracts.envelope import seal
from siege.eventlog.log import MemoryEventLog
from siege.games.castle_assault import decks
from siege.hosting.audit import audit, audit_export
from siege.hosting.export import dump
from siege.hosting.match_state import codec_for
from siegeworks.runner import RunConfig, play_matches

CODEC = codec_for("castle-assault")


def _play(options: dict[str, str], matches: int = 1) -> list[list]:
    log = MemoryEventLog()
    cfg = RunConfig(game="castle-assault", matches=matches, players=2, bots=["greedy", "random"],
                    seed=5, fixed_clock_ms=1_700_000_000_000, options=options)

    async def run() -> list:
        result = await play_matches(cfg, log)
        assert sorted(f.match_id for f in result.finished) == sorted(result.match_ids)
        return [await log.read(match_id) for match_id in result.match_ids]

    return asyncio.run(run())


def test_hosted_matches_finish_and_pass_the_audit() -> None:
    for entries in _play({"warbands": "dwarves,dragons"}, matches=2):
        report = audit(entries)
        assert report.ok, report.line()
        assert sorted(report.ranks) == [1, 2]


def test_a_match_records_its_decks_and_the_audit_refuses_an_illegal_one() -> None:
    legal = [decks.stock("dragons"), decks.stock("dwarves")]
    (entries,) = _play({"decks": decks.encode(legal)})
    assert audit(entries).ok
    envs = [CODEC.decode(stored) for _, stored, _ in entries]
    created = envs[0].event
    assert decks.decode(created.options["decks"]) == legal
    cheat = msgspec.structs.replace(legal[0], cards={**legal[0].cards, "Soot": 4})
    forged = msgspec.structs.replace(
        created, options={**created.options, "decks": decks.encode([cheat, legal[1]])})
    events = [forged] + [e.event for e in envs[1:]]
    report = audit_export(dump(seal(CODEC, envs[0].match_id, 0, bytes(32), events, envs[0].at)))
    assert not report.ok and report.failure is not None and report.failure.seq == 1
    assert "Soot: 4 copies" in report.failure.reason
