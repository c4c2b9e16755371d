"""Typed reasons a command is refused. A rejection never enters a match log."""

from __future__ import annotations

from enum import StrEnum


class RejectionCode(StrEnum):
    MALFORMED = "malformed"
    UNKNOWN_MATCH = "unknown_match"
    UNKNOWN_SEAT = "unknown_seat"
    MATCH_OVER = "match_over"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_DECISION = "stale_decision"
    ILLEGAL_ACTION = "illegal_action"
    DUPLICATE_COMMAND = "duplicate_command"
    BAD_TOKEN = "bad_token"
