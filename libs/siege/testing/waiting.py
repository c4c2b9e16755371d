"""Waiting in tests for something to become true, without sleeping blind: poll a condition
until it holds, and fail with what was awaited once a deadline passes."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

DEADLINE_S = 10.0


async def wait_until(condition: Callable[[], Any], what: str, timeout: float = DEADLINE_S,
                     every_s: float = 0.01) -> None:
    """Polls ``condition`` (sync or async) until it is true; fails after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(every_s)
