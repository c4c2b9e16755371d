"""The export file: one JSON object per line, one line per stored event, in sequence order.

    {"seq":1,"hash":"<sha256 of the stored bytes, hex>","event":"<stored bytes, base64>"}

Lines are canonical (compact, keys in this order, lowercase hex, padded base64, one newline
after each). The reader rejects anything else, so a changed byte anywhere in the file either
fails here, naming the line's sequence number, or changes a value the auditor checks.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec

Entry = tuple[int, bytes, bytes]  # (seq, stored bytes, sha256 of them)


class ExportLine(msgspec.Struct, forbid_unknown_fields=True):
    seq: int
    hash: str
    event: str


class ExportFormatError(ValueError):
    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq = seq
        self.reason = reason


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(ExportLine)


def line_for(seq: int, stored: bytes, digest: bytes) -> bytes:
    line = ExportLine(seq=seq, hash=digest.hex(), event=base64.b64encode(stored).decode())
    return _encoder.encode(line) + b"\n"


def dump(entries: Iterable[Entry]) -> bytes:
    return b"".join(line_for(seq, stored, digest) for seq, stored, digest in entries)


def write_export(path: Path, entries: Sequence[Entry]) -> None:
    # Write beside the target, then rename: a crash never leaves half a file under the name.
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(dump(entries))
    tmp.replace(path)


def parse(data: bytes) -> list[Entry]:
    """Entries of an export, or :class:`ExportFormatError` naming the first bad line's seq."""
    if not data:
        raise ExportFormatError(1, "the file is empty")
    lines = data.split(b"\n")
    if lines[-1] != b"":
        raise ExportFormatError(len(lines), "the last line does not end with a newline")
    entries: list[Entry] = []
    for number, raw in enumerate(lines[:-1], start=1):
        entries.append(_parse_line(number, raw + b"\n"))
    return entries


def _parse_line(number: int, raw: bytes) -> Entry:
    try:
        line = _decoder.decode(raw)
        stored = base64.b64decode(line.event, validate=True)
        digest = bytes.fromhex(line.hash)
    except (msgspec.DecodeError, msgspec.ValidationError, binascii.Error, ValueError) as err:
        raise ExportFormatError(number, f"unreadable line: {err}") from None
    if line_for(line.seq, stored, digest) != raw:
        raise ExportFormatError(number, "line is not in canonical form")
    if line.seq != number:
        raise ExportFormatError(number, f"line {number} holds seq {line.seq}")
    return number, stored, digest


def read_export(path: Path) -> list[Entry]:
    return parse(path.read_bytes())
