"""The dead-letter stream read back: what a :class:`~siegeworks.transport.streams.StreamConsumer`
gave up on, listed, decoded, replayed onto the stream it came from, or dropped.

A dead letter (see :func:`siegeworks.transport.streams.dead_letter_record`) holds where the entry
came from (``stream``, ``id``, ``group``, ``consumer``), why (``reason``), then the entry's own
fields under their names (``orig:<name>`` for one that clashes with those five). Replaying writes
those fields back as a new entry of the same stream (a new id: every group of that stream reads
it again, and handlers are idempotent), then deletes the dead letter: XADD before XDEL, so a
crash in between replays it twice rather than losing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from redis.asyncio import Redis

from siege.contracts.messages import LogAppended, Message, bus_decoder
from siegeworks.transport.streams import (
    DEAD_LETTER_META,
    DEAD_LETTER_STREAM,
    MESSAGE_FIELD,
    ORIG_PREFIX,
    Fields,
    parse_id,
)

CUT_MARK = "; field "
"""How a reason says a field was cut to the dead letter's limit (then it cannot be replayed)."""


class DeadLetterError(ValueError):
    """A dead letter that is not there, or cannot go back where it came from."""


@dataclass(frozen=True)
class DeadLetter:
    id: str
    """The dead letter's own id on the dead-letter stream."""
    stream: str
    entry_id: str
    group: str
    consumer: str
    reason: str
    fields: Fields
    """The entry's fields as they were (names restored)."""

    @property
    def at_ms(self) -> int:
        """When it was dead-lettered (its id's time)."""
        return parse_id(self.id)[0]

    @property
    def size(self) -> int:
        """Bytes of the entry's fields, names and values."""
        return sum(len(name) + len(value) for name, value in self.fields.items())

    @property
    def cut(self) -> bool:
        return CUT_MARK in self.reason and "cut from" in self.reason

    def message(self) -> Message | None:
        """The entry as a bus message (a shard bus's pointer as the LogAppended it stands for);
        None if it does not decode."""
        fields = self.fields
        try:
            if MESSAGE_FIELD in fields and b"f" in fields and b"l" in fields:
                return LogAppended(match_id=fields[MESSAGE_FIELD].decode(),
                                   first=int(fields[b"f"]), last=int(fields[b"l"]))
            return bus_decoder.decode(fields[MESSAGE_FIELD])
        except (KeyError, ValueError, msgspec.DecodeError):
            return None

    def summary(self) -> str:
        """``<type> <match id>`` of the message, or how it fails to decode."""
        message = self.message()
        if message is None:
            return "(does not decode)"
        tag = type(message).__struct_config__.tag or type(message).__name__
        match_id = getattr(message, "match_id", None)
        return f"{tag} {match_id}" if match_id else str(tag)

    def as_json(self) -> dict[str, Any]:
        """Everything, for ``siege dead show``: the message decoded when it decodes, the raw
        fields otherwise (text where they are UTF-8, else hex)."""
        message = self.message()
        return {
            "id": self.id, "at_ms": self.at_ms, "stream": self.stream, "entry_id": self.entry_id,
            "group": self.group, "consumer": self.consumer, "reason": self.reason,
            "size": self.size,
            "fields": {_show(name): _show(value) for name, value in self.fields.items()},
            "message": None if message is None else msgspec.to_builtins(message),
        }


def _show(value: bytes) -> str:
    try:
        return value.decode()
    except UnicodeDecodeError:
        return "hex:" + value.hex()


def _text(value: str | bytes) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value


def parse(dead_id: str | bytes, record: Mapping[bytes, bytes]) -> DeadLetter:
    meta = {name.decode(): _text(record.get(name, b"")) for name in DEAD_LETTER_META}
    fields: Fields = {}
    for name, value in record.items():
        if name in DEAD_LETTER_META:
            continue
        if name.startswith(ORIG_PREFIX) and name[len(ORIG_PREFIX):] in DEAD_LETTER_META:
            name = name[len(ORIG_PREFIX):]
        fields[name] = value
    return DeadLetter(id=_text(dead_id), stream=meta["stream"], entry_id=meta["id"],
                      group=meta["group"], consumer=meta["consumer"], reason=meta["reason"],
                      fields=fields)


async def list_dead(redis: Redis, limit: int | None = None,
                    stream: str = DEAD_LETTER_STREAM) -> list[DeadLetter]:
    """The dead letters, oldest first (the ``limit`` newest if given)."""
    if limit is not None:
        rows = list(reversed(await redis.xrevrange(stream, count=limit)))
    else:
        rows = await redis.xrange(stream)
    return [parse(dead_id, record) for dead_id, record in rows]


async def get_dead(redis: Redis, dead_id: str, stream: str = DEAD_LETTER_STREAM) -> DeadLetter:
    try:
        parse_id(dead_id)
    except ValueError:
        raise DeadLetterError(f"{dead_id!r} is no stream id (like 1700000000000-0)") from None
    rows = await redis.xrange(stream, min=dead_id, max=dead_id, count=1)
    if not rows:
        raise DeadLetterError(f"no dead letter {dead_id} on {stream}")
    return parse(*rows[0])


async def check_replayable(redis: Redis, letter: DeadLetter) -> None:
    """Refuses a dead letter whose stream no longer exists or is no stream, or whose fields
    were cut (it would only come back dead)."""
    if not letter.stream or not letter.fields:
        raise DeadLetterError(f"dead letter {letter.id} says no stream or holds no fields")
    if letter.cut:
        raise DeadLetterError(f"dead letter {letter.id} holds fields cut to its size limit "
                              f"({letter.reason}); it cannot be replayed, only dropped")
    kind = _text(await redis.type(letter.stream))
    if kind == "none":
        raise DeadLetterError(f"dead letter {letter.id}: stream {letter.stream} no longer "
                              "exists (nobody reads it); drop it or recreate the stream")
    if kind != "stream":
        raise DeadLetterError(f"dead letter {letter.id}: {letter.stream} is a {kind}, "
                              "not a stream")


async def replay(redis: Redis, letters: Sequence[DeadLetter],
                 stream: str = DEAD_LETTER_STREAM) -> list[tuple[DeadLetter, str]]:
    """Writes each letter's fields back onto its stream, then deletes the letter; returns the
    letters with their new entry ids. Checks every letter first: none is replayed if one cannot
    be."""
    for letter in letters:
        await check_replayable(redis, letter)
    done = []
    for letter in letters:
        new_id = await redis.xadd(letter.stream, dict(letter.fields))
        await redis.xdel(stream, letter.id)
        done.append((letter, _text(new_id)))
    return done


async def drop(redis: Redis, dead_ids: Sequence[str], stream: str = DEAD_LETTER_STREAM) -> int:
    """Deletes dead letters (all must exist); returns how many."""
    for dead_id in dead_ids:
        await get_dead(redis, dead_id, stream)
    return int(await redis.xdel(stream, *dead_ids)) if dead_ids else 0
