"""``siege dead list|show|replay|drop`` as an operator runs them, against a live Redis and a
StreamConsumer reading a client's commands stream: an honest entry whose handler was broken,
replayed once it is fixed, is handled there; a replayed undecodable entry comes back dead; a
dead letter whose stream is gone, or no stream, is refused with a one-line error."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio

from siege.contracts.messages import LogAppended, Message
from siege.eventlog.keys import commands_key
from siegeworks.transport.streams import (
    DEAD_LETTER_STREAM,
    StreamConsumer,
    dead_letter_record,
    publish,
)

pytestmark = pytest.mark.e2e

Run = Callable[[Awaitable[Any]], Any]
Redis = redis.asyncio.Redis
SIEGE = [sys.executable, "-m", "siegeworks.cli", "dead"]
STREAM = commands_key("alice")
GROUP = "match"
DEADLINE_S = 20.0


def siege(args: list[str], redis_url: str | None, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(COLUMNS="250", SIEGE_DATA_DIR=str(cwd))
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    return subprocess.run(SIEGE + args, env=env, capture_output=True, text=True, timeout=60,
                          cwd=cwd)


def one_line_error(done: subprocess.CompletedProcess, text: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert text in done.stderr.replace("\n", ""), done.stderr


async def wait_until(condition: Callable[[], Any], what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE_S
    while True:
        result = condition()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def dead_ids(r: Redis) -> list[str]:
    return [i.decode() for i, _ in await r.xrange(DEAD_LETTER_STREAM)]


def test_list_show_replay_and_drop(redis_url: str, redis_client: Redis, run: Run,
                                   tmp_path: Path) -> None:
    broken = {"m-fix"}
    handled: list[Message] = []

    async def handler(stream: str, entry_id: str, message: Message) -> None:
        if getattr(message, "match_id", None) in broken:
            raise RuntimeError("handler bug")
        handled.append(message)

    async def cli(*args: str, url: str | None = redis_url) -> subprocess.CompletedProcess:
        return await asyncio.to_thread(siege, list(args), url, tmp_path)

    async def scenario() -> None:
        r = redis_client
        consumer = StreamConsumer(r, [STREAM], GROUP, "match-0", handler, block_ms=50,
                                  claim_idle_ms=100, max_deliveries=1)
        task = asyncio.create_task(consumer.run())
        try:
            await publish(r, STREAM, LogAppended(match_id="m-fix", first=1, last=1))
            await r.xadd(STREAM, {"m": b"\xc1 not msgpack"})
            await wait_until(lambda: consumer.dead_lettered == 2, "both dead-lettered")
            reasons = {i.decode(): f[b"reason"] for i, f in await r.xrange(DEAD_LETTER_STREAM)}
            (good,) = [i for i, why in reasons.items() if why.startswith(b"delivered")]
            (bad,) = [i for i, why in reasons.items() if why.startswith(b"undecodable")]

            listed = await cli("list")
            assert listed.returncode == 0, listed.stderr
            rows = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
            assert set(rows) == {good, bad}
            for row in rows.values():
                assert STREAM in row and GROUP in row
            assert "delivered 2 times" in rows[good]
            assert "note.log_appended m-fix" in rows[good]
            assert "undecodable" in rows[bad] and "(does not decode)" in rows[bad]
            newest = await cli("list", "--limit", "1")
            assert [line.split()[0] for line in newest.stdout.splitlines()[1:]] == [max(
                (good, bad), key=lambda i: tuple(map(int, i.split("-"))))]

            shown = await cli("show", good)
            assert shown.returncode == 0, shown.stderr
            record = json.loads(shown.stdout)
            assert record["stream"] == STREAM and record["group"] == GROUP
            assert record["message"] == {"t": "note.log_appended", "match_id": "m-fix",
                                         "first": 1, "last": 1, "reannounce": False}
            assert json.loads((await cli("show", bad)).stdout)["message"] is None

            # Fixed: the honest entry replayed is read again from the client's stream.
            broken.clear()
            replayed = await cli("replay", good)
            assert replayed.returncode == 0, replayed.stderr
            assert f"replayed {good} onto {STREAM}" in replayed.stdout
            await wait_until(lambda: handled == [LogAppended(match_id="m-fix", first=1,
                                                             last=1)], "replayed and handled")
            assert await dead_ids(r) == [bad]

            # Still poison: back in the dead letters, the same fields, from the same stream.
            before = consumer.dead_lettered
            assert (await cli("replay", bad)).returncode == 0
            await wait_until(lambda: consumer.dead_lettered == before + 1, "dead again")
            (again,) = await dead_ids(r)
            assert again != bad
            fields = (await r.xrange(DEAD_LETTER_STREAM))[0][1]
            assert fields[b"m"] == b"\xc1 not msgpack" and fields[b"stream"] == STREAM.encode()

            dropped = await cli("drop", again)
            assert dropped.returncode == 0 and "dropped 1 dead letter" in dropped.stdout
            assert await dead_ids(r) == []
            assert "no dead letters" in (await cli("list")).stdout
        finally:
            consumer.stop()
            await asyncio.wait_for(task, DEADLINE_S)

        # Dead letters that cannot go back: a stream deleted since, a key that is no stream.
        await r.set("not-a-stream", b"x")
        for stream in ("bus:gone", "not-a-stream"):
            await r.xadd(DEAD_LETTER_STREAM, dead_letter_record(
                stream, "1-0", GROUP, "match-0", "undecodable: test", {b"m": b"x"}))
        gone, not_stream = await dead_ids(r)
        one_line_error(await cli("replay", gone), "stream bus:gone no longer exists")
        one_line_error(await cli("replay", not_stream), "not-a-stream is a string, not a stream")
        one_line_error(await cli("replay", gone, "1-1"), "no dead letter 1-1")
        assert await dead_ids(r) == [gone, not_stream]  # nothing replayed, nothing deleted
        every = await cli("replay", "--all")
        assert every.returncode == 1 and every.stderr.count("kept:") == 2, every.stderr
        one_line_error(await cli("replay"), "say which: dead letter ids, or --all")
        one_line_error(await cli("drop", gone, "1-1"), "no dead letter 1-1")
        one_line_error(await cli("show", "nonsense"), "is no stream id")
        one_line_error(await cli("list", url=None), "--redis-url or REDIS_URL")
        assert (await cli("drop", gone, not_stream)).returncode == 0
        assert await dead_ids(r) == []

    run(scenario())
