"""Match logs as analysis tables: four Arrow tables, written as Parquet (``siege export
--parquet``), so questions across thousands of matches (how often the first seat wins, which
actions winners take, how long decisions last) are one query in DuckDB, pandas or polars
instead of a replay of every log.

- ``matches``: one row per match: its game, seats, options, creator, when it was created and
  ended, its state (``running``, or the end's reason: ``finished``, ``forfeit``, ``resigned``,
  ``damaged``), how many events and accepted actions its log holds, the hash of its last entry,
  and whether the log carries the server's seal and the revealed dice seed.
- ``seats``: one row per seat of every match: its name, its holder, its rank (null while the
  match runs, and in a damaged match), and whether its clock ran out or it resigned.
- ``actions``: one row per accepted action, in log order: the decision it answered, the seat,
  the time, the action's type and the action itself as JSON (as the game decoded it), and the
  action in words: what a spectator of the match is told of the game events it produced.
- ``results``: one row per seat of every match that ended with a result (finished, forfeit,
  resigned), with its rank and the end's reason. A damaged match has no result (no ranks at
  all, which is not a tie: a tie scores like a draw), so it has no rows here; it is in
  ``matches`` with state ``damaged`` and its seats have no rank.

Times are milliseconds since the Unix epoch as the log stamps them (a reproducible run stamps
one fixed time). Text that has a structure of its own (the options, each action) is JSON,
which every reader can take apart (``options->>'decks'`` in DuckDB).

The tables read the log as it is: nothing here checks the hash chain, the dice or the seal's
signature (``sealed`` says only that the log carries one); ``siege audit`` proves those. Each
match is folded with :func:`siege.hosting.match_state.fold` in a light state, since none of the
columns needs the game's own state, and rows go into Arrow batches as they come, so memory
grows with the rows, never with the logs read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from siege.contracts.events import ActionAccepted, GameEvent, MatchCreated
from siege.engine.codecs import action_decoder
from siege.engine.registry import UnknownGameError, presentation
from siege.hosting.export import Entry
from siege.hosting.loader import CORE_CODEC
from siege.hosting.match_state import MatchState, fold
from siege.hosting.narration import Narrator
from siege.tournament.state import is_tournament

MATCHES = pa.schema([
    pa.field("match_id", pa.string(), nullable=False),
    pa.field("game", pa.string(), nullable=False),
    pa.field("players", pa.int32(), nullable=False),
    # MatchCreated carries no engine or contract version: the envelope's schema version of the
    # event bodies is the only version a log records.
    pa.field("schema_version", pa.int32(), nullable=False),
    pa.field("options", pa.string(), nullable=False),  # JSON object, names to text values
    pa.field("creator", pa.string(), nullable=False),  # "" in logs older than creators
    pa.field("created_at_ms", pa.int64(), nullable=False),
    pa.field("ended_at_ms", pa.int64()),  # the MatchEnded (or MatchDamaged) entry's time
    pa.field("state", pa.string(), nullable=False),
    pa.field("events", pa.int64(), nullable=False),
    pa.field("actions", pa.int64(), nullable=False),
    pa.field("head_hash", pa.string(), nullable=False),
    pa.field("sealed", pa.bool_(), nullable=False),
    pa.field("seed_revealed", pa.bool_(), nullable=False),
])

SEATS = pa.schema([
    pa.field("match_id", pa.string(), nullable=False),
    pa.field("seat", pa.int32(), nullable=False),
    pa.field("name", pa.string(), nullable=False),
    pa.field("client", pa.string()),  # null in logs older than holders
    pa.field("rank", pa.int32()),
    pa.field("timed_out", pa.bool_(), nullable=False),
    pa.field("resigned", pa.bool_(), nullable=False),
])

ACTIONS = pa.schema([
    pa.field("match_id", pa.string(), nullable=False),
    pa.field("seq", pa.int64(), nullable=False),  # the ActionAccepted entry's
    pa.field("decision", pa.int64(), nullable=False),
    pa.field("seat", pa.int32(), nullable=False),
    pa.field("at_ms", pa.int64(), nullable=False),
    pa.field("kind", pa.string(), nullable=False),  # the action type's tag (its JSON's "t")
    pa.field("action", pa.string(), nullable=False),
    pa.field("words", pa.string()),  # null when no event it produced is told to spectators
])

RESULTS = pa.schema([
    pa.field("match_id", pa.string(), nullable=False),
    pa.field("seat", pa.int32(), nullable=False),
    pa.field("name", pa.string(), nullable=False),
    pa.field("rank", pa.int32(), nullable=False),
    pa.field("reason", pa.string(), nullable=False),
])

SCHEMAS: dict[str, pa.Schema] = {
    "matches": MATCHES, "seats": SEATS, "actions": ACTIONS, "results": RESULTS,
}

BATCH_ROWS = 65_536
"""Rows a table keeps as Python values before packing them into an Arrow batch: Python objects
cost several times the bytes of their Arrow columns."""

WORDS_SEPARATOR = "; "
"""Between the lines told of one action's events (an action may make several)."""

