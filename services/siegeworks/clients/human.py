"""A person at a terminal as one seat: the prompt's view and legal actions are shown, the choice
is read from the keyboard, and it goes over the bus like any other client's command."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from rich.console import Console

from siege.contracts.messages import ActionRejected, ResignMatch, SeatPrompted, SubmitAction
from siege.engine.codecs import action_list_decoder, view_decoder
from siege.engine.registry import presentation
from siegeworks.bus import Bus, commands_topic
from siegeworks.clients.recap import Recap, StreamRecap
from siegeworks.errors import InputEndedError
from siegeworks.transport.redis_bus import RedisBus

RESIGN = -1
TIMED_OUT = -2
WARN_S = 10
MARKS_S = (600, 300, 120, 60, 30, WARN_S)  # the clock shown counting down at these times left
NO_LIMIT_S = 24 * 3600  # a clock longer than a day is shown as none (siege play's default)
LATE_S = 2.0  # after the deadline, how long to wait for the services' word before giving up
RECAP_LINES = 12  # at most this many lines of what happened since your last turn


def _duration(seconds: int) -> str:
    if seconds % 60:
        return f"{seconds} seconds"
    return "1 minute" if seconds == 60 else f"{seconds // 60} minutes"


class Lines:
    """The terminal's lines, read by one daemon thread into a queue: a wait for an answer can
    end (the clock ran out) without leaving a read behind that would eat the next line, and a
    thread blocked on the keyboard never keeps the program from exiting."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[str | None] | None = None

    async def next(self, prompt: str) -> str | None:
        """The next line (None at the end of input), with ``prompt`` shown first."""
        if self._queue is None:
            self._queue = asyncio.Queue()
            loop = asyncio.get_running_loop()
            queue = self._queue

            def read() -> None:
                for line in sys.stdin:
                    loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\n"))
                loop.call_soon_threadsafe(queue.put_nowait, None)

            threading.Thread(target=read, name="terminal-lines", daemon=True).start()
        sys.stdout.write(prompt)
        sys.stdout.flush()
        return await self._queue.get()


class SeatNames(Sequence[str]):
    """Names for the seats of a match whose names this client is not told: ``seat N`` (the
    presentations mark the viewing seat themselves)."""

    def __init__(self, seats: int = 8) -> None:
        self.seats = seats

    def __len__(self) -> int:
        return self.seats

    def __getitem__(self, seat: int) -> str:  # type: ignore[override]
        return f"seat {seat}"


