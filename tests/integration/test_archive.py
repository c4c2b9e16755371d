"""Archives against a real redis-server: a finished match leaves Redis whole and audited, every
reader still reads it, and an archiver killed at any step loses nothing and duplicates nothing.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis.asyncio

from siege.archive import bundle
from siege.archive.archiving import (
    ARCHIVED,
    FAILED_AUDIT,
    LEASED,
    STEPS,
    UNFINISHED,
    Archiver,
)
from siege.archive.bundle import ArchiveError
from siege.archive.reading import ArchivingLog
from siege.archive.stores import FolderStore, StoreError, open_store
from siege.archive.tombstones import TOMBSTONE_BUDGET, read_tombstone
from siege.eventlog.keys import (
    KEYS_HASH,
    RESULTS_HASH,
    archived_key,
    archiving_key,
    log_key,
    shard_of,
    view_key,
)
from siege.eventlog.log import MatchArchivedError, RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState
from siegeworks.keys import read_keyring
from siegeworks.runner import RunConfig, play_matches
from siegeworks.scoring.handlers import result_of

pytestmark = pytest.mark.integration

Run = Callable[[Awaitable[Any]], Any]


class Killed(BaseException):
    """The archiver's process dying at a checkpoint: nothing after it runs, no lease released."""


class CountingStore(FolderStore):
    """A folder store that counts the objects written (a duplicate would be a second put)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.puts: list[str] = []

    async def put(self, name: str, data: bytes) -> None:
        self.puts.append(name)
        await super().put(name, data)


async def _played(redis_client: redis.asyncio.Redis, matches: int = 2) -> list[str]:
    """Finished, sealed matches in Redis (played by the in-process services onto its log), each
    with its seats' prompt streams and its result recorded, as the services leave them."""
    log = RedisEventLog(redis_client)
    result = await play_matches(RunConfig(game="castle-dash", matches=matches, players=3,
                                          bots=["random"], seed=11), log)
    for match_id in result.match_ids:
        ms = MatchState(match_id)
        decode_entries(ms, await log.read(match_id))
        assert ms.created is not None
        for seat, client in enumerate(ms.created.clients):
            await redis_client.xadd(view_key(client, match_id, seat), {"m": b"prompt"})
        await redis_client.hset(RESULTS_HASH, match_id, msgspec.msgpack.encode(result_of(ms)))
    return result.match_ids


def _archiver(redis_client: redis.asyncio.Redis, store: FolderStore, owner: str = "a1",
              checkpoint: Callable[[str, str], None] = lambda step, m: None) -> Archiver:
    return Archiver(redis_client, RedisEventLog(redis_client), store,
                    lambda: read_keyring(redis_client), owner=owner,
                    now_ms=lambda: 1_900_000_000_000, checkpoint=checkpoint)


async def _keys_naming(redis_client: redis.asyncio.Redis, match_id: str) -> list[str]:
    return sorted([k.decode() async for k in redis_client.scan_iter(match=f"*{match_id}*")])


