"""The server's signing key: its file, its published public half, and rotation.

The private key lives in a file (``SIEGE_SIGNING_KEY``, default ``keys/signing.key`` in the
siege home, the checkout's ``.siege``; mode 0600) that only the dice service reads: it seals
each match as it reveals the seed. Not in Redis: whoever can read the store (an operator, a
backup, a replica, a leaked dump) could otherwise sign a forged log, and the seal exists to
prove the log to those who distrust the store. The public half is published in the hash
``siege:keys`` (key id -> JSON record), which anyone may read (``siege keys show``). See
docs/decisions/0010-signed-matches.md.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from redis.asyncio import Redis

from siege.eventlog.keys import KEYS_HASH
from siege.hosting.signing import (
    KeyRecord,
    Keyring,
    key_id,
    keyring_encoder,
    load_private,
    new_key,
    private_pem,
    public_bytes,
    record_decoder,
    record_of,
    retire,
)
from siegeworks.redis_target import siege_home


class KeyFileError(RuntimeError):
    """A signing key file that cannot be read or written; the message is one line."""


def key_path() -> Path:
    """``SIEGE_SIGNING_KEY``, else ``keys/signing.key`` in the siege home (the checkout's
    ``.siege``, whatever the current folder)."""
    named = os.environ.get("SIEGE_SIGNING_KEY")
    return Path(named) if named else siege_home() / "keys" / "signing.key"


def _write_new(path: Path, pem: bytes, replace: bool) -> None:
    """Writes ``pem`` to ``path`` (0600) in one step: readers see the old file or the whole new
    one. Without ``replace``, a file that appeared meanwhile (another replica) wins."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".signing-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
        os.chmod(temp, 0o600)
        if replace:
            os.replace(temp, path)
        else:
            with contextlib.suppress(FileExistsError):
                os.link(temp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def load_or_create(path: Path) -> Ed25519PrivateKey:
    """The key in ``path``, made there first if there is none."""
    try:
        if not path.exists():
            _write_new(path, private_pem(new_key()), replace=False)
        return load_private(path.read_bytes())
    except (OSError, ValueError) as error:
        raise KeyFileError(f"signing key {path}: {error}") from None


class KeyFile:
    """The signing key as its file holds it now: read again when the file changes, so a
    rotation takes effect at the next seal without a restart."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._seen: tuple[int, int] | None = None
        self._key: Ed25519PrivateKey | None = None

    def current(self) -> Ed25519PrivateKey:
        seen = self._stat()
        if self._key is None or seen != self._seen:
            self._key = load_or_create(self.path)
            self._seen = self._stat()  # the file as loaded (made just now, if it was missing)
        return self._key

    def _stat(self) -> tuple[int, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_ino


async def publish(redis: Redis, private: Ed25519PrivateKey, now_ms: int) -> KeyRecord:
    """Publishes the public half of ``private`` (kept as it is when published already)."""
    record = record_of(private, now_ms)
    await publish_record(redis, record)
    return record


async def publish_record(redis: Redis, record: KeyRecord) -> None:
    await redis.hsetnx(KEYS_HASH, record.key, keyring_encoder.encode(record))


async def read_keyring(redis: Redis) -> Keyring:
    raw = await redis.hgetall(KEYS_HASH)
    return {(k.decode() if isinstance(k, bytes) else k): record_decoder.decode(v)
            for k, v in raw.items()}


RETIRE_GRACE_MS = 60_000
"""A retired key's seals stay valid this long after the rotation: a seal the dice service began
with the old key before it saw the new file is dated a little after the rotation."""


async def rotate(redis: Redis, path: Path, now_ms: int) -> tuple[KeyRecord, KeyRecord]:
    """A new key in ``path``; the old one retired, its retirement signed by the new one.
    Returns (retired, new)."""
    old = load_or_create(path)
    old_record = await publish(redis, old, now_ms)
    successor = new_key()
    if key_id(public_bytes(successor)) == old_record.key:  # pragma: no cover - 2^-64
        raise KeyFileError("the new key has the old key's id; rotate again")
    # The new key is public before it seals anything, and the old one is retired only once
    # the new one is in the file: a failed write leaves the old key current.
    new_record = await publish(redis, successor, now_ms)
    try:
        _write_new(path, private_pem(successor), replace=True)
    except OSError as error:
        raise KeyFileError(f"signing key {path}: {error}") from None
    retired = retire(old_record, successor, now_ms + RETIRE_GRACE_MS)
    await redis.hset(KEYS_HASH, retired.key, keyring_encoder.encode(retired))
    return retired, new_record
