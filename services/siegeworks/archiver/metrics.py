"""The archiver's figures for ``/metrics``, and what its ``/livez`` and ``/readyz`` say: served
by the same server and app as the other services' (siegeworks.metrics.MetricsServer,
``metrics_app``)."""

from __future__ import annotations

import time

from prometheus_client import CollectorRegistry, Counter, Gauge

LIVE_WITHIN_S = 30.0
"""A loop that has not finished a pass, or 500 matches of one, for this long is stuck."""


class ArchiverMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.archived = Counter("siege_archived_matches", "Matches archived and removed from "
                                "Redis by this process", registry=self.registry)
        self.archived_bytes = Counter("siege_archived_bytes", "Bytes of archives written",
                                      registry=self.registry)
        self.failures = Counter("siege_archive_failures", "Archive passes or attempts that "
                                "failed (a store or Redis error) and are tried again",
                                registry=self.registry)
        self.refused = Gauge("siege_archive_refused_matches", "Finished matches that fail "
                             "their audit and stay in Redis", registry=self.registry)
        self.passed_at: float | None = None
        self.reached_redis = False

    def passed(self, reached_redis: bool) -> None:
        self.passed_at = time.monotonic()
        self.reached_redis = reached_redis

    def live(self) -> tuple[bool, str]:
        if self.passed_at is None:
            return True, "starting"
        age = time.monotonic() - self.passed_at
        if age > LIVE_WITHIN_S:
            return False, f"the last pass ended {age:.1f} s ago: the loop is stuck"
        return True, "ok"

    def ready(self) -> tuple[bool, str]:
        if self.passed_at is None:
            return False, "the first pass has not run yet"
        return (True, "ok") if self.reached_redis else (False, "the last pass failed")
