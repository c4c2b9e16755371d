"""The Node client in clients/js joins an open seat through the real services and plays it out.

It knows only the published contract (docs/clients.md), so this is the proof that the contract
is enough for a client in another language.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio

from siege.contracts.events import ActionAccepted, MatchCreated
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.lobby import OPEN
from siege.hosting.match_state import codec_for
from siege.testing.node import CLIENTS_JS, node_path, node_problem
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.supervisor import ServiceProcesses

pytestmark = pytest.mark.both_stores  # on a single Redis and on a Redis Cluster

Run = Callable[[Awaitable[Any]], Any]

JS_DIR = CLIENTS_JS
CLIENT = "jsbot"
TIMEOUT_S = 90


def node_command() -> str:
    """Node 20 with the client's npm packages installed (``make test`` installs them)."""
    problem = node_problem()
    if problem is not None:
        pytest.fail(problem)
    node = node_path()
    assert node is not None
    return node


def test_js_client_joins_an_open_seat_and_plays_to_the_end(
    services: ServiceProcesses, run: Run, redis_client: redis.asyncio.Redis, redis_url: str
) -> None:
    node = node_command()
    spec = MatchSpec(match_id="js-1", game="castle-dash",
                     seat_names=["g-0", "g-1", "g-2", "open-3"],
                     bots=["greedy", "greedy", "greedy", OPEN])

    async def scenario() -> tuple[Any, int | None, bytes, bytes]:
        played = asyncio.create_task(play_specs([spec], redis_client, b"js-seed",
                                                stall_timeout_s=60))
        try:
            # Started at once: a join that overtakes the create is refused and sent again.
            proc = await asyncio.create_subprocess_exec(
                node, str(JS_DIR / "bot.js"), "--redis", redis_url, "--match", spec.match_id,
                "--client", CLIENT, "--timeout-ms", str(TIMEOUT_S * 1000),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            try:
                out, err = await asyncio.wait_for(proc.communicate(), timeout=TIMEOUT_S + 15)
            finally:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
            if proc.returncode != 0:  # the bot's own report says more than the organiser's stall
                return None, proc.returncode, out, err
            try:
                results = await asyncio.wait_for(played, timeout=60)
            except Exception as exc:
                raise AssertionError(f"the bot seats' run failed ({exc!r}); the JS bot said:\n"
                                     f"{err.decode(errors='replace')}") from exc
        finally:
            if not played.done():
                played.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await played
        return results[spec.match_id], proc.returncode, out, err

    result, code, out, err = run(scenario())
    assert code == 0, f"the JS bot exited {code}:\n{err.decode(errors='replace')}"
    lines = out.decode().splitlines()
    assert len(lines) == 1, f"expected one JSON line on stdout, got {lines!r}"
    summary = json.loads(lines[0])
    seat = summary["seat"]
    assert summary["match_id"] == spec.match_id == result.match_id
    assert seat == 3  # the only open seat
    assert summary["rank"] == result.ranks[seat]
    assert summary["decisions"] >= 1
    assert summary["rejected"] == 0, err.decode(errors="replace")

    entries = run(RedisEventLog(redis_client).read(spec.match_id))
    assert audit(entries).ok
    codec = codec_for("castle-dash")
    created = codec.decode(entries[0][1]).event
    assert isinstance(created, MatchCreated)
    assert created.clients[seat] == CLIENT
    assert all(c not in (OPEN, CLIENT) for i, c in enumerate(created.clients) if i != seat)
    accepted = [e for e in (codec.decode(entry[1]).event for entry in entries)
                if isinstance(e, ActionAccepted) and e.seat == seat]
    # Every prompt the bot answered was accepted: the JS client, not a forfeit, played its seat.
    assert len(accepted) == summary["decisions"]
