"""The match log on a real redis-server, and the same semantics on MemoryEventLog.

Tests taking the ``log`` fixture run twice: against RedisEventLog (the script on a real server)
and against MemoryEventLog, so the in-memory double cannot drift from the real thing.
"""

from __future__ import annotations

import asyncio
import hashlib
import zlib
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis
import redis.asyncio
import redis.crc

from siege.contracts.envelope import GENESIS, EventCodec, digest, seal
from siege.contracts.events import MatchCreated, SeedCommitted
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import (
    AUDIENCES,
    NO_POINTER,
    SHARDS,
    bus_key,
    log_key,
    matches_key,
    seed_key,
    shard_of,
)
from siege.eventlog.log import (
    ZERO_HASH,
    AppendConflict,
    CorruptLogError,
    EventLog,
    MemoryEventLog,
    RedisEventLog,
    SideKeyTakenError,
)
from siege.eventlog.pipelined import PipelinedRedis

pytestmark = pytest.mark.integration

Run = Callable[[Awaitable[Any]], Any]
Entry = tuple[bytes, bytes]


def chain(match_id: str, head_seq: int, head_hash: bytes, n: int, tag: str = "") -> list[Entry]:
    """``n`` fake stored events after the head, each naming its seq and previous hash."""
    out: list[Entry] = []
    prev = head_hash
    for seq in range(head_seq + 1, head_seq + n + 1):
        stored = f"{match_id}|{seq}|{tag}|".encode() + prev
        prev = hashlib.sha256(stored).digest()
        out.append((stored, prev))
    return out


def as_read(head_seq: int, entries: list[Entry]) -> list[tuple[int, bytes, bytes]]:
    return [(head_seq + i, stored, h) for i, (stored, h) in enumerate(entries, 1)]


def ids_on_distinct_shards(count: int) -> list[str]:
    """Match ids that land on ``count`` different shards."""
    by_shard: dict[int, str] = {}
    i = 0
    while len(by_shard) < count:
        by_shard.setdefault(shard_of(f"match-{i}"), f"match-{i}")
        i += 1
    return list(by_shard.values())


@pytest.fixture(params=["redis", "pipelined", "memory"])
def log(request: pytest.FixtureRequest) -> EventLog:
    if request.param == "redis":
        return request.getfixturevalue("event_log")
    if request.param == "pipelined":  # the services' hot path: one auto-pipelined connection
        client = request.getfixturevalue("redis_client")
        return RedisEventLog(client, pipelined=PipelinedRedis.like(client))
    return MemoryEventLog()


# --- semantics, on both implementations ------------------------------------------------------


def test_empty_log_has_genesis_head_and_no_entries(log: EventLog, run: Run) -> None:
    assert run(log.head("m1")) == (0, ZERO_HASH)
    assert run(log.read("m1")) == []
    assert ZERO_HASH == GENESIS


def test_append_then_read_round_trips_bytes_and_head(log: EventLog, run: Run) -> None:
    entries = chain("m1", 0, ZERO_HASH, 1)

    assert run(log.append("m1", 0, ZERO_HASH, entries)) == 1

    assert run(log.read("m1")) == as_read(0, entries)
    assert run(log.head("m1")) == (1, entries[0][1])


def test_batches_append_consecutive_seqs_and_read_after_skips(log: EventLog, run: Run) -> None:
    first = chain("m1", 0, ZERO_HASH, 3)
    second = chain("m1", 3, first[-1][1], 2)

    assert run(log.append("m1", 0, ZERO_HASH, first)) == 3
    assert run(log.append("m1", 3, first[-1][1], second)) == 5

    assert run(log.read("m1")) == as_read(0, first) + as_read(3, second)
    assert run(log.read("m1", after_seq=2)) == as_read(0, first)[2:] + as_read(3, second)
    assert run(log.read("m1", after_seq=5)) == []
    assert run(log.head("m1")) == (5, second[-1][1])


