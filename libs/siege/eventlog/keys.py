"""Redis key names for match logs.

Every key of one match carries the hash tag ``{s<shard>}``, so the append script, which touches
the log, the shard's bus, the shard's match index and the seed key at once, runs unchanged on a
Redis Cluster: all of them hash to one slot. The shard count is baked into every key name, so it
can never change without rewriting every key; it is fixed here once.
"""

from __future__ import annotations

import re
import zlib
from functools import lru_cache

SHARDS = 16
"""Number of shards. Part of every key name: never change it on a live deployment."""


KEYS_CACHED = 1 << 16
"""Key names remembered per process: every action names its match's keys several times, and a
process has far fewer live matches and clients than this."""


@lru_cache(maxsize=KEYS_CACHED)
def shard_of(match_id: str) -> int:
    """The shard of a match: crc32 of its UTF-8 id, modulo :data:`SHARDS` (stable across runs).

    ``zlib.crc32`` rather than ``hash()``: Python salts ``str`` hashes per process, and every
    process and every client language must agree on the shard.
    """
    return zlib.crc32(match_id.encode("utf-8")) % SHARDS


def _tag(shard: int) -> str:
    if not 0 <= shard < SHARDS:
        raise ValueError(f"shard {shard} is outside 0..{SHARDS - 1}")
    return f"{{s{shard}}}"


@lru_cache(maxsize=KEYS_CACHED)
def log_key(match_id: str) -> str:
    """The match's event stream, e.g. ``{s3}:log:<match_id>``."""
    return f"{_tag(shard_of(match_id))}:log:{match_id}"


AUDIENCES = ("rules", "dice", "scoring")
"""Who a pointer is for. Each append notifies only the service that owes the next event, so no
service reads (and folds) pointers it has nothing to do about."""


NO_POINTER = "none"
"""The audience of an append whose writer does itself what the events call for next (the rules
service prompting after an action it appended): the script writes no pointer at all. Its key,
``{sN}:bus:none``, only names the choice in the script's call and is never written."""


def bus_key(shard: int, audience: str | None = None) -> str:
    """The shard's bus stream of append pointers (match id, first seq, last seq): the general
    one, or the one read by ``audience`` (``NO_POINTER``: the name that means none)."""
    if audience is None:
        return f"{_tag(shard)}:bus"
    if audience not in AUDIENCES and audience != NO_POINTER:
        raise ValueError(f"unknown audience {audience!r}")
    return f"{_tag(shard)}:bus:{audience}"


def seed_key(match_id: str) -> str:
    """The restricted key holding the match's secret dice seed (written with ``SeedCommitted``)."""
    return f"{_tag(shard_of(match_id))}:seed:{match_id}"


def matches_key(shard: int) -> str:
    """Sorted set of the shard's match ids: score 0 while the match's log is in Redis, 1 once it
    was archived (its log gone, its tombstone in :func:`archived_key`); the append script
    refuses to start a log under an id with score 1."""
    return f"{_tag(shard)}:matches"


def archived_key(shard: int) -> str:
    """Hash of the shard's tombstones: match id -> where its archive went, its checksum and a
    summary (``siege.archive.tombstones``), written in the step that removes the log."""
    return f"{_tag(shard)}:archived"


def archiving_key(match_id: str) -> str:
    """The lease of the archiver archiving this match now (its consumer name, with a TTL), so
    two archivers never archive one match at once."""
    return f"{_tag(shard_of(match_id))}:archiving:{match_id}"


def deadlines_key(shard: int) -> str:
    """Sorted set of the shard's decision clocks (``siege.hosting.clocks`` members), scored by
    their due time in ms: written by the rules service as it prompts, read by the match
    replica holding the shard."""
    return f"{_tag(shard)}:deadlines"


def lobby_key(match_id: str) -> str:
    """A match waiting for clients to join its open seats (gone once the match has started)."""
    return f"{_tag(shard_of(match_id))}:lobby:{match_id}"


CLIENT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
"""What a client id may be: it becomes part of key names and of Redis ACL key patterns, so no
glob characters, colons or braces."""


MATCH_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
"""What a match id may be: it is part of key names, and ids shaped like a tournament's
(``t-`` and 12 hex digits) are the tournaments' own (checked by the match service)."""


def valid_match_id(match_id: str) -> bool:
    return MATCH_ID.fullmatch(match_id) is not None


def valid_client_id(client: str) -> bool:
    return CLIENT_ID.fullmatch(client) is not None


@lru_cache(maxsize=KEYS_CACHED)
def client_shard(client: str) -> int:
    """A client's shard, as a match's: crc32 of its UTF-8 id, modulo :data:`SHARDS`."""
    return shard_of(client)


@lru_cache(maxsize=KEYS_CACHED)
def client_prefix(client: str) -> str:
    """Every stream written for one client starts with this, ``siege:client:{s<shard>}:<id>:``;
    one ACL pattern (``%R~siege:client:{s<shard>}:<id>:*``) opens exactly these to that client
    (an id holds no colon, so no other id's keys match).

    The hash tag is the client's shard (:func:`client_shard`), the tag of the matches' keys: on
    a Redis Cluster a client's streams share one slot (it reads them all in one XREAD), and the
    commands streams of every client of a shard share the slot of that shard's buses, so a
    service reads a shard's pointers and its clients' commands in one XREADGROUP, sixteen reads
    in all however many clients there are (docs/decisions/0013-clients-in-shards.md).
    """
    if not valid_client_id(client):
        raise ValueError(f"invalid client id {client!r}")
    return f"siege:client:{_tag(client_shard(client))}:{client}:"


