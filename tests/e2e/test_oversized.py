"""Oversized commands against the four services on our own redis-server (found by an attacker
with a normal client's credentials): a 16 MB seat name went into a permanent match log, and 20
refusals echoing 4 MB options made a 105 MB inbox. Now Redis takes no command over 1 MB, such a
command fails to decode, is dead-lettered and leaves the client's stream at once, a refusal
quotes at most a few hundred bytes of what it refuses, and a client flooding large entries
keeps at most its byte budget.
"""

from __future__ import annotations

import asyncio
import time

import msgspec
import redis.asyncio
import redis.exceptions

from siege.contracts.messages import (
    MAX_DETAIL,
    MAX_INBOX_ENTRY_BYTES,
    MAX_MATCH_ID,
    MAX_OPTION_VALUE,
    CommandRefused,
    CreateMatch,
    Message,
    SeatGranted,
    bus_decoder,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.embedded import COMMAND_LIMITS, EmbeddedRedis
from siege.eventlog.keys import (
    CLIENTS_CHANGED_STREAM,
    CLIENTS_KEY,
    DEAD_LETTER_STREAM,
    commands_key,
    inbox_key,
    lobby_key,
    log_key,
)
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.byte_watch import CLIENT_STREAM_BYTES

CLIENT = "mallory"
SLOW = {"decision_timeout_ms": "600000"}  # nobody plays here: no clock may fire meanwhile


async def _announce(client: redis.asyncio.Redis, who: str) -> None:
    """What a client does on a server without ACLs: enters itself in the registry and rings."""
    await client.sadd(CLIENTS_KEY, who)
    await client.xadd(CLIENTS_CHANGED_STREAM, {"c": who})


async def _send(client: redis.asyncio.Redis, body: dict | Message) -> str:
    entry_id = await client.xadd(commands_key(CLIENT), {b"m": msgspec.msgpack.encode(body)})
    return entry_id.decode()


async def _inbox(client: redis.asyncio.Redis) -> list[tuple[int, Message]]:
    """(size of the entry's message, the message) for every entry of the client's inbox."""
    return [(len(fields[b"m"]), bus_decoder.decode(fields[b"m"]))
            for _, fields in await client.xrange(inbox_key(CLIENT))]


async def _until_granted(client: redis.asyncio.Redis, match_id: str) -> list[tuple[int, Message]]:
    """The inbox once ``match_id`` was granted: the services read one client's commands in
    order, so everything sent before that create has been handled."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        inbox = await _inbox(client)
        if any(isinstance(msg, SeatGranted) and msg.match_id == match_id for _, msg in inbox):
            return inbox
        await asyncio.sleep(0.05)
    raise AssertionError(f"{match_id} was never granted")


def _create(match_id: str, **fields: object) -> dict:
    body: dict = {"t": "cmd.create_match", "match_id": match_id, "game": "castle-dash",
                  "seat_names": ["a", "b", "c"], "client": CLIENT, "options": SLOW}
    body.update(fields)
    return body


async def _dead_ids(client: redis.asyncio.Redis) -> set[str]:
    return {fields[b"id"].decode() for _, fields in await client.xrange(DEAD_LETTER_STREAM)
            if fields[b"stream"].decode() == commands_key(CLIENT)}


def test_a_command_over_1_mb_never_reaches_a_stream(run) -> None:
    """Redis itself refuses one command over 1 MB (proto-max-bulk-len, client-query-buffer-
    limit, as deploy/redis/redis.conf and the servers ``siege`` starts set them): what one write
    of a client can hold is bounded before any service sees it."""
    async def scenario(url: str) -> tuple[bool, int]:
        client = redis.asyncio.Redis.from_url(url)
        try:
            await _send(client, _create("big-0", seat_names=["a", "b", "x" * (2 << 20)]))
            refused = False
        except (redis.exceptions.ConnectionError, redis.exceptions.ResponseError):
            refused = True
        finally:
            await client.aclose()
        client = redis.asyncio.Redis.from_url(url)
        try:
            await _send(client, _create("big-1", seat_names=["a", "x" * (900 << 10)]))
            return refused, await client.xlen(commands_key(CLIENT))
        finally:
            await client.aclose()

    with EmbeddedRedis(extra_args=COMMAND_LIMITS) as server:
        refused, length = run(scenario(server.url))
    assert refused and length == 1  # the 2 MB command refused, the 900 KB one taken


def test_a_flood_of_large_entries_holds_at_most_the_clients_byte_budget(
        services: ServiceProcesses, run, redis_client: redis.asyncio.Redis) -> None:
    """80 entries of 900 KB as fast as one connection writes them (72 MB): none decodes, each is
    deleted as it is read, and once the client rests over its quota the match service trims its
    stream back under CLIENT_STREAM_BYTES at every write Redis tells of. Before, all 72 MB sat
    there until the next trim (30 s), and 43 entries of 2 MB took a store to its memory limit."""
    async def scenario() -> tuple[int, int, int, bool]:
        await _announce(redis_client, CLIENT)
        stream, peak = commands_key(CLIENT), 0
        for i in range(80):
            await _send(redis_client, _create(f"fat-{i}", seat_names=["a", "x" * (900 << 10)]))
            peak = max(peak, await redis_client.memory_usage(stream) or 0)
        deadline = time.monotonic() + 30
        while (await redis_client.memory_usage(stream) or 0) > CLIENT_STREAM_BYTES:
            assert time.monotonic() < deadline, "the stream stayed over its byte budget"
            await asyncio.sleep(0.05)
        left = await redis_client.memory_usage(stream) or 0
        await _send(redis_client, _create("after-fat"))
        inbox = await _until_granted(redis_client, "after-fat")
        return peak, left, len(inbox), await redis_client.exists(log_key("after-fat")) == 1

    peak, left, answers, made = run(scenario())
    assert left <= CLIENT_STREAM_BYTES
    # The budget, and what one connection writes while a check or a read is under way.
    assert peak <= CLIENT_STREAM_BYTES + (24 << 20), f"the stream held {peak} bytes at once"
    assert made and answers


def test_a_900_kb_seat_name_leaves_no_match_log(
        services: ServiceProcesses, run, redis_client: redis.asyncio.Redis) -> None:
    async def scenario() -> tuple[list, set[str], str, dict[str, int]]:
        await _announce(redis_client, CLIENT)
        huge = await _send(redis_client, _create("big-1", seat_names=["a", "b", "x" * (900 << 10)]))
        await _send(redis_client, CreateMatch(match_id="ok-1", game="castle-dash",
                                              seat_names=["a", "b", "c"], client=CLIENT,
                                              options=SLOW))
        inbox = await _until_granted(redis_client, "ok-1")
        keys = {key: await redis_client.exists(key)
                for key in (log_key("big-1"), lobby_key("big-1"), log_key("ok-1"))}
        gone = not await redis_client.xrange(commands_key(CLIENT), huge, huge)
        return inbox, await _dead_ids(redis_client), huge, {**keys, "huge entry gone": gone}

    inbox, dead, huge, keys = run(scenario())
    assert keys == {log_key("big-1"): 0, lobby_key("big-1"): 0, log_key("ok-1"): 1,
                    "huge entry gone": True}  # deleted as it was dead-lettered
    assert huge in dead  # refused unread: it does not decode
    assert all(size <= MAX_INBOX_ENTRY_BYTES for size, _ in inbox)
    assert not [msg for _, msg in inbox if getattr(msg, "match_id", None) == "big-1"]


def test_a_refusal_quotes_at_most_its_bound_of_the_command(
        services: ServiceProcesses, run, redis_client: redis.asyncio.Redis) -> None:
    """The largest option a command may carry, refused by the game, which quotes it in full;
    and the attack itself, creates with a 900 KB option each (Redis takes no more in one
    command), as many as the client's byte budget keeps unread."""
    async def scenario() -> tuple[list, set[str], list[str], int]:
        await _announce(redis_client, CLIENT)
        await _send(redis_client, _create(
            "quoted-1", game="castle-assault", seat_names=["a", "b"],
            options={"warbands": "w" * MAX_OPTION_VALUE}))
        await _send(redis_client, _create("\u00e9" * MAX_MATCH_ID))  # quoted as the subject
        flood = [await _send(redis_client, _create(f"flood-{i}", game="castle-assault",
                                                   seat_names=["a", "b"],
                                                   options={"warbands": "w" * (900 << 10)}))
                 for i in range(4)]  # 3.6 MB: under the byte budget, so none is trimmed
        await _send(redis_client, _create("ok-2"))
        inbox = await _until_granted(redis_client, "ok-2")
        usage = await redis_client.memory_usage(inbox_key(CLIENT)) or 0
        return inbox, await _dead_ids(redis_client), flood, usage

    inbox, dead, flood, usage = run(scenario())
    refused = {msg.subject: (size, msg) for size, msg in inbox
               if isinstance(msg, CommandRefused)}
    size, options = refused["quoted-1"]
    assert options.code == RejectionCode.BAD_OPTIONS and "www" in options.detail
    assert len(options.detail.encode()) <= MAX_DETAIL and size <= MAX_INBOX_ENTRY_BYTES
    [(size, bad_id)] = [v for k, v in refused.items() if k.startswith("\u00e9")]
    assert bad_id.code == RejectionCode.MALFORMED
    assert len(bad_id.subject.encode()) <= MAX_MATCH_ID and size <= MAX_INBOX_ENTRY_BYTES
    assert set(flood) <= dead
    # Each flood entry is answered malformed (it does not decode), quoting only its bound.
    floods = [v for k, v in refused.items() if k.startswith("flood-")]
    assert len(floods) == len(flood)
    assert all(m.code == RejectionCode.MALFORMED and n <= MAX_INBOX_ENTRY_BYTES
               for n, m in floods)
    assert usage < 64 * 1024, f"the inbox takes {usage} bytes"
