"""Spectators through the real services: a watcher follows a match from a snapshot to its end,
every move in words and in order, each board the spectator's view at that point (nobody's
secrets: the spectator view's own tests), and a match nobody watches has no public stream."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest
import redis.asyncio

from siege.contracts.messages import (
    JoinMatch,
    MatchFinished,
    MatchWatched,
    SeatGranted,
    SeatPrompted,
)
from siege.engine.protocol import SPECTATOR
from siege.engine.registry import presentation
from siege.eventlog.keys import watch_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.lobby import OPEN
from siege.hosting.narration import Narrator
from siege.hosting.replay import fold_to
from siegeworks.clients.bots import make_seat
from siegeworks.clients.joiner import OutsideClient
from siegeworks.clients.watcher import WatchRefusedError, watch
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.redis_bus import RedisBus

Run = Callable[[Awaitable[Any]], Any]
encoder = msgspec.msgpack.Encoder()


def test_a_spectator_follows_every_move_of_a_match_to_its_end(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis
) -> None:
    watched = MatchSpec(match_id="watched-1", game="castle-dash",
                        seat_names=["Red", "Blue", "Green", "Gold"],
                        bots=["greedy", "random", "greedy", OPEN])
    alone = MatchSpec(match_id="unwatched-1", game="castle-dash",
                      seat_names=["a", "b", "c"], bots=["random"] * 3)

    async def scenario() -> list[MatchWatched]:
        seen: list[MatchWatched] = []
        snapshot = asyncio.Event()

        def show(entry: MatchWatched) -> None:
            seen.append(entry)
            snapshot.set()

        played = asyncio.create_task(play_specs([watched, alone], redis_client, b"watch",
                                                stall_timeout_s=60))
        watcher: list[asyncio.Task[MatchWatched]] = []

        class Patient:
            """Gold's bot, which first lets a spectator in: the match exists once Gold has
            joined, and stands still at Gold's first decision until the snapshot is in."""

            def __init__(self, bus: RedisBus, grant: SeatGranted) -> None:
                self.bot = make_seat(bus, "ann", grant.game, watched.match_id, grant.seat,
                                     "random", b"g")

            async def set_token(self, token: str) -> None:
                await self.bot.set_token(token)

            async def on_prompt(self, prompt: SeatPrompted) -> None:
                if not watcher:
                    watcher.append(asyncio.create_task(watch(
                        redis_client, "spectator", watched.match_id, show, timeout_s=120)))
                    await asyncio.wait_for(snapshot.wait(), timeout=30)
                await self.bot.on_prompt(prompt)

        gold = OutsideClient(redis_client, "ann", make_player=Patient)
        await asyncio.wait_for(gold.run(
            JoinMatch(match_id=watched.match_id, client="ann", seat=3, name="Gold"),
            watched.match_id,
            lambda m: isinstance(m, MatchFinished) and m.match_id == watched.match_id, 60), 90)
        await asyncio.wait_for(played, timeout=60)
        await asyncio.wait_for(watcher[0], timeout=30)
        with pytest.raises(WatchRefusedError, match="no match of that id"):
            await watch(redis_client, "spectator", "no-such-match", show, timeout_s=30)
        return seen

    seen = run(scenario())
    assert seen[0].snapshot and not any(entry.snapshot for entry in seen[1:])
    assert len(seen[0].lines) < 100  # the whole story so far: the comparison below is whole
    assert seen[-1].over and not any(entry.over for entry in seen[:-1])
    assert len(seen) > 10  # followed move by move, not only told the end

    entries = run(RedisEventLog(redis_client).read(watched.match_id))
    ms, events = fold_to(entries, seen[-1].seq)
    assert ms.ended is not None  # the last entry tells the end
    narrator = Narrator(presentation("castle-dash"), watched.seat_names)
    told = [(seq, line) for seq, event in events
            if (line := narrator.line(seq, event)) is not None]
    assert [(said.seq, said.text) for entry in seen for said in entry.lines] == told
    assert any("Gold" in text for _, text in told)  # the seat the outside client played
    for entry in seen:
        state, _ = fold_to(entries, entry.seq)
        assert state.engine is not None
        assert bytes(entry.view) == encoder.encode(state.engine.view(state.game, SPECTATOR))
        assert entry.seat_names == watched.seat_names

    assert run(redis_client.exists(watch_key(alone.match_id))) == 0  # nobody watched it
    assert run(redis_client.ttl(watch_key(watched.match_id))) > 0  # retired after its end
