"""Bad input and bad conditions the fuzz of ``test_fuzz`` found, each once a bug and now fixed:
these tests pin the behaviour. A command the services cannot carry out gets its typed
rejection or refusal, never a failing handler (which used to retry it and dead-letter it with no
answer to the sender); and Redis refusing a service's own commands does not end its consumer.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest
import redis
import redis.asyncio
from fuzz_model import known_of
from fuzz_strategies import deeply_nested
from fuzz_support import SLOW, Run, load_state, quiesce, read_all, service_errors

from siege.contracts.events import MatchCreated
from siege.contracts.messages import (
    ActionRejected,
    CommandRefused,
    CreateMatch,
    JoinMatch,
    MatchFinished,
    Message,
    SeatGranted,
    SubmitAction,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import SEAT_SECRET_KEY, commands_key, inbox_key, view_key
from siege.eventlog.log import RedisEventLog
from siege.games.castle_dash.actions import ChooseBattle
from siege.hosting.audit import audit
from siege.hosting.lobby import OPEN
from siege.hosting.match_state import codec_for
from siege.hosting.seats import seat_token
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.serve import decode_entry
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.redis_bus import announce

_encode = msgspec.msgpack.encode


def test_the_services_outlive_redis_refusing_their_commands(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis
) -> None:
    """Redis may refuse a service's own command: out of memory when a flood of big entries meets
    ``noeviction``, READONLY after a failover, MISCONF after a failed save. Any such refusal
    used to end the consumer's loop for good while the process went on heartbeating (found by
    flooding the command stream with 1 MB entries under a maxmemory limit). Here the command
    commands stream of a client holds a string for a while, so the match service's reads are
    refused (a deterministic stand-in; a client cannot do this to its own stream, only an
    operator can); once it is a stream again, everything is served."""
    pids = {name: proc.pid for name, proc in services.procs.items()}
    match_log = services.log_dir / "match.log"

    async def scenario() -> dict[str, MatchFinished]:
        await announce(redis_client, "wrecked")
        wrecked = commands_key("wrecked")
        async with redis_client.pipeline(transaction=True) as pipe:
            pipe.delete(wrecked)
            pipe.set(wrecked, b"not a stream")
            await pipe.execute()
        deadline = time.monotonic() + 10
        while b"WRONGTYPE" not in match_log.read_bytes():
            # A consumer loop that ended on the refusal says nothing: the process lives on.
            assert time.monotonic() < deadline, "the match service did not report the refusal"
            await asyncio.sleep(0.05)
        await redis_client.delete(wrecked)
        return await play_specs(
            [MatchSpec("fz-refused", "castle-dash", ["a", "b", "c"], ["random"] * 3)],
            redis_client, b"fuzz-refused", stall_timeout_s=20)

    results = run(scenario())
    report = audit(run(RedisEventLog(redis_client).read("fz-refused")))
    assert report.ok, report.line()
    assert report.ranks == results["fz-refused"].ranks
    assert all(proc.poll() is None and proc.pid == pids[name]
               for name, proc in services.procs.items())
    errors = service_errors(services.log_dir)
    assert not errors, [e[:600] for e in errors[:3]]


# --------------------------------------------------------------------------------------------
# Commands that made a handler fail (or, for the lobby, changed what they must not), each found
# by the fuzz and fixed; their inputs are back in the barrage too. Every probe goes to one run
# of the services, and each test checks its own: the typed answer, and no failed handler.

TOURNAMENT_LIKE = "t-0123456789ab"


@dataclass
class Probe:
    inbox: list[Message]  # what the probe's client received
    seen: Any = None  # anything else the probe looked at
    failed: list[str] = field(default_factory=list)  # error records about the probe's match


async def send_all(client: redis.asyncio.Redis, *messages: Message) -> None:
    """Each message on its sender's own stream, handled before the next is sent (the streams of
    different clients keep no order between them)."""
    for message in messages:
        sender = getattr(message, "client", "") or "anonymous"
        await announce(client, sender)
        await client.xadd(commands_key(sender), {b"m": _encode(message)})
        await quiesce(client)


async def probe_token(client: redis.asyncio.Redis) -> Probe:
    await send_all(client, SubmitAction(
        match_id="bug-1", seat=0, decision=1, command_id="c-1", action=b"\xc0",
        token="t\u00e9", client="bug-1"))
    return Probe(await read_all(client, inbox_key("bug-1"), "0-0"))


async def probe_empty_id(client: redis.asyncio.Redis) -> Probe:
    await send_all(client, CreateMatch(
        match_id="", game="castle-dash", seat_names=["a", "b", "c"], client="bug-2"))
    return Probe(await read_all(client, inbox_key("bug-2"), "0-0"))


async def probe_timeout(client: redis.asyncio.Redis) -> Probe:
    await send_all(client, CreateMatch(
        match_id="bug-3", game="castle-dash", seat_names=["a", "b", "c"], client="bug-3",
        options={"decision_timeout_ms": "abc"}))
    prompts = [await client.xrange(view_key("bug-3", "bug-3", seat)) for seat in range(3)]
    return Probe(await read_all(client, inbox_key("bug-3"), "0-0"), prompts)


async def probe_lobby(client: redis.asyncio.Redis) -> Probe:
    await send_all(client, CreateMatch(
        match_id="bug-4", game="castle-dash", seat_names=["a", "b", "c"], client="bug-4a",
        clients=["bug-4a", OPEN, OPEN], options=SLOW), JoinMatch(match_id="bug-4",
                                                                client="bug-4b"))
    await send_all(client, CreateMatch(
        match_id="bug-4", game="castle-dash", seat_names=["x", "y", "z"], client="bug-4c",
        options=SLOW))
    return Probe(await read_all(client, inbox_key("bug-4b"), "0-0"),
                 await RedisEventLog(client).read("bug-4"))


async def probe_tournament_like(client: redis.asyncio.Redis) -> Probe:
    await send_all(client, CreateMatch(
        match_id=TOURNAMENT_LIKE, game="castle-dash", seat_names=["a", "b", "c"],
        client="bug-5", options={"decision_timeout_ms": "1"}))  # a forfeit at once
    log = RedisEventLog(client)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        inbox = await read_all(client, inbox_key("bug-5"), "0-0")
        if any(isinstance(m, CommandRefused) for m in inbox):
            break
        entries = await log.read(TOURNAMENT_LIKE)
        if entries and audit(entries).ok:  # ended and the seed revealed
            break
        await asyncio.sleep(0.05)
    await quiesce(client)
    return Probe(await read_all(client, inbox_key("bug-5"), "0-0"))


async def probe_deep_action(client: redis.asyncio.Redis) -> Probe:
    await send_all(client, CreateMatch(
        match_id="bug-6", game="castle-dash", seat_names=["a", "b", "c"], client="bug-6",
        options=SLOW))
    k = known_of(await load_state(RedisEventLog(client), "bug-6"))
    seat = min(k.pending)
    token = seat_token(bytes(await client.get(SEAT_SECRET_KEY)), "bug-6", seat)
    await send_all(client, SubmitAction(
        match_id="bug-6", seat=seat, decision=k.decision, command_id="c-6",
        action=deeply_nested(ChooseBattle(opponent=99), 2000), token=token, client="bug-6"))
    return Probe(await read_all(client, inbox_key("bug-6"), "0-0"))


SCHEMA_BREAKS = {  # what a client encoding bug sends, and the path its answer must name
    "action as a map": ({"action": {"t": "cd.pass"}}, "$.action"),
    "no decision": ({"decision": None}, "decision"),
    "decision as text": ({"decision": "3"}, "$.decision"),
}


async def probe_schema_breaks(client: redis.asyncio.Redis) -> Probe:
    """Commands that break the schema used to go to the dead-letter stream unanswered."""
    good = {"t": "cmd.submit_action", "match_id": "bug-7", "seat": 0, "decision": 3,
            "command_id": "", "action": b"\xc0", "token": "", "client": "bug-7"}
    await announce(client, "bug-7")
    for n, (change, _) in enumerate(SCHEMA_BREAKS.values()):
        body = {**good, "command_id": f"c-{n}", **change}
        await client.xadd(commands_key("bug-7"), {b"m": _encode(
            {k: v for k, v in body.items() if v is not None})})
    await client.xadd(commands_key("bug-7"), {b"m": _encode(
        {"t": "cmd.teleport", "match_id": "bug-7", "client": "bug-7"})})
    await client.xadd(commands_key("bug-7"), {b"m": b"\xc1 not msgpack"})
    await quiesce(client)
    return Probe(await read_all(client, inbox_key("bug-7"), "0-0"))


PROBES = {  # the match id each probe uses, and the probe
    "bug-1": probe_token, "": probe_empty_id, "bug-3": probe_timeout, "bug-4": probe_lobby,
    TOURNAMENT_LIKE: probe_tournament_like, "bug-6": probe_deep_action,
    "bug-7": probe_schema_breaks,
}


@pytest.fixture(scope="module")
def probes(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Probe]:
    """Every probe, run at once against one run of the services (started and stopped here,
    on the flushed test database)."""
    with redis.Redis.from_url(redis_url) as sync:
        sync.flushdb()
    log_dir = tmp_path_factory.mktemp("probes")
    procs = ServiceProcesses(redis_url, log_dir, {"SIEGE_CLAIM_IDLE_MS": "500"})

    async def probe_all() -> dict[str, Probe]:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            async with procs.running(client):
                probes = await asyncio.gather(*(probe(client) for probe in PROBES.values()))
        finally:
            await client.aclose()
        return dict(zip(PROBES, probes, strict=True))

    found = asyncio.run(probe_all())
    assert set(procs.exit_codes.values()) == {0}
    # A failed handler's record names the entry: the match it is about is in the entry.
    with redis.Redis.from_url(redis_url) as sync:
        for line in service_errors(log_dir):
            name, _, text = line.partition(": ")
            record = json.loads(text) if text.startswith("{") else {}
            rows = sync.xrange(record["stream"], record["entry_id"], record["entry_id"]) if (
                "stream" in record and "entry_id" in record) else []
            match_id = getattr(decode_entry(rows[0][1]), "match_id", None) if rows else None
            assert match_id in found, f"an error about no probe: {line}"
            found[match_id].failed.append(line)
    return found


def test_a_token_that_is_not_ascii_is_rejected(probes: dict[str, Probe]) -> None:
    """A token that is not ASCII is just a wrong token (``hmac.compare_digest`` used to
    raise TypeError on it: the handler failed until the command was dead-lettered, no reply)."""
    probe = probes["bug-1"]
    assert [(m.command_id, m.code) for m in probe.inbox if isinstance(m, ActionRejected)] == [
        ("c-1", RejectionCode.BAD_TOKEN)]
    assert not probe.failed


def test_a_create_with_an_empty_match_id_is_refused(probes: dict[str, Probe]) -> None:
    """An empty match id is refused at create (it used to reach the log's append, which
    raised: the command was dead-lettered, no refusal)."""
    probe = probes[""]
    assert [(m.command, m.subject) for m in probe.inbox if isinstance(m, CommandRefused)] == [
        ("cmd.create_match", "")]
    assert not probe.failed


def test_a_decision_timeout_that_is_no_number(probes: dict[str, Probe]) -> None:
    """A ``decision_timeout_ms`` that is no number is refused at create, or the match is
    playable (the rules service used to raise on it: the match was created, no seat prompted)."""
    probe = probes["bug-3"]
    refused = [m for m in probe.inbox if isinstance(m, CommandRefused)]
    assert refused or any(probe.seen), "neither refused nor playable"
    assert not probe.failed


def test_a_full_create_does_not_take_over_an_open_lobby(probes: dict[str, Probe]) -> None:
    """A create naming every holder, for the id of an open lobby, leaves the lobby as it is
    (it used to start the match over the lobby: a client granted a seat there lost it)."""
    probe = probes["bug-4"]
    assert {m.seat for m in probe.inbox if isinstance(m, SeatGranted)} == {1}
    if probe.seen:  # started: then by the lobby's holders
        created = codec_for("castle-dash").decode(probe.seen[0][1]).event
        assert isinstance(created, MatchCreated)
        assert created.clients[:2] == ["bug-4a", "bug-4b"]


def test_a_match_id_shaped_like_a_tournament_id(probes: dict[str, Probe]) -> None:
    """A match id shaped like a tournament's (``t-`` and 12 hex digits) is refused, or the
    match is scored as a match (scoring used to take its log for a tournament's and fail: no
    result, no MatchFinished)."""
    probe = probes[TOURNAMENT_LIKE]
    assert any(isinstance(m, CommandRefused | MatchFinished) for m in probe.inbox)
    assert not probe.failed


def test_a_deeply_nested_action_is_rejected(probes: dict[str, Probe]) -> None:
    """An action nested 2000 deep (2 KB, under the size limit) is rejected (msgspec raises
    RecursionError on it, not a DecodeError: the handler used to fail until the command was
    dead-lettered, no ActionRejected)."""
    probe = probes["bug-6"]
    answers = [(m.command_id, m.code) for m in probe.inbox if isinstance(m, ActionRejected)]
    assert answers in ([("c-6", RejectionCode.MALFORMED)],
                       [("c-6", RejectionCode.ILLEGAL_ACTION)])
    assert not probe.failed


def test_a_command_that_breaks_the_schema_is_answered_malformed_with_the_bad_field(
        probes: dict[str, Probe]) -> None:
    """Each is answered on the sender's inbox (the stream it came on says who sent it), as the
    action it still names where it names one, with the path of the bad field."""
    probe = probes["bug-7"]
    rejected = {m.command_id: m for m in probe.inbox if isinstance(m, ActionRejected)}
    for n, (note, (_, path)) in enumerate(SCHEMA_BREAKS.items()):
        answer = rejected.get(f"c-{n}")
        assert answer is not None, note
        assert answer.code == RejectionCode.MALFORMED and path in answer.detail, (note, answer)
    refused = [m for m in probe.inbox if isinstance(m, CommandRefused)]
    assert [(m.command, m.subject, m.code) for m in refused] == [
        ("cmd.teleport", "bug-7", RejectionCode.MALFORMED),
        ("cmd.unknown", "", RejectionCode.MALFORMED)]
    assert "$.t" in refused[0].detail  # the unknown tag
    assert not probe.failed
