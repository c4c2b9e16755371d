"""Verifiable randomness: every roll and shuffle is a pure function of (key, match id, index).

The byte-level derivation is pinned in ``docs/dice.md`` so that a client in another language
can recompute every draw from the revealed seed and the match log. Change nothing here without
changing that spec and its test vectors.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SEED_BYTES = 32
# Draws read 32-bit words, so a range wider than 2**32 could never be covered (every word would
# be rejected and the loop would never end).
MAX_N = 2**32

_WORD_SPACE = 2**32
# One HMAC-SHA256 block is exactly eight big-endian uint32 words.
_WORDS = struct.Struct(">8I")


def new_seed() -> bytes:
    """A fresh secret seed for one match, from the OS CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def derive_seed(master: bytes, match_id: str) -> bytes:
    """A per-match seed derived from a master secret, for seeded, reproducible runs.

    The ``seed:`` prefix keeps this use of the master secret apart from any other use of it.
    """
    return hmac.digest(master, b"seed:" + match_id.encode("utf-8"), "sha256")


def commitment(seed: bytes) -> str:
    """Hex SHA-256 of the seed, published before any roll so the seed cannot be swapped later."""
    return hashlib.sha256(seed).hexdigest()


def mix_key(seed: bytes, player_seeds: Sequence[bytes]) -> bytes:
    """The HMAC key actually used for draws.

    Players add their seeds after the server has committed to its own, so the server cannot pick
    a seed that favours anyone. Each player seed is hashed first so every part of the input has a
    fixed length and no split between seeds is ambiguous. Order is the order the seeds were
    added (the log order), which every auditor sees the same way.
    """
    if not player_seeds:
        return seed
    material = [seed]
    material.extend(hashlib.sha256(ps).digest() for ps in player_seeds)
    return hashlib.sha256(b"".join(material)).digest()


def uniform(key: bytes, match_id: str, index: int, n: int) -> int:
    """A uniform integer in ``[0, n)`` for draw number ``index`` of the match.

    Rejection sampling: words at or above the largest multiple of ``n`` are skipped, so every
    residue is equally likely (plain ``word % n`` would favour small values). The hash is always
    computed, even for ``n == 1``, so re-implementations need no special cases.
    """
    if index < 0:
        raise ValueError(f"index must be >= 0, got {index}")
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must be in [1, 2**32], got {n}")
    limit = _WORD_SPACE - (_WORD_SPACE % n)
    # ``:d`` pins the decimal spelling even for int subclasses such as bool or IntEnum.
    prefix = f"{match_id}:{index:d}"
    message = prefix.encode("utf-8")
    block = 0
    while True:
        for word in _WORDS.unpack(hmac.digest(key, message, "sha256")):
            if word < limit:
                return word % n
        # All eight words rejected (probability < 2**-8 per block): extend the stream.
        block += 1
        message = f"{prefix}:{block:d}".encode()


def roll(key: bytes, match_id: str, index: int, sides: int) -> int:
    """One die with ``sides`` faces, 1-based."""
    return 1 + uniform(key, match_id, index, sides)


def rolls(key: bytes, match_id: str, first_index: int, count: int, sides: int) -> list[int]:
    """``count`` dice on consecutive indices starting at ``first_index``."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    return [roll(key, match_id, first_index + k, sides) for k in range(count)]


def shuffle_cost(count: int) -> int:
    """How many draw indices a shuffle of ``count`` items consumes."""
    return max(count - 1, 0)


def shuffle(key: bytes, match_id: str, first_index: int, count: int) -> list[int]:
    """A uniformly random permutation of ``range(count)`` (Fisher–Yates, from the top down).

    Position ``i`` (from ``count - 1`` down to 1) swaps with ``j`` drawn from ``[0, i]`` on
    index ``first_index + (count - 1 - i)``, so the indices used are consecutive from
    ``first_index`` and the caller advances its counter by ``shuffle_cost(count)``.
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    if first_index < 0:
        raise ValueError(f"first_index must be >= 0, got {first_index}")
    items = list(range(count))
    for i in range(count - 1, 0, -1):
        j = uniform(key, match_id, first_index + (count - 1 - i), i + 1)
        items[i], items[j] = items[j], items[i]
    return items


class BotRng:
    """Deterministic randomness for bots, built on the same draws as the dice.

    Bots stay off the ``random`` module so that a seeded playout replays exactly, whatever the
    Python version, and so the project's rule against ``random`` outside the dice holds.
    ``label`` separates streams that share a seed (one per bot or seat).
    """

    __slots__ = ("_seed", "_label", "_counter")

    def __init__(self, seed: bytes, label: str) -> None:
        self._seed = seed
        self._label = label
        self._counter = 0

    def randrange(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; each call uses the next index."""
        value = uniform(self._seed, self._label, self._counter, n)
        self._counter += 1
        return value

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element; ``IndexError`` on an empty sequence, like ``random``."""
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.randrange(len(seq))]
