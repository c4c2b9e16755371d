"""The audit names the right sequence: a changed action at the action, a changed reveal at the
reveal, a time that runs backwards where it does, and a seat timed out before its deadline at
its SeatTimedOut (each with the chain recomputed, as a careful forger would)."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from siege.contracts.envelope import seal
from siege.contracts.events import ActionAccepted, SeatTimedOut, SeedRevealed
from siege.eventlog.log import MemoryEventLog
from siege.hosting.audit import AuditReport, audit_export
from siege.hosting.export import dump, parse
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState, codec_for
from siegeworks.runner import RunConfig, play_matches

GAME = "castle-dash"
CODEC = codec_for(GAME)
START_MS = 1_790_000_000_000


@pytest.fixture(scope="module")
def export() -> bytes:
    async def play() -> bytes:
        log = MemoryEventLog()
        cfg = RunConfig(game=GAME, matches=1, players=3, bots=["random"], seed=9,
                        fixed_clock_ms=START_MS, options={"decision_timeout_ms": "5000"})
        result = await play_matches(cfg, log)
        return dump(await log.read(result.match_ids[0]))

    return asyncio.run(play())


def envelopes(data: bytes) -> list:
    return [CODEC.decode(stored) for _, stored, _ in parse(data)]


def rechained(envs: list) -> bytes:
    """The envelopes' events and times, chained afresh."""
    out = []
    for env in envs:
        (entry,) = seal(CODEC, env.match_id, len(out), out[-1][2] if out else bytes(32),
                        [env.event], env.at)
        out.append(entry)
    return dump(out)


def failed_at(data: bytes) -> tuple[int, str]:
    report: AuditReport = audit_export(data)
    assert report.failure is not None, report.line()
    return report.failure.seq, report.failure.reason


def test_another_legal_action_is_reported_at_the_action(export: bytes) -> None:
    entries = parse(export)
    envs = envelopes(export)
    for index, env in enumerate(envs):
        if not isinstance(env.event, ActionAccepted):
            continue
        ms = MatchState(env.match_id)
        decode_entries(ms, entries[:index])
        assert ms.engine is not None
        taken = msgspec.msgpack.decode(bytes(env.event.action))
        others = [a for a in ms.engine.legal_actions(ms.game, env.event.seat)
                  if msgspec.to_builtins(a) != taken]
        if others:
            break
    else:
        pytest.fail("no decision with a choice")
    changed = msgspec.structs.replace(env.event, action=msgspec.Raw(
        msgspec.msgpack.encode(others[0])))
    envs[index] = msgspec.structs.replace(env, event=changed)
    seq, reason = failed_at(rechained(envs))
    assert seq == env.seq and "does not produce" in reason


def test_a_changed_reveal_is_reported_at_the_reveal(export: bytes) -> None:
    envs = envelopes(export)
    index = next(i for i, e in enumerate(envs) if isinstance(e.event, SeedRevealed))
    envs[index] = msgspec.structs.replace(envs[index], event=SeedRevealed(seed="00" * 32))
    seq, reason = failed_at(rechained(envs))
    assert seq == envs[index].seq and "commitment" in reason


def test_a_time_that_runs_backwards_is_reported_where_it_does(export: bytes) -> None:
    envs = [msgspec.structs.replace(e, at=START_MS + 10 * e.seq) for e in envelopes(export)]
    assert audit_export(rechained(envs)).ok  # times that only go forward pass
    envs[20] = msgspec.structs.replace(envs[20], at=START_MS)
    seq, reason = failed_at(rechained(envs))
    assert seq == envs[20].seq and "backwards" in reason


def test_a_seat_timed_out_before_its_deadline_is_reported_at_the_timeout(
        export: bytes) -> None:
    envs = envelopes(export)
    index = next(i for i, e in enumerate(envs)
                 if isinstance(e.event, ActionAccepted) and e.seq > 10)
    action = envs[index].event
    # The seat is said to have let its clock run out at once (its 5 s not yet gone).
    early = msgspec.structs.replace(envs[index], event=SeatTimedOut(
        seat=action.seat, decision=action.decision))
    seq, reason = failed_at(rechained([*envs[:index], early]))
    assert seq == early.seq and "before its deadline" in reason
    # The same timeout stamped once the 5 s have passed is a fair one.
    late = msgspec.structs.replace(early, at=early.at + 5000)
    fair_seq, fair_reason = failed_at(rechained([*envs[:index], late]))
    assert fair_seq > late.seq, fair_reason  # the log then only ends too soon
