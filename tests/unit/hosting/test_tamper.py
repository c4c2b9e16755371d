"""Tampering with an export: every kind of change is caught and the sequence is named."""

from __future__ import annotations

import msgspec
import pytest

from siege.contracts.envelope import seal
from siege.contracts.events import (
    ActionAccepted,
    DiceRolled,
    MatchEnded,
)
from siege.hosting.audit import audit, audit_export
from siege.hosting.export import dump, parse
from siege.hosting.match_state import codec_for

CODEC = codec_for("dice-race")


def envelopes(data: bytes) -> list:
    return [CODEC.decode(stored) for _, stored, _ in parse(data)]


def rechained(envs: list) -> bytes:
    """Re-seals edited events with a fresh, valid hash chain, as a careful forger would."""
    first = envs[0]
    sealed = seal(CODEC, first.match_id, 0, bytes(32), [e.event for e in envs], first.at)
    return dump(sealed)


def first_seq(envs: list, kind: type) -> int:
    return next(e.seq for e in envs if isinstance(e.event, kind))


def test_untouched_export_passes(small_export: bytes) -> None:
    report = audit_export(small_export)
    assert report.ok, report.line()
    assert report.ranks and sorted(report.ranks)[0] == 1


def test_every_changed_byte_fails_at_its_line(small_export: bytes) -> None:
    line_of = []
    for number, line in enumerate(small_export.split(b"\n")[:-1], start=1):
        line_of.extend([number] * (len(line) + 1))
    for position in range(len(small_export)):
        data = bytearray(small_export)
        data[position] = (data[position] + 1) % 256
        report = audit_export(bytes(data))
        assert not report.ok, f"byte {position} changed and the audit passed"
        assert report.failure is not None
        assert report.failure.seq == line_of[position], (position, report.failure)


def test_removed_event_fails(small_export: bytes) -> None:
    lines = small_export.split(b"\n")[:-1]
    for drop in range(len(lines)):
        data = b"".join(line + b"\n" for i, line in enumerate(lines) if i != drop)
        report = audit_export(data)
        assert not report.ok
        assert report.failure is not None and report.failure.seq == drop + 1


def test_reordered_pair_fails(small_export: bytes) -> None:
    entries = parse(small_export)
    for i in range(len(entries) - 1):
        swapped = list(entries)
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        report = audit(swapped)
        assert not report.ok and report.failure is not None
        assert report.failure.seq == i + 1


def test_rechained_changed_die_is_caught_by_the_dice_check(small_export: bytes) -> None:
    envs = envelopes(small_export)
    seq = first_seq(envs, DiceRolled)
    rolled = envs[seq - 1].event
    changed = [v % 6 + 1 for v in rolled.values]
    envs[seq - 1] = msgspec.structs.replace(
        envs[seq - 1], event=msgspec.structs.replace(rolled, values=changed)
    )
    report = audit_export(rechained(envs))
    assert report.failure is not None
    assert report.failure.seq == seq
    assert "seed" in report.failure.reason


def test_rechained_illegal_action_is_caught_by_the_legality_check(small_export: bytes) -> None:
    envs = envelopes(small_export)
    seq = first_seq(envs, ActionAccepted)
    accepted = envs[seq - 1].event
    envs[seq - 1] = msgspec.structs.replace(
        envs[seq - 1], event=msgspec.structs.replace(accepted, seat=1 - accepted.seat)
    )
    report = audit_export(rechained(envs))
    assert report.failure is not None
    assert report.failure.seq == seq
    assert "not_your_turn" in report.failure.reason


def test_rechained_changed_result_is_caught(small_export: bytes) -> None:
    envs = envelopes(small_export)
    seq = first_seq(envs, MatchEnded)
    ended = envs[seq - 1].event
    envs[seq - 1] = msgspec.structs.replace(
        envs[seq - 1], event=MatchEnded(ranks=list(reversed(ended.ranks)))
    )
    report = audit_export(rechained(envs))
    assert report.failure is not None
    assert report.failure.seq == seq


def test_rechained_untouched_log_still_passes(small_export: bytes) -> None:
    # The forger's tool itself is faithful: only the edits above are what the audit catches.
    assert audit_export(rechained(envelopes(small_export))).ok


@pytest.mark.parametrize("cut", [1, 2])
def test_truncated_log_fails_past_its_end(small_export: bytes, cut: int) -> None:
    entries = parse(small_export)[:-cut]
    report = audit(entries)
    assert report.failure is not None and report.failure.seq == len(entries) + 1