def test_real_envelopes_chain_through_the_log(log: EventLog, run: Run) -> None:
    codec = EventCodec()
    events = [
        MatchCreated(game="castle_dash", players=2, seat_names=["a", "b"]),
        SeedCommitted(commitment="00" * 32),
    ]
    sealed = seal(codec, "m1", 0, GENESIS, events, at=1_700_000_000_000)

    run(log.append("m1", 0, GENESIS, [(stored, h) for _, stored, h in sealed]))

    back = run(log.read("m1"))
    assert back == sealed
    prev = GENESIS
    for seq, stored, h in back:
        envelope = codec.decode(stored)
        assert (envelope.seq, envelope.prev) == (seq, prev)
        assert digest(stored) == h
        prev = h
    assert [codec.decode(stored).event for _, stored, _ in back] == events


@pytest.mark.parametrize("stale", ["seq", "hash", "both"])
def test_stale_head_conflicts_and_writes_nothing(log: EventLog, run: Run, stale: str) -> None:
    entries = chain("m1", 0, ZERO_HASH, 2)
    run(log.append("m1", 0, ZERO_HASH, entries))
    before_log, before_bus = run(log.read("m1")), run(log.read_bus(shard_of("m1")))
    expected_seq = 1 if stale in ("seq", "both") else 2
    expected_hash = entries[0][1] if stale in ("hash", "both") else entries[1][1]

    result = run(log.append("m1", expected_seq, expected_hash, chain("m1", 1, b"x" * 32, 1, "b")))

    assert result == AppendConflict(head_seq=2, head_hash=entries[1][1])
    assert run(log.read("m1")) == before_log
    assert run(log.read_bus(shard_of("m1"))) == before_bus


def test_gap_beyond_head_is_refused(log: EventLog, run: Run) -> None:
    entries = chain("m1", 0, ZERO_HASH, 1)
    run(log.append("m1", 0, ZERO_HASH, entries))

    # Even with the right hash: seq 5 after head 1 would leave 2..4 missing.
    result = run(log.append("m1", 4, entries[0][1], chain("m1", 4, entries[0][1], 1)))

    assert result == AppendConflict(head_seq=1, head_hash=entries[0][1])
    assert [seq for seq, _, _ in run(log.read("m1"))] == [1]


def test_rewrite_below_head_is_refused(log: EventLog, run: Run) -> None:
    entries = chain("m1", 0, ZERO_HASH, 3)
    run(log.append("m1", 0, ZERO_HASH, entries))

    rewrite = chain("m1", 0, ZERO_HASH, 1, "rewrite")
    result = run(log.append("m1", 0, ZERO_HASH, rewrite))

    assert result == AppendConflict(head_seq=3, head_hash=entries[2][1])
    assert run(log.read("m1")) == as_read(0, entries)


def test_conflict_on_an_empty_log_creates_nothing(log: EventLog, run: Run) -> None:
    result = run(log.append("ghost", 1, b"h" * 32, chain("ghost", 1, b"h" * 32, 1)))

    assert result == AppendConflict(head_seq=0, head_hash=ZERO_HASH)
    assert run(log.match_ids()) == []
    assert run(log.read_bus(shard_of("ghost"))) == []


