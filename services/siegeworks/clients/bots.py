"""Bot clients: they see only what the bus gives their seat (view and legal actions) and answer
with ``SubmitAction``, exactly as an outside client would."""

from __future__ import annotations

import msgspec

from siege.bots.protocol import Bot
from siege.bots.registry import make_bot
from siege.contracts.messages import MatchSeated, SeatPrompted, SubmitAction
from siege.dice.fair import BotRng
from siege.engine.codecs import action_list_decoder, view_decoder
from siegeworks.bus import COMMANDS, Bus, seat_topic


class BotSeat:
    def __init__(self, bus: Bus, game: str, bot: Bot, rng: BotRng) -> None:
        self.bus = bus
        self.bot = bot
        self.rng = rng
        self._actions = action_list_decoder(game)
        self._view = view_decoder(game)
        self._answered = -1
        self.token = ""
        self._waiting: SeatPrompted | None = None  # a prompt that came before the token

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
        await self.bus.publish(COMMANDS, SubmitAction(
            match_id=prompt.match_id, seat=prompt.seat, decision=prompt.decision,
            command_id=f"{prompt.match_id}:{prompt.seat}:{prompt.decision}",
            action=msgspec.msgpack.encode(action), token=self.token))


def _list_of(raws: list[msgspec.Raw]) -> bytes:
    """Re-frames already-encoded actions as one msgpack array, so one decode call types them."""
    return msgspec.msgpack.encode(raws)


def make_seats(
    bus: Bus, game: str, match_id: str, bot_names: list[str], rng_seed: bytes
) -> list[BotSeat]:
    return [BotSeat(bus, game, make_bot(game, name), BotRng(rng_seed, f"{match_id}:{seat}"))
            for seat, name in enumerate(bot_names)]


def seat_bots(
    bus: Bus, game: str, match_id: str, bot_names: list[str], rng_seed: bytes
) -> list[BotSeat]:
    """Seats bots on an in-process bus; they act once :func:`hand_tokens` gives them tokens."""
    seats = make_seats(bus, game, match_id, bot_names, rng_seed)
    for seat, client in enumerate(seats):
        bus.subscribe(seat_topic(match_id, seat), client.on_prompt)
    return seats


async def hand_tokens(seats: list[BotSeat], seated: MatchSeated) -> None:
    for client, token in zip(seats, seated.tokens, strict=True):
        await client.set_token(token)
