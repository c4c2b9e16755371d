"""Oversized commands against the four services on our own redis-server (found by an attacker
with a normal client's credentials): a 16 MB seat name went into a permanent match log, and 20
refusals echoing 4 MB options made a 105 MB inbox. Now such a command fails to decode and is
dead-lettered, and a refusal quotes at most a few hundred bytes of what it refuses.
"""

from __future__ import annotations

import asyncio
import time

import msgspec
import redis.asyncio

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


def test_a_16_mb_seat_name_leaves_no_match_log(
        services: ServiceProcesses, run, redis_client: redis.asyncio.Redis) -> None:
    async def scenario() -> tuple[list, set[str], str, dict[str, int]]:
        await _announce(redis_client, CLIENT)
        huge = await _send(redis_client, _create("big-1", seat_names=["a", "b", "x" * (16 << 20)]))
        await _send(redis_client, CreateMatch(match_id="ok-1", game="castle-dash",
                                              seat_names=["a", "b", "c"], client=CLIENT,
                                              options=SLOW))
        inbox = await _until_granted(redis_client, "ok-1")
        keys = {key: await redis_client.exists(key)
                for key in (log_key("big-1"), lobby_key("big-1"), log_key("ok-1"))}
        return inbox, await _dead_ids(redis_client), huge, keys

    inbox, dead, huge, keys = run(scenario())
    assert keys == {log_key("big-1"): 0, lobby_key("big-1"): 0, log_key("ok-1"): 1}
    assert huge in dead  # refused unread: it does not decode
    assert all(size <= MAX_INBOX_ENTRY_BYTES for size, _ in inbox)
    assert not [msg for _, msg in inbox if getattr(msg, "match_id", None) == "big-1"]


def test_a_refusal_quotes_at_most_its_bound_of_the_command(
        services: ServiceProcesses, run, redis_client: redis.asyncio.Redis) -> None:
    """The largest option a command may carry, refused by the game, which quotes it in full;
    and the attack itself, 20 creates with a 4 MB option each."""
    async def scenario() -> tuple[list, set[str], list[str], int]:
        await _announce(redis_client, CLIENT)
        await _send(redis_client, _create(
            "quoted-1", game="castle-assault", seat_names=["a", "b"],
            options={"warbands": "w" * MAX_OPTION_VALUE}))
        await _send(redis_client, _create("\u00e9" * MAX_MATCH_ID))  # quoted as the subject
        flood = [await _send(redis_client, _create(f"flood-{i}", game="castle-assault",
                                                   seat_names=["a", "b"],
                                                   options={"warbands": "w" * (4 << 20)}))
                 for i in range(20)]
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
