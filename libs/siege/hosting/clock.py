"""Injected time: a fixed clock makes two runs write byte-identical logs."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class FixedClock:
    def __init__(self, at_ms: int = 0) -> None:
        self.at_ms = at_ms

    def now_ms(self) -> int:
        return self.at_ms
