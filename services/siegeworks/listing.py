"""What the store holds, as lists people read: every match with its state and result, every
tournament with its state and leader (``siege matches``, ``siege tournaments`` and the web
pages)."""

from __future__ import annotations

from typing import Any

import msgspec
from redis.asyncio import Redis

from siege.archive.tombstones import read_tombstones
from siege.contracts.events import MatchCreated, MatchEnded
from siege.contracts.messages import MatchFinished
from siege.eventlog.keys import RESULTS_HASH, log_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.clock import SystemClock
from siege.hosting.loader import CORE_CODEC
from siege.tournament.standings import standings
from siege.tournament.state import is_tournament
from siege.tournament.store import TournamentStore
from siegeworks.match.lobby import read_listing

STATES = {"open": {"open"}, "running": {"running"},
          "finished": {"finished", "forfeit", "resigned", "damaged"}}
"""What each state a list is asked for takes in (``MatchRow.state``: open, running, or the end's
reason)."""

TAIL = 4  # a finished log ends with its end, then at most the seed revealed and the seal

END_REASONS = {"finished": "the game ended", "forfeit": "a clock ran out",
               "resigned": "a seat resigned", "damaged": "damaged: it counts for nobody"}
"""A match's end reason (MatchFinished.reason) in words, for the end screens and pages."""


class MatchRow(msgspec.Struct, kw_only=True):
    match_id: str
    game: str
    seats: int
    state: str  # open, running, finished, forfeit, damaged
    seat_names: list[str] = []
    ranks: list[int] = []
    open_seats: list[int] = []
    archived: bool = False  # its log left Redis for an archive (siege.archive)


async def match_rows(redis: Redis, log: RedisEventLog) -> list[MatchRow]:
    """Every match the store holds, with its state: open (waiting in the lobby), running (a
    log without a result) or how it ended (the result's reason)."""
    rows = [MatchRow(match_id=o.match_id, game=o.game, seats=o.seats, state="open",
                     seat_names=list(o.seat_names), open_seats=list(o.open))
            for o in await read_listing(redis)]
    archived = await read_tombstones(redis)
    for match_id, tombstone in archived.items():
        done = tombstone.finished()
        if tombstone.kind == "match":
            rows.append(MatchRow(match_id=match_id, game=tombstone.game,
                                 seats=len(done.seat_names) if done else 0,
                                 state=done.reason if done else "finished",
                                 seat_names=done.seat_names if done else [],
                                 ranks=done.ranks if done else [], archived=True))
    ids = [m for m in await log.match_ids() if not is_tournament(m) and m not in archived]
    if not ids:
        return sorted(rows, key=lambda r: r.match_id)
    results = await redis.hmget(RESULTS_HASH, ids)
    decoder = msgspec.msgpack.Decoder(MatchFinished)
    unscored = [m for m, raw in zip(ids, results, strict=True) if raw is None]
    # Without a result recorded (a match being played, or one a single process played, whose
    # results stayed in that process), the log tells: its first event and its last few.
    async with redis.pipeline(transaction=False) as pipe:
        for match_id in unscored:
            pipe.xrange(log_key(match_id), count=1)
            pipe.xrevrange(log_key(match_id), count=TAIL)
        replies = await pipe.execute()
    firsts = dict(zip(unscored, replies[0::2], strict=True))
    tails = dict(zip(unscored, replies[1::2], strict=True))
    for match_id, raw in zip(ids, results, strict=True):
        if raw is not None:
            done = decoder.decode(raw)
            rows.append(MatchRow(match_id=match_id, game=done.game, seats=len(done.seat_names),
                                 state=done.reason, seat_names=done.seat_names,
                                 ranks=done.ranks))
            continue
        entries = firsts[match_id]
        if not entries:
            continue
        created: Any = CORE_CODEC.decode(entries[0][1][b"e"]).event
        if not isinstance(created, MatchCreated):
            continue
        ended = _end_of(tails[match_id])
        rows.append(MatchRow(match_id=match_id, game=created.game, seats=created.players,
                             state=ended.reason if ended else "running",
                             seat_names=list(created.seat_names),
                             ranks=list(ended.ranks) if ended else []))
    return sorted(rows, key=lambda r: r.match_id)


class TournamentRow(msgspec.Struct, kw_only=True):
    tournament_id: str
    game: str
    format: str
    entrants: int
    state: str  # registration, round N of M, finished
    leader: str = ""


async def tournament_rows(log: RedisEventLog) -> list[TournamentRow]:
    """Every tournament the store holds: its game, format, entrants, state and leader."""
    store = TournamentStore(log, SystemClock())
    rows = []
    for tid in [m for m in await log.match_ids() if is_tournament(m)]:
        state, _, _ = await store.load(tid)
        if state.created is None:
            continue
        created = state.created
        table = standings(state.entrants, state.order, two_player=created.table_size == 2,
                          withdrawn=frozenset(state.withdrawn))
        where = ("finished" if state.finished else
                 f"round {state.current_round}" if state.current_round else "registration")
        rows.append(TournamentRow(tournament_id=tid, game=created.game, format=created.format,
                                  entrants=len(state.entrants), state=where,
                                  leader=table[0].entrant if table and state.order else ""))
    return rows


def _end_of(tail: list[Any]) -> MatchEnded | None:
    """The MatchEnded among a log's last entries (newest first), if it has ended."""
    for _, fields in tail:
        try:
            event = CORE_CODEC.decode(fields[b"e"]).event
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue  # a game's own event: the core codec does not know it, and it is no end
        if isinstance(event, MatchEnded):
            return event
    return None
