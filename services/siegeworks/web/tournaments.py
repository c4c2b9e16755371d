"""A tournament as its page shows it: the standings with tie-breaks and rating changes, each
round's pairings and results (an elimination's rounds are its bracket), and a chart of the
rating changes."""

from __future__ import annotations

import msgspec
from redis.asyncio import Redis

from siege.tournament.events import match_id_for
from siege.tournament.standings import (
    MULTIPLAYER_TIEBREAKS,
    TWO_PLAYER_TIEBREAKS,
    StandingRow,
    standings,
)
from siege.tournament.state import TournamentState, outside_entrants
from siegeworks.listing import END_REASONS
from siegeworks.scoring.ratings import change_by_entrant, tournament_changes

CHART_WIDTH = 320  # px of the longest bar


class Table(msgspec.Struct, frozen=True):
    match_id: str
    seats: list[str]
    ranks: list[int]  # empty while it is played
    result: str  # how it ended, in words, or "playing"
    advanced: list[bool] = []  # elimination: which seats are in the next round


class Round(msgspec.Struct, frozen=True):
    number: int
    tables: list[Table]
    byes: list[str]


class Bar(msgspec.Struct, frozen=True):
    entrant: str
    change: float
    width: int  # px
    left: bool  # a loss: drawn to the left of the axis


class Shown(msgspec.Struct, frozen=True):
    tournament_id: str
    game: str
    format: str
    finished: bool
    current_round: int
    rounds_planned: int
    rows: list[StandingRow]
    breaks: list[str]
    rating: dict[str, float]
    rounds: list[Round]
    chart: list[Bar]
    open_places: int  # places still open to outside clients (a person may enter)
    names: dict[str, str] = {}  # entrant -> the name it entered under, where it gave one


async def shown(redis: Redis, state: TournamentState) -> Shown:
    assert state.created is not None
    created = state.created
    two_player = created.table_size == 2
    rows = standings(state.entrants, state.order, two_player=two_player,
                     withdrawn=frozenset(state.withdrawn))
    change = change_by_entrant(await tournament_changes(redis, state))
    rounds = []
    for number, paired in sorted(state.rounds.items()):
        later = state.rounds.get(number + 1)
        # An elimination's bracket: who of each table plays the next round.
        going_on = ({e for table in later.tables for e in table} | set(later.byes)
                    if later is not None and created.format == "elimination" else set())
        tables = []
        for index, seats in enumerate(paired.tables):
            match_id = match_id_for(created.tournament_id, number, index)
            recorded = state.table_result(match_id)
            if recorded is None:
                tables.append(Table(match_id, list(seats), [], "playing"))
            else:
                tables.append(Table(recorded.match_id, list(recorded.entrants),
                                    list(recorded.ranks),
                                    END_REASONS.get(recorded.reason, recorded.reason),
                                    [e in going_on for e in recorded.entrants]))
        rounds.append(Round(number, tables, list(paired.byes)))
    return Shown(tournament_id=created.tournament_id, game=created.game, format=created.format,
                 finished=state.finished, current_round=state.current_round,
                 rounds_planned=created.rounds, rows=rows,
                 breaks=list(TWO_PLAYER_TIEBREAKS if two_player else MULTIPLAYER_TIEBREAKS),
                 rating=change, rounds=rounds, chart=chart(rows, change),
                 open_places=0 if state.rounds or state.finished else max(
                     0, created.outside - len(outside_entrants(state))),
                 names=dict(state.names))


def chart(rows: list[StandingRow], change: dict[str, float]) -> list[Bar]:
    """One bar per entrant in standings order, scaled to the largest change."""
    largest = max((abs(v) for v in change.values()), default=0.0) or 1.0
    return [Bar(r.entrant, change.get(r.entrant, 0.0),
                round(CHART_WIDTH / 2 * abs(change.get(r.entrant, 0.0)) / largest),
                change.get(r.entrant, 0.0) < 0) for r in rows]
