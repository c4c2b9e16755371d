"""What a service's handlers need: the log (through a cached loader), the bus, the clock."""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from siege.eventlog.log import EventLog
from siege.hosting.clock import Clock
from siege.hosting.loader import MatchLoader
from siegeworks.bus import Bus


@dataclass
class ServiceContext:
    name: str
    log: EventLog
    bus: Bus
    clock: Clock
    loader: MatchLoader
    logger: structlog.typing.FilteringBoundLogger

    @classmethod
    def create(cls, name: str, log: EventLog, bus: Bus, clock: Clock) -> ServiceContext:
        return cls(name, log, bus, clock, MatchLoader(log, clock),
                   structlog.get_logger(service=name))
