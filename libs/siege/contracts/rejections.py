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
    BAD_CLIENT = "bad_client"  # a client id that is not valid, or not the sender's own
    UNKNOWN_GAME = "unknown_game"
    BAD_SEATS = "bad_seats"  # a player count or seat list the game does not take
    BAD_OPTIONS = "bad_options"  # match options the game refuses (an illegal deck, ...)
    SEAT_TAKEN = "seat_taken"
    MATCH_FULL = "match_full"
    UNKNOWN_TOURNAMENT = "unknown_tournament"
    REGISTRATION_CLOSED = "registration_closed"
    MATCH_ID_TAKEN = "match_id_taken"  # another client created this id, or with other options
    STORE_FULL = "store_full"  # the store is nearly full: new matches wait (send it again later)
    RATE_LIMITED = "rate_limited"  # over the sender's quota of this kind of command per second
