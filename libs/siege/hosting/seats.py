"""Seat tokens: HMAC-SHA256 over the match id and the seat, under the match service's secret.

A token is a bearer credential for one seat of one match; it is handed to the match's creator
and never written to the log. Replaying a command that carries a valid token changes nothing:
its command id is already in the log, or its decision is no longer open.
"""

from __future__ import annotations

import hashlib
import hmac


def seat_token(secret: bytes, match_id: str, seat: int) -> str:
    message = f"siegeworks-seat:{match_id}:{seat}".encode()
    # The one-shot C function: every action checks a token, and hmac.new costs three calls more.
    return hmac.digest(secret, message, hashlib.sha256).hex()


def check_token(secret: bytes, match_id: str, seat: int, token: str) -> bool:
    # As bytes: compare_digest refuses str with non-ASCII characters, and a token is input.
    return hmac.compare_digest(seat_token(secret, match_id, seat).encode(),
                               token.encode("utf-8", "surrogatepass"))
