"""Live-system helpers for the fuzz tests: waiting until the services have handled everything
(without sleeping blind), reading streams and logs back, driving matches, setting up the
matches the barrage is thrown at, and finding error records in the services' logs."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec
import redis.asyncio
from fuzz_model import FINISHED, FUZZER, LIVE, LOBBY, LOBBY_HOLDERS, Known, Model, known_of

from siege.contracts.events import ActionAccepted
from siege.contracts.messages import CreateMatch, Message, SeatGranted, SubmitAction, bus_decoder
from siege.eventlog.keys import (
    AUDIENCES,
    CLIENTS_KEY,
    DEAD_LETTER_STREAM,
    SEAT_SECRET_KEY,
    SHARDS,
    bus_key,
    commands_key,
    inbox_key,
)
from siege.eventlog.log import RedisEventLog
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState
from siege.hosting.seats import seat_token
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.transport.redis_bus import RedisBus

Run = Callable[[Awaitable[Any]], Any]  # the ``run`` fixture

SLOW = {"decision_timeout_ms": "600000"}  # no clock may fire on a set-up match during the test
QUIET_TIMEOUT_S = 60.0
_encode = msgspec.msgpack.encode


# --------------------------------------------------------------------------------------------
# Waiting for the services, without sleeping blind


def consumed_streams(clients: list[str]) -> list[tuple[str, str]]:
    """Every (stream, group) the four services consume, with ``clients`` registered."""
    own = [commands_key(c) for c in sorted(clients)]
    return [(stream, group) for stream in own for group in ("match", "rules")] + [
        (bus_key(shard, audience), audience) for audience in AUDIENCES for shard in range(SHARDS)
    ]


def as_text(value: Any) -> str:
    """A Redis reply (bytes) or anything else as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def _id(value: Any) -> tuple[int, int]:
    ms, _, seq = as_text(value).partition("-")
    return int(ms), int(seq or 0)


async def idle(client: redis.asyncio.Redis) -> bool:
    """Whether every group has read every entry of its streams and acked it, in one atomic
    snapshot (MULTI), so work moving from one stream to the next cannot slip between looks.
    A cluster has no snapshot across slots: there the look is a plain pipeline, and only the
    two idle looks in a row of :func:`quiesce` stand for it."""
    clients = [as_text(c) for c in await client.smembers(CLIENTS_KEY)]
    pairs = consumed_streams(clients)
    atomic = not isinstance(client, redis.asyncio.RedisCluster)
    async with client.pipeline(transaction=atomic) as pipe:
        for stream, _ in pairs:
            pipe.xinfo_stream(stream)
            pipe.xinfo_groups(stream)
        replies = await pipe.execute(raise_on_error=False)
    for (_, group), info, groups in zip(pairs, replies[::2], replies[1::2], strict=True):
        if isinstance(info, Exception) or isinstance(groups, Exception):
            return False  # a client's stream not made yet: the services have not followed it
        last = _id(info["last-generated-id"])
        mine = [g for g in groups if as_text(g["name"]) == group]
        if len(mine) != 1 or mine[0]["pending"] or _id(mine[0]["last-delivered-id"]) != last:
            return False
    return True


async def quiesce(client: redis.asyncio.Redis, timeout_s: float = QUIET_TIMEOUT_S) -> None:
    """Waits until the services have handled everything written so far (two idle looks in a
    row, so a handler between its ack and its next read is not mistaken for idle)."""
    deadline = time.monotonic() + timeout_s
    streak = 0
    while time.monotonic() < deadline:
        streak = streak + 1 if await idle(client) else 0
        if streak >= 2:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the services did not go idle within {timeout_s}s")


# --------------------------------------------------------------------------------------------
# Reading what came back


async def read_all(client: redis.asyncio.Redis, stream: str, after: str) -> list[Message]:
    """Every message on ``stream`` after the entry ``after`` (all of them for ``0-0``)."""
    out: list[Message] = []
    for _, fields in await client.xrange(stream, min=f"({after}" if after != "0-0" else "-"):
        out.append(bus_decoder.decode(fields[b"m"]))
    return out


