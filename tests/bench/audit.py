"""Auditing in bulk and what sealing costs: matches audited per second on one process and on
every core (``siege.hosting.bulk.audit_many``, seals checked), and the CPU of one seal against
the CPU of playing the match it seals, measured side by side in one run (medians of repeats).

    python tests/bench/audit.py [MATCHES]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from siege.eventlog.log import MemoryEventLog
from siege.hosting import signing
from siege.hosting.bulk import audit_many, default_jobs
from siegeworks.runner import RunConfig, play_matches

REPEATS = 3


def main(matches: int) -> None:
    log = MemoryEventLog()
    cfg = RunConfig(game="castle-dash", matches=matches, players=4, bots=["greedy", "random"],
                    seed=1, fixed_clock_ms=1_790_000_000_000)
    started = time.process_time()
    result = asyncio.run(play_matches(cfg, log))
    play_cpu = time.process_time() - started
    assert result.wired is not None
    keyring = result.wired.keyring
    logs = [asyncio.run(log.read(m)) for m in result.match_ids]
    events = sum(len(entries) for entries in logs)

    one = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        reports = audit_many(logs, keyring, jobs=1)
        one.append(time.perf_counter() - t)
    assert all(r.ok and r.seal == "verified" for r in reports)
    cores = default_jobs()
    many = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        audit_many(logs, keyring, jobs=cores)
        many.append(time.perf_counter() - t)

    key = signing.new_key()
    head = bytes(32)
    t = time.process_time()
    for n in range(1000):
        signing.seal(key, "m", n, head)
    seal_us = (time.process_time() - t) * 1000  # per seal, in microseconds (1000 seals)
    per_match_us = play_cpu / matches * 1e6

    rate_one = matches / statistics.median(one)
    rate_all = matches / statistics.median(many)
    print(f"audit castle-dash 4p: {matches} matches, {events} events, seals checked")
    print(f"audited matches/s, one process: {rate_one:.0f}")
    print(f"audited matches/s, {cores} processes: {rate_all:.0f} "
          f"({rate_all / cores:.0f} per core, {rate_all / rate_one:.2f}x one process)")
    print(f"seal: {seal_us:.0f} us CPU per match, against {per_match_us:.0f} us to play one "
          f"in process ({seal_us / per_match_us:.4f} of it); never on the per-action path")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
