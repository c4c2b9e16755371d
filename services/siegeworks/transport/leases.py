"""Shard leases: the replicas of one service share the 16 shards, each reading only its own.

Every replica of a service reads the same consumer groups, so any of them could take any entry;
left to that, consecutive pointers of one match would go to different replicas, each with its
own cache, and they would spend their work losing compare-and-set races to each other (safe,
but wasted). So each replica holds a **lease** on a set of shards and reads only those shards'
streams: the shard's buses and the commands streams of the shard's clients, which share its
slot (docs/decisions/0013-clients-in-shards.md, 0014-shard-leases.md).

- A lease is the key ``{sN}:lease:<service>`` holding the consumer name, with a time to live
  (:data:`LEASE_TTL_MS`); its holder renews it every :data:`TICK_S`.
- The replicas of a service are the members of ``siege:replicas:<service>``, a sorted set of
  consumer names scored by when each last renewed; one silent for a lease's time to live is
  gone. Each replica's fair share is the shard count divided by the replicas, rounded up.
- Every tick a replica renews what it holds, gives back what is over its share (its highest
  shards), and takes free shards up to its share, its own preferred ones first (those whose
  number, modulo the replica count, is its rank among the names), so a stable set of replicas
  settles on a stable split.
- A replica that dies holds its shards until their leases lapse: the others take them within
  ``LEASE_TTL_MS + TICK_S``, and their claimers take over the entries it left pending (the
  consumer's ``claim_idle_ms`` later). One that comes back finds shards given back to it as the
  others' share shrinks.

Nothing here guards a match's log: two replicas that both believe they hold a shard for a moment
(a lease lapsing while its holder paused) can only race each other's compare-and-set appends,
which the log settles as ever. Leases only keep the replicas from doing the same work twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

import structlog
from redis.exceptions import RedisError

from siege.eventlog.keys import KEYS_CACHED, SHARDS

LEASE_TTL_MS = 3_000
"""How long a lease outlives its last renewal: a dead replica's shards move after this."""
TICK_S = 1.0
"""How often a replica renews its leases and looks at the others."""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""
_TAG = re.compile(r"\{s(\d+)\}")


def lease_key(service: str, shard: int) -> str:
    return f"{{s{shard}}}:lease:{service}"


def replicas_key(service: str) -> str:
    return f"siege:replicas:{service}"


@lru_cache(maxsize=KEYS_CACHED)
def shard_of_stream(stream: str) -> int | None:
    """The shard whose tag ``stream`` carries (a bus, a client's commands stream); None for a
    stream of no shard (the doorbell), which every replica reads."""
    found = _TAG.search(stream)
    return int(found[1]) if found is not None else None


def preferred(rank: int, replicas: int) -> list[int]:
    """The shards a replica of ``rank`` among ``replicas`` takes first."""
    return [shard for shard in range(SHARDS) if shard % replicas == rank]