def inbox_key(client: str) -> str:
    """A client's own inbox: seat grants, refusals of its commands, ends of its matches."""
    return client_prefix(client) + "inbox"


def commands_key(client: str) -> str:
    """The only stream a client writes: its commands (create, join, register, act). One stream
    per client, so whatever a client does to it (trim it, give an entry the largest id) harms
    nobody else, and the services know who sent a command from the stream it came on
    (docs/decisions/0007-a-bus-no-client-can-break.md)."""
    return client_prefix(client) + "commands"


_COMMANDS_KEY = re.compile(r"siege:client:\{s(\d+)\}:([^:]+):commands")


def client_of_commands_key(key: str) -> str | None:
    """The client whose commands stream ``key`` is; None for any other key (one whose shard is
    not its client's included: nobody's stream)."""
    found = _COMMANDS_KEY.fullmatch(key)
    if found is None or not valid_client_id(found[2]):
        return None
    return found[2] if int(found[1]) == client_shard(found[2]) else None


GATEWAYS: dict[str, str] = {"web-gateway": "web."}
"""Every gateway, by its client id, with the prefix of the ids of the people it speaks for: a
gateway writes the commands of all its people on its own commands stream, each naming its
person in ``client``, and the services take a command naming another client only from the
gateway whose people it is (``siegeworks.ingress.attribute``). One gateway per prefix, and no
prefix inside another: a person id is only ever acted for by one gateway
(docs/decisions/0018-a-gateway-speaks-for-many.md)."""


def gateway_of(client: str) -> str | None:
    """The gateway ``client`` is a person of (its id is under that gateway's prefix), or None
    for a client that speaks for itself."""
    for gateway, prefix in GATEWAYS.items():
        if client.startswith(prefix) and len(client) > len(prefix):
            return gateway
    return None


def speaks_for(gateway: str, client: str) -> bool:
    """True when ``gateway`` is a gateway and ``client`` one of its people (a valid id)."""
    return valid_client_id(client) and gateway_of(client) == gateway and gateway in GATEWAYS


def answers_key(client: str) -> str:
    """Where the services put what they tell ``client`` (grants, refusals, results): its own
    inbox, or, for a gateway's person, the gateway's inbox (each entry names the person in
    ``to``), so a gateway reads one inbox however many people it speaks for. Seat prompts stay
    on the seat's own stream (:func:`view_key`), read only while its table is in play."""
    return inbox_key(gateway_of(client) or client)


def gateway_key(gateway: str, *parts: str) -> str:
    """A key of a gateway's own (``siege:gateway:<id>:...``): what it keeps of its people (their
    tables, so a restart of the gateway keeps who holds which), readable and writable only by
    its ACL user."""
    if gateway not in GATEWAYS:
        raise ValueError(f"{gateway!r} is no gateway")
    return ":".join(("siege:gateway", gateway, *parts))


def watch_key(match_id: str) -> str:
    """The match's public stream (``MatchWatched``): what a spectator may know, readable by
    every client, written while someone watches (``WatchMatch``)."""
    return f"{_tag(shard_of(match_id))}:watch:{match_id}"


def view_key(client: str, match_id: str, seat: int) -> str:
    """The stream one seat's holder reads: its prompts (view and legal actions), one entry per
    decision, with entry id ``<decision>-1``."""
    return f"{client_prefix(client)}seat:{match_id}:{seat}"


# Streams that are not per match: rejections and results out (commands come in on each
# client's own stream, ``commands_key``).
CLIENTS_KEY = "siege:clients"
"""Set of the client ids the services read commands from (``siege acl issue`` adds one; on a
server without ACLs a client adds itself)."""
CLIENTS_CHANGED_STREAM = "siege:clients:changed"
"""A doorbell every match and rules replica reads (``siegeworks.following``): an entry names a
client just added to or removed from :data:`CLIENTS_KEY`, so its first command is read at once
by whichever replica holds its shard."""
REPLIES_STREAM = "siege:replies"
RESULTS_STREAM = "siege:results"
DEAD_LETTER_STREAM = "siege:dead"
RESULTS_HASH = "siege:results:by-match"
SEAT_SECRET_KEY = "siege:secret:seats"  # restricted: only the match service reads it
CONTRACT_KEY = "siege:contract"  # hash: the contract version the services speak (``version``)
LOBBY_HASH = "siege:lobby"  # hash: match id -> OpenSeats (msgpack), readable by every client
KEYS_HASH = "siege:keys"  # hash: signing key id -> its public record (JSON), readable by anyone


RATINGS_APPLIED = "siege:ratings:{all}:tournaments"
"""The scoring service's list of the tournaments whose ratings it applied, in order; the key
``<this>:<tournament id>`` marks one applied (:func:`ratings_applied_key`)."""


def ratings_applied_key(tournament_id: str) -> str:
    return f"{RATINGS_APPLIED}:{tournament_id}"


def health_key(service: str, consumer: str) -> str:
    return f"siege:health:{service}:{consumer}"
