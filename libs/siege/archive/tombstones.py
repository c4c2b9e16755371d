"""What an archived match leaves in Redis: its tombstone, and its id marked in the index.

The tombstone (hash ``{sN}:archived``, field = match id) says where the archive went (the store's
URL and the object's name), its sha256 and size, and keeps the match's result as scoring
recorded it, so ``siege matches``, the pages and a tournament waiting for a table's result
read it without fetching the archive. It is written by
``drop.lua`` in the same step that deletes the log, and the id's score in the shard's index
(``{sN}:matches``) becomes 1, which the append script reads to refuse a new log under the id.
A few hundred bytes a match: :data:`TOMBSTONE_BUDGET` is what the benchmark holds it to.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import msgspec

from siege.archive.bundle import object_name
from siege.contracts.messages import MatchFinished
from siege.eventlog.keys import (
    RESULTS_HASH,
    SHARDS,
    archived_key,
    lobby_key,
    log_key,
    matches_key,
    seed_key,
    shard_of,
    watch_key,
)

TOMBSTONE_BUDGET = 1024
"""Bytes of Redis memory an archived match may keep (tombstone and index entry together)."""


class Tombstone(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    store: str  # the store's URL (siege.archive.stores.open_store); the object's name in it
    # comes from the id and the kind (siege.archive.bundle.object_name)
    sha256: bytes  # of the archive's bytes (32 raw bytes: a tombstone is kept for ever)
    size: int  # bytes of the archive
    events: int
    head: bytes  # the hash of the log's last entry (32 raw bytes)
    kind: str  # "match" or "tournament"
    archived_ms: int
    game: str = ""
    # The match's result as scoring recorded it (a MatchFinished, msgpack, as in
    # siege:results:by-match, which forgets it once archived); empty for a tournament, or a
    # match scoring never recorded.
    result: bytes = b""

    def finished(self) -> MatchFinished | None:
        return _result_decoder.decode(self.result) if self.result else None


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Tombstone)
_result_decoder = msgspec.msgpack.Decoder(MatchFinished)
_DROP_LUA = resources.files("siege.archive").joinpath("drop.lua").read_text("utf-8")


def name_of(match_id: str, tombstone: Tombstone) -> str:
    """The object the tombstone's archive is, in its store."""
    return object_name(match_id, tombstone.kind)


def encode(tombstone: Tombstone) -> bytes:
    return _encoder.encode(tombstone)


def decode(raw: bytes) -> Tombstone:
    return _decoder.decode(raw)


async def read_tombstone(redis: Any, match_id: str) -> Tombstone | None:
    raw = await redis.hget(archived_key(shard_of(match_id)), match_id)
    return None if raw is None else decode(raw)


async def tombstones_of(redis: Any, match_ids: list[str]) -> dict[str, Tombstone]:
    """The tombstones of those of ``match_ids`` that were archived (one pipelined round trip;
    one key a command, since on a cluster the shards sit in their own slots)."""
    if not match_ids:
        return {}
    async with redis.pipeline(transaction=False) as pipe:
        for match_id in match_ids:
            pipe.hget(archived_key(shard_of(match_id)), match_id)
        raws = await pipe.execute()
    return {m: decode(raw) for m, raw in zip(match_ids, raws, strict=True) if raw is not None}


async def read_tombstones(redis: Any) -> dict[str, Tombstone]:
    """Every tombstone, over all shards (one pipelined round trip)."""
    async with redis.pipeline(transaction=False) as pipe:
        for shard in range(SHARDS):
            pipe.hgetall(archived_key(shard))
        pages = await pipe.execute()
    return {(k.decode() if isinstance(k, bytes) else k): decode(v)
            for page in pages for k, v in page.items()}


DROPPED, ALREADY, CHANGED = "dropped", "already", "changed"


async def drop_log(redis: Any, match_id: str, head_seq: int, tombstone: Tombstone) -> str:
    """Removes the match's log and its keys and writes its tombstone, in one script, if the log
    still ends at ``head_seq`` (what was archived): ``DROPPED``; ``ALREADY`` when the log is
    gone and the tombstone there; ``CHANGED`` when the log has moved on (or was never there),
    and nothing was touched."""
    shard = shard_of(match_id)
    keys = [log_key(match_id), matches_key(shard), archived_key(shard), seed_key(match_id),
            lobby_key(match_id), watch_key(match_id)]
    reply = await redis.eval(_DROP_LUA, len(keys), *keys, match_id, head_seq, encode(tombstone))
    return {1: DROPPED, 2: ALREADY}.get(int(reply[0]), CHANGED)


async def forget_result(redis: Any, match_id: str) -> int:
    """The last trace outside the match's slot: its result in ``siege:results:by-match``
    (the tombstone keeps the result's summary)."""
    return int(await redis.hdel(RESULTS_HASH, match_id))
