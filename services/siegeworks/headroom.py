"""Room left in the store: new matches wait, with a clear refusal, while Redis is nearly full.

Under ``noeviction`` (the only policy we run on: docs/durability.md) a Redis at its memory limit
refuses every write. The services then hold what they handle until memory is freed (siegeworks
.transport.streams), but a refusal is a write too, so a create sent then would wait unanswered.
So the match service watches the memory in use (``INFO memory``, once a second with its
heartbeat) and, above ``FULL_AT`` of ``maxmemory``, refuses new matches (``store_full``) while
Redis can still say so; matches under way go on in the room left.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

FULL_AT = 0.9
"""Of maxmemory in use, from which new matches are refused (the rest is for matches under
way: a Castle Dash match writes about 100 kB)."""


@dataclass
class Headroom:
    used: int = 0
    limit: int = 0  # 0: no maxmemory set

    @property
    def full(self) -> bool:
        return bool(self.limit) and self.used >= FULL_AT * self.limit

    def describe(self) -> str:
        return (f"Redis holds {self.used / 2**20:.1f} MB of its {self.limit / 2**20:.1f} MB: new "
                "matches wait until an operator frees memory or raises maxmemory")


async def measure(redis: Redis, room: Headroom) -> None:
    """Updates ``room`` from ``INFO memory``; leaves it as it was when Redis does not answer."""
    try:
        info = await redis.info("memory")
    except RedisError:
        return
    room.used = int(info.get("used_memory", 0))
    room.limit = int(info.get("maxmemory", 0))
