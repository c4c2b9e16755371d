"""Hostile clients against the four services, each holding exactly the ACL user a client is
given (``siege.eventlog.acl.client_rules``), on a real Redis 7: what one client does to the bus
must never reach another client's matches (docs/decisions/0007-a-bus-no-client-can-break.md).

Each attack here worked against the shared command stream: erasing it (``MAXLEN 0``), jamming
it (an entry with the largest id), acting under another client's id, squatting a seeded match
id, and flooding creates.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import msgspec
import pytest
import redis
import redis.asyncio
from redis.exceptions import NoPermissionError, ResponseError

from siege.contracts.messages import (
    ActionRejected,
    CommandRefused,
    CreateMatch,
    JoinMatch,
    Message,
    SubmitAction,
    bus_decoder,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.acl import client_rules, service_rules
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.keys import CLIENTS_KEY, commands_key, inbox_key, log_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.lobby import OPEN
from siege.hosting.match_state import codec_for
from siege.testing.waiting import wait_until
from siegeworks.clients.joiner import join_and_play
from siegeworks.remote_run import MatchIdTakenError, MatchSpec, play_remote, play_specs
from siegeworks.runner import RunConfig
from siegeworks.serve import CLIENT_BACKLOG
from siegeworks.supervisor import ServiceProcesses

Run = Callable[[Awaitable[Any]], Any]
SERVICES = ("match", "rules", "dice", "scoring")
CLIENTS = ("honest", "mallory", "bob", "jammer")
# Creates per client: small, so the flood test floods quickly.
QUOTA_ENV = {"SIEGE_QUOTA_CREATES": "5/20", "SIEGE_CLAIM_IDLE_MS": "500"}


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis() as embedded, redis.Redis.from_url(embedded.url) as admin:
        version = admin.info("server")["redis_version"]
        if int(version.split(".")[0]) < 7:
            pytest.skip(f"redis-server {version} cannot enforce per-pattern read/write ACLs")
        for service in SERVICES:
            admin.execute_command("ACL", "SETUSER", f"siege-{service}", *service_rules(service),
                                  f">pw-{service}")
        for client in CLIENTS:
            admin.execute_command("ACL", "SETUSER", f"client-{client}", *client_rules(client),
                                  f">pw-{client}")
        admin.sadd(CLIENTS_KEY, *CLIENTS)  # what ``siege acl issue`` does when admitting them
        yield embedded


@pytest.fixture(scope="module")
def services(server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[ServiceProcesses]:
    urls = {s: url_as(server, f"siege-{s}") for s in SERVICES}
    procs = ServiceProcesses(server.url, tmp_path_factory.mktemp("logs"), QUOTA_ENV,
                             service_urls=urls)
    procs.start_all()
    with asyncio.Runner() as runner:
        admin = redis.asyncio.Redis.from_url(server.url)
        runner.run(procs.wait_healthy(admin))
        runner.run(admin.aclose())
    yield procs
    codes = procs.stop_all()
    assert all(code == 0 for code in codes.values()), codes


def url_as(server: EmbeddedRedis, user: str) -> str:
    return f"redis://{user}:pw-{user.removeprefix('siege-').removeprefix('client-')}" \
           f"@127.0.0.1:{server.port}/0"


def as_client(server: EmbeddedRedis, client: str) -> redis.asyncio.Redis:
    return redis.asyncio.Redis.from_url(url_as(server, f"client-{client}"))


async def send(r: redis.asyncio.Redis, stream: str, message: Message) -> None:
    await r.xadd(stream, {b"m": msgspec.msgpack.encode(message)})


async def inbox_of(r: redis.asyncio.Redis, client: str) -> list[Message]:
    return [bus_decoder.decode(f[b"m"]) for _, f in await r.xrange(inbox_key(client))]


def honest_run(seed: int, matches: int = 2) -> RunConfig:
    return RunConfig(game="castle-dash", matches=matches, players=3, bots=["random"], seed=seed)


def test_a_client_that_erases_or_jams_its_stream_harms_only_itself(
        server: EmbeddedRedis, services: ServiceProcesses, run: Run) -> None:
    async def scenario() -> int:
        jammer, honest = as_client(server, "jammer"), as_client(server, "honest")
        try:
            own = commands_key("jammer")
            # What used to erase and jam every client's commands: on its own stream now.
            await jammer.xadd(own, {"m": b"x"}, maxlen=0)
            await jammer.xadd(own, {"m": b"x"}, id="18446744073709551615-18446744073709551615")
            with pytest.raises(ResponseError):  # its own later commands are what it blocked
                await jammer.xadd(own, {"m": b"x"})
            with pytest.raises(NoPermissionError):  # and it can reach no other client's
                await jammer.xadd(commands_key("honest"), {"m": b"x"}, maxlen=0)
            result = await play_remote(honest_run(1), honest, stall_timeout_s=60)
            return len(result.finished)
        finally:
            await jammer.aclose()
            await honest.aclose()

    assert run(scenario()) == 2


def test_a_client_cannot_act_or_be_answered_as_another(
        server: EmbeddedRedis, services: ServiceProcesses, run: Run) -> None:
    spec = MatchSpec(match_id="lobby-for-bob", game="castle-dash", seat_names=["a", "b", "c"],
                     bots=["random", "random", OPEN])

    async def scenario() -> tuple[list[Message], list[Message]]:
        """Mallory's inbox when her five refusals have come, and after her own join."""
        mallory, honest = as_client(server, "mallory"), as_client(server, "honest")
        try:
            playing = asyncio.create_task(
                play_specs([spec], honest, b"seed", stall_timeout_s=60, client="honest"))
            # A join and an action under bob's id, and a create naming bob as its creator.
            await send(mallory, commands_key("mallory"), JoinMatch(
                match_id=spec.match_id, client="bob"))
            await send(mallory, commands_key("mallory"), SubmitAction(
                match_id=spec.match_id, seat=0, decision=1, command_id="x", action=b"\xc0",
                client="bob"))
            await send(mallory, commands_key("mallory"), CreateMatch(
                match_id="bobs-match", game="castle-dash", seat_names=["a", "b"],
                client="bob"))
            # A create of her own that names bob as a holder: grants and prompts to bob.
            await send(mallory, commands_key("mallory"), CreateMatch(
                match_id="spam-bob", game="castle-dash", seat_names=["a", "b", "c"],
                clients=["mallory", "bob", "bob"]))
            # A tournament table's id, taken before its round is paired.
            await send(mallory, commands_key("mallory"), CreateMatch(
                match_id="t-0123456789ab-r01-t0000", game="castle-dash",
                seat_names=["a", "b", "c"]))
            await wait_until(lambda: _count(mallory, "mallory", 5), "mallory's five refusals",
                             timeout=20)
            refused = await inbox_of(mallory, "mallory")
            # The open seat is still open: mallory's own join takes it and the match finishes.
            await asyncio.wait_for(asyncio.gather(
                playing, join_and_play(mallory, "mallory", spec.match_id)), 60)
            return refused, await inbox_of(mallory, "mallory")
        finally:
            await mallory.aclose()
            await honest.aclose()

    refused, mallorys = run(scenario())
    # The match and rules services answer on their own, so in either order.
    codes = sorted((type(m).__name__, m.code) for m in refused
                   if isinstance(m, CommandRefused | ActionRejected))
    assert codes == [("ActionRejected", RejectionCode.BAD_CLIENT)] + [
        ("CommandRefused", RejectionCode.BAD_CLIENT)] * 3 + [
        ("CommandRefused", RejectionCode.MATCH_ID_TAKEN)]
    # Her own join may overtake honest's create and be asked again (the joiner's retry); it
    # is refused nothing else.
    later = {(type(m).__name__, m.code, getattr(m, "subject", "")) for m in mallorys[len(refused):]
             if isinstance(m, CommandRefused | ActionRejected)}
    assert later <= {("CommandRefused", RejectionCode.UNKNOWN_MATCH, spec.match_id)}

    async def bobs_inbox_and_log() -> tuple[int, int]:
        admin = redis.asyncio.Redis.from_url(server.url)
        try:
            return await admin.xlen(inbox_key("bob")), sum(
                [await admin.xlen(log_key(m))
                 for m in ("bobs-match", "spam-bob", "t-0123456789ab-r01-t0000")])
        finally:
            await admin.aclose()

    assert run(bobs_inbox_and_log()) == (0, 0)  # nothing sent to bob, no match in bob's name