@pytest.mark.parametrize(
    ("expected_seq", "expected_hash", "entries", "side", "message"),
    [
        (0, ZERO_HASH, [], None, "empty batch"),
        (0, b"short", [(b"e", b"h" * 32)], None, "expected_hash"),
        (-1, ZERO_HASH, [(b"e", b"h" * 32)], None, "expected_seq"),
        (0, ZERO_HASH, [(b"e", b"short")], None, "hash of entry 0"),
        (0, ZERO_HASH, [(b"e", b"h" * 32)], ("{s99}:seed:m1", b"s"), "hash tag"),
    ],
)
def test_malformed_appends_are_refused_before_writing(
    log: EventLog,
    run: Run,
    expected_seq: int,
    expected_hash: bytes,
    entries: list[Entry],
    side: tuple[str, bytes] | None,
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        run(log.append("m1", expected_seq, expected_hash, entries, side))
    assert run(log.head("m1")) == (0, ZERO_HASH)


def test_each_append_leaves_one_bus_pointer_with_first_and_last(log: EventLog, run: Run) -> None:
    shard = shard_of("m1")
    first = chain("m1", 0, ZERO_HASH, 1)
    second = chain("m1", 1, first[-1][1], 3)
    run(log.append("m1", 0, ZERO_HASH, first))
    run(log.append("m1", 1, first[-1][1], second))

    pointers = run(log.read_bus(shard))

    assert [(m, f, last) for _, m, f, last in pointers] == [("m1", 1, 1), ("m1", 2, 4)]
    assert run(log.read_bus(shard, after_id=pointers[0][0])) == pointers[1:]
    assert run(log.read_bus(shard, count=1)) == pointers[:1]
    other = (shard + 1) % SHARDS
    assert run(log.read_bus(other)) == []


def test_an_append_for_no_audience_leaves_no_pointer_anywhere(log: EventLog, run: Run) -> None:
    shard = shard_of("m1")
    first = chain("m1", 0, ZERO_HASH, 1)
    second = chain("m1", 1, first[-1][1], 2)
    run(log.append("m1", 0, ZERO_HASH, first, audience="rules"))
    run(log.append("m1", 1, first[-1][1], second, audience=NO_POINTER))  # the writer goes on

    assert len(run(log.read("m1"))) == 3
    assert [(f, last) for _, _, f, last in run(log.read_bus(shard, audience="rules"))] == [(1, 1)]
    for audience in (None, *AUDIENCES):
        assert all(last == 1 for *_, last in run(log.read_bus(shard, audience=audience)))


def test_the_last_small_event_travels_in_its_pointer(redis_client: redis.asyncio.Redis,
                                                     run: Run) -> None:
    """The pointer of an append carries a copy of its last entry (fields e and h, as in the
    log) and, when the writer gives one, the guard (field g); an event over the copy limit
    leaves only the pointer."""
    log = RedisEventLog(redis_client)
    first = chain("m1", 0, ZERO_HASH, 1)
    run(log.append("m1", 0, ZERO_HASH, first, audience="rules"))
    several = chain("m1", 1, first[-1][1], 2)
    run(log.append("m1", 1, first[-1][1], several, audience="dice", guard=b"7:0"))
    big_stored = b"x" * 2000
    big = [(big_stored, hashlib.sha256(big_stored).digest())]
    run(log.append("m1", 3, several[-1][1], big, audience="rules", guard=b"7:0"))

    shard = shard_of("m1")
    rules = [row[1] for row in run(redis_client.xrange(bus_key(shard, "rules")))]
    dice = [row[1] for row in run(redis_client.xrange(bus_key(shard, "dice")))]
    assert rules[0] == {b"m": b"m1", b"f": b"1", b"l": b"1", b"e": first[0][0],
                        b"h": first[0][1]}
    assert run(log.read("m1"))[0] == (1, rules[0][b"e"], rules[0][b"h"])
    assert dice == [{b"m": b"m1", b"f": b"2", b"l": b"3", b"e": several[-1][0],
                     b"h": several[-1][1], b"g": b"7:0"}]
    assert rules[1] == {b"m": b"m1", b"f": b"4", b"l": b"4"}  # no copy, so no guard either
    # The guard is the pointer's alone: the log stores what it always did.
    assert [stored for _, stored, _ in run(log.read("m1"))] == [
        first[0][0], *(e for e, _ in several), big_stored]


def test_side_value_is_stored_with_the_events(log: EventLog, run: Run) -> None:
    key = seed_key("m1")
    entries = chain("m1", 0, ZERO_HASH, 1)

    run(log.append("m1", 0, ZERO_HASH, entries, side=(key, b"secret-1")))

    assert run(log.get_side(key)) == b"secret-1"
    assert run(log.get_side(seed_key("m2"))) is None


def test_side_value_is_not_written_when_the_append_conflicts(log: EventLog, run: Run) -> None:
    run(log.append("m1", 0, ZERO_HASH, chain("m1", 0, ZERO_HASH, 1)))

    result = run(
        log.append("m1", 0, ZERO_HASH, chain("m1", 0, ZERO_HASH, 1, "b"), (seed_key("m1"), b"s"))
    )

    assert isinstance(result, AppendConflict)
    assert run(log.get_side(seed_key("m1"))) is None


def test_side_key_is_never_overwritten(log: EventLog, run: Run) -> None:
    key = seed_key("m1")
    first = chain("m1", 0, ZERO_HASH, 1)
    run(log.append("m1", 0, ZERO_HASH, first, side=(key, b"secret-1")))
    second = chain("m1", 1, first[0][1], 1)

    # Another value: refused as a whole, so no event ever commits to a seed that is not stored.
    with pytest.raises(SideKeyTakenError):
        run(log.append("m1", 1, first[0][1], second, side=(key, b"secret-2")))
    assert run(log.get_side(key)) == b"secret-1"
    assert run(log.head("m1")) == (1, first[0][1])

    # The same value again (a retried write of the same decision) is accepted.
    assert run(log.append("m1", 1, first[0][1], second, side=(key, b"secret-1"))) == 2
    assert run(log.get_side(key)) == b"secret-1"


def test_match_ids_lists_every_shard_sorted(log: EventLog, run: Run) -> None:
    ids = ids_on_distinct_shards(5)
    for match_id in ids:
        run(log.append(match_id, 0, ZERO_HASH, chain(match_id, 0, ZERO_HASH, 1)))
    # A second append to a match must not list it twice.
    head = run(log.head(ids[0]))
    run(log.append(ids[0], head[0], head[1], chain(ids[0], *head, 1)))

    assert run(log.match_ids()) == sorted(ids)


def test_two_writers_from_the_same_head_exactly_one_wins(log: EventLog, run: Run) -> None:
    # On Memory, both writers share one object; on Redis, see the two-connection test below.
    won = run(_race(log, log, rounds=50))
    assert won == 50


# --- Redis only ------------------------------------------------------------------------------


async def _race(a: EventLog, b: EventLog, rounds: int) -> int:
    """Both writers append from the same head each round; asserts one winner per round."""
    seq, head_hash = await a.head("race")
    for round_no in range(rounds):
        entry_a = chain("race", seq, head_hash, 1, "a")
        entry_b = chain("race", seq, head_hash, 1, "b")
        # Alternate who is sent first, so a bias in send order cannot hide a broken loser path.
        writers = [(a, entry_a), (b, entry_b)]
        if round_no % 2:
            writers.reverse()
        results = await asyncio.gather(*(w.append("race", seq, head_hash, e) for w, e in writers))
        winners = [r for r in results if isinstance(r, int)]
        losers = [r for r in results if isinstance(r, AppendConflict)]
        assert winners == [seq + 1], f"round {round_no}: {results}"
        assert len(losers) == 1
        winner_entries = dict(zip(results, (e for _, e in writers), strict=True))[seq + 1]
        # The loser is told the head the winner created, so it can re-read and retry.
        assert losers[0] == AppendConflict(head_seq=seq + 1, head_hash=winner_entries[0][1])
        seq, head_hash = seq + 1, winner_entries[0][1]
    entries = await a.read("race")
    assert [s for s, _, _ in entries] == list(range(1, rounds + 1))
    # Every stored entry links to its predecessor: no entry of a losing writer slipped in.
    prev = ZERO_HASH
    for _, stored, h in entries:
        assert stored.endswith(prev)
        assert hashlib.sha256(stored).digest() == h
        prev = h
    return len(entries)


@pytest.mark.parametrize("pipelined", [False, True])
def test_two_connections_race_and_exactly_one_append_wins_each_round(
    redis_url: str, run: Run, pipelined: bool
) -> None:
    async def main() -> None:
        async with (
            redis.asyncio.Redis.from_url(redis_url) as client_a,
            redis.asyncio.Redis.from_url(redis_url) as client_b,
        ):
            await client_a.flushdb()
            if pipelined:
                log_a = RedisEventLog(client_a, pipelined=PipelinedRedis.like(client_a))
                log_b = RedisEventLog(client_b, pipelined=PipelinedRedis.like(client_b))
            else:
                log_a, log_b = RedisEventLog(client_a), RedisEventLog(client_b)
            assert await _race(log_a, log_b, rounds=300) == 300
            pointers = await log_a.read_bus(shard_of("race"))
            assert [(f, last) for _, _, f, last in pointers] == [(n, n) for n in range(1, 301)]

    run(main())


def test_read_pages_through_long_logs(redis_client: redis.asyncio.Redis, run: Run) -> None:
    log = RedisEventLog(redis_client, page_size=7)
    entries = chain("m1", 0, ZERO_HASH, 50)
    run(log.append("m1", 0, ZERO_HASH, entries[:21]))  # ends exactly on a page boundary
    run(log.append("m1", 21, entries[20][1], entries[21:]))

    assert run(log.read("m1")) == as_read(0, entries)
    assert run(log.read("m1", after_seq=13)) == as_read(0, entries)[13:]
    assert run(log.read("m1", after_seq=14)) == as_read(0, entries)[14:]


def test_redis_itself_accepts_gaps_which_read_detects(
    event_log: RedisEventLog, redis_client: redis.asyncio.Redis, run: Run
) -> None:
    """Why the script checks the head: a plain XADD with a larger id is accepted."""
    entries = chain("m1", 0, ZERO_HASH, 1)
    run(event_log.append("m1", 0, ZERO_HASH, entries))
    bypass = chain("m1", 4, entries[0][1], 1)[0]

    run(redis_client.xadd(log_key("m1"), {"e": bypass[0], "h": bypass[1]}, id="0-5"))

    with pytest.raises(CorruptLogError):
        run(event_log.read("m1"))


def test_script_refuses_an_empty_batch_and_bad_argument_counts(
    redis_client: redis.asyncio.Redis, run: Run
) -> None:
    """The script's own guards, for callers that do not go through the Python class."""
    log = RedisEventLog(redis_client)
    shard = shard_of("m1")
    keys = [log_key("m1"), bus_key(shard), matches_key(shard)]

    with pytest.raises(redis.ResponseError, match="empty batch"):
        run(log._append(keys=keys, args=["m1", 0, ZERO_HASH, 0]))
    with pytest.raises(redis.ResponseError, match="arguments"):
        run(log._append(keys=keys, args=["m1", 0, ZERO_HASH, 2, b"e", b"h" * 32]))
    with pytest.raises(redis.ResponseError, match="arguments"):  # side key without a value
        run(
            log._append(keys=[*keys, seed_key("m1")], args=["m1", 0, ZERO_HASH, 1, b"e", b"h" * 32])
        )
    with pytest.raises(redis.ResponseError, match="32 bytes"):
        run(log._append(keys=keys, args=["m1", 0, ZERO_HASH, 1, b"e", b"short"]))

    assert run(redis_client.keys("*")) == []


def test_decoding_clients_are_refused(redis_url: str) -> None:
    client = redis.asyncio.Redis.from_url(redis_url, decode_responses=True)
    with pytest.raises(ValueError, match="decode_responses"):
        RedisEventLog(client)


def test_keys_of_one_match_share_a_hash_tag_and_slot() -> None:
    for match_id in ids_on_distinct_shards(SHARDS):
        shard = shard_of(match_id)
        keys = [log_key(match_id), bus_key(shard), matches_key(shard), seed_key(match_id)]
        assert {k.split(":", 1)[0] for k in keys} == {f"{{s{shard}}}"}
        assert len({redis.crc.key_slot(k.encode()) for k in keys}) == 1
    assert log_key("m1") == f"{{s{shard_of('m1')}}}:log:m1"
    assert shard_of("m1") == zlib.crc32(b"m1") % SHARDS


def test_append_runs_on_a_cluster_node_and_keys_share_a_slot() -> None:
    """A one-node Redis Cluster: CLUSTER KEYSLOT is real, and a cross-slot script would fail."""
    with EmbeddedRedis(cluster=True) as server:
        with redis.Redis.from_url(server.url) as sync:
            for match_id in ids_on_distinct_shards(4):
                shard = shard_of(match_id)
                keys = [log_key(match_id), bus_key(shard), matches_key(shard), seed_key(match_id)]
                slots = {sync.execute_command("CLUSTER", "KEYSLOT", k) for k in keys}
                assert slots == {redis.crc.key_slot(keys[0].encode())}

        async def main() -> None:
            async with redis.asyncio.Redis.from_url(server.url) as client:
                log = RedisEventLog(client)
                entries = chain("m1", 0, ZERO_HASH, 2)
                seed = (seed_key("m1"), b"s")
                assert await log.append("m1", 0, ZERO_HASH, entries, side=seed) == 2
                assert await log.read("m1") == as_read(0, entries)
                assert await log.get_side(seed_key("m1")) == b"s"
                # The control: the same script given keys of two shards is refused here.
                other = bus_key((shard_of("m1") + 1) % SHARDS)
                with pytest.raises(redis.ResponseError, match="same slot"):
                    await log._append(
                        keys=[log_key("m1"), other, matches_key(shard_of("m1"))],
                        args=["m1", 2, entries[1][1], 1, *chain("m1", 2, entries[1][1], 1)[0]],
                    )
                assert await log.head("m1") == (2, entries[1][1])

        asyncio.run(main())
