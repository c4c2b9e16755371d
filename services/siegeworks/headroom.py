"""Room left in the store: new matches wait, with a refusal that says when to ask again, while
Redis is nearly full.

Under ``noeviction`` (the only policy we run on: docs/durability.md) a Redis at its memory limit
refuses every write. The services then hold what they handle until memory is freed (siegeworks
.transport.streams), but a refusal is a write too, so a create sent then would wait unanswered.
So the match service watches the memory in use (``INFO memory``, once a second with its
heartbeat) and, from ``SIEGE_STORE_BUSY_AT`` of ``maxmemory`` (:data:`BUSY_AT` unless set),
refuses new matches with ``store_busy`` while Redis can still say so, with a retry hint
(:func:`retry_hint_ms`); matches under way go on in the room left, and new ones are taken
again once memory is freed (finished logs deleted or archived, or maxmemory raised).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from redis.asyncio import Redis
from redis.exceptions import RedisError

BUSY_AT_ENV = "SIEGE_STORE_BUSY_AT"
BUSY_AT = 0.8
"""Of maxmemory in use, from which new matches are refused (the rest is for matches under
way: a Castle Dash match writes about 100 kB). An operator sets another with
``SIEGE_STORE_BUSY_AT``, a fraction strictly between 0 and 1."""

FIRST_RETRY_MS = 1_000
"""The retry hint at the threshold itself."""
LONGEST_RETRY_MS = 30_000
"""The retry hint at maxmemory, and the most it ever says."""


class StoreBusyAtError(ValueError):
    """``SIEGE_STORE_BUSY_AT`` is no fraction strictly between 0 and 1 (the message is one
    line, for the operator)."""


def store_busy_at(environ: Mapping[str, str] | None = None) -> float:
    """The threshold, from ``SIEGE_STORE_BUSY_AT`` (``os.environ`` unless ``environ``):
    :data:`BUSY_AT` when unset or empty; anything but a number strictly between 0 and 1 is
    refused (:class:`StoreBusyAtError`), so a service never starts on a threshold that would
    refuse every match (0) or none before Redis refuses writes itself (1)."""
    text = (os.environ if environ is None else environ).get(BUSY_AT_ENV, "").strip()
    if not text:
        return BUSY_AT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:  # NaN fails too
        raise StoreBusyAtError(
            f"{BUSY_AT_ENV}={text!r} is not a fraction of maxmemory strictly between 0 and 1 "
            f"(default {BUSY_AT}; e.g. {BUSY_AT_ENV}=0.75)")
    return value


def retry_hint_ms(used: int, limit: int, busy_at: float) -> int:
    """When to send a refused create again, in ms: :data:`FIRST_RETRY_MS` at the threshold,
    growing in a straight line with the share of the room between the threshold and maxmemory
    that is used, to :data:`LONGEST_RETRY_MS` at maxmemory, and never more (Redis may hold a
    little over its limit). 0 (no hint) when there is no limit or the store is not busy."""
    threshold = busy_at * limit
    if not limit or used < threshold:
        return 0
    over = (used - threshold) / (limit - threshold)
    grown = FIRST_RETRY_MS + round((LONGEST_RETRY_MS - FIRST_RETRY_MS) * over)
    return min(LONGEST_RETRY_MS, grown)


@dataclass
class Headroom:
    used: int = 0
    limit: int = 0  # 0: no maxmemory set
    # Read from the environment when the service's context is made, at its start.
    busy_at: float = field(default_factory=store_busy_at)

    @property
    def busy(self) -> bool:
        """New matches wait: ``busy_at`` of maxmemory or more is in use."""
        return bool(self.limit) and self.used >= self.busy_at * self.limit

    @property
    def retry_after_ms(self) -> int:
        """The hint a ``store_busy`` refusal carries (:func:`retry_hint_ms`); 0 when not busy."""
        return retry_hint_ms(self.used, self.limit, self.busy_at) if self.busy else 0

    def describe(self) -> str:
        limit = self.limit or 1
        return (f"store busy: Redis holds {self.used / 2**20:.1f} MB of its "
                f"{self.limit / 2**20:.1f} MB ({100 * self.used / limit:.0f}%, new matches wait "
                f"from {100 * self.busy_at:g}%): matches under way go on; new matches wait "
                "until memory is freed or maxmemory is raised")


async def measure(redis: Redis, room: Headroom) -> None:
    """Updates ``room`` from ``INFO memory``; leaves it as it was when Redis does not answer."""
    try:
        info = await redis.info("memory")
    except RedisError:
        return
    room.used = int(info.get("used_memory", 0))
    room.limit = int(info.get("maxmemory", 0))
