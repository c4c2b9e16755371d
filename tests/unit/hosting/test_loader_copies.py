"""A pointer's copy of the entry it points at: folded by a cache that ends right before it, in
place of a log read, and ignored in every other case (the log stays the truth)."""

from __future__ import annotations

import asyncio

import msgspec

from siege.contracts.events import (
    ActionAccepted,
    ChanceRequested,
    Event,
    MatchCreated,
    PlayerSeedAdded,
    SeedCommitted,
)
from siege.dice import fair
from siege.eventlog.log import MemoryEventLog
from siege.hosting.chance import owed_by_dice
from siege.hosting.clock import FixedClock
from siege.hosting.loader import MatchLoader, chance_guard
from siege.hosting.match_state import MatchState

CREATED = MatchCreated(game="castle-dash", players=4, seat_names=["a", "b", "c", "d"])


class CountingLog(MemoryEventLog):
    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def read(self, match_id: str, after_seq: int = 0) -> list[tuple[int, bytes, bytes]]:
        self.reads += 1
        return await super().read(match_id, after_seq)


def same(a: MatchState, b: MatchState) -> bool:
    return (a.head_seq, a.head_hash, a.head_at, a.commitment, a.game) == (
        b.head_seq, b.head_hash, b.head_at, b.commitment, b.game)


def test_a_copy_right_after_the_cache_is_folded_without_a_read() -> None:
    async def scenario() -> None:
        log = CountingLog()
        writer, reader = MatchLoader(log, FixedClock(5)), MatchLoader(log, FixedClock(5))
        ms = await writer.load("m")
        assert await writer.append(ms, [CREATED])
        await reader.load("m")
        assert await writer.append(ms, [SeedCommitted(commitment="ab" * 32)])
        (seq, stored, digest), = await log.read("m", after_seq=1)

        reads = log.reads
        assert reader.offer("m", seq, stored, digest)
        cached = await reader.append_owed("m", lambda s: None, min_seq=seq)
        assert log.reads == reads  # the pointer's copy was enough: no read of the log
        assert same(cached[0], await MatchLoader(log, FixedClock(5)).load("m"))
        assert cached[0].commitment == "ab" * 32
        assert not reader.offer("m", seq, stored, digest)  # once folded, a repeat changes nothing

    asyncio.run(scenario())


def test_copies_that_do_not_follow_the_cache_are_ignored() -> None:
    async def scenario() -> None:
        log = MemoryEventLog()
        writer, reader = MatchLoader(log, FixedClock(5)), MatchLoader(log, FixedClock(5))
        assert not reader.offer("m", 1, b"", b"")  # nothing cached: nothing to fold onto
        ms = await writer.load("m")
        assert await writer.append(ms, [CREATED])
        await reader.load("m")
        assert await writer.append(ms, [SeedCommitted(commitment="ab" * 32)])
        assert await writer.append(ms, [SeedCommitted(commitment="cd" * 32)])
        (_, second, h2), (seq3, third, h3) = await log.read("m", after_seq=1)

        assert not reader.offer("m", seq3, third, h3)  # two behind: the log must be read
        # A copy that says it follows the cached head but chains onto another entry (a cache
        # of a log that went back and grew again) is not folded either.
        rms = await reader.append_owed("m", lambda s: None, min_seq=1)
        real_hash, rms[0].head_hash = rms[0].head_hash, bytes(32)
        assert not reader.offer("m", 2, second, h2)
        assert rms[0].head_seq == 1 and rms[0].commitment is None
        rms[0].head_hash = real_hash
        assert reader.offer("m", 2, second, h2) and rms[0].commitment == "ab" * 32
        assert (await reader.load("m")).head_seq == 3  # the reader catches up from the log

    asyncio.run(scenario())


def test_a_copy_on_a_client_stream_is_never_trusted() -> None:
    """Pointer-shaped fields on a client's own commands stream are that client's words: the
    services route the bare pointer and offer no copy to their cache."""
    from siege.contracts.messages import LogAppended
    from siegeworks.serve import CarriedPointer, decode_entry, trusted_copy

    fields = {b"m": b"m", b"f": b"2", b"l": b"2", b"e": b"forged", b"h": bytes(32)}
    carried = decode_entry(fields)
    assert isinstance(carried, CarriedPointer) and carried.stored == b"forged"
    copy, message = trusted_copy("mallory", carried)
    assert copy is None and message == LogAppended(match_id="m", first=2, last=2)
    copy, message = trusted_copy(None, carried)  # the shard bus: the script wrote it
    assert copy is carried and message == carried.note
    several = decode_entry({b"m": b"m", b"f": b"2", b"l": b"3", b"e": b"x", b"h": bytes(32),
                            b"g": b"0:0"})
    assert isinstance(several, CarriedPointer)  # a copy of the append's last entry
    assert (several.note.last, several.guard) == (3, b"0:0")
    copy, message = trusted_copy("mallory", several)
    assert copy is None and message == LogAppended(match_id="m", first=2, last=3)


