"""Injected time: a fixed clock makes two runs write byte-identical logs.

The services run on :class:`RedisClock`: Redis' ``TIME``, carried between samples by this
host's monotonic clock, so every service agrees on time whatever its host clock says
(docs/decisions/0008-one-clock.md). :class:`SystemClock` is the host's clock, for code that has
no Redis; :class:`FixedClock` is for reproducible runs.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    """The host's wall clock, shifted by ``skew_ms`` (SIEGE_CLOCK_SKEW_MS: for tests that play a
    host whose clock is wrong)."""

    def __init__(self, skew_ms: int = 0) -> None:
        self.skew_ms = skew_ms

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 + self.skew_ms


class FixedClock:
    def __init__(self, at_ms: int = 0) -> None:
        self.at_ms = at_ms

    def now_ms(self) -> int:
        return self.at_ms


REFRESH_S = 2.0
"""How old a sample may get before ``now_ms`` starts a fresh one (in the background)."""
MAX_SAMPLE_RTT_NS = 250_000_000
"""A sample whose round trip took longer (a stall, a busy server) is off by up to half of it:
it replaces a sample only when there is none."""


class RedisClock:
    """Redis' clock, read synchronously: ``TIME`` sampled by :meth:`sync`, plus this host's
    monotonic time since the sample. Never goes back.

    ``now_ms`` refreshes by itself: once the sample is older than ``refresh_s``, it starts one
    :meth:`sync` on the running loop (never more than one at a time), so no caller awaits time
    and none needs a task of its own. Call :meth:`sync` once before the first ``now_ms``.
    """

    def __init__(self, sample: Callable[[], Awaitable[int]], refresh_s: float = REFRESH_S,
                 monotonic_ns: Callable[[], int] = time.monotonic_ns) -> None:
        self._sample = sample  # Redis' time in ms
        self._refresh_ns = int(refresh_s * 1e9)
        self._monotonic_ns = monotonic_ns
        self._offset_ns: int | None = None  # Redis' time minus the monotonic clock
        self._sampled_at_ns = 0
        self._last_ms = 0
        self._refreshing: asyncio.Task[None] | None = None

    async def sync(self) -> None:
        before = self._monotonic_ns()
        redis_ms = await self._sample()
        after = self._monotonic_ns()
        if self._offset_ns is not None and after - before > MAX_SAMPLE_RTT_NS:
            self._sampled_at_ns = after  # try again at the next refresh
            return
        self._offset_ns = redis_ms * 1_000_000 - (before + after) // 2
        self._sampled_at_ns = after

    def now_ms(self) -> int:
        if self._offset_ns is None:
            raise RuntimeError("RedisClock.now_ms before its first sync()")
        mono = self._monotonic_ns()
        if mono - self._sampled_at_ns > self._refresh_ns and self._refreshing is None:
            self._start_refresh()
        now = (mono + self._offset_ns) // 1_000_000
        self._last_ms = max(self._last_ms, now)
        return self._last_ms

    def _start_refresh(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # called outside a loop: the monotonic clock carries on alone
            return
        self._refreshing = loop.create_task(self._refresh())

    async def _refresh(self) -> None:
        try:
            await self.sync()
        except Exception:  # a Redis hiccup: the monotonic clock carries on; retry later
            self._sampled_at_ns = self._monotonic_ns()
        finally:
            self._refreshing = None


def redis_time_ms(reply: tuple[int, int] | list[int]) -> int:
    """Redis' ``TIME`` reply (seconds, microseconds) in milliseconds."""
    seconds, micros = reply
    return int(seconds) * 1000 + int(micros) // 1000
