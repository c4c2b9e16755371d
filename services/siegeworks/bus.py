"""The bus seen by handlers: publish a message on a topic, subscribe a handler to a topic.

``InMemoryBus`` runs every handler in one process, first in first out, so a seeded run is
deterministic; messages still cross it as encoded bytes, exactly the shapes the Redis
transport carries between processes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import msgspec

from siege.contracts.messages import Message, bus_decoder, bus_encoder
from siege.eventlog.keys import (
    REPLIES_STREAM,
    RESULTS_STREAM,
    answers_key,
    client_of_commands_key,
    commands_key,
    gateway_of,
    valid_client_id,
)

Handler = Callable[[Any], Awaitable[None]]
M = TypeVar("M", bound=Message)

# Topics are the names of the Redis streams that carry them, so both transports agree.
# Everything clients write goes on the sender's own stream (``commands_topic``): the match
# service reads them all (lifecycle, lobbies, registrations) and so does the rules service
# (actions), each in a group of its own. In one process they are one topic, COMMANDS.
COMMANDS = "commands"
LOG = "log"  # LogAppended pointers (on Redis, the append script writes them)
# ActionRejected for a sender that named no client; everything else meant for one client goes to
# its own streams (``siege.eventlog.keys.inbox_key`` and ``view_key``).
REPLIES = REPLIES_STREAM


def commands_topic(client: str) -> str:
    """Where ``client`` writes its commands: its own stream, never one another client writes."""
    return commands_key(client)


def reply_topic(client: str) -> str:
    """Where a refusal goes: its sender's inbox (a gateway's person's: the gateway's), or the
    shared replies stream when the sender named no valid client."""
    return answers_key(client) if valid_client_id(client) else REPLIES


def addressed(message: M, client: str) -> M:
    """``message`` as it goes to ``client``: on a gateway's inbox it names the person it is for
    (``to``); anyone else's inbox is its own, and the message goes as it is."""
    if gateway_of(client) is None:
        return message
    return msgspec.structs.replace(message, to=client)  # type: ignore[type-var]


async def tell(bus: Bus, client: str, message: Message) -> None:
    """Puts ``message`` where ``client`` hears what the services tell it (``answers_key``)."""
    await bus.publish(reply_topic(client), addressed(message, client))
RESULTS = RESULTS_STREAM  # MatchFinished from scoring


class Bus(Protocol):
    async def publish(self, topic: str, message: Message) -> None: ...

    def subscribe(self, topic: str, handler: Handler) -> None: ...

    async def set_deadline(self, member: str, due_ms: int) -> None:
        """Schedules a decision's clock (see ``siege.hosting.clocks``)."""

    async def clear_deadline(self, member: str) -> None: ...

    async def retire(self, topic: str, after_s: int) -> None:
        """The stream behind ``topic`` may go ``after_s`` seconds from now (nothing more will
        be written to it)."""

    async def after_flush(self, done: Callable[[], None]) -> None:
        """Runs ``done`` once what was published so far has really gone out."""


class InMemoryBus:
    def __init__(self) -> None:
        self._queue: deque[tuple[str, bytes]] = deque()
        self._handlers: dict[str, list[Handler]] = {}
        self.delivered = 0

    async def publish(self, topic: str, message: Message) -> None:
        if client_of_commands_key(topic) is not None:
            topic = COMMANDS  # every client's commands, to the same handlers
        self._queue.append((topic, bus_encoder.encode(message)))

    def subscribe(self, topic: str, handler: Handler) -> None:
        self._handlers.setdefault(topic, []).append(handler)

    async def set_deadline(self, member: str, due_ms: int) -> None:
        """In one process nobody waits on a clock: bots answer at once, so nothing times out."""

    async def clear_deadline(self, member: str) -> None:
        pass

    async def retire(self, topic: str, after_s: int) -> None:
        pass  # nothing is kept in one process

    async def after_flush(self, done: Callable[[], None]) -> None:
        done()  # published messages are queued at once

    def unsubscribe_all(self, topic: str) -> None:
        self._handlers.pop(topic, None)

    async def drain(self) -> None:
        """Delivers until no message is left; each handler decodes its own copy."""
        while self._queue:
            topic, data = self._queue.popleft()
            for handler in self._handlers.get(topic, ()):
                self.delivered += 1
                await handler(bus_decoder.decode(data))
