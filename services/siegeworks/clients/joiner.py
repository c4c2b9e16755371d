"""A bot as an outside client: it joins open seats (JoinMatch) or enters a tournament
(RegisterEntrant) and plays every seat granted to it, using only what the contract gives a
client: its inbox, its seats' streams and the command stream.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol

from redis.asyncio import Redis

from siege.contracts.messages import (
    ActionRejected,
    CommandRefused,
    JoinMatch,
    MatchFinished,
    Message,
    RegisterEntrant,
    SeatGranted,
    SeatPrompted,
    TournamentEnded,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import commands_key, inbox_key
from siegeworks.clients.bots import make_seat
from siegeworks.clients.remote import SeatReader
from siegeworks.errors import JoinRefusedError
from siegeworks.transport.redis_bus import RedisBus

RETRY_S = 0.1  # a join may overtake the create it answers: ask again after this long
NOT_YET = (RejectionCode.UNKNOWN_MATCH, RejectionCode.UNKNOWN_TOURNAMENT)
NOT_YET_GRACE_S = 5.0
"""How long "no such match (or tournament)" is taken for "not created yet": a join sent
together with the create may overtake it, but a mistyped id must not wait out the timeout."""


class Player(Protocol):
    async def set_token(self, token: str) -> None: ...

    async def on_prompt(self, prompt: SeatPrompted) -> None: ...


MakePlayer = Callable[[RedisBus, SeatGranted], Player]
"""What plays a granted seat instead of a bot (a person at a terminal, or in a browser)."""


class OutsideClient:
    """Plays every seat granted to ``client`` with a ``bot`` (or whatever ``make_player``
    makes from the bus and the grant: a person at a terminal); :meth:`run` sends
    ``command`` and reads the inbox until ``done`` says so."""

    def __init__(self, redis: Redis, client: str, bot: str = "random", seed: bytes = b"",
                 seen: list[Message] | None = None,
                 make_player: MakePlayer | None = None) -> None:
        self.bus, self.reader = RedisBus(redis), SeatReader(redis, block_ms=200)
        self.client, self.bot, self.seed = client, bot, seed
        self.make_player = make_player
        self.seats: dict[str, Player] = {}
        self.finished: dict[str, MatchFinished] = {}
        self.seen = seen if seen is not None else []

    async def run(self, command: JoinMatch | RegisterEntrant | None, subject: str,
                  done: Callable[[Message], bool], timeout_s: float) -> Message:
        """Without a command, waits for seats someone else's create names this client for
        (a fresh client id: its whole inbox is read)."""
        inbox = inbox_key(self.client)
        self.reader.follow(inbox, await self.reader.cursor_of(inbox) if command else "0-0")
        if command is not None:
            await self.bus.publish(commands_key(self.client), command)
        start = time.monotonic()
        deadline = start + timeout_s
        while time.monotonic() < deadline:
            for message in await self.reader.poll():
                self.seen.append(message)
                if isinstance(message, SeatGranted):
                    await self._seat(message)
                elif isinstance(message, MatchFinished):
                    self.finished[message.match_id] = message
                    self.seats.pop(message.match_id, None)
                elif isinstance(message, ActionRejected):
                    told = getattr(self.seats.get(message.match_id), "on_rejected", None)
                    if told is not None:
                        await told(message)
                elif isinstance(message, CommandRefused) and message.subject == subject:
                    if (message.code not in NOT_YET or self.seats or command is None
                            or time.monotonic() - start > NOT_YET_GRACE_S):
                        raise JoinRefusedError(f"{message.code.value}: {message.detail}")
                    await asyncio.sleep(RETRY_S)  # not created yet: ask again
                    await self.bus.publish(commands_key(self.client), command)
                if done(message):
                    return message
        raise TimeoutError(f"{subject} did not end within {timeout_s:.0f}s")

    async def _seat(self, grant: SeatGranted) -> None:
        if grant.match_id in self.finished:
            return
        player = self.seats.get(grant.match_id)
        if player is None:
            if self.make_player is not None:
                made: Player | None = self.make_player(self.bus, grant)
            else:
                made = make_seat(self.bus, self.client, grant.game, grant.match_id, grant.seat,
                                 self.bot, self.seed)
            player = self.seats[grant.match_id] = made
            self.reader.subscribe_seat(grant.stream, player.on_prompt)
        await player.set_token(grant.token)


async def join_and_play(redis: Redis, client: str, match_id: str, bot: str = "random",
                        seed: bytes = b"", seat: int = -1, timeout_s: float = 300.0,
                        seen: list[Message] | None = None) -> MatchFinished:
    """Joins ``match_id`` as ``client``, plays the granted seat and returns the result."""
    player = OutsideClient(redis, client, bot, seed, seen)
    end = await player.run(
        JoinMatch(match_id=match_id, client=client, seat=seat, name=client), match_id,
        lambda m: isinstance(m, MatchFinished) and m.match_id == match_id, timeout_s)
    assert isinstance(end, MatchFinished)
    return end


async def enter_and_play(redis: Redis, client: str, tournament_id: str, bot: str = "random",
                         seed: bytes = b"", timeout_s: float = 3600.0,
                         seen: list[Message] | None = None,
                         make_player: MakePlayer | None = None,
                         ) -> dict[str, MatchFinished]:
    """Enters ``tournament_id`` as ``client`` and plays every match it is seated at until the
    tournament ends (with ``bot``, or whatever ``make_player`` makes: a person at this
    terminal); returns those matches' results."""
    player = OutsideClient(redis, client, bot, seed, seen, make_player=make_player)
    await player.run(
        RegisterEntrant(tournament_id=tournament_id, client=client, name=client), tournament_id,
        lambda m: isinstance(m, TournamentEnded) and m.tournament_id == tournament_id,
        timeout_s)
    return player.finished
