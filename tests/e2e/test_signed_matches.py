"""Matches played through the services end with the server's seal, made by the dice service
with the key in its key file and checked by ``siege audit`` against the published keys; after
``siege keys rotate`` new matches are sealed by the new key and the old ones still audit; a
forged export (chain recomputed, resealed by another key) and an unsigned one exit 1."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis
import redis.asyncio

from siege.contracts.envelope import seal
from siege.contracts.events import MatchCreated, MatchSealed
from siege.hosting.export import dump, parse
from siege.hosting.match_state import codec_for
from siegeworks.remote_run import play_remote
from siegeworks.runner import RunConfig
from siegeworks.supervisor import ServiceProcesses

pytestmark = pytest.mark.e2e

Run = Callable[[Awaitable[Any]], Any]


def siege(args: list[str], redis_url: str, cwd: Path, key: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "REDIS_URL": redis_url, "COLUMNS": "250", "SIEGE_DATA_DIR": str(cwd),
           "SIEGE_SIGNING_KEY": str(key)}
    return subprocess.run([sys.executable, "-m", "siegeworks.cli", *args], env=env,
                          capture_output=True, text=True, timeout=60, cwd=cwd)


def play(redis_url: str, client: redis.asyncio.Redis, logs: Path, key: Path, seed: int,
         run: Run) -> list[str]:
    procs = ServiceProcesses(redis_url, logs, {"SIEGE_SIGNING_KEY": str(key)})
    cfg = RunConfig(game="castle-dash", matches=2, players=3, bots=["random"], seed=seed)

    async def scenario() -> list[str]:
        async with procs.running(client):
            return (await play_remote(cfg, client, stall_timeout_s=60)).match_ids

    return run(scenario())


def sealed_by(path: Path) -> str:
    last = codec_for("castle-dash").decode(parse(path.read_bytes())[-1][1]).event
    assert isinstance(last, MatchSealed)
    return last.key


def test_matches_are_sealed_rotation_keeps_old_seals_valid_and_forgeries_fail(
        redis_url: str, redis_client: redis.asyncio.Redis, tmp_path: Path, run: Run) -> None:
    with redis.Redis.from_url(redis_url) as sync:
        sync.flushdb()
    key = tmp_path / "keys" / "signing.key"
    before = play(redis_url, redis_client, tmp_path / "logs1", key, 71, run)
    assert key.stat().st_mode & 0o777 == 0o600  # made by the dice service, for itself only
    shown = siege(["keys", "show", "--json"], redis_url, tmp_path, key)
    assert shown.returncode == 0, shown.stderr
    first_key = sealed_by_export(before[0], redis_url, tmp_path, key)
    assert list(msgspec.json.decode(shown.stdout)) == [first_key]

    rotated = siege(["keys", "rotate"], redis_url, tmp_path, key)
    assert rotated.returncode == 0, rotated.stderr
    after = play(redis_url, redis_client, tmp_path / "logs2", key, 72, run)
    second_key = sealed_by_export(after[0], redis_url, tmp_path, key)
    assert second_key != first_key and second_key in rotated.stdout
    for match_id in before + after:  # the old key's seals predate its retirement
        audited = siege(["audit", match_id], redis_url, tmp_path, key)
        assert audited.returncode == 0, audited.stdout + audited.stderr
        assert "signed by" in audited.stdout
    table = siege(["keys", "show"], redis_url, tmp_path, key)
    assert "retired" in table.stdout and f"by {second_key}" in table.stdout

    # A forged export: winner and loser swap names, the chain recomputed (the old seal kept).
    export = tmp_path / "m.jsonl"
    envs = [codec_for("castle-dash").decode(s) for _, s, _ in parse(export.read_bytes())]
    events = [msgspec.structs.replace(e.event, seat_names=e.event.seat_names[::-1])
              if isinstance(e.event, MatchCreated) else e.event for e in envs]
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(dump(seal(codec_for("castle-dash"), envs[0].match_id, 0, bytes(32),
                                 events, envs[0].at)))
    audited = siege(["audit", str(forged)], redis_url, tmp_path, key)
    assert audited.returncode == 1 and "does not match the log" in audited.stdout
    unsigned = tmp_path / "unsigned.jsonl"
    unsigned.write_bytes(b"".join(line + b"\n" for line in
                                  export.read_bytes().split(b"\n")[:-2]))
    assert siege(["audit", str(unsigned)], redis_url, tmp_path, key).returncode == 1
    allowed = siege(["audit", str(unsigned), "--allow-unsigned"], redis_url, tmp_path, key)
    assert allowed.returncode == 0, allowed.stdout
    # Against a keyring file the same way: one without the key fails.
    keyring = tmp_path / "keys.json"
    keyring.write_text(siege(["keys", "show", "--json"], redis_url, tmp_path, key).stdout)
    assert siege(["audit", str(export), "--keys", str(keyring)], redis_url, tmp_path,
                 key).returncode == 0
    keyring.write_text("{}")
    audited = siege(["audit", str(export), "--keys", str(keyring)], redis_url, tmp_path, key)
    assert audited.returncode == 1 and "not among the published keys" in audited.stdout


def sealed_by_export(match_id: str, redis_url: str, cwd: Path, key: Path) -> str:
    exported = siege(["export", match_id, "-o", "m.jsonl"], redis_url, cwd, key)
    assert exported.returncode == 0, exported.stderr
    return sealed_by(cwd / "m.jsonl")
