"""The analysis tables (siege.hosting.tables): seeded bot matches of two games, a resignation,
and logs cut or re-chained into a running, a forfeited and a damaged match, written as Parquet
and read back with DuckDB; every count and rank checked against the decoded logs themselves."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pyarrow.parquet as pq
import pytest

from siege.contracts.envelope import GENESIS, seal
from siege.contracts.events import (
    ActionAccepted,
    Event,
    MatchCreated,
    MatchDamaged,
    MatchEnded,
    MatchSealed,
    SeatResigned,
    SeatTimedOut,
    SeedRevealed,
)
from siege.contracts.messages import CreateMatch, Message, ResignMatch, SeatGranted
from siege.engine.codecs import action_decoder
from siege.eventlog.keys import inbox_key
from siege.eventlog.log import MemoryEventLog
from siege.hosting import tables
from siege.hosting.clock import FixedClock
from siege.hosting.export import Entry
from siege.hosting.loader import CORE_CODEC
from siege.hosting.match_state import codec_for
from siege.hosting.tables import SCHEMAS, TableRows, collect, write_parquet
from siegeworks import bus as topics
from siegeworks.runner import RunConfig, play_matches
from siegeworks.wiring import wire_in_process

Log = tuple[str, list[Entry]]
START_MS = 1_800_000_000_000


def played(game: str, players: int, matches: int, seed: int) -> list[Log]:
    async def play() -> list[Log]:
        log = MemoryEventLog()
        result = await play_matches(RunConfig(
            game=game, matches=matches, players=players, bots=["random"], seed=seed,
            fixed_clock_ms=1_700_000_000_000), log)
        return [(m, await log.read(m)) for m in result.match_ids]

    logs = asyncio.run(play())
    assert all(entries for _, entries in logs), "a match was never created"
    return logs


def resigned_match() -> Log:
    """A Castle Dash match that seat 1 gives up before anyone acts."""
    async def scenario() -> list[Entry]:
        log = MemoryEventLog()
        wired = wire_in_process(log, FixedClock(5_000), b"master")
        seen: list[Message] = []

        async def keep(message: Message) -> None:
            seen.append(message)

        wired.bus.subscribe(inbox_key("c1"), keep)
        await wired.bus.publish(topics.COMMANDS, CreateMatch(
            match_id="m-resign", game="castle-dash", seat_names=["x", "y", "z"], client="c1"))
        await wired.bus.drain()
        token = next(m.token for m in seen if isinstance(m, SeatGranted) and m.seat == 1)
        await wired.bus.publish(topics.COMMANDS, ResignMatch(
            match_id="m-resign", seat=1, token=token, command_id="giving-up", client="c1"))
        await wired.bus.drain()
        return await log.read("m-resign")

    return "m-resign", asyncio.run(scenario())


def events_of(entries: list[Entry]) -> list[Event]:
    return [envelope.event for envelope in envelopes(entries)]


def envelopes(entries: list[Entry]) -> list[Any]:
    first = CORE_CODEC.decode(entries[0][1])
    codec = codec_for(first.event.game)
    return [codec.decode(stored) for _, stored, _ in entries]


def chained(match_id: str, game: str, events: list[Event]) -> list[Entry]:
    """``events`` as a fresh log, entry ``seq`` stamped ``START_MS + 1000 * seq``."""
    codec = codec_for(game)
    entries: list[Entry] = []
    head = GENESIS
    for seq, event in enumerate(events, start=1):
        (entry,) = seal(codec, match_id, seq - 1, head, [event], START_MS + 1000 * seq)
        entries.append(entry)
        head = entry[2]
    return entries


def up_to_action(events: list[Event], count: int) -> list[Event]:
    """The events before the ``count``-th accepted action."""
    accepted = [i for i, e in enumerate(events) if isinstance(e, ActionAccepted)]
    return events[:accepted[count - 1]]


def revealed(events: list[Event]) -> SeedRevealed:
    return next(e for e in events if isinstance(e, SeedRevealed))


@pytest.fixture(scope="module")
def logs() -> list[Log]:
    dash = played("castle-dash", 3, 2, seed=11)
    castellum = played("castellum", 2, 2, seed=12)
    source = events_of(castellum[0][1])
    created = source[0]
    assert isinstance(created, MatchCreated)
    # The seat of the fourth action lets its clock run out instead, and comes last.
    fourth = [e for e in source if isinstance(e, ActionAccepted)][3]
    forfeit = chained("m-forfeit", "castellum", [
        *up_to_action(source, 4), SeatTimedOut(seat=fourth.seat, decision=fourth.decision),
        MatchEnded(ranks=[2 if s == fourth.seat else 1 for s in range(2)], reason="forfeit"),
        revealed(source)])
    damaged = chained("m-damaged", "castellum", [
        *up_to_action(source, 6), MatchDamaged(reason="a test"), revealed(source)])
    running = chained("m-running", "castellum", up_to_action(source, 9))
    return [*dash, *castellum, resigned_match(), ("m-forfeit", forfeit),
            ("m-damaged", damaged), ("m-running", running)]


@pytest.fixture(scope="module")
def folder(logs: list[Log], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tables")
    rows = collect(logs)
    assert rows.skipped == []
    counts = write_parquet(out, rows)
    assert counts == {name: table.num_rows for name, table in rows.tables().items()}
    return out


def sql(folder: Path, query: str) -> list[tuple[Any, ...]]:
    for name in SCHEMAS:
        query = query.replace(f"{{{name}}}", f"'{folder / name}.parquet'")
    return duckdb.sql(query).fetchall()


def ended_of(entries: list[Entry]) -> MatchEnded | None:
    for event in events_of(entries):
        if isinstance(event, MatchDamaged):
            return MatchEnded(ranks=[], reason="damaged")
        if isinstance(event, MatchEnded):
            return event
    return None


def test_the_fixture_covers_every_state(folder: Path) -> None:
    states = sql(folder, "select state, count(*) from {matches} group by state order by state")
    assert states == [("damaged", 1), ("finished", 4), ("forfeit", 1), ("resigned", 1),
                      ("running", 1)]
    games = sql(folder, "select distinct game from {matches} order by game")
    assert games == [("castellum",), ("castle-dash",)]


def test_counts_agree_with_the_logs(logs: list[Log], folder: Path) -> None:
    want = {}
    for match_id, entries in logs:
        events = events_of(entries)
        created = events[0]
        assert isinstance(created, MatchCreated)
        ended = ended_of(entries)
        want[match_id] = (
            len(entries), sum(isinstance(e, ActionAccepted) for e in events), created.players,
            created.players if ended is not None and ended.ranks else 0,
        )
    got = sql(folder, """
        select m.match_id, m.events, m.actions,
               (select count(*) from {seats} s where s.match_id = m.match_id),
               (select count(*) from {results} r where r.match_id = m.match_id)
        from {matches} m""")
    assert {row[0]: row[1:] for row in got} == want
    assert len(got) == len(logs)
    (actions,) = sql(folder, "select count(*) from {actions}")
    assert actions == (sum(w[1] for w in want.values()),)


def test_ranks_agree_with_the_end(logs: list[Log], folder: Path) -> None:
    for match_id, entries in logs:
        ended = ended_of(entries)
        seats = sql(folder, f"select rank from {{seats}} where match_id = '{match_id}' "
                            "order by seat")
        results = sql(folder, f"select rank, reason from {{results}} "
                              f"where match_id = '{match_id}' order by seat")
        (state,) = sql(folder, f"select state from {{matches}} where match_id = '{match_id}'")
        if ended is None or not ended.ranks:  # running, or damaged: no rank, no result
            assert all(rank is None for (rank,) in seats) and seats
            assert results == []
            assert state == ("running" if ended is None else "damaged",)
        else:
            assert [rank for (rank,) in seats] == ended.ranks
            assert results == [(rank, ended.reason) for rank in ended.ranks]
            assert state == (ended.reason,)


def test_match_rows_say_what_the_log_says(logs: list[Log], folder: Path) -> None:
    for match_id, entries in logs:
        envs = envelopes(entries)
        created = envs[0].event
        ends = [e.at for e in envs if isinstance(e.event, MatchEnded | MatchDamaged)]
        row = sql(folder, f"""
            select game, players, schema_version, options, creator, created_at_ms,
                   ended_at_ms, head_hash, sealed, seed_revealed
            from {{matches}} where match_id = '{match_id}'""")
        assert row == [(
            created.game, created.players, envs[0].v,
            msgspec.json.encode(created.options).decode(), created.creator, envs[0].at,
            ends[0] if ends else None, entries[-1][2].hex(),
            any(isinstance(e.event, MatchSealed) for e in envs),
            any(isinstance(e.event, SeedRevealed) for e in envs),
        )]
    (times,) = sql(folder, "select created_at_ms, ended_at_ms, sealed, seed_revealed "
                           "from {matches} where match_id = 'm-forfeit'")
    assert times[0] == START_MS + 1000 and times[1] > times[0]
    assert times[2:] == (False, True)
    assert sql(folder, "select sealed, seed_revealed from {matches} "
                       "where state = 'finished'") == [(True, True)] * 4


def test_seat_rows_name_the_holders_the_timeouts_and_the_resignations(
        logs: list[Log], folder: Path) -> None:
    for match_id, entries in logs:
        events = events_of(entries)
        created = events[0]
        assert isinstance(created, MatchCreated)
        timed_out = {e.seat for e in events if isinstance(e, SeatTimedOut)}
        resigned = {e.seat for e in events if isinstance(e, SeatResigned)}
        rows = sql(folder, f"select seat, name, client, timed_out, resigned from {{seats}} "
                           f"where match_id = '{match_id}' order by seat")
        assert rows == [(seat, created.seat_names[seat], created.clients[seat],
                         seat in timed_out, seat in resigned)
                        for seat in range(created.players)]
    flagged = sql(folder, "select match_id, timed_out, resigned from {seats} "
                          "where timed_out or resigned order by match_id")
    assert flagged == [("m-forfeit", True, False), ("m-resign", False, True)]


def test_action_rows_are_the_accepted_actions(logs: list[Log], folder: Path) -> None:
    for match_id, entries in logs:
        envs = envelopes(entries)
        game = envs[0].event.game
        names = envs[0].event.seat_names
        decode = action_decoder(game).decode
        want = [(e.seq, e.event.decision, e.event.seat, e.at, decode(e.event.action))
                for e in envs if isinstance(e.event, ActionAccepted)]
        rows = sql(folder, f"select seq, decision, seat, at_ms, kind, action, words "
                           f"from {{actions}} where match_id = '{match_id}' order by seq")
        assert [row[:4] for row in rows] == [w[:4] for w in want]
        for (*_, kind, action, words), (*_, seat, _, decoded) in zip(rows, want, strict=True):
            assert msgspec.json.decode(action, type=type(decoded)) == decoded
            assert kind == msgspec.json.decode(action)["t"]
            # What a spectator is told of the action names the seat that took it.
            assert words is not None and names[seat] in words
    (kinds,) = sql(folder, "select count(distinct kind) from {actions}")
    assert kinds[0] > 2


def test_rows_packed_in_small_batches_are_the_same_rows(
        logs: list[Log], monkeypatch: pytest.MonkeyPatch) -> None:
    whole = collect(logs).tables()
    monkeypatch.setattr(tables, "BATCH_ROWS", 7)
    batched = collect(logs).tables()
    # A batch is packed once a match's rows bring a table to BATCH_ROWS.
    assert len(whole["actions"].to_batches()) == 1
    packed = batched["actions"].to_batches()
    assert len(packed) > 2 and all(batch.num_rows >= 7 for batch in packed[:-1])
    for name, table in whole.items():
        assert batched[name].equals(table), name


def test_logs_that_are_no_match_add_no_row(logs: list[Log], tmp_path: Path) -> None:
    match_id, entries = logs[0]
    broken = list(entries)
    seq, stored, digest = broken[5]
    broken[5] = (seq, stored[:-3], digest)  # cut short mid-log: undecodable
    created = events_of(entries)[0]
    rows = TableRows()
    rows.add("t-0123456789ab", entries)  # a tournament's id
    rows.add("m-empty", [])
    rows.add("m-headless", chained("m-headless", "castellum",
                                   events_of(logs[2][1])[1:]))
    rows.add("m-other", entries)  # the entries are another match's
    rows.add(match_id, broken)
    assert isinstance(created, MatchCreated)
    rows.add("m-alone", chained("m-alone", created.game, [created]))
    reasons = dict(rows.skipped)
    assert list(reasons) == ["t-0123456789ab", "m-empty", "m-headless", "m-other", match_id]
    assert reasons["m-headless"] == "the log does not start with MatchCreated"
    assert reasons[match_id].startswith("undecodable log")
    counts = write_parquet(tmp_path, rows)
    assert counts == {"matches": 1, "seats": created.players, "actions": 0, "results": 0}
    assert sql(tmp_path, "select match_id, state, events from {matches}") == [
        ("m-alone", "running", 1)]


def test_no_logs_write_four_empty_tables_with_their_schemas(tmp_path: Path) -> None:
    folder = tmp_path / "made" / "here"
    assert write_parquet(folder, collect([])) == dict.fromkeys(SCHEMAS, 0)
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.parquet" for n in SCHEMAS)
    for name, schema in SCHEMAS.items():
        path = folder / f"{name}.parquet"
        assert pq.read_schema(path).remove_metadata().equals(schema), name
        assert duckdb.sql(f"select count(*) from '{path}'").fetchall() == [(0,)]
        columns = duckdb.sql(f"describe select * from '{path}'").fetchall()
        assert [c[0] for c in columns] == schema.names
    types = dict(duckdb.sql(f"select column_name, column_type from (describe select * from "
                            f"'{folder / 'matches.parquet'}')").fetchall())
    assert (types["ended_at_ms"], types["sealed"], types["players"]) == (
        "BIGINT", "BOOLEAN", "INTEGER")
