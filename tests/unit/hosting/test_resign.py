"""Resigning: a seat's holder gives the match up with the seat's token; the match ends at once,
that seat last, and the log audits. A repeat changes nothing; nothing else may follow."""

from __future__ import annotations

import asyncio

from siege.contracts.events import MatchEnded, SeatResigned
from siege.contracts.messages import (
    ActionRejected,
    CreateMatch,
    MatchFinished,
    Message,
    ResignMatch,
    SeatGranted,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import inbox_key
from siege.eventlog.log import MemoryEventLog
from siege.hosting.audit import audit
from siege.hosting.clock import FixedClock
from siege.hosting.match_state import codec_for
from siegeworks import bus as topics
from siegeworks.wiring import wire_in_process


def test_a_resigned_seat_ends_the_match_last_and_the_log_audits() -> None:
    async def scenario() -> tuple[list[Message], list]:
        log = MemoryEventLog()
        wired = wire_in_process(log, FixedClock(0), b"master")
        seen: list[Message] = []

        async def keep(message: Message) -> None:
            seen.append(message)

        wired.bus.subscribe(inbox_key("c1"), keep)
        await wired.bus.publish(topics.COMMANDS, CreateMatch(
            match_id="m-r", game="castle-dash", seat_names=["x", "y", "z"], client="c1"))
        await wired.bus.drain()
        tokens = {m.seat: m.token for m in seen if isinstance(m, SeatGranted)}

        def resign(seat: int, token: str, command_id: str) -> ResignMatch:
            return ResignMatch(match_id="m-r", seat=seat, token=token, command_id=command_id,
                               client="c1")

        for cmd in (resign(1, tokens[2], "wrong-token"),  # another seat's token
                    resign(1, tokens[1], "giving-up"),
                    resign(1, tokens[1], "giving-up"),  # the same command again: nothing
                    resign(0, tokens[0], "too-late")):  # the match is over
            await wired.bus.publish(topics.COMMANDS, cmd)
            await wired.bus.drain()
        return seen, await log.read("m-r")

    seen, entries = asyncio.run(scenario())
    assert audit(entries).ok
    events = [codec_for("castle-dash").decode(stored).event for _, stored, _ in entries]
    assert [e for e in events if isinstance(e, SeatResigned)] == [
        SeatResigned(seat=1, command_id="giving-up")]
    ended = next(e for e in events if isinstance(e, MatchEnded))
    assert ended.reason == "resigned" and ended.ranks[1] == 3
    rejected = [(m.command_id, m.code) for m in seen if isinstance(m, ActionRejected)]
    assert rejected == [("wrong-token", RejectionCode.BAD_TOKEN),
                        ("too-late", RejectionCode.MATCH_OVER)]
    finished = [m for m in seen if isinstance(m, MatchFinished)]
    assert len(finished) == 1
    assert (finished[0].reason, finished[0].resigned, finished[0].ranks[1]) == (
        "resigned", [1], 3)

