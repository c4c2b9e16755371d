"""Archiving one match: the steps, in the order that loses nothing and duplicates nothing.

1. **Lease** the match (``{sN}:archiving:<id>``, SET NX with a TTL): two archivers never work on
   one match at once. A lease that outlives its archiver (killed) runs out by itself.
2. **Read** the log; go on only if it is complete (ended, seed revealed, sealed) and passes its
   audit. A log that fails its audit stays in Redis, as evidence, and is reported.
3. **Write** the archive under a name derived from the id. The bytes are a pure function of the
   log, so a second run after a kill writes the same object again: never a second one.
4. **Verify**: read the object back, check its sha256 and that it holds every entry.
5. **Drop the seats' prompt streams** (they live in the clients' slots, not the match's, so they
   go before the log: the log is what names them).
6. **Drop the log** with its seed, lobby and watch keys, writing the tombstone, in one script
   that first checks the log still ends where the archive does.
7. **Forget the result** in ``siege:results:by-match`` (another slot; the tombstone keeps the
   summary). An archiver killed before this finds the tombstone next time and finishes it.

Killed between any two steps, the next run starts again at step 1 and every step it repeats is
idempotent; ``checkpoint`` is called after each step (tests kill the archiver there).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import msgspec

from siege.archive import bundle
from siege.archive.bundle import Archive, ArchiveError
from siege.archive.stores import ArchiveStore
from siege.archive.tombstones import (
    ALREADY,
    DROPPED,
    Tombstone,
    drop_log,
    forget_result,
    read_tombstone,
)
from siege.contracts.events import MatchSealed
from siege.eventlog.keys import RESULTS_HASH, archiving_key, ratings_applied_key, view_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.bulk import tournament_verdict
from siege.hosting.export import Entry
from siege.hosting.loader import CORE_CODEC
from siege.hosting.signing import KeyRecord, Keyring
from siege.tournament.state import is_tournament
from siege.tournament.store import CODEC as TOURNAMENT_CODEC

STEPS = ("leased", "read", "written", "verified", "seats_dropped", "dropped", "forgotten")
"""The checkpoints, in order (see the module notes)."""

LEASE_MS = 60_000
"""How long a lease holds: far longer than archiving one match takes (milliseconds), short
enough that a killed archiver's matches are taken up again within a minute."""

_RELEASE_LUA = """
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0
"""

# What archive_match says of a match
ARCHIVED = "archived"  # written, verified, and gone from Redis now
FINISHED_OFF = "finished off"  # archived before; this run removed what a killed one left
GONE = "archived already"
LEASED = "leased"  # another archiver holds it now
UNFINISHED = "unfinished"  # not ended, revealed and sealed yet: stays
FAILED_AUDIT = "failed its audit"  # stays in Redis, as evidence
MISSING = "no such match"
MOVED = "moved on"  # the log grew while it was archived: tried again next time


@dataclass
class Outcome:
    match_id: str
    state: str
    detail: str = ""
    size: int = 0  # bytes of the archive
    raw: int = 0  # bytes of the stored entries it holds (what the log holds in Redis)

    @property
    def done(self) -> bool:
        return self.state in (ARCHIVED, FINISHED_OFF)


