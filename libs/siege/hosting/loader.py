"""Loads a match's folded state from its log, keeping a cache so each call reads only new entries.

The cache is only an optimisation: after a lost compare-and-set the entry is dropped and the
next load re-reads from the log, which stays the truth.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from siege.contracts.envelope import EventCodec, seal
from siege.contracts.events import ChanceRequested, Event
from siege.eventlog.keys import NO_POINTER
from siege.eventlog.log import AppendConflict, EventLog
from siege.hosting.audience import next_owner
from siege.hosting.clock import Clock
from siege.hosting.match_state import MatchState, fold

CORE_CODEC = EventCodec()
FollowUp = Callable[[MatchState], Event | None]
"""What a state owes right after an append (the rules' chance request or end), if anything."""


def decode_entries(ms: MatchState, entries: Sequence[tuple[int, bytes, bytes]]) -> None:
    """Decodes and folds stored entries into ``ms`` (entries must follow its head)."""
    for seq, stored, digest in entries:
        codec = ms.codec or CORE_CODEC
        envelope = codec.decode(stored)
        fold(ms, seq, digest, envelope.event)
        ms.head_at = envelope.at


def chance_guard(ms: MatchState) -> bytes:
    """What a light state must have folded to answer the next chance request: the index of
    the next roll and how many player seeds were added (``b"<next roll>:<seeds>"``)."""
    return b"%d:%d" % (ms.next_roll, len(ms.player_seeds))


MAX_CACHED = 20_000
"""Match states a loader keeps at most (about 12-16 kB each): past it the least recently used
goes, and comes back from its log if it is ever needed again. Finished matches are the ones
that go, so a long-running service's memory stays bounded."""


class MatchLoader:
    def __init__(self, log: EventLog, clock: Clock, light: bool = False,
                 writer: str | None = None, max_cached: int = MAX_CACHED) -> None:
        self.log = log
        # The service appending through this loader: an append whose next owner is the writer
        # itself leaves no pointer, since the writer goes on at once (and a redelivery of what
        # it handled would make it go on again).
        self.writer = writer
        self.clock = clock
        self.light = light
        # In order of use, oldest first (a dict keeps insertion order; _get moves to the end).
        self._cache: dict[str, MatchState] = {}
        self.max_cached = max_cached
        # Told (match id, the head this process had seen, the head the log has) when a log
        # holds fewer events than were seen in it: the store went back in time.
        self.on_rewind: Callable[[str, int, int], None] = lambda match_id, seen, now: None

    async def load(self, match_id: str, verify: bool = False,
                   min_seq: int | None = None) -> MatchState:
        """The match as its log has it now. With ``verify``, a cache that found nothing new is
        checked against the log's head (one read more), since a log that went back in time
        looks just like one with nothing new. With ``min_seq`` (a pointer's last seq), a cache
        that has reached it is taken as it is: the compare-and-set of any append catches it
        being stale."""
        ms = self._get(match_id)
        if ms is not None and min_seq is not None and ms.head_seq >= min_seq:
            return ms
        if ms is None:
            ms = self._cache[match_id] = MatchState(match_id, light=self.light)
            while len(self._cache) > self.max_cached:
                del self._cache[next(iter(self._cache))]
        entries = await self.log.read(match_id, after_seq=ms.head_seq)
        if not entries and verify and ms.head_seq > 0:
            head_seq, _ = await self.log.head(match_id)
            if head_seq < ms.head_seq:
                self.forget(match_id)
                self.on_rewind(match_id, ms.head_seq, head_seq)
                return await self.load(match_id)
        decode_entries(ms, entries)
        return ms

    def offer(self, match_id: str, seq: int, stored: bytes, digest: bytes) -> bool:
        """A copy of entry ``seq`` of the log, as an append pointer carried it: folded when the
        cache stops right before it and the copy chains onto the cached head (a log read
        saved); otherwise ignored, and the next load reads the log as ever. True if folded."""
        ms = self._get(match_id)
        if ms is None or ms.head_seq != seq - 1:
            return False
        try:
            envelope = (ms.codec or CORE_CODEC).decode(stored)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return False  # not a match's entry (a tournament's): the log is read as ever
        if envelope.seq != seq or envelope.prev != ms.head_hash or envelope.match_id != match_id:
            return False
        fold(ms, seq, digest, envelope.event)
        ms.head_at = envelope.at
        return True

    def jump(self, match_id: str, seq: int, stored: bytes, digest: bytes, guard: bytes) -> bool:
        """A light cache (the dice service's) takes entry ``seq``, a chance request, from a
        pointer's copy without reading the entries before it, when ``guard`` (the writer's
        :func:`chance_guard` after the request) says it has folded all that a light state
        keeps from them: every answer so far and every player seed. A light state keeps
        nothing else of the entries it skips (game events, accepted actions), and an end
        would have come before any request. True if taken; otherwise the log is read as ever.

        The copy's chain link to the skipped entries cannot be checked here; the answer's
        compare-and-set on ``(seq, digest)`` is what ties it to the log."""
        ms = self._get(match_id)
        if ms is not None and ms.head_seq == seq - 1:
            return self.offer(match_id, seq, stored, digest)  # no skip: the link is checked
        if (ms is None or not ms.light or ms.created is None or ms.commitment is None
                or ms.ended is not None or ms.open_request is not None or ms.head_seq >= seq
                or guard != chance_guard(ms)):
            return False
        try:
            envelope = (ms.codec or CORE_CODEC).decode(stored)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return False
        if (envelope.seq != seq or envelope.match_id != match_id
                or not isinstance(envelope.event, ChanceRequested)):
            return False
        fold(ms, seq, digest, envelope.event)
        ms.head_at = envelope.at
        return True

    def _get(self, match_id: str) -> MatchState | None:
        """The cached state, now the most recently used."""
        ms = self._cache.pop(match_id, None)
        if ms is not None:
            self._cache[match_id] = ms
        return ms

    def cached(self) -> list[MatchState]:
        """The states held now (for counting, as the metrics do; not for changing)."""
        return list(self._cache.values())

    def forget(self, match_id: str) -> None:
        self._cache.pop(match_id, None)

    def forget_all(self) -> None:
        self._cache.clear()

    async def append(
        self, ms: MatchState, events: Sequence[Event], side: tuple[str, bytes] | None = None,
        follow_up: FollowUp | None = None,
    ) -> bool:
        """Appends after the cached head; folds on success, forgets the cache on a conflict.

        With ``follow_up``, the events are folded first and the one event the new state owes
        (if any) goes in the same append: one script call instead of two. The fold then comes
        before the write, so a lost compare-and-set or a failed call forgets the state it
        touched, and the next load re-reads the log.
        """
        codec = ms.codec or CORE_CODEC
        at = max(self.clock.now_ms(), ms.head_at)  # never before the entry it follows
        head_seq, head_hash = ms.head_seq, ms.head_hash
        sealed = seal(codec, ms.match_id, head_seq, head_hash, events, at)
        written = list(events)
        if follow_up is not None:
            try:
                for (seq, _, digest), event in zip(sealed, events, strict=True):
                    fold(ms, seq, digest, event)
                more = follow_up(ms)
                if more is not None:
                    (seq, stored, digest), = seal(codec, ms.match_id, ms.head_seq, ms.head_hash,
                                                  [more], at)
                    fold(ms, seq, digest, more)
                    sealed.append((seq, stored, digest))
                    written.append(more)
            except BaseException:
                self.forget(ms.match_id)
                raise
        # A chance request folded into the state goes with the guard the dice service needs
        # to answer it from the pointer alone (see jump).
        guard = (chance_guard(ms) if follow_up is not None
                 and isinstance(written[-1], ChanceRequested) else None)
        try:
            result = await self.log.append(
                ms.match_id, head_seq, head_hash, [(s, h) for _, s, h in sealed], side,
                audience=self._audience(written[-1]), guard=guard,
            )
        except BaseException:
            if follow_up is not None:
                self.forget(ms.match_id)
            raise
        if isinstance(result, AppendConflict):
            self.forget(ms.match_id)
            if result.head_seq < head_seq:
                self.on_rewind(ms.match_id, head_seq, result.head_seq)
            return False
        if follow_up is None:
            for (seq, _, digest), event in zip(sealed, events, strict=True):
                fold(ms, seq, digest, event)
        ms.head_at = at
        return True

    def _audience(self, last: Event) -> str:
        owner = next_owner(last)
        return NO_POINTER if owner == self.writer else owner

    async def append_owed(
        self,
        match_id: str,
        owe: Callable[[MatchState], Sequence[Event] | None],
        side: Callable[[MatchState], tuple[str, bytes] | None] = lambda ms: None,
        attempts: int = 8,
        *,
        min_seq: int | None = None,
        optimistic: bool = False,
        follow_up: FollowUp | None = None,
    ) -> tuple[MatchState, bool]:
        """Appends what ``owe`` derives from the current log, re-deriving after a lost race.

        Returns the state and whether this call appended. Another writer reaching the head
        first is the normal case under at-least-once delivery, not an error.

        Reads are skipped where the cache is known to be enough, since the compare-and-set
        catches a stale cache anyway: with ``min_seq`` (a pointer's last seq) when the cache
        has reached it; with ``optimistic`` on the first try, re-reading only if the cached
        state owes nothing (a command refused on a stale view of the match).
        """
        for attempt in range(attempts):
            cached = self._get(match_id)
            trusted = (
                attempt == 0 and cached is not None
                and (optimistic or (min_seq is not None and cached.head_seq >= min_seq))
            )
            # A second look after the trusted cache owed nothing checks the head as well: a
            # command refused on a cache that is ahead of its log would be refused for ever.
            ms = cached if trusted and cached is not None else await self.load(
                match_id, verify=attempt > 0)
            events = owe(ms)
            if not events:
                if trusted and optimistic:
                    continue  # ask again on a fresh read before saying no
                return ms, False
            if await self.append(ms, events, side(ms), follow_up):
                return ms, True
        raise AppendContentionError(f"{match_id}: head kept moving over {attempts} attempts")


class AppendContentionError(RuntimeError):
    pass
