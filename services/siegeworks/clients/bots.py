"""Bot clients: they see only what the bus gives their seat (view and legal actions) and answer
with ``SubmitAction``, exactly as an outside client would."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import msgspec

from siege.bots.protocol import Bot
from siege.bots.registry import make_bot
from siege.contracts.messages import SeatGranted, SeatPrompted, SubmitAction
from siege.dice.fair import BotRng
from siege.engine.codecs import action_list_decoder, view_decoder
from siege.eventlog.keys import view_key
from siegeworks.bus import Bus, commands_topic


class BotSeat:
    def __init__(self, bus: Bus, client: str, game: str, bot: Bot, rng: BotRng) -> None:
        self.bus = bus
        self.client = client
        self.bot = bot
        self.rng = rng
        self._actions = action_list_decoder(game)
        self._view = view_decoder(game)
        self._answered = -1
        self.token = ""
        self._waiting: SeatPrompted | None = None  # a prompt that came before the token

    def forget_answers(self) -> None:
        """After the store may have gone back in time, a decision answered may be asked again."""
        self._answered = -1

    async def set_token(self, token: str) -> None:
        self.token = token
        if self._waiting is not None:
            prompt, self._waiting = self._waiting, None
            await self.on_prompt(prompt)

    async def on_prompt(self, prompt: SeatPrompted) -> None:
        if prompt.decision <= self._answered:
            return  # a redelivered or repeated prompt: this decision is answered already
        if not self.token:
            self._waiting = prompt
            return
        self._answered = prompt.decision
        legal = self._actions.decode(_list_of(prompt.legal))
        view = self._view.decode(prompt.view)
        action = self.bot.choose(view, legal, self.rng)
        await self.bus.publish(commands_topic(self.client), SubmitAction(
            match_id=prompt.match_id, seat=prompt.seat, decision=prompt.decision,
            command_id=f"{prompt.match_id}:{prompt.seat}:{prompt.decision}",
            action=msgspec.msgpack.encode(action), token=self.token, client=self.client))


def _list_of(raws: list[msgspec.Raw]) -> bytes:
    """Re-frames already-encoded actions as one msgpack array, so one decode call types them."""
    return msgspec.msgpack.encode(raws)


def make_seat(bus: Bus, client: str, game: str, match_id: str, seat: int, bot_name: str,
              rng_seed: bytes) -> BotSeat:
    """The bot ``bot_name`` for one seat, drawing from its own stream of ``rng_seed``."""
    return BotSeat(bus, client, game, make_bot(game, bot_name),
                   BotRng(rng_seed, f"{match_id}:{seat}"))


def make_seats(
    bus: Bus, client: str, game: str, match_id: str, bot_names: list[str], rng_seed: bytes
) -> list[BotSeat | None]:
    """A bot per seat; None for a seat whose name is empty (someone else plays it)."""
    return [make_seat(bus, client, game, match_id, seat, name, rng_seed) if name else None
            for seat, name in enumerate(bot_names)]


def seat_bots(
    bus: Bus, client: str, game: str, match_id: str, bot_names: list[str], rng_seed: bytes
) -> list[BotSeat | None]:
    """Seats bots on an in-process bus; they act once their grants (:func:`hand_token`) come."""
    seats = make_seats(bus, client, game, match_id, bot_names, rng_seed)
    for seat, bot in enumerate(seats):
        if bot is not None:
            bus.subscribe(view_key(client, match_id, seat), bot.on_prompt)
    return seats


class TokenHolder(Protocol):
    async def set_token(self, token: str) -> None: ...


async def hand_token(seats: Mapping[str, Sequence[TokenHolder | None]],
                     granted: SeatGranted) -> None:
    """Gives a granted token to the seat it is for, when that seat is one of ours."""
    holders = seats.get(granted.match_id, ())
    holder = holders[granted.seat] if 0 <= granted.seat < len(holders) else None
    if holder is not None:
        await holder.set_token(granted.token)