async def _count(r: redis.asyncio.Redis, client: str, wanted: int) -> bool:
    inbox = await inbox_of(r, client)
    return sum(isinstance(m, CommandRefused | ActionRejected) for m in inbox) >= wanted


def test_a_squatted_match_id_is_not_adopted(
        server: EmbeddedRedis, services: ServiceProcesses, run: Run) -> None:
    cfg = honest_run(7, matches=1)

    async def scenario() -> str:
        mallory, honest = as_client(server, "mallory"), as_client(server, "honest")
        try:
            # Mallory plays the seeded id first, to the end, as a run of her own.
            await play_remote(cfg, mallory, stall_timeout_s=60)
            with pytest.raises(MatchIdTakenError) as taken:
                await play_remote(cfg, honest, stall_timeout_s=60)
            return str(taken.value)
        finally:
            await mallory.aclose()
            await honest.aclose()

    message = run(scenario())
    assert cfg.match_id(0) in message and "created itself" in message


def test_honest_matches_keep_their_clocks_while_a_client_floods(
        server: EmbeddedRedis, services: ServiceProcesses, run: Run) -> None:
    """Mallory floods creates and actions (with no valid token) for as long as an honest
    client plays; the honest matches end normally, with a 3 s decision clock no seat runs out
    of, and mallory's creates beyond her quota are refused without leaving a log."""
    cfg = RunConfig(game="castle-dash", matches=3, players=3, bots=["random"], seed=5,
                    options={"decision_timeout_ms": "3000"})
    stop = asyncio.Event()

    async def flood(mallory: redis.asyncio.Redis) -> int:
        creates = 0
        while not stop.is_set():
            async with mallory.pipeline(transaction=False) as pipe:
                for n in range(50):
                    pipe.xadd(commands_key("mallory"), {b"m": msgspec.msgpack.encode(
                        CreateMatch(match_id=f"flood-{creates + n}", game="castle-dash",
                                    seat_names=["a", "b", "c"],
                                    options={"decision_timeout_ms": "600000"}))})
                    pipe.xadd(commands_key("mallory"), {b"m": msgspec.msgpack.encode(
                        SubmitAction(match_id=cfg.match_id(0), seat=0, decision=n,
                                     command_id=f"f{n}", action=b"\xc0", token="forged"))})
                await pipe.execute()
            creates += 50
            await asyncio.sleep(0)
        return creates

    async def scenario() -> tuple[int, int, float, int, list[list[Any]], int]:
        mallory, honest = as_client(server, "mallory"), as_client(server, "honest")
        admin = redis.asyncio.Redis.from_url(server.url)
        try:
            before = len(await inbox_of(mallory, "mallory"))
            started = time.monotonic()
            flooding = asyncio.create_task(flood(mallory))
            result = await play_remote(cfg, honest, stall_timeout_s=60)
            stop.set()
            creates = await flooding


            async def refused_for_rate() -> bool:
                return any(isinstance(m, CommandRefused) and m.code == RejectionCode.RATE_LIMITED
                           for m in (await inbox_of(mallory, "mallory"))[before:])

            await wait_until(refused_for_rate, "a rate_limited refusal", timeout=20)
            # Creates are let in at the quota's rate for as long as her backlog lasts, so the
            # time that counts is up to the end of the count: one pipeline, not a round trip
            # per create (a slow count let more in than the time taken before it allowed).
            async with admin.pipeline(transaction=False) as pipe:
                for n in range(creates):
                    pipe.exists(log_key(f"flood-{n}"))
                logs = sum(await pipe.execute())
            elapsed = time.monotonic() - started
            # The cap is the match service's periodic job (every second): what the flood wrote
            # since its last pass is over it until the next, so wait for that pass.
            async def capped() -> bool:
                return await admin.xlen(commands_key("mallory")) <= 2 * CLIENT_BACKLOG

            await wait_until(capped, "mallory's backlog capped", timeout=10)
            backlog = await admin.xlen(commands_key("mallory"))
            honest_logs = [await RedisEventLog(admin).read(m) for m in result.match_ids]
            return (creates, logs, elapsed, backlog, honest_logs, len(result.finished))
        finally:
            for r in (mallory, honest, admin):
                await r.aclose()

    creates, logs, elapsed, backlog, honest_logs, finished = run(scenario())
    assert finished == 3
    kinds = {type(codec_for("castle-dash").decode(stored).event).__name__
             for entries in honest_logs for _, stored, _ in entries}
    assert "MatchEnded" in kinds and "SeatTimedOut" not in kinds
    # A burst of 20 and 5 more per second: no more logs than that, however many creates.
    # (Each service replica and the timing of the pauses let a few more in than the bucket's
    # figures alone: the bar is that a flood of creates leaves next to no logs.)
    assert creates >= 1000 and 0 < logs <= 20 + 5 * (elapsed + 3) + 20 and logs < creates // 20
    # What mallory left unread waits on her own stream, which is capped.
    assert backlog <= 2 * CLIENT_BACKLOG


def test_a_rerun_adopts_its_own_matches_only_on_the_same_terms(
        server: EmbeddedRedis, services: ServiceProcesses, run: Run) -> None:
    cfg = honest_run(8, matches=1)
    other_terms = RunConfig(game=cfg.game, matches=1, players=3, bots=["random"], seed=8,
                            options={"decision_timeout_ms": "30000"})

    async def scenario() -> tuple[Any, Any, str]:
        honest = as_client(server, "honest")
        try:
            first = await play_remote(cfg, honest, stall_timeout_s=60)
            again = await play_remote(cfg, honest, stall_timeout_s=60)  # adopted, not replayed
            with pytest.raises(MatchIdTakenError) as taken:
                await play_remote(other_terms, honest, stall_timeout_s=60)
            return first, again, str(taken.value)
        finally:
            await honest.aclose()

    first, again, message = run(scenario())
    assert again.finished == first.finished
    assert "other" in message and cfg.match_id(0) in message
