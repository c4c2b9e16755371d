"""What the web gateway keeps of its people in Redis, so a restart of ``siege web`` keeps who
holds which table: per person, each table it asked for or holds (match, game, seat, seat token,
names, whether it is over); per match the gateway's bots play, their seats, tokens and seed; and
the set of those still in play, which a new gateway process resumes playing.

All under the gateway's own keys (``siege.eventlog.keys.gateway_key``), which only its ACL user
may read or write (``siege.eventlog.acl.gateway_rules``). Bounded (docs/durability.md, "Every
stream's bound"): a record expires ``KEPT_S`` after its last change (an ask, a grant, an action
of the person, a table's end), and the set in play holds only records with a table not over.
"""

from __future__ import annotations

import msgspec
from redis.asyncio import Redis

from siege.archive.tombstones import read_tombstone
from siege.contracts.messages import MatchFinished
from siege.eventlog.acl import GATEWAY_CLIENT
from siege.eventlog.keys import RESULTS_HASH, gateway_key
from siegeworks.transport.bounds import INBOX_IDLE_S

KEPT_S = INBOX_IDLE_S
"""A person's (or a match's bots') record goes this long after its last change: eight days, the
longest a decision clock may run and a day more, as a client's inbox (a table in play changes at
least as often as its clock runs out), so a person who comes back within a week of their last
table's end still finds it."""


class KeptTable(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a person: asked for (no token yet: ``seat`` is the one asked, -1 for any),
    or held."""

    match_id: str
    game: str
    seat: int = -1
    token: str = ""
    name: str = ""  # the name the person asked to be seated under
    names: list[str] = []  # every seat's name, once the match has begun
    over: bool = False


class KeptBots(msgspec.Struct, frozen=True, kw_only=True):
    """The gateway's bots at one match, started by ``owner`` (a person)."""

    match_id: str
    game: str
    owner: str
    bots: list[str]  # the bot playing each seat; "" for a seat someone else plays
    seed: bytes
    tokens: dict[int, str] = {}
    over: bool = False


_tables = msgspec.msgpack.Decoder(KeptTable)
_bots = msgspec.msgpack.Decoder(KeptBots)
_results = msgspec.msgpack.Decoder(MatchFinished)
PERSON, BOTS = "person", "bots"


class Keeping:
    """The gateway's records, under ``siege:gateway:<gateway>:...``."""

    def __init__(self, redis: Redis, gateway: str = GATEWAY_CLIENT) -> None:
        self.redis, self.gateway = redis, gateway
        self.playing_key = gateway_key(gateway, "playing")
        self.cursor_key = gateway_key(gateway, "inbox-read")

    def person_key(self, client: str) -> str:
        return gateway_key(self.gateway, PERSON, client)

    def bots_key(self, match_id: str) -> str:
        return gateway_key(self.gateway, BOTS, match_id)

    async def keep_table(self, client: str, table: KeptTable) -> None:
        key = self.person_key(client)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, table.match_id, msgspec.msgpack.encode(table))
            pipe.expire(key, KEPT_S)
            (pipe.sadd if not table.over else pipe.srem)(self.playing_key, f"{PERSON}:{client}")
            await pipe.execute()
        if table.over and any(not t.over for t in await self.tables(client)):
            await self.redis.sadd(self.playing_key, f"{PERSON}:{client}")

    async def tables(self, client: str) -> list[KeptTable]:
        stored = await self.redis.hgetall(self.person_key(client))
        return [_tables.decode(raw) for raw in stored.values()]

    async def keep_bots(self, bots: KeptBots) -> None:
        key = self.bots_key(bots.match_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(key, msgspec.msgpack.encode(bots), ex=KEPT_S)
            (pipe.sadd if not bots.over else pipe.srem)(self.playing_key,
                                                        f"{BOTS}:{bots.match_id}")
            await pipe.execute()

    async def bots(self, match_id: str) -> KeptBots | None:
        raw = await self.redis.get(self.bots_key(match_id))
        return _bots.decode(raw) if raw is not None else None

    async def touched(self, client: str, match_id: str) -> None:
        """The person acted at ``match_id``: its record and the match's bots' are kept longer."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.expire(self.person_key(client), KEPT_S)
            pipe.expire(self.bots_key(match_id), KEPT_S)
            await pipe.execute()

    async def playing(self) -> list[tuple[str, str]]:
        """(kind, person id or match id) of every record with a table in play."""
        members = await self.redis.smembers(self.playing_key)
        return [tuple(m.decode().split(":", 1)) for m in members]  # type: ignore[misc]

    async def forget_playing(self, kind: str, name: str) -> None:
        """A record that expired (or never was) is not in play."""
        await self.redis.srem(self.playing_key, f"{kind}:{name}")

    async def inbox_read(self) -> str | None:
        """The id of the last entry of the gateway's inbox it handled, if it ever did."""
        raw = await self.redis.get(self.cursor_key)
        return raw.decode() if raw is not None else None

    async def keep_inbox_read(self, entry_id: str) -> None:
        await self.redis.set(self.cursor_key, entry_id, ex=KEPT_S)


async def result_of(redis: Redis, match_id: str) -> MatchFinished | None:
    """A finished match's result: the results hash, or its tombstone once archived."""
    raw = await redis.hget(RESULTS_HASH, match_id)
    if raw is not None:
        return _results.decode(raw)
    tombstone = await read_tombstone(redis, match_id)
    return tombstone.finished() if tombstone is not None else None
