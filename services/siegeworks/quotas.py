"""How much one client may ask for per second: token buckets per client and kind of command.

Reading one stream per client already shares the services fairly (each read takes at most a
batch from every stream, so one client's flood waits behind its own entries, never in front of
another's); the quotas bound what a flood costs the services and the store. A command over its
client's quota is refused (``rate_limited``) without touching any log. Each service replica
counts on its own, so with N replicas a client gets up to N times the figures.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

CREATES = "creates"  # CreateMatch and RegisterEntrant: each may start a permanent log
JOINS = "joins"
ACTIONS = "actions"
REFUSALS = "refusals"  # answers a client earned by commands that changed nothing


@dataclass(frozen=True)
class Rate:
    per_s: float
    burst: float


def default_rates() -> dict[str, Rate]:
    """Per client; SIEGE_QUOTA_<KIND>=<per second>[/<burst>] overrides (e.g. 50/500).

    Creates: each may start a permanent log, a seed and prompts, so they are the dearest: a
    tournament round of 1,024 entrants in tables of 4 (256 at once) fits the burst, 10,000 in a
    second from one client do not. Refusals: a client earning more than these (forged tokens,
    commands over a quota) is not read for a second (siegeworks.ingress.PAUSE_S)."""
    rates = {CREATES: Rate(20, 300), JOINS: Rate(100, 500), ACTIONS: Rate(5000, 20000),
             REFUSALS: Rate(100, 1000)}
    for kind in list(rates):
        configured = os.environ.get(f"SIEGE_QUOTA_{kind.upper()}")
        if configured:
            per_s, _, burst = configured.partition("/")
            rates[kind] = Rate(float(per_s), float(burst or per_s))
    return rates


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class Quotas:
    rates: dict[str, Rate] = field(default_factory=default_rates)
    _buckets: dict[tuple[str, str], _Bucket] = field(default_factory=dict)

    def allow(self, client: str, kind: str, now: float) -> bool:
        """Takes one token of ``kind`` from ``client``'s bucket at time ``now`` (seconds, any
        monotonic origin); False when it is empty."""
        rate = self.rates[kind]
        bucket = self._buckets.get((client, kind))
        if bucket is None:
            bucket = self._buckets[(client, kind)] = _Bucket(rate.burst, now)
        bucket.tokens = min(rate.burst, bucket.tokens + (now - bucket.at) * rate.per_s)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def forget_idle(self, now: float) -> None:
        """Drops buckets that are full again (nothing to remember), so memory stays bounded
        by the clients active in the last burst/rate seconds."""
        for key, bucket in list(self._buckets.items()):
            rate = self.rates[key[1]]
            if bucket.tokens + (now - bucket.at) * rate.per_s >= rate.burst:
                del self._buckets[key]
