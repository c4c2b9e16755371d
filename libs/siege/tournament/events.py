"""A tournament's own event stream. Everything it creates (rounds, matches) has an id derived from
its inputs, so a rebuild or a resume never creates anything twice."""

from __future__ import annotations

from typing import Literal

from siege.contracts.events import Event, MatchSealed

Format = Literal["swiss", "round-robin", "elimination"]


class TournamentCreated(Event, frozen=True, tag="tm.created", kw_only=True):
    tournament_id: str
    game: str
    format: Format
    rounds: int
    table_size: int
    seed: int
    advance: int = 0  # elimination with tables of 3+: the top k of each table go on (0: half)
    outside: int = 0  # places for outside clients, who register over the bus before round 1
    # The client that creates the tournament's matches: nobody else may create an id shaped
    # like one of its tables (siegeworks.match.consent).
    organiser: str = ""


class EntrantRegistered(Event, frozen=True, tag="tm.entrant_registered", kw_only=True):
    entrant: str
    bot: str  # the bot that plays for this entrant ("" for an outside client)
    client: str = ""  # the outside client that plays for it (its seats are granted to it)
    name: str = ""  # the name it entered under, shown beside its id; "" for none


class EntrantWithdrew(Event, frozen=True, tag="tm.entrant_withdrew", kw_only=True):
    entrant: str


class RoundPaired(Event, frozen=True, tag="tm.round_paired", kw_only=True):
    """``tables[i]`` lists the entrants of table ``i`` in seat order; its match id is derived."""

    round: int
    tables: list[list[str]]
    byes: list[str]


class MatchRecorded(Event, frozen=True, tag="tm.match_recorded", kw_only=True):
    """A table's match as scoring recorded it; ``match_id`` is the table's id, or one of its
    replays' (:func:`replay_id_for`) when the table's match was damaged."""

    round: int
    match_id: str
    entrants: list[str]
    ranks: list[int]  # empty for a damaged match
    reason: str = "finished"  # "finished", "forfeit" or "damaged" (MatchFinished.reason)
    head: str = ""  # the hash (hex) of the match log's last entry, its seal: the anchor
    timed_out: list[int] = []  # the seats whose clock ran out (a forfeit), as MatchFinished


class TournamentFinished(Event, frozen=True, tag="tm.finished", kw_only=True):
    pass


TOURNAMENT_EVENTS: tuple[type[Event], ...] = (
    TournamentCreated, EntrantRegistered, EntrantWithdrew, RoundPaired, MatchRecorded,
    TournamentFinished, MatchSealed,  # the server's seal ends a finished tournament's stream
)


def match_id_for(tournament_id: str, round_: int, table: int) -> str:
    return f"{tournament_id}-r{round_:02d}-t{table:04d}"


REPLAY = "-replay"


def replay_id_for(table_match_id: str, attempt: int) -> str:
    """The match id of a damaged table's ``attempt``-th replay (1, 2, ...)."""
    return f"{table_match_id}{REPLAY}{attempt}"


def table_id_of(match_id: str) -> str:
    """The table a match id belongs to: itself, or the table a replay id replays."""
    return match_id.split(REPLAY, 1)[0]
