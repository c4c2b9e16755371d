"""One archive: a match's whole log and what its audit needs, as one zstd frame.

The frame holds a msgpack :class:`Archive`: every stored entry's bytes in order (the seed
reveal and the seal among them; each entry's hash is the sha256 of its bytes, so it is
computed again rather than stored, and the export file of docs/export-format.md follows
exactly), and the public records of the keys whose seals the log carries, as ``siege:keys``
published them. zstd writes
its own content checksum (xxhash64) and the size; the sha256 of the frame's bytes goes in the
tombstone, so a reader can tell the object it fetched is the one that was written.

The bytes are a pure function of the log and the key records (fixed level, no time inside): an
archiver that dies after writing and runs again writes the same object, never a second one.
"""

from __future__ import annotations

import hashlib

import msgspec
import zstandard

from siege.hosting.export import Entry, dump
from siege.hosting.signing import KeyRecord

FORMAT = 1
LEVEL = 10
"""zstd level: Castle Dash logs compress about 5:1 either way; 10 costs a few ms a match and
reading is as fast at any level."""

SUFFIX = ".siege.zst"


class ArchiveError(ValueError):
    """An archive that cannot be read back as it was written (its checksum, its frame, its
    contents); the message names which."""


class Archive(msgspec.Struct, frozen=True, kw_only=True):
    format: int = FORMAT
    match_id: str
    kind: str  # "match" or "tournament"
    events: list[bytes]  # every stored entry of the log, seq 1 first
    keys: list[KeyRecord] = []  # the published records of the keys that sealed it

    def entries(self) -> list[Entry]:
        return [(seq, stored, hashlib.sha256(stored).digest())
                for seq, stored in enumerate(self.events, start=1)]

    def export(self) -> bytes:
        """The export file of this log (docs/export-format.md)."""
        return dump(self.entries())


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Archive)


def make(match_id: str, kind: str, entries: list[Entry], keys: list[KeyRecord]) -> Archive:
    if [seq for seq, _, _ in entries] != list(range(1, len(entries) + 1)):
        raise ArchiveError(f"{match_id}: a log to archive runs from seq 1 without gaps")
    return Archive(match_id=match_id, kind=kind, events=[stored for _, stored, _ in entries],
                   keys=sorted(keys, key=lambda k: k.key))


def pack(archive: Archive) -> bytes:
    compressor = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True,
                                          write_content_size=True)
    return compressor.compress(_encoder.encode(archive))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def unpack(data: bytes, sha256: str | None = None, name: str = "archive") -> Archive:
    """The archive in ``data``, checked against ``sha256`` (the tombstone's) when given."""
    if sha256 is not None and digest(data) != sha256:
        raise ArchiveError(f"{name}: sha256 {digest(data)[:16]}... is not the "
                           f"{sha256[:16]}... its tombstone recorded")
    try:
        raw = zstandard.ZstdDecompressor().decompress(data)
    except zstandard.ZstdError as error:
        raise ArchiveError(f"{name}: not a whole zstd frame ({error})") from None
    try:
        archive = _decoder.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise ArchiveError(f"{name}: not an archive ({error})") from None
    if archive.format != FORMAT:
        raise ArchiveError(f"{name}: archive format {archive.format}, this reads {FORMAT}")
    return archive


def object_name(match_id: str, kind: str = "match") -> str:
    """Where a match's archive goes in a store, from its id alone (so a store can be read
    without the tombstones): ``matches/<2 hex>/<id>.siege.zst``, the two hex digits of the
    id's sha256 spreading a million matches over 256 folders; tournaments under
    ``tournaments/``."""
    fan = hashlib.sha256(match_id.encode()).hexdigest()[:2]
    folder = "tournaments" if kind == "tournament" else "matches"
    return f"{folder}/{fan}/{match_id}{SUFFIX}"


def id_of(name: str) -> str | None:
    """The match id an object name holds, or None for a name that is no archive."""
    if not name.endswith(SUFFIX) or not name.startswith(("matches/", "tournaments/")):
        return None
    return name.rsplit("/", 1)[-1][: -len(SUFFIX)]
