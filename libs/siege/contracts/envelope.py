"""The stored form of an event and its hash chain.

A log entry stores ``encode(Envelope)`` bytes. ``prev`` is the sha256 of the previous entry's
stored bytes (32 zero bytes for seq 1): the chain hashes what is stored, never a re-encoding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any, Generic, TypeVar, Union

import msgspec

from siege.contracts.events import CORE_EVENT_TYPES, SCHEMA_VERSION, Event

E = TypeVar("E")

GENESIS = bytes(32)


class Envelope(msgspec.Struct, Generic[E], frozen=True, kw_only=True):
    match_id: str
    seq: int
    prev: bytes
    v: int = SCHEMA_VERSION
    at: int  # milliseconds since the epoch, from the injected clock
    event: E


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
