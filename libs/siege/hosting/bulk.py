"""Auditing many logs at once, in parallel across cores (``siege audit`` with several sources).

Each log is audited by :func:`siege.hosting.audit.audit` in a worker process (the audit is pure
CPU: replaying every action through its engine), results in the order given.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from siege.hosting.audit import AuditReport, Entry, audit
from siege.hosting.signing import Keyring


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def _audit_chunk(logs: Sequence[Sequence[Entry]], keyring: Keyring | None
                 ) -> list[AuditReport]:
    return [audit(entries, keyring) for entries in logs]


CHUNKS_PER_JOB = 4
"""Logs go to the workers in chunks (a few per worker, for the progress bar and the balance):
one task per log would cost more in hand-over than a small match costs to audit."""


def audit_many(logs: Sequence[Sequence[Entry]], keyring: Keyring | None, jobs: int = 0,
               on_done: Callable[[int, AuditReport], None] = lambda i, r: None,
               ) -> list[AuditReport]:
    """Audits every log (``jobs`` processes, 0 = one per core; 1 = in this process); calls
    ``on_done(index, report)`` as each finishes; returns the reports in the order of ``logs``."""
    jobs = jobs or default_jobs()
    reports: list[AuditReport | None] = [None] * len(logs)
    if jobs == 1 or len(logs) < 2:
        for index, entries in enumerate(logs):
            reports[index] = audit(entries, keyring)
            on_done(index, reports[index])  # type: ignore[arg-type]
        return [r for r in reports if r is not None]
    size = max(1, -(-len(logs) // (jobs * CHUNKS_PER_JOB)))
    starts = range(0, len(logs), size)
    with ProcessPoolExecutor(max_workers=min(jobs, len(starts))) as pool:
        futures = {pool.submit(_audit_chunk, logs[i:i + size], keyring): i for i in starts}
        for future in as_completed(futures):
            first = futures[future]
            for offset, report in enumerate(future.result()):
                reports[first + offset] = report
                on_done(first + offset, report)
    return [r for r in reports if r is not None]