async def load_state(log: RedisEventLog, match_id: str) -> MatchState:
    """A match's state, decoded from its log as it is now."""
    ms = MatchState(match_id)
    decode_entries(ms, await log.read(match_id))
    return ms


# --------------------------------------------------------------------------------------------
# Setting up the matches


async def drive(client: redis.asyncio.Redis, steps: Mapping[str, int], tokens: dict,
                rng: random.Random) -> None:
    """Plays random legal actions for every seat asked, ``steps[m]`` decisions of match ``m``,
    waiting for the services after each round."""
    log, bus = RedisEventLog(client), RedisBus(client)
    played = dict.fromkeys(steps, 0)
    while True:
        await quiesce(client)
        moved = False
        for match_id, wanted in steps.items():
            ms = await load_state(log, match_id)
            k = known_of(ms)
            if k.over or played[match_id] >= wanted:
                continue
            for seat in sorted(k.pending):
                action = rng.choice(k.legal[seat])
                await bus.publish(commands_key(FUZZER), SubmitAction(
                    match_id=match_id, seat=seat, decision=k.decision,
                    command_id=f"drive:{match_id}:{seat}:{k.decision}",
                    action=_encode(action), token=tokens[match_id, seat], client=FUZZER))
            played[match_id] += 1
            moved = True
        if not moved:
            return


async def set_up(client: redis.asyncio.Redis, rng: random.Random) -> tuple[
        Model, dict[tuple[str, int], str], dict[str, list]]:
    """A finished match, matches in progress at different decisions, a lobby; the model, the
    fuzzer's seat tokens and a snapshot of every log."""
    log = RedisEventLog(client)
    await play_specs([MatchSpec(FINISHED, "castle-dash", ["a", "b", "c"], ["random"] * 3)],
                     client, b"fuzz-finished", stall_timeout_s=60)
    bus = RedisBus(client)
    for match_id, (game, players, _) in LIVE.items():
        await bus.publish(commands_key(FUZZER), CreateMatch(
            match_id=match_id, game=game, seat_names=[f"s{i}" for i in range(players)],
            options=SLOW, client=FUZZER))
    await bus.publish(commands_key(FUZZER), CreateMatch(
        match_id=LOBBY, game="castle-dash", seat_names=["a", "b", "c"], options=SLOW,
        client=FUZZER, clients=LOBBY_HOLDERS))
    await quiesce(client)
    secret = bytes(await client.get(SEAT_SECRET_KEY))
    tokens: dict[tuple[str, int], str] = {}
    for message in await read_all(client, inbox_key(FUZZER), "0-0"):
        assert isinstance(message, SeatGranted), message
        assert message.token == seat_token(secret, message.match_id, message.seat)
        tokens[message.match_id, message.seat] = message.token
    assert set(tokens) == {(m, s) for m, (_, n, _) in LIVE.items() for s in range(n)} | {
        (LOBBY, 0)}
    await drive(client, {m: steps for m, (_, _, steps) in LIVE.items()}, tokens, rng)
    known: dict[str, Known] = {}
    for match_id in [*LIVE, FINISHED]:
        ms = await load_state(log, match_id)
        known[match_id] = known_of(ms)
        assert ms.codec is not None
        events = [ms.codec.decode(stored).event for _, stored, _ in await log.read(match_id)]
        known[match_id].accepted = [e for e in events if isinstance(e, ActionAccepted)]
    assert known[FINISHED].over and not any(known[m].over for m in LIVE)
    snapshot = {m: await log.read(m) for m in await log.match_ids()}
    assert set(snapshot) == {*LIVE, FINISHED}
    assert await read_all(client, DEAD_LETTER_STREAM, "0-0") == []
    return Model(secret, known, list(LOBBY_HOLDERS)), tokens, snapshot


# --------------------------------------------------------------------------------------------
# The services' own logs


def service_errors(log_dir: Path) -> list[str]:
    """Error records (a failed handler, a failed clock or claim pass) in the services' logs."""
    errors = []
    for path in sorted(log_dir.glob("*.log")):
        for line in path.read_text(errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                errors.append(f"{path.name}: {line[:300]}")  # a traceback outside structlog
                continue
            if record.get("level") in ("error", "critical"):
                errors.append(f"{path.name}: {line}")
    return errors
