"""A client that gets the contract wrong on purpose, for the conformance kit's own tests.

usage: sloppy_client.py REDIS_URL MATCH_ID CLIENT_ID MODE

- ``silent``: never joins, exits 0;
- ``sloppy``: joins, answers its first prompt with an entry that is no command, then with an
  action that is no action of the game, then with an illegal one, and then ignores the
  rejections until its clock runs out; exits 3.
"""

from __future__ import annotations

import sys
import zlib

import msgspec
import redis

url, match_id, client, mode = sys.argv[1:5]
if mode == "silent":
    sys.exit(0)
r = redis.Redis.from_url(url)
r.sadd("siege:clients", client)
r.xadd("siege:clients:changed", {"c": client})
prefix = f"siege:client:{{s{zlib.crc32(client.encode()) % 16}}}:{client}:"
commands = prefix + "commands"
inbox = prefix + "inbox"


def send(message: dict) -> None:
    r.xadd(commands, {"m": msgspec.msgpack.encode(message)})


send({"t": "cmd.join_match", "match_id": match_id, "client": client, "seat": -1})
cursors = {inbox: "0-0"}
grant = None
while True:
    for key, entries in r.xread(cursors, block=1000) or []:
        for entry_id, fields in entries:
            cursors[key.decode()] = entry_id.decode()
            message = msgspec.msgpack.decode(fields[b"m"])
            if message["t"] == "note.seat_granted" and grant is None:
                grant = message
                cursors[message["stream"]] = "0-0"
            elif message["t"] == "note.seat_prompted":
                r.xadd(commands, {"m": b"\xc1 not msgpack"})
                base = {"t": "cmd.submit_action", "match_id": match_id, "seat": grant["seat"],
                        "decision": message["decision"], "token": grant["token"],
                        "client": client}
                send({**base, "command_id": "not-an-action",
                      "action": msgspec.msgpack.encode({"t": "no.such_action"})})
                legal = msgspec.msgpack.decode(msgspec.msgpack.encode(message["legal"][0]))
                illegal = {k: (v + 1000 if isinstance(v, int) and k != "t" else v)
                           for k, v in legal.items()}
                send({**base, "command_id": "illegal",
                      "action": msgspec.msgpack.encode(illegal)})
                sys.exit(3)  # and never answers again