class ShardLeases:
    """The shards this replica (``consumer`` of ``service``) holds; :meth:`run` keeps them."""

    def __init__(self, redis: Any, service: str, consumer: str, now_ms: Callable[[], int], *,
                 ttl_ms: int = LEASE_TTL_MS, tick_s: float = TICK_S,
                 logger: structlog.typing.FilteringBoundLogger | None = None) -> None:
        self.redis, self.service, self.consumer = redis, service, consumer
        self.now_ms, self.ttl_ms, self.tick_s = now_ms, ttl_ms, tick_s
        self.held: set[int] = set()
        self.replicas = 1
        self.moves = 0  # shards taken or given back since start, for the health record
        self.log = logger or structlog.get_logger("siegeworks.leases")
        self.on_change: list[Callable[[set[int]], None]] = []
        # looked_after's last answer, with the list and the moves it was worked out for.
        self._upkeep: tuple[list[str] | None, int, list[str]] = (None, -1, [])

    def holds(self, stream: str) -> bool:
        """Whether this replica reads ``stream`` now."""
        shard = shard_of_stream(stream)
        return shard is None or shard in self.held

    def looks_after(self, stream: str) -> bool:
        """Whether this replica measures, trims and caps ``stream``: the holder of its shard,
        and, for a stream of no shard (which every replica reads), the holder of shard 0. One
        replica per stream, so that the work each second is a share of the streams rather
        than all of them on every replica, and the replicas' lags add up to the group's."""
        shard = shard_of_stream(stream)
        return (0 if shard is None else shard) in self.held

    def looked_after(self, streams: list[str]) -> list[str]:
        """Those of ``streams`` this replica :meth:`looks_after`, worked out again only when
        the list (a new one: a reader's followed streams changed) or the shards held changed:
        a replica follows every registered client's stream, ten thousands of them."""
        known, moves, mine = self._upkeep
        if known is not streams or moves != self.moves:
            mine = [stream for stream in streams if self.looks_after(stream)]
            self._upkeep = (streams, self.moves, mine)
        return list(mine)

    async def tick(self) -> set[int]:
        """One round: say this replica lives, renew, give back, take; returns what it holds."""
        now = self.now_ms()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(replicas_key(self.service), {self.consumer: now})
            pipe.zremrangebyscore(replicas_key(self.service), "-inf", now - self.ttl_ms)
            pipe.zrange(replicas_key(self.service), 0, -1)
            for shard in sorted(self.held):
                pipe.eval(_RENEW, 1, lease_key(self.service, shard), self.consumer, self.ttl_ms)
            replies = await pipe.execute()
        names = sorted(_text(name) for name in replies[2])
        kept = {shard for shard, ok in zip(sorted(self.held), replies[3:], strict=True) if ok}
        self.replicas = max(1, len(names))
        share = math.ceil(SHARDS / self.replicas)
        rank = names.index(self.consumer) if self.consumer in names else 0
        first = preferred(rank, self.replicas)
        over = sorted(kept, key=lambda s: (s in first, -s))[:max(0, len(kept) - share)]
        if over:
            await self._each(_RELEASE, over)
            kept -= set(over)
        if len(kept) < share:
            wanted = [s for s in [*first, *range(SHARDS)] if s not in kept]
            kept |= set(await self._take(list(dict.fromkeys(wanted)), share - len(kept)))
        self._set(kept)
        return kept

    async def _each(self, script: str, shards: Iterable[int]) -> list[Any]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for shard in shards:
                pipe.eval(script, 1, lease_key(self.service, shard), self.consumer, self.ttl_ms)
            return list(await pipe.execute())

    async def _take(self, candidates: list[int], room: int) -> list[int]:
        """Takes free leases among ``candidates``, in order, up to ``room``."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for shard in candidates:
                pipe.set(lease_key(self.service, shard), self.consumer, nx=True, px=self.ttl_ms)
            taken = [shard for shard, ok in zip(candidates, await pipe.execute(), strict=True)
                     if ok]
        # Taken beyond the room (two free shards for one place): given back at once.
        extra = taken[room:]
        if extra:
            await self._each(_RELEASE, extra)
        return taken[:room]

    def _set(self, held: set[int]) -> None:
        if held == self.held:
            return
        gained, lost = sorted(held - self.held), sorted(self.held - held)
        self.moves += len(gained) + len(lost)
        self.held = held
        self.log.info("shards_moved", held=sorted(held), gained=gained, lost=lost,
                      replicas=self.replicas)
        for listener in self.on_change:
            listener(held)

    async def run(self, stop: asyncio.Event) -> None:
        """Ticks until ``stop``, then gives every lease back (the others take them at their
        next tick instead of after the time to live)."""
        while not stop.is_set():
            try:
                await self.tick()
            except Exception as exc:  # noqa: BLE001 - leases lapse if this goes on; others
                # take over (whatever failed: a failover can raise plain errors in redis-py)
                self.log.warning("lease renewal failed", error=repr(exc))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.tick_s)
        await self.leave()

    async def leave(self) -> None:
        with contextlib.suppress(RedisError):
            await self._each(_RELEASE, sorted(self.held))
            await self.redis.zrem(replicas_key(self.service), self.consumer)
        self._set(set())


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
