"""Noticing a store that went back in time, and recovering from it.

A Redis that restarts from an older snapshot, or a failover to a replica that lagged, loses
writes the services were told had succeeded. Their caches are then ahead of the logs, and with
the pointers gone too nobody re-reads anything: matches wait for ever. Two signals show it:

- the store's **beat**: the match service sets an epoch (a random token, once) and counts a
  beat every second; every service reads both with its heartbeat. An epoch that changed or
  vanished, or a beat lower than one already seen, means the store went back (or was emptied).
- an **append conflict against a head older than the cache**: a log holds fewer events than
  this process had seen in it.

Either way the process forgets every cached match and every prompt it remembers sending, says
so in its health record (``siege health``) and its log, and the match service re-announces every
unfinished match, so each service re-derives from the log what it still owes (the chance
request, the prompts, the end). See docs/decisions/0009-a-store-that-went-back.md.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from siege.contracts.messages import LogAppended
from siege.eventlog.log import EventLog
from siegeworks.bus import LOG
from siegeworks.context import ServiceContext

EPOCH_KEY = "siege:store:epoch"
BEAT_KEY = "siege:store:beat"
REWINDS_KEY = "siege:store:rewinds"
"""Counted up by whichever service notices a log that went back, so all of them recover (the
beat only shows a rewind of more than a second)."""
WARNINGS_KEPT = 10


@dataclass
class StoreWatch:
    """What this process has seen of the store; ``observe`` says when it went back."""

    epoch: bytes | None = None
    beat: int = 0
    warnings: list[str] = field(default_factory=list)
    rewinds: int = 0
    told: int = 0  # the store's count of rewinds noticed, when last read
    run_id: str | None = None
    _looked: bool = False

    def observe(self, epoch: bytes | None, beat: int | None, rewinds: int = 0,
                run_id: str | None = None) -> str | None:
        """The store's epoch, beat, rewinds counted and run id, as read now; a description of a
        rewind (or of a restart, which may have been one), or None."""
        told, self.told = self.told, rewinds
        restarted = bool(self.run_id and run_id and run_id != self.run_id)
        self.run_id = run_id or self.run_id
        first, self._looked = not self._looked, True
        seen, self.epoch = self.epoch, epoch
        last = self.beat
        self.beat = (beat or 0) if epoch != seen else max(last, beat or 0)
        if first:
            return None  # nothing to compare with yet
        if seen is not None and epoch is None:
            return "the store lost its epoch key: emptied, evicted or restarted without data"
        if seen is not None and epoch is not None and epoch != seen:
            return "the store's epoch changed: it was replaced or restarted without data"
        if epoch is not None and epoch == seen and beat is not None and beat < last:
            self.beat = beat
            return f"the store went back in time (its beat fell from {last} to {beat})"
        if rewinds > told:
            return "another service found a log that went back in time"
        if restarted:
            # A restart may have lost the last writes (no AOF, or a replica promoted): what
            # the store came back with is the truth, whatever this process had cached.
            return "redis-server restarted (a new run id): caches dropped, logs read afresh"
        return None

    def note(self, what: str) -> None:
        self.rewinds += 1
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.warnings = [*self.warnings, f"{stamp} {what}"][-WARNINGS_KEPT:]


async def read_beat(redis: Redis, keeper: bool
                    ) -> tuple[bytes | None, int | None, int, str | None]:
    """The epoch, the beat, the rewinds counted and the server's run id (new at every start of
    redis-server); the keeper (the match service) sets the epoch if missing and counts the beat
    first. One round trip.

    On a Redis Cluster the run id is that of every primary together: a failover (a replica
    promoted, which may have lagged) or a restart of any of them changes it."""
    cluster = isinstance(redis, RedisCluster)
    async with redis.pipeline(transaction=False) as pipe:
        if keeper:
            pipe.set(EPOCH_KEY, secrets.token_hex(8), nx=True)
            pipe.incr(BEAT_KEY)
        pipe.get(EPOCH_KEY)
        pipe.get(BEAT_KEY)
        pipe.get(REWINDS_KEY)
        if not cluster:  # a cluster's pipeline refuses INFO: asked of each primary below
            pipe.info("server")
        replies = await pipe.execute(raise_on_error=False)
    if cluster:
        servers = await redis.info("server", target_nodes=RedisCluster.PRIMARIES)
        ids = sorted(str(info.get("run_id")) for info in servers.values()
                     if isinstance(info, dict))
        replies.append({"run_id": ",".join(ids)})
    epoch, beat, rewinds, server = replies[-4:]
    for reply in (epoch, beat, rewinds):  # refused reads (a failover): no beat this time
        if isinstance(reply, Exception):
            raise reply
    run_id = server.get("run_id") if isinstance(server, dict) else None
    return (bytes(epoch) if epoch is not None else None,
            int(beat) if beat is not None else None, int(rewinds or 0),
            str(run_id) if run_id else None)


async def tell_the_others(redis: Redis) -> None:
    await redis.incr(REWINDS_KEY)


def forget_everything(ctx: ServiceContext) -> None:
    """Drops what this process believed about the logs: they are the truth again."""
    ctx.loader.forget_all()
    ctx.prompted.clear()
    for forget in ctx.on_forget:
        forget()


async def reannounce_unfinished(ctx: ServiceContext, log: EventLog) -> int:
    """Points every service at the head of every match that has not ended, so each re-derives
    what it owes; returns how many. Finished matches are scored again if their result was lost
    (the scoring service records each result once)."""
    count = 0
    for match_id in await log.match_ids():
        ms = await ctx.loader.load(match_id)
        ctx.loader.forget(match_id)
        if ms.head_seq == 0:
            continue
        await ctx.bus.publish(LOG, LogAppended(match_id=match_id, first=ms.head_seq,
                                               last=ms.head_seq, reannounce=True))
        count += ms.ended is None
    flush = getattr(ctx.bus, "flush", None)  # outside a handler nobody else flushes it
    if flush is not None:
        await flush()
    return count
