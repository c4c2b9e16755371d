"""What the compatibility rule asks of both sides (docs/clients.md, "Versions"): unknown fields
are ignored, and a client passes by a message type it does not know."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import redis.asyncio

from siege.contracts.messages import MatchFinished, SubmitAction, bus_decoder, bus_encoder
from siege.engine.codecs import action_decoder
from siege.eventlog.keys import inbox_key
from siege.games.castle_dash.actions import PlaceSoldiers
from siegeworks.clients.remote import SeatReader

Run = Callable[[Awaitable[Any]], Any]


def test_a_command_with_a_field_this_version_does_not_know_is_read_without_it() -> None:
    fields = msgspec.to_builtins(SubmitAction(match_id="m", seat=0, decision=3, command_id="c",
                                              action=b"", token="t"),
                                 builtin_types=(bytes,))
    fields["priority"] = "high"  # a field of some later version
    assert bus_decoder.decode(msgspec.msgpack.encode(fields)) == SubmitAction(
        match_id="m", seat=0, decision=3, command_id="c", action=b"", token="t")


def test_an_action_with_an_unknown_field_is_recorded_without_it() -> None:
    """The rules record the action as decoded and encoded again (ActionAccepted.action), so an
    extra field never reaches the log."""
    sent = msgspec.msgpack.encode({"t": "cd.place_soldiers", "opponent": 1, "count": 2,
                                   "comment": "mine"})
    decoded = action_decoder("castle-dash").decode(sent)
    assert decoded == PlaceSoldiers(opponent=1, count=2)
    assert b"comment" not in msgspec.msgpack.encode(decoded)


def test_a_client_passes_by_a_message_type_it_does_not_know(
        redis_client: redis.asyncio.Redis, run: Run) -> None:
    inbox = inbox_key("alice")
    finished = MatchFinished(match_id="m", game="castle-dash", seat_names=["a", "b"],
                             ranks=[1, 2])

    async def scenario() -> list:
        await redis_client.xadd(inbox, {"m": msgspec.msgpack.encode(
            {"t": "note.from_a_later_version", "x": 1})})
        await redis_client.xadd(inbox, {"m": bus_encoder.encode(finished)})
        reader = SeatReader(redis_client, block_ms=100)
        reader.follow(inbox, "0-0")
        return await reader.poll() + await reader.poll()

    assert run(scenario()) == [finished]
