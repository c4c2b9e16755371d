"""Fuzzing the command stream of a live system.

The four services run as processes. Live matches are set up first (in progress at different
points, one finished, one waiting in a lobby), every match log is snapshotted, and then
hypothesis throws at the commands streams of two clients (``commands_key``: the fuzzer, which
holds the live seats, and a second client holding nothing): random bytes, entries with missing
or extra fields, msgpack maps with unknown tags and wrong field types, random well-typed
commands (many naming another client than the one whose stream they are on), spoofed notices,
validly signed but illegal, out-of-turn, stale, duplicate or oversized actions, and creates of
ids that other clients created, or with other terms.

For every entry the test predicts what the services must do (a typed rejection or a refusal on
the sender's own inbox, never on the inbox of a client the entry names, a dead-letter record, or
nothing), waits until every consumer group has handled everything, and checks the prediction
against every inbox there is, that no log changed, that every log still audits, that no handler
failed and no service restarted, and that the same services then finish the matches that were
in progress and play a fresh one.

The model and its predictions are in ``fuzz_model``, the inputs in ``fuzz_strategies``, the
live-system helpers in ``fuzz_support``; what the fuzz found is pinned in ``test_bad_input``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter

import pytest
import redis
import redis.asyncio
from fuzz_model import (
    FINISHED,
    FUZZER,
    FUZZER_B,
    LIVE,
    LOBBY,
    Fields,
    Granted,
    Model,
    Refused,
    Rejected,
    Shot,
    StateChangingError,
)
from fuzz_strategies import explicit_shots, strategies
from fuzz_support import Run, as_text, quiesce, read_all, service_errors, set_up
from hypothesis import HealthCheck, Phase, assume, given, settings

from siege.contracts.messages import (
    ActionRejected,
    CommandRefused,
    MatchFinished,
    Message,
    SeatGranted,
)
from siege.eventlog.keys import (
    CLIENTS_KEY,
    DEAD_LETTER_STREAM,
    REPLIES_STREAM,
    commands_key,
    inbox_key,
    view_key,
)
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siegeworks.clients.bots import make_seats
from siegeworks.clients.remote import SeatReader
from siegeworks.match.lobby import RedisLobbies
from siegeworks.redis_target import connect_sync
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.serve import SERVICES, read_health
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.redis_bus import RedisBus, announce

pytestmark = pytest.mark.both_stores  # on a single Redis and on a Redis Cluster

EXAMPLES = 500


def audit_ok(entries: list, finished: bool) -> str | None:
    """None if the log audits; an unfinished log may only fail for ending early."""
    report = audit(entries)
    if report.ok:
        return None
    failure = report.failure
    assert failure is not None
    if not finished and failure.seq == len(entries) + 1 and "ends before" in failure.reason:
        return None
    return report.line()


def check_dead_letters(shots: list[Shot], dead: list) -> None:
    """Exactly the undecodable entries are dead-lettered, each once, naming the commands stream
    of the client that wrote it, and nothing else is."""
    by_entry = {(commands_key(s.sender), s.entry_id): s for s in shots}

    def entry(f: dict) -> tuple[str, str]:
        return as_text(f[b"stream"]), as_text(f[b"id"])

    wrong = [(*entry(f), as_text(f[b"reason"])[:200],
              by_entry[entry(f)].note if entry(f) in by_entry else "?")
             for _, f in dead
             if not by_entry.get(entry(f), Shot({}, "")).dead
             or not f[b"reason"].startswith(b"undecodable")]
    assert not wrong, f"dead-lettered though readable, after failing, or elsewhere: {wrong[:5]}"
    counts = Counter(entry(f) for _, f in dead)
    missing = [(s.note, s.sender, repr(s.fields)[:200]) for s in shots
               if s.dead and counts[commands_key(s.sender), s.entry_id] != 1]
    assert not missing, f"undecodable entries not dead-lettered exactly once: {missing[:5]}"


def check_answers(shots: list[Shot], seen: dict[str, list[Message]], model: Model) -> None:
    """Every command got exactly the rejection or refusal predicted, on the predicted stream
    (its sender's inbox), and nothing else arrived on any inbox or the replies stream; answers
    that hang on what the fuzz's own creates did (``Model.unpredictable``) are left out."""
    notes = {s.outcome: s.note for s in shots if s.outcome is not None}
    expected = Counter(s.outcome for s in shots if isinstance(s.outcome, Rejected)
                       and not model.unpredictable(s.outcome))
    got = Counter(r for r in (Rejected(topic, m.match_id, m.seat, m.command_id, m.code)
                              for topic, messages in seen.items() for m in messages
                              if isinstance(m, ActionRejected))
                  if not model.unpredictable(r))
    missing = [(notes[r], r) for r in expected - got]
    extra = [(notes.get(r, "?"), r) for r in got - expected]
    assert not missing, f"{len(missing)} commands without their typed rejection: {missing[:5]}"
    assert not extra, f"{len(extra)} rejections nobody expected: {extra[:5]}"

    refusals = Counter(s.outcome for s in shots if isinstance(s.outcome, Refused)
                       and not model.unpredictable(s.outcome))
    got_refusals = Counter(r for r in (Refused(topic, m.command, m.subject, m.code)
                                       for topic, messages in seen.items() for m in messages
                                       if isinstance(m, CommandRefused))
                           if not model.unpredictable(r))
    missing_refusals = [(notes[r], r) for r in refusals - got_refusals]
    assert not missing_refusals, f"refusals missing: {missing_refusals[:5]}"
    extra_refusals = [(notes.get(r, "?"), r) for r in got_refusals - refusals]
    assert not extra_refusals, f"refusals nobody expected: {extra_refusals[:5]}"

    # Seats are granted to their holders only: on a join of the holder, or again on a repeated
    # create by the creator with the same terms; never to a client another client named.
    grants = {(topic, m.match_id) for topic, messages in seen.items() for m in messages
              if isinstance(m, SeatGranted)}
    predicted = {(s.outcome.topic, s.outcome.match_id) for s in shots
                 if isinstance(s.outcome, Granted)}
    no_grant = predicted - grants
    assert not no_grant, f"joins of a seat's own holder without a grant: {no_grant}"
    stray = {g for g in grants - predicted - model.regrants if g[1] not in model.contested}
    assert not stray, f"seats granted that nobody should have been granted: {stray}"


async def fresh_health(client: redis.asyncio.Redis, since_ms: int) -> list:
    """Every service's health record written after ``since_ms``."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        health = await read_health(client)
        if len(health) == len(SERVICES) and all(h.at_ms > since_ms for h in health):
            return health
        await asyncio.sleep(0.1)
    raise AssertionError("no fresh health records")


def test_fuzzed_commands_change_no_log_and_the_services_keep_serving(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis, redis_url: str
) -> None:
    pids = {name: proc.pid for name, proc in services.procs.items()}
    log = RedisEventLog(redis_client)
    model, tokens, snapshot = run(set_up(redis_client, random.Random(0xF022)))
    assert {h.service: h.pid for h in run(read_health(redis_client))} == pids
    lobby = run(RedisLobbies(redis_client).get(LOBBY))
    assert lobby is not None and lobby.clients == model.lobby_clients
    model.lobby_create = lobby.create  # the terms a create of the lobby's id must repeat

    # The second client registers itself (a server without ACLs lets it), and is followed.
    run(announce(redis_client, FUZZER_B))
    run(quiesce(redis_client))
    registered = {as_text(c) for c in run(redis_client.smembers(CLIENTS_KEY))}
    assert {FUZZER, FUZZER_B} <= registered

    # -- the barrage: each entry predicted, then written; the services read them as they come -
    shots: list[Shot] = []
    sync = connect_sync(redis_url)

    def send(shot: Shot) -> None:
        shot.entry_id = as_text(sync.xadd(commands_key(shot.sender), shot.fields))
        shots.append(shot)

    send(model.predict({b"m": b"\xc1 the barrage starts"}, "marker", FUZZER))  # undecodable
    barrage_from = shots[0].entry_id
    for fields, note, sender in explicit_shots(model, tokens):
        send(model.predict(fields, note, sender))  # none of them may change anything

    @settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategies(model, tokens))
    def barrage(shot: tuple[Fields, str, str]) -> None:
        try:
            predicted = model.predict(*shot)
        except StateChangingError:
            assume(False)
            return
        send(predicted)

    try:
        barrage()
    finally:
        sync.close()
    run(quiesce(redis_client))
    quiet_ms = int(time.time() * 1000)

    # -- every entry got its answer -------------------------------------------------------------
    async def observe() -> tuple[list, dict[str, list[Message]]]:
        # Every inbox there is, not only the predicted ones: an answer on the inbox of a client
        # that an entry named, instead of its sender's, is an answer nobody expected.
        inboxes = {as_text(k) async for k in redis_client.scan_iter(
            match="siege:client:{s*}:*:inbox", _type="stream")}
        topics = {REPLIES_STREAM, inbox_key(FUZZER), inbox_key(FUZZER_B), *inboxes} | {
            s.outcome.topic for s in shots if s.outcome is not None}
        return (await redis_client.xrange(DEAD_LETTER_STREAM),
                {t: await read_all(redis_client, t, barrage_from) for t in topics})

    dead, seen = run(observe())
    check_dead_letters(shots, dead)
    check_answers(shots, seen, model)

    # -- no log changed, every log audits, no handler failed, no service restarted -------------
    async def all_logs() -> dict[str, list]:
        return {m: await log.read(m) for m in await log.match_ids()}

    after = run(all_logs())
    for match_id, entries in snapshot.items():
        assert after[match_id] == entries, f"the log of {match_id} changed"
    new_logs = set(after) - set(snapshot)
    assert new_logs <= model.contested, f"logs nobody created: {new_logs - model.contested}"
    for match_id, entries in after.items():
        failure = audit_ok(entries, finished=match_id == FINISHED)
        assert failure is None, failure

    health = run(fresh_health(redis_client, quiet_ms))
    assert all(proc.poll() is None for proc in services.procs.values())
    assert {h.service: h.pid for h in health} == pids
    assert {h.service: h.consumer for h in health} == {s: f"{s}-0" for s in SERVICES}
    assert {h.service: h.failed for h in health} == dict.fromkeys(SERVICES, 0)
    assert {h.service: h.dead_lettered for h in health} == {
        **dict.fromkeys(SERVICES, 0), "match": sum(s.dead for s in shots)}
    errors = service_errors(services.log_dir)
    assert not errors, [e[:600] for e in errors[:3]]

    # -- and they keep serving: the matches in progress finish, a new one plays through --------
    async def finish() -> dict[str, MatchFinished]:
        playing = asyncio.create_task(play_specs(
            [MatchSpec("fz-after", "castle-dash", ["a", "b", "c"], ["greedy", "random", "random"])],
            redis_client, b"fuzz-after", stall_timeout_s=60))
        results = await finish_live(redis_client, tokens)
        results.update(await playing)
        return results

    results = run(finish())
    assert set(results) == {*LIVE, "fz-after"}
    for match_id, result in results.items():
        entries = run(log.read(match_id))
        assert entries[:len(snapshot.get(match_id, []))] == snapshot.get(match_id, [])
        report = audit(entries)
        assert report.ok, report.line()
        assert report.ranks == result.ranks
    assert all(proc.poll() is None and proc.pid == pids[name]
               for name, proc in services.procs.items())
    errors = service_errors(services.log_dir)
    assert not errors, [e[:600] for e in errors[:3]]


async def finish_live(client: redis.asyncio.Redis,
                      tokens: dict[tuple[str, int], str]) -> dict[str, MatchFinished]:
    """Random bots take over every seat of the matches in progress and play them out (they
    answer the old prompts too, and are refused as stale: harmless)."""
    bus, reader = RedisBus(client), SeatReader(client, block_ms=200)
    reader.follow(inbox_key(FUZZER), await reader.cursor_of(inbox_key(FUZZER)))
    for match_id, (game, players, _) in LIVE.items():
        seats = make_seats(bus, FUZZER, game, match_id, ["random"] * players, b"fuzz-finish")
        for seat, bot in enumerate(seats):
            assert bot is not None
            await bot.set_token(tokens[match_id, seat])
            reader.subscribe_seat(view_key(FUZZER, match_id, seat), bot.on_prompt)
    finished: dict[str, MatchFinished] = {}
    deadline = time.monotonic() + 60
    while len(finished) < len(LIVE):
        assert time.monotonic() < deadline, f"unfinished: {set(LIVE) - set(finished)}"
        for message in await reader.poll():
            if isinstance(message, MatchFinished) and message.match_id in LIVE:
                finished[message.match_id] = message
    return finished
