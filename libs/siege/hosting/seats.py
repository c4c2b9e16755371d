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


class TokenChecker:
    """Checks seat tokens, remembering each seat's token once a command has shown it: every
    action carries one, and the HMAC was a twentieth of the rules service's CPU per action.

    Only proven tokens are kept, so commands with forged tokens (any number of them, for any
    match id) cost their HMAC each time and grow nothing; the memory is bounded anyway."""

    LIMIT = 200_000
    """Seats remembered before the memory starts again (a few tens of MB at most)."""

    def __init__(self, secret: bytes) -> None:
        self.secret = secret
        self._known: dict[tuple[str, int], bytes] = {}

    def check(self, match_id: str, seat: int, token: str) -> bool:
        given = token.encode("utf-8", "surrogatepass")
        known = self._known.get((match_id, seat))
        if known is not None:
            return hmac.compare_digest(known, given)
        expected = seat_token(self.secret, match_id, seat).encode()
        if not hmac.compare_digest(expected, given):
            return False
        if len(self._known) >= self.LIMIT:
            self._known.clear()
        self._known[(match_id, seat)] = expected
        return True

    def forget(self, match_id: str, seats: int) -> None:
        """Drops a finished match's seats (their commands are refused on the log from now)."""
        for seat in range(seats):
            self._known.pop((match_id, seat), None)
