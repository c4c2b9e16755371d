"""What a service's handlers need: the log (through a cached loader), the bus, the clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import structlog
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from siege.eventlog.log import EventLog
from siege.hosting.clock import Clock
from siege.hosting.clocks import DEFAULT_TIMEOUT_MS
from siege.hosting.loader import MatchLoader
from siege.hosting.seats import TokenChecker
from siegeworks.bus import Bus
from siegeworks.headroom import Headroom
from siegeworks.match.lobby import LobbyStore, MemoryLobbies


@dataclass
class ServiceContext:
    name: str
    log: EventLog
    bus: Bus
    clock: Clock
    loader: MatchLoader
    logger: structlog.typing.FilteringBoundLogger
    # (match, seat) -> the last decision this process prompted: saves re-sending a prompt the
    # seat's stream would refuse anyway.
    prompted: dict[tuple[str, int], int] = field(default_factory=dict)
    # The match service's key for seat tokens (shared by its replicas through Redis).
    seat_secret: bytes = b""
    decision_timeout_ms: int = DEFAULT_TIMEOUT_MS  # when a match sets none
    lobbies: LobbyStore = field(default_factory=MemoryLobbies)  # matches waiting for players
    # Told of every refusal sent to a client (siegeworks.ingress.Admission.note_refused): a
    # client earning refusals faster than its quota allows is read less often.
    on_refused: Callable[[str], None] = field(default=lambda client: None)
    # What else to drop when the store went back in time (siegeworks.store_watch): caches of
    # this service's own beside the loader's.
    on_forget: list[Callable[[], None]] = field(default_factory=list)
    # Memory left in the store (siegeworks.headroom), kept up to date by the match service.
    room: Headroom = field(default_factory=Headroom)
    # The dice service's signing key as it is now (siegeworks.keys.KeyFile.current): it seals
    # each match as it reveals the seed. None: matches are left unsigned.
    signing_key: Callable[[], Ed25519PrivateKey] | None = None
    # The rules service's watched matches: match id -> siegeworks.rules.watching.Watch.
    watchers: dict[str, Any] = field(default_factory=dict)
    _tokens: TokenChecker | None = None

    @property
    def tokens(self) -> TokenChecker:
        """Checks seat tokens under ``seat_secret`` (a new checker if the secret was changed)."""
        if self._tokens is None or self._tokens.secret != self.seat_secret:
            self._tokens = TokenChecker(self.seat_secret)
        return self._tokens

    @classmethod
    def create(cls, name: str, log: EventLog, bus: Bus, clock: Clock) -> ServiceContext:
        # Only the rules service folds the game itself; the others never need its state.
        # The rules prompt at once after the actions they append: no pointer back to themselves.
        loader = MatchLoader(log, clock, light=name != "rules",
                             writer="rules" if name == "rules" else None)
        return cls(name, log, bus, clock, loader, structlog.get_logger(service=name))
