"""Private views on the wire, for every hosted game: each seat's stream carries only prompts
for that seat, and each prompt's view is exactly the game's view for that seat at that point.

With each game's own tests (two states differing only in one seat's secrets give every other
seat byte-identical views), this proves no hidden card, deck order or sealed choice reaches
another seat's stream.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest
import redis.asyncio

from siege.contracts.events import MatchCreated
from siege.contracts.messages import SeatPrompted, bus_decoder
from siege.engine.registry import game_names, get_engine
from siege.eventlog.keys import view_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.supervisor import ServiceProcesses

Run = Callable[[Awaitable[Any]], Any]
encoder = msgspec.msgpack.Encoder()


def views_by_decision(match_id: str,
                      entries: list[tuple[int, bytes, bytes]]) -> dict[tuple[int, int], set]:
    """(seat, decision) -> the encoded views the game gives that seat while it is asked."""
    ms = MatchState(match_id)
    expected: dict[tuple[int, int], set] = {}
    for entry in entries:
        decode_entries(ms, [entry])
        if ms.engine is None or ms.ended is not None or ms.open_request is not None:
            continue
        pending = ms.engine.pending(ms.game)
        for seat in pending.seats:
            expected.setdefault((seat, pending.decision), set()).add(
                encoder.encode(ms.engine.view(ms.game, seat)))
    return expected


@pytest.mark.parametrize("game", game_names())
def test_each_seat_stream_carries_only_its_own_view(
    game: str, services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis
) -> None:
    engine = get_engine(game)
    players = min(3, engine.max_players)
    spec = MatchSpec(match_id=f"views-{game}", game=game,
                     seat_names=[f"p{s}" for s in range(players)], bots=["random"] * players)
    run(play_specs([spec], redis_client, b"views", stall_timeout_s=60))
    entries = run(RedisEventLog(redis_client).read(spec.match_id))
    expected = views_by_decision(spec.match_id, entries)
    ms = MatchState(spec.match_id)
    decode_entries(ms, entries[:1])
    assert isinstance(ms.created, MatchCreated)
    prompts = 0
    for seat, holder in enumerate(ms.created.clients):
        raw = run(redis_client.xrange(view_key(holder, spec.match_id, seat)))
        for _, fields in raw:
            prompt = bus_decoder.decode(fields[b"m"])
            assert isinstance(prompt, SeatPrompted)
            assert prompt.seat == seat and prompt.match_id == spec.match_id
            assert bytes(prompt.view) in expected[(seat, prompt.decision)], (
                f"seat {seat} decision {prompt.decision}: a view the game never gave it")
            prompts += 1
        # Finished: the stream goes after a while instead of staying for ever.
        assert 0 < run(redis_client.ttl(view_key(holder, spec.match_id, seat))) <= 3600
    assert prompts >= players  # every seat was asked something
