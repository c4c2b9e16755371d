"""A pointer's copy of the entry it points at: folded by a cache that ends right before it, in
place of a log read, and ignored in every other case (the log stays the truth)."""

from __future__ import annotations

import asyncio

from siege.contracts.events import MatchCreated, SeedCommitted
from siege.eventlog.log import MemoryEventLog
from siege.hosting.clock import FixedClock
from siege.hosting.loader import MatchLoader
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
    several = decode_entry({b"m": b"m", b"f": b"2", b"l": b"3", b"e": b"x", b"h": bytes(32)})
    assert isinstance(several, LogAppended)  # a copy is of exactly one entry


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
