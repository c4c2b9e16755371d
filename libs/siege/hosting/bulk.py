"""Auditing many logs at once, in parallel across cores (``siege audit`` with several sources),
and the verdict on each: what was proved, including the seal and a tournament's anchor.

Each log is audited by :func:`siege.hosting.audit.audit` in a worker process (the audit is pure
CPU: replaying every action through its engine), results in the order given.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

import msgspec

from siege.contracts.events import MatchSealed
from siege.hosting.audit import AuditReport, Entry, audit
from siege.hosting.signing import Keyring, seal_problem
from siege.tournament.events import TournamentFinished
from siege.tournament.store import CODEC as TOURNAMENT_CODEC


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


class Verdict(msgspec.Struct, kw_only=True):
    source: str
    match_id: str
    ok: bool
    state: str  # finished, damaged: <reason>, failed
    events: int
    proved: list[str]  # the checks that held
    seal: str  # verified, unsigned, unchecked
    sealed_by: str = ""
    anchor: str = ""  # "held" or why not, for a match of a tournament
    failed_seq: int = 0
    reason: str = ""


CHECKS = ["chain", "dice", "actions", "times", "result"]


def match_verdict(source: str, report: AuditReport, anchor: str | None,
                  entries: list[Entry], allow_unsigned: bool) -> Verdict:
    """What a match's audit proved: its checks, its seal (an unsigned log fails unless
    ``allow_unsigned``), and, given the head a tournament recorded for it, the anchor."""
    verdict = Verdict(source=source, match_id=report.match_id, ok=report.ok, state=report.state,
                      events=report.events, proved=list(CHECKS) if report.ok else [],
                      seal=report.seal, sealed_by=report.sealed_by)
    if report.failure is not None:
        verdict.failed_seq, verdict.reason = report.failure.seq, report.failure.reason
        return verdict
    if report.seal == "verified":
        verdict.proved.append(f"seal by {report.sealed_by}")
    elif not allow_unsigned:
        verdict.ok = False
        verdict.reason = "not signed by the server (--allow-unsigned accepts it)"
    if anchor is not None:
        head = entries[-1][2].hex() if entries and entries[-1][2] is not None else ""
        if anchor == head:
            verdict.anchor = "held"
            verdict.proved.append("tournament anchor")
        else:
            verdict.ok = False
            verdict.anchor = "the tournament recorded another head"
            verdict.reason = verdict.reason or verdict.anchor
    return verdict


def tournament_verdict(name: str, entries: list[Entry], keyring: Keyring,
                       allow_unsigned: bool) -> Verdict:
    """A tournament's own stream: sealed by the server once it finished (the seal covers every
    match result and anchor it recorded)."""
    envelopes = [TOURNAMENT_CODEC.decode(stored) for _, stored, _ in entries]
    verdict = Verdict(source=name, match_id=name, ok=True, state="tournament",
                      events=len(entries), proved=[], seal="unsigned")
    last = envelopes[-1]
    if isinstance(last.event, MatchSealed):
        verdict.sealed_by = last.event.key
        problem = seal_problem(keyring, last.event, name, last.seq - 1, last.prev, last.at)
        if problem is not None:
            verdict.ok, verdict.failed_seq, verdict.reason = False, last.seq, problem
        else:
            verdict.seal = "verified"
            verdict.proved.append(f"seal by {last.event.key}")
    elif any(isinstance(e.event, TournamentFinished) for e in envelopes):
        if not allow_unsigned:
            verdict.ok = False
            verdict.reason = "finished but not signed by the server (--allow-unsigned accepts it)"
    else:
        verdict.state = "tournament, under way (sealed once it finishes)"
    return verdict
