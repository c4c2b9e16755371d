"""A loader keeps at most ``max_cached`` match states, the least recently used going first; a
state that went comes back from its log, whole."""

from __future__ import annotations

import asyncio

from siege.contracts.events import MatchCreated, SeedCommitted
from siege.eventlog.log import MemoryEventLog
from siege.hosting.clock import FixedClock
from siege.hosting.loader import MatchLoader

CREATED = MatchCreated(game="castle-dash", players=4, seat_names=["a", "b", "c", "d"])


def test_the_least_recently_used_state_goes_first_and_comes_back_from_its_log() -> None:
    async def scenario() -> None:
        log = MemoryEventLog()
        writer = MatchLoader(log, FixedClock(5))
        for match_id in ("a", "b", "c"):
            ms = await writer.load(match_id)
            assert await writer.append(ms, [CREATED, SeedCommitted(commitment="ab" * 32)])

        loader = MatchLoader(log, FixedClock(5), max_cached=2)
        await loader.load("a")
        await loader.load("b")
        await loader.load("a")  # used again: now "b" is the oldest
        await loader.load("c")
        assert sorted(ms.match_id for ms in loader.cached()) == ["a", "c"]
        back = await loader.load("b")
        assert (back.head_seq, back.commitment, back.created) == (2, "ab" * 32, CREATED)
        assert len(loader.cached()) == 2

    asyncio.run(scenario())

