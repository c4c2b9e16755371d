"""Typed reasons a command is refused. A rejection never enters a match log."""

from __future__ import annotations

from enum import StrEnum


class RejectionCode(StrEnum):
    """Why a command changed nothing: the ``code`` of an ActionRejected (a refused
    SubmitAction) or a CommandRefused (a refused create, join or registration). The order in
    which a SubmitAction is checked, and so which code wins, is in docs/clients.md ("Every
    answer, and every code"). A code a client does not know is a refusal it cannot fix by
    retrying.

    - ``malformed``: an entry that is no valid command (a field of the wrong type or missing,
      an unknown tag, not msgpack: the detail names the bad field), an action over 4,096
      bytes or one that is none of the game's actions, a match id that is not 1-128 of
      ``A-Z a-z 0-9 _ . : -`` (or is shaped like a tournament's), or a
      ``decision_timeout_ms`` that is not a whole number of milliseconds.
    - ``unknown_match``: an action for a match whose log is gone, or a join of a well-formed
      id with no match waiting for players.
    - ``unknown_seat``: a seat number the match does not have.
    - ``match_over``: an action for a match that has ended (finished, forfeited or damaged).
    - ``not_your_turn``: the open decision is for other seats.
    - ``stale_decision``: ``decision`` is not the open decision's number (an earlier one,
      already answered or timed out, or a later one).
    - ``illegal_action``: the action decodes but is not among the seat's legal actions now.
    - ``duplicate_command``: the ``command_id`` was accepted before for another decision.
    - ``bad_token``: ``token`` is not the token of this seat of this match (also the answer
      for an unknown match or seat: checked before the match is looked up).
    - ``bad_client``: a client id that is not valid, or not the sender's own (a command may
      name only the owner of the stream it came on, and a create may name other holders only
      at a tournament table they registered for).
    - ``unknown_game``: the game is not hosted.
    - ``bad_seats``: a player count or seat list the game does not take.
    - ``bad_options``: match options the game refuses (an illegal deck, ...); the detail lists
      every reason.
    - ``seat_taken``: a join of a seat another client holds.
    - ``match_full``: a join of a match whose seats are all held by others (or that started).
    - ``unknown_tournament``: a registration for a tournament that does not exist.
    - ``registration_closed``: a registration after round 1 was paired or every place is
      taken.
    - ``match_id_taken``: another client created this id, or with other options (or the id is
      a tournament table's, which only the organiser creates).
    - ``store_busy``: the store is busy: it holds its operator's share of its maxmemory or
      more (80% unless set), so new matches wait until memory is freed while matches under
      way go on. Send the create again after the refusal's ``retry_after_ms``, never sooner.
      Added in 2.1, in place of ``store_full``.
    - ``store_full``: retired in 2.1 (the services send ``store_busy`` instead); a service of
      an earlier version may still send it: send the create again later.
    - ``rate_limited``: over the sender's quota of this kind of command per second (send it
      again later).
    """

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
    STORE_BUSY = "store_busy"  # new matches wait: send it again after retry_after_ms
    STORE_FULL = "store_full"  # retired in 2.1 for store_busy; only services before 2.1 send it
    RATE_LIMITED = "rate_limited"  # over the sender's quota of this kind of command per second
