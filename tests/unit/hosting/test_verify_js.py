"""The replay page's verifier (static/verify.mjs) run by Node's test runner on exports of a real
match: the good one passes every check, and each tampered one fails at the same first bad seq
as the Python audit names (tests/js/verify.test.mjs holds the JS side)."""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path

import msgspec
import pytest

from siege.contracts.envelope import seal
from siege.contracts.events import DiceRolled, MatchCreated, MatchSealed
from siege.hosting.audit import audit_export
from siege.hosting.export import dump, parse
from siege.hosting.match_state import codec_for
from siege.hosting.signing import Keyring, keyring_encoder
from siege.testing.node import node_path, node_problem

CODEC = codec_for("dice-race")
TEST = Path(__file__).resolve().parents[2] / "js" / "verify.test.mjs"


def rechained(envelopes: list, events: list) -> bytes:
    """``events`` under a freshly computed chain, each at its old time: a careful forger."""
    out, head_seq, head = [], 0, bytes(32)
    for env, event in zip(envelopes, events, strict=True):
        (entry,) = seal(CODEC, env.match_id, head_seq, head, [event], env.at)
        out.append(entry)
        head_seq, head = entry[0], entry[2]
    return dump(out)


def tampered_cases(export: bytes) -> list[tuple[str, bytes, dict]]:
    entries = parse(export)
    envs = [CODEC.decode(stored) for _, stored, _ in entries]
    events = [e.event for e in envs]
    rolled = next(e.seq for e in envs if isinstance(e.event, DiceRolled))
    sealed = next(e.seq for e in envs if isinstance(e.event, MatchSealed))

    lines = export.split(b"\n")
    line = json.loads(lines[rolled - 1])
    stored = bytearray(base64.b64decode(line["event"]))
    stored[-1] ^= 1  # one bit of the die's event, its hash left as it was
    line["event"] = base64.b64encode(bytes(stored)).decode()
    flipped = b"\n".join([*lines[:rolled - 1], json.dumps(line, separators=(",", ":")).encode(),
                          *lines[rolled:]])

    redrawn = list(events)
    die = redrawn[rolled - 1]
    redrawn[rolled - 1] = msgspec.structs.replace(
        die, values=[die.values[0] % 6 + 1, *die.values[1:]])
    renamed = list(events)
    created = renamed[0]
    assert isinstance(created, MatchCreated)
    renamed[0] = msgspec.structs.replace(created, seat_names=created.seat_names[::-1])
    unsigned = b"".join(line + b"\n" for line in lines[:-2])

    return [
        ("good", export, {"chain": "verified", "dice": "verified", "seal": "verified",
                          "bad_seq": None}),
        ("a changed byte", flipped, {"chain": "broken", "bad_seq": rolled}),
        ("a changed die, chain recomputed", rechained(envs, redrawn),
         {"chain": "verified", "dice": "wrong", "bad_seq": rolled}),
        ("other seat names, chain recomputed", rechained(envs, renamed),
         {"chain": "verified", "dice": "verified", "seal": "wrong", "bad_seq": sealed}),
        ("no seal", unsigned, {"chain": "verified", "dice": "verified", "seal": "unsigned",
                               "bad_seq": None}),
    ]


def test_the_page_verifier_agrees_with_the_audit(tmp_path: Path, small_export: bytes,
                                                 small_keyring: Keyring) -> None:
    problem = node_problem()
    if problem is not None:
        pytest.fail(problem)
    cases = []
    for i, (name, data, expect) in enumerate(tampered_cases(small_export)):
        report = audit_export(data, small_keyring)  # the Python audit: the same first bad seq
        assert (report.failure.seq if report.failure else None) == expect["bad_seq"], name
        path = tmp_path / f"case{i}.jsonl"
        path.write_bytes(data)
        cases.append({"name": name, "file": str(path), "expect": expect})
    spec = tmp_path / "cases.json"
    spec.write_text(json.dumps({"keys": json.loads(keyring_encoder.encode(small_keyring)),
                                "cases": cases}))
    node = node_path()
    assert node is not None
    done = subprocess.run([node, "--test", str(TEST)], capture_output=True, text=True,
                          env={"SIEGE_VERIFY_CASES": str(spec), "PATH": ""}, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# pass 3" in done.stdout and "# skipped 0" in done.stdout, done.stdout