@dataclass
class Archiver:
    """What archiving needs: Redis (a plain client: scripts and SET NX), the live log (a plain
    :class:`RedisEventLog`, never one that reads archives: what it reads is what goes), the
    store, the published keys, who this archiver is (its lease's value) and the time."""

    redis: Any
    log: RedisEventLog
    store: ArchiveStore
    keyring: Callable[[], Any]  # async: the published keys now
    owner: str
    now_ms: Callable[[], int]
    checkpoint: Callable[[str, str], None] = lambda step, match_id: None
    lease_ms: int = LEASE_MS

    def __post_init__(self) -> None:
        if type(self.log) is not RedisEventLog:
            raise TypeError("an archiver reads the live logs: give it a plain RedisEventLog")

    async def archive(self, match_id: str) -> Outcome:
        if not await self.redis.set(archiving_key(match_id), self.owner, nx=True,
                                    px=self.lease_ms):
            return Outcome(match_id, LEASED)
        self.checkpoint("leased", match_id)
        try:
            outcome = await self._archive(match_id)
        except Exception:
            await self._release(match_id)
            raise
        # A BaseException (the process told to die, a test's kill) leaves the lease to run out,
        # as a real kill would.
        await self._release(match_id)
        return outcome

    async def _release(self, match_id: str) -> None:
        await self.redis.eval(_RELEASE_LUA, 1, archiving_key(match_id), self.owner)

    async def _archive(self, match_id: str) -> Outcome:
        entries = await self.log.read(match_id)
        if not entries:
            return await self._finish_off(match_id)
        self.checkpoint("read", match_id)
        kind = "tournament" if is_tournament(match_id) else "match"
        keyring: Keyring = await self.keyring()
        summary, problem = judge(match_id, kind, entries, keyring)
        if summary is None:
            return Outcome(match_id, UNFINISHED if problem is None else FAILED_AUDIT,
                           problem or "")
        if kind == "tournament" and not await self.redis.exists(ratings_applied_key(match_id)):
            # Scoring reads the finished stream once to apply its ratings: it goes after that.
            return Outcome(match_id, UNFINISHED, "its ratings are not applied yet")
        archive = bundle.make(match_id, kind, entries, seal_keys(summary.sealed_by, keyring))
        data = bundle.pack(archive)
        name = bundle.object_name(match_id, kind)
        sha = bundle.digest(data)
        await self.store.put(name, data)  # a second run puts the same bytes under the name
        self.checkpoint("written", match_id)
        check_copy(await self.store.get(name), sha, name, entries)
        self.checkpoint("verified", match_id)
        if kind == "match":
            await self._drop_seats(summary.clients, match_id)
        self.checkpoint("seats_dropped", match_id)
        recorded = await self.redis.hget(RESULTS_HASH, match_id) if kind == "match" else None
        tombstone = Tombstone(
            store=self.store.url, sha256=bytes.fromhex(sha), size=len(data),
            events=len(entries), head=entries[-1][2], kind=kind, archived_ms=self.now_ms(),
            game=summary.game, result=bytes(recorded or b""))
        dropped = await drop_log(self.redis, match_id, len(entries), tombstone)
        if dropped not in (DROPPED, ALREADY):
            return Outcome(match_id, MOVED, "the log grew while it was archived")
        self.checkpoint("dropped", match_id)
        await forget_result(self.redis, match_id)
        self.checkpoint("forgotten", match_id)
        return Outcome(match_id, ARCHIVED, self.store.where(name), len(data),
                       sum(len(e) for e in archive.events))

    async def _finish_off(self, match_id: str) -> Outcome:
        """No log: archived before (its leftovers removed now), or never there."""
        if await read_tombstone(self.redis, match_id) is None:
            return Outcome(match_id, MISSING)
        left = await forget_result(self.redis, match_id)
        return Outcome(match_id, FINISHED_OFF if left else GONE)

    async def _drop_seats(self, clients: list[str], match_id: str) -> None:
        keys = [view_key(client, match_id, seat) for seat, client in enumerate(clients)
                if client]
        # One key a command: on a cluster the clients' streams sit in their own slots.
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.delete(key)
            await pipe.execute()

    async def archive_all(self, match_ids: Iterable[str], at_once: int = 8,
                          each: Callable[[Outcome], None] = lambda outcome: None
                          ) -> list[Outcome]:
        """Archives each match, ``at_once`` at a time; ``each`` hears every outcome."""
        gate = asyncio.Semaphore(at_once)

        async def one(match_id: str) -> Outcome:
            async with gate:
                outcome = await self.archive(match_id)
            each(outcome)
            return outcome

        return list(await asyncio.gather(*(one(m) for m in match_ids)))


@dataclass
class Summary:
    game: str
    clients: list[str]
    sealed_by: str


def sealed_at(match_id: str, stored: bytes) -> int | None:
    """When a log's last entry was written, if it is the seal that closes the log (the dice
    service seals a match after its end and the seed's reveal, a tournament after its end)."""
    codec = TOURNAMENT_CODEC if is_tournament(match_id) else CORE_CODEC
    try:
        envelope = codec.decode(stored)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None  # a game's own event: the core codec does not know it, and it is no seal
    return envelope.at if isinstance(envelope.event, MatchSealed) else None


def judge(match_id: str, kind: str, entries: list[Entry],
          keyring: Keyring) -> tuple[Summary | None, str | None]:
    """(the summary, None) for a log ready to archive; (None, None) for one not complete yet
    (not sealed); (None, why) for one that fails its audit."""
    if sealed_at(match_id, entries[-1][1]) is None:
        return None, None
    if kind == "tournament":
        verdict = tournament_verdict(match_id, entries, keyring, allow_unsigned=False)
        if not verdict.ok:
            return None, verdict.reason
        created = TOURNAMENT_CODEC.decode(entries[0][1]).event
        return Summary(getattr(created, "game", ""), [], verdict.sealed_by), None
    report = audit(entries, keyring)
    if not report.ok:
        return None, report.line()
    if report.seal != "verified":
        return None, f"its seal is {report.seal} by the published keys"
    created = CORE_CODEC.decode(entries[0][1]).event  # a MatchCreated: the audit checked it
    return Summary(report.game, list(getattr(created, "clients", [])), report.sealed_by), None


def seal_keys(sealed_by: str, keyring: Keyring) -> list[KeyRecord]:
    """The published records an auditor of this log needs: the key of its seal, and each key
    that retired it (whose signature over the retirement the audit checks)."""
    wanted: list[KeyRecord] = []
    key = sealed_by
    while key and key in keyring and all(k.key != key for k in wanted):
        wanted.append(keyring[key])
        key = keyring[key].retired_by
    return wanted


def check_copy(data: bytes | None, sha: str, name: str, entries: list[Entry]) -> Archive:
    """The archive read back is the one written and holds the whole log; ArchiveError if not."""
    if data is None:
        raise ArchiveError(f"{name}: the store does not have what was just written")
    archive = bundle.unpack(data, sha, name)
    if archive.entries() != entries:
        raise ArchiveError(f"{name}: the archive does not hold the log it was made from")
    return archive
