"""Each prompt carries its seat's clock: the deadline on the system's one clock and the match's
time per decision, so a bot can budget its thinking and a screen can count down."""

from __future__ import annotations

import asyncio

from siege.contracts.messages import CreateMatch, Message, SeatPrompted
from siege.eventlog.keys import view_key
from siege.eventlog.log import MemoryEventLog
from siege.hosting.clock import FixedClock
from siege.hosting.clocks import DEFAULT_TIMEOUT_MS
from siegeworks import bus as topics
from siegeworks.wiring import wire_in_process

NOW_MS = 1_796_000_000_000


def prompts_of(options: dict[str, str]) -> list[SeatPrompted]:
    async def scenario() -> list[SeatPrompted]:
        wired = wire_in_process(MemoryEventLog(), FixedClock(NOW_MS), b"master")
        seen: list[SeatPrompted] = []

        async def keep(message: Message) -> None:
            assert isinstance(message, SeatPrompted)
            seen.append(message)

        for seat in range(3):
            wired.bus.subscribe(view_key("c1", "m", seat), keep)
        await wired.bus.publish(topics.COMMANDS, CreateMatch(
            match_id="m", game="castle-dash", seat_names=["x", "y", "z"], client="c1",
            options=options))
        await wired.bus.drain()
        return seen

    return asyncio.run(scenario())


def test_a_prompt_names_its_deadline_and_the_time_per_decision() -> None:
    prompts = prompts_of({"decision_timeout_ms": "7000"})
    assert prompts
    assert {(p.timeout_ms, p.deadline_ms) for p in prompts} == {(7000, NOW_MS + 7000)}


def test_without_the_option_the_default_clock_is_named() -> None:
    prompts = prompts_of({})
    assert prompts
    assert {(p.timeout_ms, p.deadline_ms) for p in prompts} == {
        (DEFAULT_TIMEOUT_MS, NOW_MS + DEFAULT_TIMEOUT_MS)}
