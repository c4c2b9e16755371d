"""The stored form of an event and its hash chain.

A log entry stores ``encode(Envelope)`` bytes. ``prev`` is the sha256 of the previous entry's
stored bytes (32 zero bytes for seq 1): the chain hashes what is stored, never a re-encoding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Annotated, Any, Generic, TypeVar, Union

import msgspec
from msgspec import Meta

from siege.contracts.events import CORE_EVENT_TYPES, SCHEMA_VERSION, Event

E = TypeVar("E")

GENESIS = bytes(32)


class Envelope(msgspec.Struct, Generic[E], frozen=True, kw_only=True):
    """One entry of a match log, as stored: field ``e`` of the stream entry holds the msgpack of
    this envelope, field ``h`` its sha256 (32 raw bytes). ``prev`` chains each entry to the
    stored bytes of the one before, so changing, removing or reordering any entry breaks the
    chain (docs/export-format.md)."""

    match_id: Annotated[str, Meta(description=(
        "The match whose log holds this entry: the same id in every entry of one log, and the "
        "id in the log's key `{s<shard>}:log:<match_id>`."))]
    seq: Annotated[int, Meta(description=(
        "The entry's position in the match log, from 1 without gaps; the stream entry's id "
        "is `0-<seq>`."))]
    prev: Annotated[bytes, Meta(description=(
        "The sha256 of the previous entry's stored bytes (its field `e`), as 32 raw bytes "
        "(msgpack bin); 32 zero bytes for seq 1. The hash is of the bytes as stored, never "
        "of a re-encoding."))]
    v: Annotated[int, Meta(description=(
        "The schema version of the event bodies; 1 is the only version so far."))] = SCHEMA_VERSION
    at: Annotated[int, Meta(description=(
        "When the entry was appended: milliseconds since the Unix epoch on the Redis server's "
        "clock (read through the services' injected clock), never earlier than the previous "
        "entry's `at`; every entry of one append has the same `at`. A reproducible run "
        "stamps a fixed time instead."))]
    event: Annotated[E, Meta(description=(
        "The event body: a map tagged by its field `t`, one of the core events (MatchCreated, "
        "SeedCommitted, ...) or an event of the match's game."))]


def digest(stored: bytes) -> bytes:
    return hashlib.sha256(stored).digest()


class EventCodec:
    """Encodes and decodes envelopes whose body is a core event or one of ``game_types``."""

    def __init__(self, game_types: Iterable[type[Event]] = ()) -> None:
        types = tuple(CORE_EVENT_TYPES) + tuple(game_types)
        self.event_types = types
        union: Any = Union[types]  # noqa: UP007 - a runtime union of classes
        self._decoder = msgspec.msgpack.Decoder(Envelope[union])
        self._event_decoder = msgspec.msgpack.Decoder(union)
        self._encoder = msgspec.msgpack.Encoder()

    def encode(self, envelope: Envelope[Any]) -> bytes:
        return self._encoder.encode(envelope)

    def decode(self, stored: bytes) -> Envelope[Any]:
        return self._decoder.decode(stored)

    def encode_event(self, event: Event) -> bytes:
        return self._encoder.encode(event)

    def decode_event(self, data: bytes) -> Event:
        return self._event_decoder.decode(data)


def seal(
    codec: EventCodec,
    match_id: str,
    head_seq: int,
    head_hash: bytes,
    events: Iterable[Event],
    at: int,
) -> list[tuple[int, bytes, bytes]]:
    """Chains ``events`` after the head: returns ``(seq, stored bytes, hash)`` per event."""
    out: list[tuple[int, bytes, bytes]] = []
    seq, prev = head_seq, head_hash
    for event in events:
        seq += 1
        stored = codec.encode(Envelope(match_id=match_id, seq=seq, prev=prev, at=at, event=event))
        prev = digest(stored)
        out.append((seq, stored, prev))
    return out