@pytest.mark.both_stores
def test_an_archived_match_leaves_only_its_tombstone_and_reads_as_before(
        redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    async def scenario() -> None:
        match_ids = await _played(redis_client)
        before = {m: await RedisEventLog(redis_client).read(m) for m in match_ids}
        keyring = await read_keyring(redis_client)
        store = CountingStore(tmp_path / "archive")
        outcomes = await _archiver(redis_client, store).archive_all(match_ids)
        assert [o.state for o in outcomes] == [ARCHIVED] * len(match_ids)
        reader = ArchivingLog(redis_client, store)
        for match_id in match_ids:
            assert await _keys_naming(redis_client, match_id) == []  # log, seed, seats: gone
            assert not await redis_client.hexists(RESULTS_HASH, match_id)
            tombstone = await read_tombstone(redis_client, match_id)
            assert tombstone is not None and tombstone.events == len(before[match_id])
            finished = tombstone.finished()  # the result scoring recorded, kept
            assert finished is not None and finished.match_id == match_id and finished.ranks
            cost = (await redis_client.memory_usage(archived_key(shard_of(match_id))) or 0)
            assert len(await redis_client.hget(archived_key(shard_of(match_id)), match_id)) \
                < TOMBSTONE_BUDGET // 2 and cost > 0
            assert await reader.read(match_id) == before[match_id]
            assert await reader.read(match_id, after_seq=5) == before[match_id][5:]
            assert audit(await reader.read(match_id), keyring).seal == "verified"
        assert sorted(await reader.match_ids()) == sorted(match_ids)
        assert sorted(store.puts) == sorted(bundle.object_name(m) for m in match_ids)

    run(scenario())


def test_no_log_can_start_again_under_an_archived_id(
        redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    async def scenario() -> None:
        (match_id,) = await _played(redis_client, matches=1)
        first = (await RedisEventLog(redis_client).read(match_id))[0]
        await _archiver(redis_client, FolderStore(tmp_path)).archive(match_id)
        with pytest.raises(MatchArchivedError):
            await RedisEventLog(redis_client).append(match_id, 0, bytes(32),
                                                     [(first[1], first[2])])
        assert not await redis_client.exists(log_key(match_id))

    run(scenario())


@pytest.mark.parametrize("step", STEPS)
def test_an_archiver_killed_at_any_step_loses_nothing_and_duplicates_nothing(
        step: str, redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    async def scenario() -> None:
        (match_id,) = await _played(redis_client, matches=1)
        before = await RedisEventLog(redis_client).read(match_id)
        store = CountingStore(tmp_path / "archive")

        def die(at: str, _match: str) -> None:
            if at == step:
                raise Killed(at)

        with pytest.raises(Killed):
            await _archiver(redis_client, store, "dying", die).archive(match_id)
        # The dead archiver's lease holds until it runs out, and keeps others off meanwhile.
        assert (await _archiver(redis_client, store, "next").archive(match_id)).state == LEASED
        await redis_client.delete(archiving_key(match_id))  # ... and then it runs out
        outcome = await _archiver(redis_client, store, "next").archive(match_id)
        assert outcome.done or outcome.state == "archived already"
        assert set(store.puts) == {bundle.object_name(match_id)}
        assert len(store.puts) <= 2  # the same bytes at most twice, under the one name
        assert await _keys_naming(redis_client, match_id) == []
        assert not await redis_client.hexists(RESULTS_HASH, match_id)
        assert await ArchivingLog(redis_client, store).read(match_id) == before
        assert len(await store.names()) == 1

    run(scenario())


def test_two_archivers_never_archive_one_match_twice(
        redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    async def scenario() -> None:
        match_ids = await _played(redis_client, matches=4)
        store = CountingStore(tmp_path / "archive")
        first, second = await asyncio.gather(
            _archiver(redis_client, store, "a1").archive_all(match_ids, at_once=4),
            _archiver(redis_client, store, "a2").archive_all(match_ids, at_once=4))
        assert sorted(store.puts) == sorted(bundle.object_name(m) for m in match_ids)
        for a, b in zip(first, second, strict=True):
            assert [a.done, b.done].count(True) == 1, (a, b)

    run(scenario())


def test_a_match_that_fails_its_audit_or_is_unfinished_stays(
        redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    async def scenario() -> None:
        cut, forged = await _played(redis_client, matches=2)
        log = RedisEventLog(redis_client)
        # A log rewritten around the script (as someone with the store's password could): one
        # entry's hash no longer matches its bytes, the seal still at the end.
        entries = await log.read(forged)
        await redis_client.delete(log_key(forged))
        for seq, stored, digest in entries:
            await redis_client.xadd(log_key(forged), {"e": stored,
                                                      "h": bytes(32) if seq == 10 else digest},
                                    id=f"0-{seq}")
        # A log that stops before its end: nothing to archive yet.
        head = (await log.read(cut))[:-3]
        await redis_client.delete(log_key(cut))
        await log.append(cut, 0, bytes(32), [(stored, digest) for _, stored, digest in head])
        store = CountingStore(tmp_path / "archive")
        outcomes = await _archiver(redis_client, store).archive_all([cut, forged])
        assert {o.match_id: o.state for o in outcomes} == {cut: UNFINISHED, forged: FAILED_AUDIT}
        assert "seq 10" in outcomes[1].detail
        assert store.puts == []
        assert await redis_client.exists(log_key(cut), log_key(forged)) == 2

    run(scenario())


def test_a_seal_no_published_key_verifies_is_not_archived(
        redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    async def scenario() -> None:
        (match_id,) = await _played(redis_client, matches=1)
        await redis_client.delete(KEYS_HASH)
        store = CountingStore(tmp_path / "archive")
        outcome = await _archiver(redis_client, store).archive(match_id)
        assert outcome.state == FAILED_AUDIT and "seal" in outcome.detail
        assert store.puts == [] and await redis_client.exists(log_key(match_id))

    run(scenario())


def test_an_archive_changed_in_its_store_is_refused(
        redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    async def scenario() -> None:
        (match_id,) = await _played(redis_client, matches=1)
        store = FolderStore(tmp_path / "archive")
        await _archiver(redis_client, store).archive(match_id)
        path = tmp_path / "archive" / bundle.object_name(match_id)
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 1
        path.write_bytes(bytes(data))
        with pytest.raises(ArchiveError, match="sha256"):
            await ArchivingLog(redis_client, store).read(match_id)

    run(scenario())


@pytest.fixture
def s3_endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A real S3 server (moto in server mode) on a free port of this machine, with a bucket."""
    import boto3
    from moto.server import ThreadedMotoServer

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "siege-test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "siege-test")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    monkeypatch.setenv("AWS_ENDPOINT_URL", endpoint)
    boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="siege-archive")
    yield endpoint
    server.stop()


def test_archives_go_to_s3_and_are_read_back_from_there(
        redis_client: redis.asyncio.Redis, run: Run, s3_endpoint: str) -> None:
    async def scenario() -> None:
        match_ids = await _played(redis_client, matches=2)
        before = {m: await RedisEventLog(redis_client).read(m) for m in match_ids}
        store = open_store(f"s3://siege-archive/prod?endpoint={s3_endpoint}")
        outcomes = await _archiver(redis_client, store).archive_all(match_ids)
        assert [o.state for o in outcomes] == [ARCHIVED, ARCHIVED]
        assert outcomes[0].detail.startswith("s3://siege-archive/prod/matches/")
        assert await store.names() == sorted(bundle.object_name(m) for m in match_ids)
        # A reader configured with another store still finds each archive where its tombstone
        # says it went (the endpoint from AWS_ENDPOINT_URL).
        reader = ArchivingLog(redis_client, FolderStore(Path("/nonexistent")))
        for match_id in match_ids:
            assert await reader.read(match_id) == before[match_id]
        # With Redis gone, the bucket alone lists and reads every match.
        await redis_client.flushdb()
        alone = ArchivingLog(redis_client, store, everything=True)
        assert await alone.match_ids() == sorted(match_ids)
        assert [await alone.read(m) for m in match_ids] == [before[m] for m in match_ids]

    run(scenario())


def test_an_archive_url_that_names_no_store_is_refused() -> None:
    for url in ("s3://", "ftp://host/x"):
        with pytest.raises(StoreError):
            open_store(url)


def test_the_web_pages_show_an_archived_match_and_serve_its_log_to_the_verifier(
        redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    from starlette.requests import Request

    from siege.hosting.export import dump
    from siegeworks.web.app import Gateway

    def get(path: str, match_id: str) -> Request:
        return Request({"type": "http", "method": "GET", "path": path, "headers": [],
                        "query_string": b"", "path_params": {"match_id": match_id}})

    async def scenario() -> None:
        (match_id,) = await _played(redis_client, matches=1)
        entries = await RedisEventLog(redis_client).read(match_id)
        store = FolderStore(tmp_path / "archive")
        await _archiver(redis_client, store).archive(match_id)
        gateway = Gateway(redis_client, store)
        page = await gateway.match(get(f"/matches/{match_id}", match_id))
        assert page.status_code == 200 and match_id.encode() in page.body
        exported = await gateway.export(get(f"/matches/{match_id}/export.jsonl", match_id))
        assert exported.status_code == 200 and exported.body == dump(entries)
        listed = await gateway.matches(Request({"type": "http", "method": "GET",
                                                "path": "/matches", "headers": [],
                                                "query_string": b"state=finished"}))
        assert match_id.encode() in listed.body

    run(scenario())


@pytest.mark.parametrize("open_seats", [False, True])
def test_a_create_under_an_archived_id_is_refused_as_taken(
        open_seats: bool, redis_client: redis.asyncio.Redis, run: Run, tmp_path: Path) -> None:
    from siege.contracts.messages import CommandRefused, CreateMatch
    from siege.contracts.rejections import RejectionCode
    from siege.eventlog.keys import inbox_key
    from siege.hosting.clock import FixedClock
    from siegeworks import bus as topics
    from siegeworks.wiring import wire_in_process

    async def scenario() -> None:
        (match_id,) = await _played(redis_client, matches=1)
        await _archiver(redis_client, FolderStore(tmp_path)).archive(match_id)
        wired = wire_in_process(RedisEventLog(redis_client), FixedClock(5_000), b"again")
        heard: list[Any] = []

        async def keep(message: Any) -> None:
            heard.append(message)

        wired.bus.subscribe(inbox_key("c2"), keep)
        await wired.bus.publish(topics.COMMANDS, CreateMatch(
            match_id=match_id, game="castle-dash", seat_names=["x", "y", "z"], client="c2",
            clients=["c2", "", "c2"] if open_seats else []))
        await wired.bus.drain()
        refusals = [m for m in heard if isinstance(m, CommandRefused)]
        assert [(m.code, "archived" in m.detail) for m in refusals] == [
            (RejectionCode.MATCH_ID_TAKEN, True)]
        assert not await redis_client.exists(log_key(match_id))

    run(scenario())
