"""The gateway's one voice and one pair of ears on the bus, for all its people.

Every command the gateway sends for a person (or for the bots it runs for them) goes on the
gateway's own commands stream, naming that client: the services follow one stream for the whole
gateway, however many people it speaks for. Everything the services tell those clients comes on
the gateway's own inbox, naming the client in ``to`` (``siege.eventlog.keys.answers_key``), and
is handed to whoever :meth:`Desk.run` was given; prompts come on each seat's own stream, read
only while its table is in play. One reader (``SeatReader``) covers the inbox and every seat
stream in play, in one XREAD a poll. See docs/decisions/0018-a-gateway-speaks-for-many.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

from siege.contracts.messages import Message
from siege.eventlog.acl import GATEWAY_CLIENT
from siege.eventlog.keys import client_of_commands_key, commands_key, inbox_key
from siegeworks.clients.remote import PromptHandler, SeatReader
from siegeworks.transport.redis_bus import RedisBus
from siegeworks.web.keeping import Keeping

log = logging.getLogger(__name__)
Hear = Callable[[Message], Awaitable[None]]
RETRY_S = 1.0
"""How long the gateway waits to read again after a read failed."""


class Voice(RedisBus):
    """A bus on which every command, whoever's it is, goes on the gateway's commands stream (a
    bot's ``commands_topic`` included): the command names its client, the stream the gateway."""

    def __init__(self, redis: Redis, gateway: str = GATEWAY_CLIENT) -> None:
        super().__init__(redis)
        self.gateway = gateway

    async def publish(self, topic: str, message: Message) -> None:
        if client_of_commands_key(topic) is not None:
            topic = commands_key(self.gateway)
        await super().publish(topic, message)


class Desk:
    """Sends for the gateway's clients and hears for them, from one loop."""

    def __init__(self, redis: Redis, keeping: Keeping, gateway: str = GATEWAY_CLIENT) -> None:
        self.redis, self.keeping, self.gateway = redis, keeping, gateway
        self.voice = Voice(redis, gateway)
        self.reader = SeatReader(redis, block_ms=200)
        self.inbox = inbox_key(gateway)
        self._task: asyncio.Task[None] | None = None

    async def send(self, command: Message) -> None:
        await self.voice.publish(commands_key(self.gateway), command)

    def seat(self, stream: str, on_prompt: PromptHandler,
             reset: Callable[[], None] | None = None) -> None:
        """Reads a seat's prompts (from the start of its stream: it keeps only its newest)."""
        self.reader.subscribe_seat(stream, on_prompt, reset)

    def drop(self, stream: str) -> None:
        self.reader.drop_seat(stream)

    async def newest(self, stream: str) -> None:
        """Hands the seat its newest prompt now (a seat resumed after a restart)."""
        await self.reader.recover([stream])

    async def open(self) -> None:
        """Follows the inbox from where the last gateway process left it (what came while none
        ran is heard), or from its end the first time."""
        after = await self.keeping.inbox_read() or await self.reader.cursor_of(self.inbox)
        self.reader.follow(self.inbox, after)

    def start(self, hear: Hear) -> None:
        self._task = asyncio.create_task(self.run(hear))

    async def run(self, hear: Hear) -> None:
        while True:
            try:
                messages = await self.reader.poll()
            except Exception:  # Redis away or refusing: the gateway must go on hearing after
                log.exception("reading the gateway's inbox and seats failed; retrying")
                await asyncio.sleep(RETRY_S)
                continue
            for message in messages:
                try:
                    await hear(message)
                except Exception:  # one client's trouble never stops the others' answers
                    log.exception("answer for %s not handled", getattr(message, "to", ""))
            read = self.reader.read_to(self.inbox)
            if messages and read is not None:
                await self.keeping.keep_inbox_read(read)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