_json = msgspec.json.Encoder()


class _Table:
    """The rows of one table: finished Arrow batches, and the latest rows still as lists."""

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.batches: list[pa.RecordBatch] = []
        self.pending: list[tuple[Any, ...]] = []

    def extend(self, rows: Iterable[tuple[Any, ...]]) -> None:
        self.pending.extend(rows)
        if len(self.pending) >= BATCH_ROWS:
            self._pack()

    def _pack(self) -> None:
        if self.pending:
            columns = list(zip(*self.pending, strict=True))
            self.batches.append(pa.RecordBatch.from_arrays(
                [pa.array(values, type=field.type) for values, field
                 in zip(columns, self.schema, strict=True)], schema=self.schema))
            self.pending = []

    def table(self) -> pa.Table:
        self._pack()
        return pa.Table.from_batches(self.batches, schema=self.schema)


class TableRows:
    """Rows of the four tables, added one match log at a time; a log is read whole, so a log
    that cannot be read adds no row anywhere. ``skipped`` names each log left out, and why."""

    def __init__(self) -> None:
        self._tables = {name: _Table(schema) for name, schema in SCHEMAS.items()}
        self.skipped: list[tuple[str, str]] = []

    def extend(self, logs: Iterable[tuple[str, Sequence[Entry]]]) -> None:
        for match_id, entries in logs:
            self.add(match_id, entries)

    def add(self, match_id: str, entries: Sequence[Entry]) -> bool:
        """Adds the rows of one match log (``(seq, stored bytes, sha256)`` entries from seq 1,
        as ``EventLog.read`` and ``siege.hosting.export.parse`` give them). False, with the
        reason in ``skipped``, for a tournament's log, an empty log, one that does not start
        with ``MatchCreated`` or that does not decode."""
        why = _not_a_match(match_id, entries)
        if why is None:
            try:
                rows = _match_rows(match_id, entries)
            except (msgspec.DecodeError, msgspec.ValidationError) as err:
                why = f"undecodable log ({err})"
            except UnknownGameError as err:
                why = str(err)
            else:
                for name, table_rows in rows.items():
                    self._tables[name].extend(table_rows)
                return True
        self.skipped.append((match_id, why))
        return False

    def tables(self) -> dict[str, pa.Table]:
        """Each table under its name, with its schema (the same types when empty)."""
        return {name: table.table() for name, table in self._tables.items()}


def collect(logs: Iterable[tuple[str, Sequence[Entry]]]) -> TableRows:
    """The rows of every match log in ``logs`` (``(match_id, entries)`` pairs)."""
    rows = TableRows()
    rows.extend(logs)
    return rows


