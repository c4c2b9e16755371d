"""Server signatures: what is signed, key ids, the published keyring, and checking a seal.

Every finished match log ends with a ``MatchSealed`` event: an Ed25519 signature, by the
server's signing key, over :func:`seal_message` of the entry before it (its seq and hash). The
hash chain makes that hash commit to every byte of the log, so a log that verifies under a key
the server published is the log the server wrote, event for event. Keys are rotated by
retiring the old one with a record the new key signs (:func:`retirement_message`); a match
sealed by a retired key still verifies if its seal is dated no later than the retirement.
See docs/decisions/0010-signed-matches.md.

Pure functions and data; reading the private key file and the Redis keyring is the callers'.
"""

from __future__ import annotations

import hashlib

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from siege.contracts.events import MatchSealed
from siege.hosting.match_state import MatchState

SEAL_DOMAIN = b"siegeworks match seal v1\n"
RETIREMENT_DOMAIN = b"siegeworks key retirement v1\n"


class KeyRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One published signing key. A retired key names its successor, when it retired, and the
    successor's signature over :func:`retirement_message`."""

    key: str  # the key id: key_id(public)
    public: str  # hex of the 32 raw bytes
    created_ms: int
    retired_ms: int = 0  # 0 while the key is current
    retired_by: str = ""
    retirement: str = ""  # hex signature by ``retired_by``


Keyring = dict[str, KeyRecord]
keyring_encoder = msgspec.json.Encoder()
record_decoder = msgspec.json.Decoder(KeyRecord)
keyring_decoder = msgspec.json.Decoder(dict[str, KeyRecord])


def key_id(public: bytes) -> str:
    """A key's id: the first 16 hex digits of the sha256 of its 32 public bytes."""
    return hashlib.sha256(public).hexdigest()[:16]


def public_bytes(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(serialization.Encoding.Raw,
                                             serialization.PublicFormat.Raw)


def seal_message(match_id: str, seq: int, head: bytes) -> bytes:
    """The bytes a seal signs: the match, and the seq and hash of the entry it seals."""
    return SEAL_DOMAIN + match_id.encode() + b"\n" + str(seq).encode() + b"\n" + head


def retirement_message(old: str, new: str, retired_ms: int) -> bytes:
    return RETIREMENT_DOMAIN + f"{old}\n{new}\n{retired_ms}".encode()


def new_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def seeded_key(master_seed: bytes) -> Ed25519PrivateKey:
    """The key a reproducible run (one with a master seed) signs with, so its logs are the
    same bytes on every machine; a key anyone who knows the seed can derive, so never one a
    deployment trusts (production runs have no master seed and sign with the key file)."""
    return Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(b"siegeworks signing key\n" + master_seed).digest())


def private_pem(private: Ed25519PrivateKey) -> bytes:
    return private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())


def load_private(pem: bytes) -> Ed25519PrivateKey:
    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError("the signing key is not an Ed25519 key")
    return key


def record_of(private: Ed25519PrivateKey, created_ms: int) -> KeyRecord:
    public = public_bytes(private)
    return KeyRecord(key=key_id(public), public=public.hex(), created_ms=created_ms)


def seal(private: Ed25519PrivateKey, match_id: str, seq: int, head: bytes) -> MatchSealed:
    """The seal of ``match_id`` whose last entry is ``seq`` with hash ``head``."""
    signature = private.sign(seal_message(match_id, seq, head))
    return MatchSealed(key=key_id(public_bytes(private)), signature=signature.hex())


def seal_owed(ms: MatchState, private: Ed25519PrivateKey) -> MatchSealed | None:
    """The seal ``ms`` owes: once its seed is revealed (the last thing a match writes), if it
    has none yet."""
    if ms.ended is None or ms.revealed is None or ms.sealed is not None:
        return None
    return seal(private, ms.match_id, ms.head_seq, ms.head_hash)


def retire(old: KeyRecord, successor: Ed25519PrivateKey, retired_ms: int) -> KeyRecord:
    """``old`` retired in favour of ``successor``, which signs the retirement."""
    new = key_id(public_bytes(successor))
    signature = successor.sign(retirement_message(old.key, new, retired_ms))
    return msgspec.structs.replace(old, retired_ms=retired_ms, retired_by=new,
                                   retirement=signature.hex())


def _verifies(public_hex: str, signature_hex: str, message: bytes) -> bool:
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        public.verify(bytes.fromhex(signature_hex), message)
    except (ValueError, InvalidSignature):
        return False
    return True


def retirement_problem(keyring: Keyring, record: KeyRecord) -> str | None:
    """Why ``record``'s retirement cannot be trusted, or None (also for a current key)."""
    if not record.retired_ms:
        return None
    successor = keyring.get(record.retired_by)
    if successor is None:
        return f"key {record.key} was retired by {record.retired_by or '?'}, which is unknown"
    message = retirement_message(record.key, successor.key, record.retired_ms)
    if not _verifies(successor.public, record.retirement, message):
        return f"the retirement of key {record.key} is not signed by {successor.key}"
    return None


def seal_problem(keyring: Keyring, sealed: MatchSealed, match_id: str, seq: int, head: bytes,
                 at_ms: int) -> str | None:
    """Why the seal of entry ``seq`` (hash ``head``) of ``match_id``, dated ``at_ms``, does not
    prove the log, or None when it does."""
    record = keyring.get(sealed.key)
    if record is None:
        return f"sealed by key {sealed.key}, which is not among the published keys"
    if key_id(bytes.fromhex(record.public)) != record.key:
        return f"the published key {record.key} is not the key of that id"
    if not _verifies(record.public, sealed.signature, seal_message(match_id, seq, head)):
        return f"the signature by key {sealed.key} does not match the log"
    problem = retirement_problem(keyring, record)
    if problem is not None:
        return problem
    if record.retired_ms and at_ms > record.retired_ms:
        return f"sealed by key {sealed.key} after its retirement at {record.retired_ms}"
    return None
