"""Reading archived matches as if they were live.

:class:`ArchivingLog` is the match log of every reader (``siege audit``, ``replay``, ``export``,
``matches``, ``standings``, the web pages): a log Redis still holds is read from Redis; one that
was archived is fetched from where its tombstone says, checked against the tombstone's sha256,
and read from the archive. A match with neither a log nor a tombstone is looked for in the
store under the name its id gives (a Redis that was lost or flushed), and with ``everything``
the store's listing adds to :meth:`ArchivingLog.match_ids`: the store alone is enough to
rebuild lists, standings and ratings.

The services never read through it: their matches are live by definition.
"""

from __future__ import annotations

from typing import Any

from siege.archive import bundle
from siege.archive.bundle import Archive
from siege.archive.stores import ArchiveStore, open_store
from siege.archive.tombstones import Tombstone, name_of, read_tombstone
from siege.eventlog.log import RedisEventLog
from siege.hosting.export import Entry
from siege.tournament.state import is_tournament


class ArchivingLog(RedisEventLog):
    def __init__(self, redis: Any, store: ArchiveStore, *, everything: bool = False,
                 **options: Any) -> None:
        super().__init__(redis, **options)
        self.store = store
        self.everything = everything
        self._stores: dict[str, ArchiveStore] = {store.url: store}
        self._archives: dict[str, Archive | None] = {}

    def _store(self, url: str) -> ArchiveStore:
        if url not in self._stores:
            self._stores[url] = open_store(url)
        return self._stores[url]

    async def archive(self, match_id: str) -> Archive | None:
        """The match's archive, if it was archived (ArchiveError if it is there but is not
        what its tombstone recorded); None for a match never archived."""
        if match_id in self._archives:
            return self._archives[match_id]
        tombstone = await read_tombstone(self.redis, match_id)
        found: Archive | None = None
        if tombstone is not None:
            found = await self._fetch(match_id, tombstone)
        else:  # no tombstone: a Redis that lost it (flushed, rebuilt) may still have an archive
            kind = "tournament" if is_tournament(match_id) else "match"
            name = bundle.object_name(match_id, kind)
            data = await self.store.get(name)
            found = None if data is None else bundle.unpack(data, None, self.store.where(name))
        self._archives[match_id] = found
        return found

    async def _fetch(self, match_id: str, tombstone: Tombstone) -> Archive:
        store = self._store(tombstone.store)
        name = name_of(match_id, tombstone)
        where = store.where(name)
        data = await store.get(name)
        if data is None:
            raise bundle.ArchiveError(f"{where}: the archive its tombstone names is missing")
        archive = bundle.unpack(data, tombstone.sha256.hex(), where)
        entries = archive.entries()
        if len(entries) != tombstone.events or entries[-1][2] != tombstone.head:
            raise bundle.ArchiveError(f"{where}: the log in it does not end at the head its "
                                      "tombstone recorded")
        return archive

    async def read(self, match_id: str, after_seq: int = 0) -> list[Entry]:
        live = await super().read(match_id, after_seq)
        if live:
            return live
        if after_seq > 0 and (await super().head(match_id))[0]:
            return live  # a live log with nothing after after_seq
        archive = await self.archive(match_id)
        if archive is None:
            return live
        return [e for e in archive.entries() if e[0] > after_seq]

    async def head(self, match_id: str) -> tuple[int, bytes]:
        seq, digest = await super().head(match_id)
        if seq:
            return seq, digest
        entries = await self.read(match_id)
        return (entries[-1][0], entries[-1][2]) if entries else (seq, digest)

    async def match_ids(self, archived: bool = True) -> list[str]:
        ids = set(await super().match_ids(archived=archived))
        if archived and self.everything:
            for name in await self.store.names():
                match_id = bundle.id_of(name)
                if match_id is not None:
                    ids.add(match_id)
        return sorted(ids)