def test_a_copy_the_cache_cannot_decode_is_ignored() -> None:
    """A tournament's entry (events no match codec knows) offered to a loader that has the
    tournament's id cached: ignored, never an error (the pointer's handler would fail, and the
    tournament stall, for a read it could simply make)."""
    from siege.contracts.envelope import EventCodec, seal
    from siege.tournament.events import EntrantRegistered

    async def scenario() -> None:
        loader = MatchLoader(MemoryEventLog(), FixedClock(5))
        ms = await loader.load("t-cup")
        assert ms.head_seq == 0
        codec = EventCodec([EntrantRegistered])
        event = EntrantRegistered(entrant="alice", bot="random")
        (seq, stored, digest), = seal(codec, "t-cup", 0, ms.head_hash, [event], 5)
        assert not loader.offer("t-cup", seq, stored, digest)
        assert ms.head_seq == 0

    asyncio.run(scenario())


REQUEST = ChanceRequested(kind="dice", sides=6, count=2, purpose="cannonballs")
SEED = b"s" * 32


async def _dice_behind_a_request(
        before: list[Event]) -> tuple[CountingLog, MatchLoader, MatchState,
                                      tuple[int, bytes, bytes]]:
    """A log with a committed seed, then ``before`` and a chance request; a light (dice) cache
    that stopped at the commitment. Returns the log, the cache's loader, the writer's state
    and the request's stored entry."""
    log = CountingLog()
    writer, dice = MatchLoader(log, FixedClock(5)), MatchLoader(log, FixedClock(5), light=True)
    ms = await writer.load("m")
    assert await writer.append(ms, [CREATED, SeedCommitted(commitment=fair.commitment(SEED))])
    await dice.load("m")
    for event in [*before, REQUEST]:
        assert await writer.append(ms, [event])
    request = (await log.read("m"))[-1]
    return log, dice, ms, request


def test_the_dice_cache_answers_a_request_from_its_copy_without_a_read() -> None:
    async def scenario() -> None:
        acted = ActionAccepted(seat=0, decision=1, command_id="c1", action=msgspec.Raw(b"\xc0"))
        log, dice, writer_ms, (seq, stored, digest) = await _dice_behind_a_request([acted])
        guard = chance_guard(writer_ms)

        reads = log.reads
        assert dice.jump("m", seq, stored, digest, guard)
        jumped = await dice.load("m", min_seq=seq)
        assert log.reads == reads  # the skipped action was never read
        fresh = await MatchLoader(log, FixedClock(5), light=True).load("m")
        # The answer made from the copy is the one a full read would have made.
        assert owed_by_dice(jumped, SEED) == owed_by_dice(fresh, SEED) is not None
        assert (jumped.head_seq, jumped.head_hash, jumped.head_at) == (
            fresh.head_seq, fresh.head_hash, fresh.head_at)
        assert not dice.jump("m", seq, stored, digest, guard)  # taken once

    asyncio.run(scenario())


def test_a_copy_is_not_jumped_to_unless_the_guard_and_the_cache_allow_it() -> None:
    async def scenario() -> None:
        acted = ActionAccepted(seat=0, decision=1, command_id="c1", action=msgspec.Raw(b"\xc0"))
        added = PlayerSeedAdded(seat=1, seed="ab")
        log, dice, writer_ms, (seq, stored, digest) = await _dice_behind_a_request(
            [acted, added])
        guard = chance_guard(writer_ms)
        assert guard == b"0:1"  # the writer folded a player seed the dice cache never saw
        assert not dice.jump("m", seq, stored, digest, guard)
        assert not dice.jump("other", seq, stored, digest, b"0:0")  # nothing cached
        full = MatchLoader(log, FixedClock(5))
        await full.load("m")
        full.forget("m")
        await full.load("m")  # a full cache never skips (it folds the game)
        assert not full.jump("m", seq, stored, digest, guard)
        (_, not_a_request, h), = [e for e in await log.read("m") if e[0] == seq - 1]
        # A guard that matches on a copy that is no chance request changes nothing either.
        assert not dice.jump("m", seq - 1, not_a_request, h, b"0:0")
        assert (await dice.load("m")).player_seeds == [b"\xab"]  # the log read as ever

    asyncio.run(scenario())
