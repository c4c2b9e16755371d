"""The tournament aggregate: a fold of its stream, and what it owes next."""

from __future__ import annotations

import hashlib
import re

import msgspec

from siege.contracts.events import Event, MatchSealed
from siege.contracts.rejections import RejectionCode
from siege.tournament.events import (
    EntrantRegistered,
    EntrantWithdrew,
    MatchRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentFinished,
    match_id_for,
    replay_id_for,
    table_id_of,
)
from siege.tournament.results import DAMAGED, Bye, Recorded, TableResult


class TournamentState(msgspec.Struct, kw_only=True):
    created: TournamentCreated | None = None
    entrants: list[str] = []
    bots: dict[str, str] = {}
    clients: dict[str, str] = {}  # entrant -> the outside client playing it
    names: dict[str, str] = {}  # entrant -> the name it entered under, where it gave one
    withdrawn: list[str] = []
    rounds: dict[int, RoundPaired] = {}
    recorded: dict[str, MatchRecorded] = {}  # by match id
    order: list[Recorded] = []  # results and byes in the order the stream recorded them
    finished: bool = False
    sealed: MatchSealed | None = None  # the server's seal, after TournamentFinished

    @property
    def current_round(self) -> int:
        """The newest paired round, or 0 before the first pairing."""
        return max(self.rounds, default=0)

    def round_complete(self, round_: int) -> bool:
        paired = self.rounds.get(round_)
        return paired is not None and all(
            match_id_for(self.tid, round_, t) in self.recorded for t in range(len(paired.tables))
        )

    def table_records(self, table_match_id: str) -> list[MatchRecorded]:
        """Every recorded match of one table: its own, then its replays, in stream order."""
        return [r for r in self.recorded.values() if table_id_of(r.match_id) == table_match_id]

    def damaged_tables(self) -> list[MatchRecorded]:
        """The latest record of every table whose latest match was damaged, in stream order:
        the tables a replay would play again."""
        latest: dict[str, MatchRecorded] = {}
        for record in self.recorded.values():  # insertion order is the stream's
            latest[table_id_of(record.match_id)] = record
        return [r for r in latest.values() if r.reason == DAMAGED]

    def next_replay_id(self, table_match_id: str) -> str:
        return replay_id_for(table_match_id, len(self.table_records(table_match_id)))

    def table_result(self, table_match_id: str) -> MatchRecorded | None:
        """The record that stands for a table: its latest (a replay's, if it was replayed)."""
        records = self.table_records(table_match_id)
        return records[-1] if records else None

    def name_of(self, entrant: str) -> str:
        """How people read an entrant: the name it entered under, else its id."""
        return self.names.get(entrant, entrant)

    @property
    def tid(self) -> str:
        assert self.created is not None
        return self.created.tournament_id


def evolve(state: TournamentState, event: Event) -> TournamentState:
    if isinstance(event, MatchRecorded):
        state.recorded[event.match_id] = event
        state.order.append(TableResult(round=event.round, match_id=event.match_id,
                                       entrants=list(event.entrants), ranks=list(event.ranks),
                                       reason=event.reason, timed_out=list(event.timed_out)))
    elif isinstance(event, RoundPaired):
        state.rounds[event.round] = event
        state.order.extend(Bye(round=event.round, entrant=e) for e in event.byes)
    elif isinstance(event, EntrantRegistered):
        state.entrants.append(event.entrant)
        state.bots[event.entrant] = event.bot
        if event.client:
            state.clients[event.entrant] = event.client
        if event.name:
            state.names[event.entrant] = event.name
    elif isinstance(event, EntrantWithdrew):
        state.withdrawn.append(event.entrant)
    elif isinstance(event, TournamentCreated):
        state.created = event
    elif isinstance(event, TournamentFinished):
        state.finished = True
    elif isinstance(event, MatchSealed):
        state.sealed = event
    return state


TOURNAMENT_PREFIX = "t-"


_TOURNAMENT_ID = re.compile(r"t-[0-9a-f]{12}")


def is_tournament(stream_id: str) -> bool:
    """A tournament's own stream (its matches' ids extend it with a round and a table)."""
    return _TOURNAMENT_ID.fullmatch(stream_id) is not None


def tournament_id_for(game: str, fmt: str, entrants: list[str], rounds: int, table_size: int,
                      seed: int, advance: int = 0, outside: int = 0) -> str:
    """Derived from every input, so running the same command again resumes, never duplicates."""
    extra = [f"advance={advance}"] if advance else []
    extra += [f"outside={outside}"] if outside else []
    text = "\n".join([game, fmt, str(rounds), str(table_size), str(seed), *extra, *entrants])
    return TOURNAMENT_PREFIX + hashlib.sha256(text.encode()).hexdigest()[:12]


def outside_entrants(state: TournamentState) -> list[str]:
    return [e for e in state.entrants if e in state.clients]


def registration_refusal(state: TournamentState,
                         client: str) -> tuple[RejectionCode, str] | None:
    """Why ``client`` may not register now; None if it may. A client already entered may
    register again (a retry): it is simply told its entry."""
    if state.created is None:
        return RejectionCode.UNKNOWN_TOURNAMENT, "no such tournament"
    if client in state.clients.values():
        return None
    if state.rounds or state.finished:
        return RejectionCode.REGISTRATION_CLOSED, "the first round is paired"
    if len(outside_entrants(state)) >= state.created.outside:
        return RejectionCode.REGISTRATION_CLOSED, "every place for outside clients is taken"
    return None


def entrant_for(client: str) -> str:
    """An outside client's entrant id: its client id, marked so it cannot clash with a bot's."""
    return f"c-{client}"
