"""``siege audit`` in bulk: a tournament id audits every match it recorded (each against the
head the tournament anchored) and the tournament's own seal; a folder of exports audits each
file, in parallel, ending with a table and a summary; ``--json`` prints one object per log; one
bad log makes the exit 1 and is named at its first bad seq."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from siege.hosting.audit import AuditReport
from siege.hosting.bulk import match_verdict

pytestmark = pytest.mark.e2e


def siege(args: list[str], data: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(SIEGE_DATA_DIR=str(data), SIEGE_SIGNING_KEY=str(data / "signing.key"),
               COLUMNS="250")
    return subprocess.run([sys.executable, "-m", "siegeworks.cli", *args], env=env, cwd=data,
                          capture_output=True, text=True, timeout=300)


def test_a_tournament_and_a_folder_of_exports_are_audited_in_bulk(tmp_path: Path) -> None:
    played = siege(["tournament", "--entrants", "6", "--rounds", "1", "--table-size", "3",
                    "--seed", "3"], tmp_path)
    assert played.returncode == 0, played.stderr
    tid = re.search(r"t-[0-9a-f]{12}", played.stdout)
    assert tid is not None, played.stdout
    audited = siege(["audit", tid.group(0)], tmp_path)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert audited.stdout.count("tournament anchor") == 2
    assert "3 audited: 3 passed, 0 failed" in audited.stdout  # two matches, the tournament

    every = [json.loads(line) for line in
             siege(["audit", tid.group(0), "--json"], tmp_path).stdout.splitlines()]
    [tournament] = [r for r in every if r["match_id"] == tid.group(0)]
    assert tournament["seal"] == "verified"  # the server sealed the stream once it finished
    rows = [r for r in every if r is not tournament]
    assert [r["anchor"] for r in rows] == ["held", "held"]
    exports = tmp_path / "exports"
    exports.mkdir()
    for row in rows:
        done = siege(["export", row["match_id"], "-o", str(exports / f"{row['match_id']}.jsonl")],
                     tmp_path)
        assert done.returncode == 0, done.stderr
    assert siege(["audit", str(exports)], tmp_path).returncode == 0

    # One file changed: a byte of its sixth line (any change is caught at its line).
    bad = exports / f"{rows[1]['match_id']}.jsonl"
    data = bytearray(bad.read_bytes())
    sixth = sum(len(line) + 1 for line in data.split(b"\n")[:5])
    data[sixth + 60] = ord("0") if data[sixth + 60] != ord("0") else ord("1")
    bad.write_bytes(bytes(data))
    audited = siege(["audit", str(exports), "--json"], tmp_path)
    assert audited.returncode == 1
    verdicts = {r["source"]: r for r in map(json.loads, audited.stdout.splitlines())}
    assert verdicts[str(bad)]["ok"] is False and verdicts[str(bad)]["failed_seq"] == 6
    assert [r["ok"] for s, r in verdicts.items() if s != str(bad)] == [True]


def test_a_match_whose_log_is_not_the_one_the_tournament_anchored_fails() -> None:
    report = AuditReport(match_id="t-1-r01-t0000", events=1, seal="verified", sealed_by="k")
    entries = [(1, b"", bytes(32))]
    held = match_verdict("m", report, "00" * 32, entries, allow_unsigned=False)
    assert held.ok and held.anchor == "held"
    moved = match_verdict("m", report, "11" * 32, entries, allow_unsigned=False)
    assert not moved.ok and "another head" in moved.reason
