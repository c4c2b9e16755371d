"""The archiver as a service beside the four: a tournament's matches leave Redis as they
finish, every reader reads them from the archive, and with the live store deleted the
tournament's standings and ratings rebuild from the archives alone."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import duckdb
import redis.asyncio

from siege.archive.reading import ArchivingLog
from siege.archive.stores import FolderStore
from siege.archive.tombstones import read_tombstones
from siege.eventlog.keys import KEYS_HASH
from siege.hosting.clock import FixedClock
from siege.tournament.ratings import replay_ratings
from siege.tournament.results import TableResult
from siege.tournament.standings import standings
from siege.tournament.store import TournamentStore
from siegeworks.scoring.ratings import RatingBook
from siegeworks.serve import PROCESSES
from siegeworks.supervisor import ServiceProcesses
from siegeworks.tournament_run import TournamentSpec, run_tournament
from tests.e2e.cli_support import siege
from tests.e2e.test_tournament import ratings_applied

Run = Callable[[Awaitable[Any]], Any]
SPEC = TournamentSpec(game="castle-dash", format="swiss", entrants=8, rounds=2, table_size=4,
                      bots=["random", "greedy"], seed=9, concurrency=2)


async def _all_archived(client: redis.asyncio.Redis, match_ids: list[str],
                        within_s: float = 30.0) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if set(match_ids) <= set(await read_tombstones(client)):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the archiver did not archive every finished table in time")


def test_the_archiver_empties_redis_and_the_archives_alone_rebuild_everything(
        redis_url: str, redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    env = {"SIEGE_MASTER_SEED": SPEC.master_seed().hex(), "SIEGE_ARCHIVE": str(archive),
           "SIEGE_ARCHIVE_DELAY_S": "0", "SIEGE_ARCHIVE_EVERY_S": "0.1",
           "SIEGE_HOME": str(tmp_path)}
    procs = ServiceProcesses(redis_url, tmp_path / "logs", env, services=PROCESSES)
    procs.start_all()
    try:
        run(procs.wait_healthy(redis_client))
        state = run(run_tournament(SPEC, redis_client, FixedClock(0)))
        tables = sorted(state.recorded)
        run(ratings_applied(redis_client, state.tid))
        # ... the tournament's own stream too, once its ratings are applied.
        run(_all_archived(redis_client, [*tables, state.tid]))
    finally:
        codes = procs.stop_all()
    assert codes["archiver"] == 0
    book = run(RatingBook(redis_client).current(state.entrants))
    before = siege(["standings", state.tid, "--format", "json"], tmp_path, REDIS_URL=redis_url,
                   SIEGE_ARCHIVE=str(archive))
    assert before.returncode == 0, before.stderr

    # Nothing is left for an archiving pass on demand.
    done = siege(["archive"], tmp_path, REDIS_URL=redis_url, SIEGE_ARCHIVE=str(archive))
    assert done.returncode == 0, done.stderr
    assert "archived 0 matches" in done.stdout
    # Only the tombstones and the index name them (and the ratings' mark that the tournament's
    # ratings were applied: the ratings are the scoring service's projection, kept).
    keys = run(_keys(redis_client))
    assert not [k for k in keys if any(m in k for m in [*tables, state.tid])
                and not k.endswith((":archived", ":matches"))
                and not k.startswith("siege:ratings:")], keys

    # Every reader reads the archives as if they were live.
    listed = siege(["matches", "--json"], tmp_path, REDIS_URL=redis_url,
                   SIEGE_ARCHIVE=str(archive))
    rows = json.loads(listed.stdout)
    assert sorted(r["match_id"] for r in rows if r["archived"]) == tables
    audited = siege(["audit", state.tid, "--json"], tmp_path, REDIS_URL=redis_url,
                    SIEGE_ARCHIVE=str(archive))
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert len(audited.stdout.splitlines()) == len(tables) + 1
    replayed = siege(["replay", tables[0], "--text"], tmp_path, REDIS_URL=redis_url,
                     SIEGE_ARCHIVE=str(archive))
    assert replayed.returncode == 0 and "After seq" in replayed.stdout, replayed.stderr
    exported = siege(["export", "--parquet", "tables"], tmp_path, REDIS_URL=redis_url,
                     SIEGE_ARCHIVE=str(archive))
    assert exported.returncode == 0, exported.stderr
    (counted,) = duckdb.sql(f"select count(*), sum(events) from "
                            f"'{tmp_path / 'tables' / 'matches.parquet'}'").fetchall()
    reader = ArchivingLog(redis_client, FolderStore(archive))
    events = sum(len(run(reader.read(m))) for m in tables)
    assert counted == (len(tables), events)

    # With the live store gone, the archives alone give the same standings and ratings.
    run(redis_client.flushdb())
    after = siege(["standings", state.tid, "--format", "json"], tmp_path, REDIS_URL=redis_url,
                  SIEGE_ARCHIVE=str(archive))
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout) == json.loads(before.stdout)
    alone = ArchivingLog(redis_client, FolderStore(archive), everything=True)
    assert run(alone.match_ids()) == sorted([*tables, state.tid])
    rebuilt, _, _ = run(TournamentStore(alone, FixedClock(0)).load(state.tid))
    assert rebuilt.sealed is not None  # sealed after the run returned its state
    rebuilt.sealed = None
    assert rebuilt == state
    ratings, _ = replay_ratings(r for r in rebuilt.order if isinstance(r, TableResult))
    assert ratings == book
    assert standings(rebuilt.entrants, rebuilt.order, two_player=False) == standings(
        state.entrants, state.order, two_player=False)
    assert run(redis_client.exists(KEYS_HASH)) == 0  # nothing of it came from Redis


async def _keys(client: redis.asyncio.Redis) -> list[str]:
    return sorted([k.decode() async for k in client.scan_iter()])


def test_archive_says_what_is_wrong_with_a_store_it_cannot_use(tmp_path: Path) -> None:
    done = siege(["archive", "--archive", "ftp://host/x"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "s3://bucket[/prefix]" in done.stderr
    served = siege(["serve", "archiver"], tmp_path, REDIS_URL="redis://127.0.0.1:1/0",
                   SIEGE_ARCHIVE_EVERY_S="0")
    assert served.returncode == 2 and "SIEGE_ARCHIVE_EVERY_S" in served.stderr
