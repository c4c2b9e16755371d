"""The archiver's probes and figures, served by the services' metrics app."""

from __future__ import annotations

from typing import Any

from siegeworks.archiver.metrics import ArchiverMetrics
from siegeworks.metrics import metrics_app


def _get(app: Any, path: str) -> tuple[str, bytes]:
    said: list[str] = []
    body = b"".join(app({"PATH_INFO": path, "REQUEST_METHOD": "GET", "QUERY_STRING": ""},
                        lambda status, headers: said.append(status)))
    return said[0], body


def test_ready_after_a_pass_that_reached_redis_and_not_after_one_that_failed() -> None:
    metrics = ArchiverMetrics()
    app = metrics_app(metrics)
    assert _get(app, "/readyz")[0].startswith("503")
    assert _get(app, "/livez")[0].startswith("200")  # starting: not yet judged stuck
    metrics.passed(True)
    assert _get(app, "/readyz")[0].startswith("200")
    metrics.passed(False)
    status, body = _get(app, "/readyz")
    assert status.startswith("503") and b"failed" in body


def test_the_figures_count_what_was_archived() -> None:
    metrics = ArchiverMetrics()
    metrics.archived.inc(3)
    metrics.refused.set(1)
    _, body = _get(metrics_app(metrics), "/metrics")
    assert b"siege_archived_matches_total 3.0" in body
    assert b"siege_archive_refused_matches 1.0" in body
