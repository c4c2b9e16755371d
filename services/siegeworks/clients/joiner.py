"""A bot as an outside client: it joins an open seat by JoinMatch and plays it to the end,
using only what the contract gives a client (its inbox, its seat's stream, the command stream).
"""

from __future__ import annotations

import asyncio
import time

from redis.asyncio import Redis

from siege.contracts.messages import CommandRefused, JoinMatch, MatchFinished, Message, SeatGranted
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import COMMANDS_STREAM, inbox_key
from siegeworks.clients.bots import BotSeat, make_seats
from siegeworks.clients.remote import SeatReader
from siegeworks.transport.redis_bus import RedisBus

RETRY_S = 0.1  # a join may overtake the create it answers: ask again after this long


class JoinRefusedError(RuntimeError):
    pass


async def join_and_play(redis: Redis, client: str, match_id: str, bot: str = "random",
                        seed: bytes = b"", seat: int = -1, timeout_s: float = 300.0,
                        seen: list[Message] | None = None) -> MatchFinished:
    """Joins ``match_id`` as ``client`` and plays the granted seat with ``bot``; returns the
    result. Every message of the inbox is appended to ``seen`` when given."""
    bus, reader = RedisBus(redis), SeatReader(redis, block_ms=200)
    reader.follow(inbox_key(client), await reader.cursor_of(inbox_key(client)))
    join = JoinMatch(match_id=match_id, client=client, seat=seat, name=client)
    await bus.publish(COMMANDS_STREAM, join)
    player: BotSeat | None = None
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for message in await reader.poll():
            if seen is not None:
                seen.append(message)
            if isinstance(message, SeatGranted) and message.match_id == match_id:
                if player is None:
                    player = make_seats(bus, client, message.game, match_id,
                                        [bot] * (message.seat + 1), seed)[message.seat]
                    assert player is not None
                    reader.subscribe_seat(message.stream, player.on_prompt)
                await player.set_token(message.token)
            elif isinstance(message, CommandRefused) and message.subject == match_id:
                if message.code != RejectionCode.UNKNOWN_MATCH or player is not None:
                    raise JoinRefusedError(f"{message.code.value}: {message.detail}")
                await asyncio.sleep(RETRY_S)  # not created yet, or already over: ask again
                await bus.publish(COMMANDS_STREAM, join)
            elif isinstance(message, MatchFinished) and message.match_id == match_id:
                return message
    raise TimeoutError(f"{match_id} did not finish within {timeout_s:.0f}s")