def write_parquet(folder: Path, rows: TableRows) -> dict[str, int]:
    """Writes ``matches.parquet``, ``seats.parquet``, ``actions.parquet`` and
    ``results.parquet`` into ``folder`` (made if missing); returns each table's row count."""
    folder.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for name, table in rows.tables().items():
        path = folder / f"{name}.parquet"
        # Written beside its name, then renamed: a crash never leaves half a file under it.
        tmp = path.with_name(path.name + ".part")
        try:
            pq.write_table(table, tmp)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        tmp.replace(path)
        counts[name] = table.num_rows
    return counts


def _not_a_match(match_id: str, entries: Sequence[Entry]) -> str | None:
    if is_tournament(match_id):
        return "a tournament's log"
    if not entries:
        return "the log is empty"
    seq, stored, _ = entries[0]
    try:
        first = CORE_CODEC.decode(stored)
    except (msgspec.DecodeError, msgspec.ValidationError):
        first = None
    if seq != 1 or first is None or not isinstance(first.event, MatchCreated):
        return "the log does not start with MatchCreated"
    if first.match_id != match_id:
        return f"the log is of match {first.match_id!r}"
    return None


def _match_rows(match_id: str, entries: Sequence[Entry]) -> dict[str, list[tuple[Any, ...]]]:
    ms = MatchState(match_id, light=True)  # the end, resignations and clocks; no game state
    created_at = ended_at = 0
    schema_version = 0
    actions: list[tuple[Any, ...]] = []
    words: list[list[str]] = []  # per action, the lines told of the events it produced
    decode: Any = None
    narrator: Narrator | None = None
    for seq, stored, digest in entries:
        envelope = (ms.codec or CORE_CODEC).decode(stored)
        event = envelope.event
        was_ended = ms.ended is not None
        fold(ms, seq, digest, event)
        ms.head_at = envelope.at
        if isinstance(event, MatchCreated):
            created_at, schema_version = envelope.at, envelope.v
            decode = action_decoder(event.game).decode
            narrator = _narrator(event)
            if narrator is not None:
                narrator.line(seq, event)  # binds the presentation to the match's options
        elif isinstance(event, ActionAccepted):
            action = decode(event.action)
            actions.append((match_id, seq, event.decision, event.seat, envelope.at,
                            type(action).__struct_config__.tag,
                            _json.encode(action).decode()))
            words.append([])
        elif isinstance(event, GameEvent) and words and narrator is not None:
            # Game events come only right after the action that produced them.
            line = narrator.line(seq, event)
            if line is not None:
                words[-1].append(line)
        if ms.ended is not None and not was_ended:
            ended_at = envelope.at
    created = ms.created
    assert created is not None  # checked by _not_a_match
    ended = ms.ended
    ranks = ended.ranks if ended is not None else []
    names = _names(created)
    seats = []
    for seat in range(created.players):
        seats.append((
            match_id, seat, names[seat],
            created.clients[seat] if seat < len(created.clients) else None,
            ranks[seat] if seat < len(ranks) else None,
            seat in ms.timed_out, seat in ms.resigned,
        ))
    match = (
        match_id, created.game, created.players, schema_version,
        _json.encode(created.options).decode(), created.creator, created_at,
        ended_at if ended is not None else None,
        ended.reason if ended is not None else "running",
        len(entries), len(actions), ms.head_hash.hex(),
        ms.sealed is not None, ms.revealed is not None,
    )
    results = [] if ended is None or len(ranks) != created.players else [
        (match_id, seat, names[seat], ranks[seat], ended.reason)
        for seat in range(created.players)
    ]
    return {
        "matches": [match],
        "seats": seats,
        "actions": [(*row, WORDS_SEPARATOR.join(told) or None)
                    for row, told in zip(actions, words, strict=True)],
        "results": results,
    }


def _names(created: MatchCreated) -> list[str]:
    given = created.seat_names
    return [given[s] if s < len(given) else f"seat {s}" for s in range(created.players)]


def _narrator(created: MatchCreated) -> Narrator | None:
    """A spectator's narrator, or None for a game with no presentation (one a test
    registered): its actions then have no words."""
    try:
        shown = presentation(created.game)
    except UnknownGameError:
        return None
    return Narrator(shown, _names(created))
