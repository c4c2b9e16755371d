"""Tampering with an export: every kind of change is caught and the sequence is named."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest

from siege.contracts.envelope import digest, seal
from siege.contracts.events import (
    ActionAccepted,
    DiceRolled,
    Event,
    MatchCreated,
    MatchEnded,
)
from siege.hosting import signing
from siege.hosting.audit import audit, audit_export
from siege.hosting.export import dump, parse
from siege.hosting.match_state import codec_for
from siege.hosting.signing import Keyring, new_key, record_of

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
    for drop in range(len(lines) - 1):
        data = b"".join(line + b"\n" for i, line in enumerate(lines) if i != drop)
        report = audit_export(data)
        assert not report.ok
        assert report.failure is not None and report.failure.seq == drop + 1
    # Without its seal the log is complete but unsigned (siege audit refuses it by default).
    unsealed = audit_export(b"".join(line + b"\n" for line in lines[:-1]))
    assert unsealed.ok and unsealed.seal == "unsigned"


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


@pytest.mark.parametrize("cut", [2, 3])  # the seal and the reveal; the seal, reveal and end
def test_truncated_log_fails_past_its_end(small_export: bytes, cut: int) -> None:
    entries = parse(small_export)[:-cut]
    report = audit(entries)
    assert report.failure is not None and report.failure.seq == len(entries) + 1


# -- forgeries only the server's seal can catch -------------------------------------------------


def _swap_names(event: Event) -> Event:
    if isinstance(event, MatchCreated):
        return msgspec.structs.replace(event, seat_names=event.seat_names[::-1])
    return event


def _new_command_id(event: Event) -> Event:
    if isinstance(event, ActionAccepted):
        return msgspec.structs.replace(event, command_id=event.command_id + "x")
    return event


def _other_creator(event: Event) -> Event:
    if isinstance(event, MatchCreated):
        return msgspec.structs.replace(event, creator="forger", clients=["forger"] * event.players)
    return event


FORGERIES = {  # an edit to every event, and the time the forger stamps on every event
    "winner and loser swap names": (_swap_names, None),
    "another creator and seat holders": (_other_creator, None),
    "a changed command id": (_new_command_id, None),
    "timestamps zeroed": (lambda e: e, 0),
}


def forged(data: bytes, edit: Callable[[Event], Event], at: int | None) -> bytes:
    envs = envelopes(data)
    first = envs[0]
    events = [edit(e.event) for e in envs]
    return dump(seal(CODEC, first.match_id, 0, bytes(32), events,
                     first.at if at is None else at))


@pytest.mark.parametrize("name", FORGERIES)
def test_a_forgery_with_the_chain_recomputed_breaks_the_seal(
        small_export: bytes, small_keyring: Keyring, name: str) -> None:
    edit, at = FORGERIES[name]
    data = forged(small_export, edit, at)
    assert audit_export(data).ok  # every check but the seal's passes: only the seal can tell
    report = audit_export(data, small_keyring)
    assert report.failure is not None, name
    assert report.failure.seq == len(parse(data))  # at the seal
    assert "does not match the log" in report.failure.reason


def test_the_genuine_log_is_verified_by_the_published_key(
        small_export: bytes, small_keyring: Keyring) -> None:
    report = audit_export(small_export, small_keyring)
    assert report.ok and report.seal == "verified"
    assert report.sealed_by in small_keyring and "signed by" in report.line()


def test_a_forger_who_seals_with_a_key_of_their_own_is_caught(
        small_export: bytes, small_keyring: Keyring) -> None:
    envs = envelopes(small_export)
    head = envs[-2]  # the reveal, which the seal signs
    forger = new_key()
    resealed = [e.event for e in envs[:-1]] + [signing.seal(
        forger, head.match_id, head.seq, digest(parse(small_export)[-2][1]))]
    data = dump(seal(CODEC, head.match_id, 0, bytes(32), resealed, envs[0].at))
    report = audit_export(data, small_keyring)
    assert report.failure is not None and "not among the published keys" in report.failure.reason
    # With the forger's key among the keys given, the same log verifies: which keys to trust
    # is the auditor's choice (siege keys show), never the log's.
    theirs = {**small_keyring, **{r.key: r for r in [record_of(forger, 0)]}}
    assert audit_export(data, theirs).seal == "verified"


def test_a_retired_key_proves_what_it_sealed_before_its_retirement(
        small_export: bytes, small_keyring: Keyring) -> None:
    (old,) = small_keyring.values()
    successor = new_key()
    sealed_at = envelopes(small_export)[-1].at
    later = {old.key: signing.retire(old, successor, sealed_at + 1),
             **{r.key: r for r in [record_of(successor, sealed_at + 1)]}}
    assert audit_export(small_export, later).seal == "verified"
    earlier = {**later, old.key: signing.retire(old, successor, sealed_at - 1)}
    report = audit_export(small_export, earlier)
    assert report.failure is not None and "after its retirement" in report.failure.reason
    # A retirement the successor did not sign is not trusted at all.
    unsigned = {**later, old.key: msgspec.structs.replace(later[old.key], retirement="00" * 64)}
    report = audit_export(small_export, unsigned)
    assert report.failure is not None and "not signed by" in report.failure.reason
