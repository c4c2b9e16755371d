#!/usr/bin/env python3
"""A minimal Siegeworks client in Python, written against docs/clients.md alone.

It imports nothing of Siegeworks: only redis-py and msgpack (``pip install redis msgpack``).
It joins an open seat, answers every prompt with a random legal action (so it plays every
hosted game), retries another action after a refusal it can fix, and prints one JSON line when
its match ends.

usage: bot.py --match MATCH_ID --client CLIENT_ID [--redis URL] [--seed N]

Exit status: 0 when the match ended, 2 when the join was refused, 3 on the overall timeout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid
import zlib

import msgpack
import redis
import redis.cluster

RETRYABLE = {"illegal_action", "malformed"}  # another legal action may be accepted


def key(client: str, rest: str) -> str:
    # The braces are part of the key (a Redis hash tag): the client's shard, crc32 mod 16.
    shard = zlib.crc32(client.encode()) % 16
    return f"siege:client:{{s{shard}}}:{client}:{rest}"


def connect(url: str) -> redis.Redis | redis.RedisCluster:
    """A plain Redis URL, or a cluster's: ``redis+cluster://[user:pw@]host:port,host:port``
    (every command this bot sends touches its own slot only, so only the client differs)."""
    scheme, rest = url.split("://", 1)
    if not scheme.endswith("+cluster"):
        return redis.Redis.from_url(url)
    auth, _, hosts = rest.rpartition("@")
    seeds = [h.rsplit(":", 1) for h in hosts.split("/")[0].split(",")]
    nodes = [redis.cluster.ClusterNode(host, int(port)) for host, port in seeds]
    seed = hosts.split("/")[0].split(",")[0]
    first = f"{scheme.removesuffix('+cluster')}://{auth}{'@' if auth else ''}{seed}"
    return redis.RedisCluster.from_url(first, startup_nodes=nodes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--match", required=True)
    parser.add_argument("--client", required=True)
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379"))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout-s", type=float, default=300.0)
    opts = parser.parse_args()
    rng = random.Random(opts.seed if opts.seed is not None else f"{opts.client}/{opts.match}")
    r = connect(opts.redis)
    commands, inbox = key(opts.client, "commands"), key(opts.client, "inbox")

    def send(message: dict) -> None:
        r.xadd(commands, {"m": msgpack.packb(message, use_bin_type=True)})

    # Register (refused under ACLs, where the operator did it: harmless).
    try:
        r.sadd("siege:clients", opts.client)
        r.xadd("siege:clients:changed", {"c": opts.client})
    except redis.exceptions.NoPermissionError:
        pass
    last = r.xrevrange(inbox, count=1)  # only what comes from now on is an answer to us
    cursors = {inbox: last[0][0] if last else b"0-0"}
    send({"t": "cmd.join_match", "match_id": opts.match, "client": opts.client, "seat": -1})
    held: dict | None = None
    answered, left, pending = -1, [], ""
    deadline = time.monotonic() + opts.timeout_s

    def answer(decision: int, choices: list) -> None:
        nonlocal left, pending
        pick = rng.randrange(len(choices))
        left = choices[:pick] + choices[pick + 1:]
        pending = f"{opts.client}-{decision}-{uuid.uuid4().hex[:8]}"
        assert held is not None
        send({"t": "cmd.submit_action", "match_id": opts.match, "seat": held["seat"],
              "decision": decision, "command_id": pending, "token": held["token"],
              "client": opts.client, "action": msgpack.packb(choices[pick], use_bin_type=True)})

    while time.monotonic() < deadline:
        for stream, entries in r.xread(cursors, block=1000, count=100) or []:
            for entry_id, fields in entries:
                cursors[stream] = entry_id
                try:
                    msg = msgpack.unpackb(fields[b"m"], raw=False)
                except (ValueError, msgpack.UnpackException):
                    continue
                kind = msg.get("t")
                if kind == "note.seat_granted" and msg["match_id"] == opts.match:
                    if held is None:
                        held = msg
                        cursors[msg["stream"].encode()] = b"0-0"
                    held["token"] = msg["token"]
                elif kind == "note.command_refused" and msg.get("subject") == opts.match:
                    if msg["code"] == "unknown_match" and held is None:
                        time.sleep(0.1)  # the create may not have landed yet
                        send({"t": "cmd.join_match", "match_id": opts.match,
                              "client": opts.client, "seat": -1})
                        continue
                    print(f"join refused: {msg['code']}", file=sys.stderr)
                    return 2
                elif kind == "note.seat_prompted" and held and msg["decision"] > answered:
                    answered = msg["decision"]
                    answer(answered, msg["legal"])
                elif kind == "note.action_rejected" and msg["command_id"] == pending:
                    if msg["code"] in RETRYABLE and left:
                        answer(answered, left)
                elif kind == "note.match_finished" and msg["match_id"] == opts.match:
                    print(json.dumps({"match_id": opts.match, "seat": held and held["seat"],
                                      "ranks": msg["ranks"], "reason": msg.get("reason")}))
                    return 0
                # Anything else (an acknowledgement, a message of a later version) is passed by.
    print("timed out", file=sys.stderr)
    return 3


if __name__ == "__main__":
    sys.exit(main())
