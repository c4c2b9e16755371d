"""A match an operator marks damaged (``MatchDamaged``): the fold ends it with no ranks, every
service guard stops there, the dice owe only the reveal (even over an open chance request), the
audit passes it as damaged and fails anything forged after it, and scoring records it so."""

from __future__ import annotations

import msgspec

from siege.contracts.envelope import seal
from siege.contracts.events import (
    ChanceRequested,
    DiceRolled,
    MatchCreated,
    MatchDamaged,
    MatchEnded,
    SeedRevealed,
)
from siege.contracts.rejections import RejectionCode
from siege.hosting.audit import audit
from siege.hosting.chance import owed_by_dice
from siege.hosting.clocks import check_timeout
from siege.hosting.export import dump, parse
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState, codec_for
from siege.hosting.rules import check_turn, expected_follow_up
from siegeworks.scoring.handlers import result_of

CODEC = codec_for("dice-race")
REASON = "chance request never answered"


def envelopes(data: bytes) -> list:
    return [CODEC.decode(stored) for _, stored, _ in parse(data)]


def sealed(envs: list, events: list) -> list:
    first = envs[0]
    return parse(dump(seal(CODEC, first.match_id, 0, bytes(32), events, first.at)))


def seed_of(envs: list) -> str:
    return next(e.event.seed for e in envs if isinstance(e.event, SeedRevealed))


def stuck_prefix(envs: list) -> list:
    """The events up to (and with) the second chance request, which is never answered."""
    requests = [i for i, e in enumerate(envs) if isinstance(e.event, ChanceRequested)]
    return [e.event for e in envs[:requests[1] + 1]]


def damaged_log(small_export: bytes, after: list | None = None) -> list:
    envs = envelopes(small_export)
    events = [*stuck_prefix(envs), MatchDamaged(reason=REASON), *(after or []),
              SeedRevealed(seed=seed_of(envs))]
    return sealed(envs, events)


def folded(entries: list) -> MatchState:
    ms = MatchState(CODEC.decode(entries[0][1]).match_id)
    decode_entries(ms, entries)
    return ms


def test_folding_a_damage_ends_the_match_with_no_ranks(small_export: bytes) -> None:
    entries = damaged_log(small_export)[:-1]  # before the reveal
    ms = folded(entries)
    assert ms.damaged == MatchDamaged(reason=REASON)
    assert ms.ended is not None and ms.ended.reason == "damaged" and ms.ended.ranks == []
    assert ms.open_request is not None  # the stuck request stays visible in the state
    pending = ms.engine.pending(ms.game)  # type: ignore[union-attr]
    for seat in range(2):
        refused = check_turn(ms, seat, pending.decision)
        assert refused is not None and refused.code == RejectionCode.MATCH_OVER
        assert not check_timeout(ms, seat, pending.decision)
    assert expected_follow_up(ms) is None  # the rules owe nothing: no prompt, no end


def test_the_dice_owe_only_the_reveal_after_a_damage(small_export: bytes) -> None:
    envs = envelopes(small_export)
    ms = folded(damaged_log(small_export)[:-1])
    owed = owed_by_dice(ms, bytes.fromhex(seed_of(envs)))
    assert owed == SeedRevealed(seed=seed_of(envs))  # not the open request's answer


def test_a_damaged_log_passes_the_audit_as_damaged(small_export: bytes) -> None:
    report = audit(damaged_log(small_export))
    assert report.ok, report.line()
    assert report.damaged == REASON and report.ranks == []
    assert report.state == f"damaged: {REASON}"
    assert f"OK, damaged: {REASON}" in report.line() and ", result)" not in report.line()
    finished = audit(parse(small_export))
    assert finished.ok and finished.damaged is None and finished.state == "finished"


def test_an_event_forged_after_the_damage_fails_at_its_seq(small_export: bytes) -> None:
    envs = envelopes(small_export)
    prefix = stuck_prefix(envs)
    answer = next(e.event for e in envs[len(prefix):] if isinstance(e.event, DiceRolled))
    for forged in (answer, MatchEnded(ranks=[1, 2]), MatchDamaged(reason="again")):
        report = audit(damaged_log(small_export, after=[forged]))
        assert not report.ok and report.failure is not None
        assert report.failure.seq == len(prefix) + 2, report.line()
        assert "after MatchDamaged" in report.failure.reason


def test_a_damage_before_the_seed_commitment_fails_the_audit(small_export: bytes) -> None:
    envs = envelopes(small_export)
    assert isinstance(envs[0].event, MatchCreated)
    report = audit(sealed(envs, [envs[0].event, MatchDamaged(reason=REASON)]))
    assert not report.ok and report.failure is not None and report.failure.seq == 2


def test_a_log_cut_after_the_damage_fails_for_the_missing_reveal(small_export: bytes) -> None:
    report = audit(damaged_log(small_export)[:-1])
    assert not report.ok and report.failure is not None
    assert "SeedRevealed" in report.failure.reason


def test_scoring_records_how_the_match_ended(small_export: bytes) -> None:
    damaged = result_of(folded(damaged_log(small_export)))
    assert damaged is not None and damaged.reason == "damaged" and damaged.ranks == []
    finished = result_of(folded(parse(small_export)))
    assert finished is not None and finished.reason == "finished" and finished.ranks
    ms = folded(parse(small_export))
    assert ms.ended is not None
    ms.ended = msgspec.structs.replace(ms.ended, reason="forfeit")  # as the rules end a timeout
    forfeit = result_of(ms)
    assert forfeit is not None and forfeit.reason == "forfeit"
