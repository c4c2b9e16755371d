"""How many Redis commands this process has sent (a script call counting once), for the health
records and the benchmarks: Redis's own INFO commandstats also counts the calls a script makes."""

from __future__ import annotations

from typing import Any

from redis.asyncio.connection import Connection

from siege.eventlog.pipelined import PipelinedRedis


class CountingConnection(Connection):
    """A redis-py connection that counts the commands it packs (pipelines pack each one)."""

    sent = 0  # every instance of this process together

    def pack_command(self, *args: Any) -> list[bytes]:
        CountingConnection.sent += 1
        return super().pack_command(*args)


def commands_sent() -> int:
    """Commands sent so far by this process's counting connections and pipelined clients."""
    return CountingConnection.sent + PipelinedRedis.total_sent
