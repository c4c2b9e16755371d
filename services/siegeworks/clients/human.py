"""A person at a terminal as one seat: the prompt's view and legal actions are shown, the choice
is read from the keyboard, and it goes over the bus like any other client's command."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import msgspec

from siege.contracts.messages import ActionRejected, ResignMatch, SeatPrompted, SubmitAction
from siege.engine.codecs import action_list_decoder, view_decoder
from siegeworks.bus import Bus, commands_topic


def describe(value: Any) -> str:
    """One readable line for an action: its type and its fields."""
    builtins = msgspec.to_builtins(value)
    fields = ", ".join(f"{k}={v}" for k, v in builtins.items() if k != "t")
    return f"{type(value).__name__}({fields})"


def render_view(view: Any, indent: str = "  ") -> str:
    lines = []
    for key, value in msgspec.to_builtins(view).items():
        lines.append(f"{indent}{key}: {msgspec.json.encode(value).decode()}")
    return "\n".join(lines)


RESIGN = -1


class HumanSeat:
    def __init__(self, bus: Bus, client: str, game: str, seat: int,
                 ask: Callable[[str], str] = input, show: Callable[[str], None] = print) -> None:
        self.bus = bus
        self.client = client
        self.seat = seat
        self.ask = ask
        self.show = show
        self.token = ""
        self._actions = action_list_decoder(game)
        self._view = view_decoder(game)
        self._answered = -1

    async def set_token(self, token: str) -> None:
        self.token = token

    async def on_prompt(self, prompt: SeatPrompted) -> None:
        if prompt.decision <= self._answered:
            return
        legal = self._actions.decode(msgspec.msgpack.encode(prompt.legal))
        clock = ""
        if prompt.deadline_ms:
            left = max(0, prompt.deadline_ms - int(time.time() * 1000)) // 1000
            clock = f", {left} s on your clock"
        self.show(f"\n--- seat {self.seat}, decision {prompt.decision}{clock} ---")
        self.show(render_view(self._view.decode(prompt.view)))
        for number, action in enumerate(legal, start=1):
            self.show(f"  {number:>2}. {describe(action)}")
        choice = await self._choose(len(legal))
        self._answered = prompt.decision
        if choice == RESIGN:
            self.show("  you resign: the match ends, your seat ranked last")
            await self.bus.publish(commands_topic(self.client), ResignMatch(
                match_id=prompt.match_id, seat=prompt.seat, token=self.token,
                command_id=f"{prompt.match_id}:{prompt.seat}:resign", client=self.client))
            return
        await self.bus.publish(commands_topic(self.client), SubmitAction(
            match_id=prompt.match_id, seat=prompt.seat, decision=prompt.decision,
            command_id=f"{prompt.match_id}:{prompt.seat}:{prompt.decision}",
            action=msgspec.msgpack.encode(legal[choice]), token=self.token, client=self.client))

    async def _choose(self, options: int) -> int:
        """The index of the action chosen, or RESIGN."""
        while True:
            try:
                text = await asyncio.to_thread(self.ask, f"your choice (1-{options}, "
                                               "? for help): ")
            except EOFError:
                raise SystemExit("input ended; the match is left unfinished") from None
            word = text.strip().lower()
            if word.isdigit() and 1 <= int(word) <= options:
                return int(word) - 1
            if word == "resign":
                return RESIGN
            if word in ("?", "help"):
                self.show(f"  type a number from 1 to {options} to take that action, or "
                          "'resign' to give the match up (your seat ranks last)")
                continue
            self.show(f"  please type a number from 1 to {options} (or ? for help)")

    async def on_rejected(self, rejected: ActionRejected) -> None:
        self.show(f"  refused: {rejected.code.value}: {rejected.detail}")