class HumanSeat:
    def __init__(self, bus: Bus, client: str, game: str, seat: int,
                 lines: Lines | None = None, show: Callable[[str], None] = print,
                 recap: Recap | None = None, auto: bool = False) -> None:
        self.bus = bus
        self.auto = auto  # a decision with a single choice is taken by itself
        self.client = client
        self.seat = seat
        self.presentation = presentation(game)
        self.names: Sequence[str] = SeatNames()
        self.console = Console(file=sys.stdout, width=80)
        self.lines = lines or Lines()
        self.show = show
        self.token = ""
        self._actions = action_list_decoder(game)
        self._view = view_decoder(game)
        self._answered = -1
        # What happened since this seat's last turn; over Redis, read from the match's public
        # stream once the first prompt names the match.
        self.recap = recap

    async def set_token(self, token: str) -> None:
        self.token = token

    async def on_prompt(self, prompt: SeatPrompted) -> None:
        if prompt.decision <= self._answered:
            return
        legal = self._actions.decode(msgspec.msgpack.encode(prompt.legal))
        clock = ""
        if prompt.deadline_ms:
            left = max(0, prompt.deadline_ms - int(time.time() * 1000)) // 1000
            clock = f", {left} s on your clock" if left < NO_LIMIT_S else ", no time limit"
        await self._tell_recap(prompt.match_id)
        self.show(f"\n--- {prompt.match_id}: seat {self.seat}, decision {prompt.decision}"
                  f"{clock} ---")
        view = self._view.decode(prompt.view)
        self.console.print(self.presentation.board(view, self.names))
        words = [self.presentation.action(action, view, self.names) for action in legal]
        if self.auto and len(legal) == 1:
            self.show(f"  the only choice, taken by itself: {words[0]}")
            self._answered = prompt.decision
            await self._submit(prompt, legal[0])
            return
        for number, said in enumerate(words, start=1):
            self.show(f"  {number:>2}. {said}")
        helpers = [asyncio.create_task(self._count_down(prompt.deadline_ms))]
        if self.recap is not None:
            helpers.append(asyncio.create_task(self.recap.keep()))
        try:
            choice = await self._choose(len(legal), prompt.deadline_ms)
        finally:
            for task in helpers:
                task.cancel()
        self._answered = prompt.decision
        if choice == TIMED_OUT:
            self.show("\n  your clock ran out: the match is forfeited, your seat ranked last")
            return
        if choice == RESIGN:
            self.show("  you resign: the match ends, your seat ranked last")
            await self.bus.publish(commands_topic(self.client), ResignMatch(
                match_id=prompt.match_id, seat=prompt.seat, token=self.token,
                command_id=f"{prompt.match_id}:{prompt.seat}:resign", client=self.client))
            return
        await self._submit(prompt, legal[choice])

    async def _submit(self, prompt: SeatPrompted, action: Any) -> None:
        await self.bus.publish(commands_topic(self.client), SubmitAction(
            match_id=prompt.match_id, seat=prompt.seat, decision=prompt.decision,
            command_id=f"{prompt.match_id}:{prompt.seat}:{prompt.decision}",
            action=msgspec.msgpack.encode(action), token=self.token, client=self.client))

    async def _tell_recap(self, match_id: str) -> None:
        """Shows what happened since this seat's last turn, and names the seats by their names
        from then on."""
        if self.recap is None and isinstance(self.bus, RedisBus):
            self.recap = StreamRecap(self.bus.redis, self.client, match_id)
        if self.recap is None:
            return
        said = await self.recap.fresh()
        if self.recap.names is not None:
            self.names = self.recap.names
        if not said:
            return
        self.show("\nsince your last turn:" if self._answered >= 0 else "\nso far:")
        if len(said) > RECAP_LINES:
            self.show(f"  ... {len(said) - RECAP_LINES} earlier lines (siege replay "
                      f"{match_id} --text tells them all)")
        for line in said[-RECAP_LINES:]:
            self.show(f"  {line.text}")

    async def _count_down(self, deadline_ms: int) -> None:
        """The clock counting down while the person thinks: a word at each of ``MARKS_S``
        still ahead, the last one a warning (the services judge by Redis' clock; this one is
        the terminal's, close enough to count down by)."""
        if not deadline_ms:
            return
        for mark in MARKS_S:
            left_s = deadline_ms / 1000 - time.time()
            if left_s <= mark:
                continue  # passed already, or more than the whole clock
            await asyncio.sleep(left_s - mark)
            self.show(f"\n  {_duration(mark)} left on your clock" + (
                ": choose now, or the match is forfeited" if mark == WARN_S else ""))

    async def _choose(self, options: int, deadline_ms: int = 0) -> int:
        """The index of the action chosen, RESIGN, or TIMED_OUT once the clock has run out."""
        while True:
            ask = self.lines.next(f"your choice (1-{options}, ? for help): ")
            if deadline_ms:
                left_s = deadline_ms / 1000 - time.time() + LATE_S
                try:
                    text = await asyncio.wait_for(ask, max(0.0, left_s))
                except TimeoutError:
                    return TIMED_OUT
            else:
                text = await ask
            if text is None:
                raise InputEndedError("input ended; the match is left unfinished")
            word = text.strip().lower()
            if word.isdigit() and 1 <= int(word) <= options:
                return int(word) - 1
            if word == "resign":
                return RESIGN
            if word in ("?", "help"):
                self.show(f"  type a number from 1 to {options} to take that action, 'r' (or "
                          "'rules') for a summary of the game's rules, or 'resign' to give the "
                          "match up (your seat ranks last)")
                continue
            if word in ("r", "rules"):
                self.show(self.presentation.rules_summary)
                continue
            self.show(f"  please type a number from 1 to {options} (or ? for help)")

    async def on_rejected(self, rejected: ActionRejected) -> None:
        self.show(f"  refused: {rejected.code.value}: {rejected.detail}")
