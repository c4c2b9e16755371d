"""A client's commands stream kept under a byte budget, checked as it is written.

One command is at most 1 MB (``proto-max-bulk-len`` and ``client-query-buffer-limit``, set by
deploy/redis/redis.conf and the embedded servers): Redis refuses more in one write. An honest
client's commands are a few hundred bytes and are read within milliseconds; what could pile up
is a suspect client's: one whose entries do not decode (they are deleted as they are read:
``StreamConsumer(drop_undecodable=...)``) or one resting over its quota, whose stream is not
read meanwhile. Such a stream is checked (``MEMORY USAGE``) every time Redis says it was written
(siegeworks.transport.activity), one check at a time, and every other stream at every BURST
writes; a stream over ``max_bytes`` is trimmed back under it,
newest entries kept, when over: losing its own oldest commands harms only the client. The count
cap (``serve.CLIENT_BACKLOG``) stays for everyone else. See docs/durability.md, "Every stream's
bound".
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis

CLIENT_STREAM_BYTES = 4 << 20
"""The most a suspect client's commands stream keeps (MEMORY USAGE), trimmed back when over."""
BURST = 16
"""Every stream is checked once per this many writes too: a flood that came before any read
(the first read of it may be a hundred entries of 1 MB) costs at most this many entries more
than the budget; an honest client costs one check per sixteen commands."""
SUSPECT_FOR_S = 60.0
"""How long a stream that gave an undecodable entry stays watched after the last one."""


async def cap_bytes(redis: Redis, stream: str, max_bytes: int) -> int:
    """Trims ``stream`` to about ``max_bytes`` (its newest entries kept); returns how many
    entries went."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.memory_usage(stream)
        pipe.xlen(stream)
        usage, length = await pipe.execute()
    if not usage or usage <= max_bytes or not length:
        return 0
    keep = max(0, int(length * max_bytes / usage) - 1)
    return int(await redis.xtrim(stream, maxlen=keep, approximate=False))


class ByteWatch:
    """Watches the streams ``suspect`` names (a client resting over its quota) and those
    marked (an undecodable entry came on them): at each write Redis tells of, one check."""

    def __init__(self, redis: Redis, suspect: Callable[[str], bool],
                 max_bytes: int = CLIENT_STREAM_BYTES, logger: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.redis, self.suspect, self.max_bytes, self.clock = redis, suspect, max_bytes, clock
        self.log = logger
        self.trimmed = 0  # entries removed, for tests and the log
        self._marked: dict[str, float] = {}
        self._writes: dict[str, int] = {}  # writes since the stream's last check
        self._forget_at = clock() + SUSPECT_FOR_S
        self._checking: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def mark(self, stream: str) -> None:
        """An undecodable entry came on ``stream``: watched for SUSPECT_FOR_S from now."""
        self._marked[stream] = self.clock() + SUSPECT_FOR_S
        self.written(stream)

    def watched(self, stream: str) -> bool:
        until = self._marked.get(stream)
        if until is not None and until < self.clock():
            del self._marked[stream]
            until = None
        return until is not None or self.suspect(stream)

    def written(self, stream: str) -> None:
        """Redis said ``stream`` was written: checked now if watched or at its BURST-th write
        since its last check (again right after a check under way, which may have measured
        before this write)."""
        now = self.clock()
        if now >= self._forget_at:  # the counts of streams that stopped writing go
            self._writes.clear()
            self._forget_at = now + SUSPECT_FOR_S
        writes = self._writes.get(stream, 0) + 1
        if writes < BURST and not self.watched(stream):
            self._writes[stream] = writes
            return
        self._writes.pop(stream, None)
        if stream in self._checking:
            self._again.add(stream)
            return
        self._checking.add(stream)
        task = asyncio.get_running_loop().create_task(self._check(stream))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _check(self, stream: str) -> None:
        try:
            while True:
                self._again.discard(stream)
                try:
                    removed = await cap_bytes(self.redis, stream, self.max_bytes)
                except Exception as exc:  # noqa: BLE001 - the next write checks again
                    if self.log is not None:
                        self.log.warning("byte cap failed", stream=stream, error=repr(exc))
                    return
                if removed:
                    self.trimmed += removed
                    if self.log is not None:
                        self.log.warning("commands_stream_over_bytes", stream=stream,
                                         removed=removed, max_bytes=self.max_bytes)
                if stream not in self._again:
                    return
        finally:
            self._checking.discard(stream)
