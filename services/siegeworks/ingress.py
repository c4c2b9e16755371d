"""Commands coming in: one stream per client, read by the match and rules services.

A client writes only its own commands stream (``siege.eventlog.keys.commands_key``), so the
stream a command arrives on says who sent it: the services fill in or check the ``client``
field of every command against it (a command naming another client is refused), and answers go
to the sender's own inbox. Which streams to read is the registry ``siege:clients``; a doorbell
stream wakes the services when it changes. See docs/decisions/0007-a-bus-no-client-can-break.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from siege.contracts.messages import (
    MAX_COMMAND_ID,
    MAX_DETAIL,
    MAX_MATCH_ID,
    MAX_TAG,
    CreateMatch,
    JoinMatch,
    Message,
    RegisterEntrant,
    ResignMatch,
    SubmitAction,
    WatchMatch,
    clipped,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import (
    CLIENTS_CHANGED_STREAM,
    CLIENTS_KEY,
    client_of_commands_key,
    commands_key,
    valid_client_id,
)
from siege.hosting.lobby import Refusal
from siege.hosting.rules import Rejection
from siegeworks import quotas
from siegeworks.context import ServiceContext
from siegeworks.match.notices import refuse
from siegeworks.rules.handlers import reject

PAUSE_S = 1.0
"""How long a client's stream rests once it is over a quota (its next entries are refused
again if it still is, so a flood costs at most a batch per second of each service)."""

REFRESH_EVERY_S = 2.0
"""How often the registry's mark is looked at (and the registry read again if it changed): a
replica whose group-mate took the doorbell entry still learns of a new client this soon (any
replica may come to hold any client's shard)."""
FULL_READ_EVERY_S = 60.0
"""How often the registry is read whatever its mark says: a safety net (a client revoked and
another added themselves without ringing, between two looks, leave the mark as it was)."""


class ClientsChanged(msgspec.Struct, frozen=True):
    """A doorbell entry: ``client`` was added to or removed from the registry."""

    client: str


def decode_doorbell(fields: Mapping[bytes, bytes]) -> ClientsChanged | None:
    value = fields.get(b"c")
    return ClientsChanged(value.decode(errors="replace")) if value is not None else None


async def after_ring(redis: Redis, followed: Collection[str], client: str) -> list[str]:
    """The commands streams to follow after a ring of the doorbell naming ``client``: those
    followed, with the client's if it is registered, without it if not (a revoke rings too).
    One SISMEMBER, where reading the whole registry on every ring would cost each ring in
    proportion to the clients registered."""
    streams = set(followed)
    if valid_client_id(client):
        stream = commands_key(client)
        if await redis.sismember(CLIENTS_KEY, client):
            streams.add(stream)
        else:
            streams.discard(stream)
    return sorted(streams)


async def registered_streams(redis: Redis) -> list[str]:
    """The commands streams of every registered client (invalid ids are skipped)."""
    members = await redis.smembers(CLIENTS_KEY)
    names = (m.decode(errors="replace") if isinstance(m, bytes) else str(m) for m in members)
    return sorted(commands_key(c) for c in names if valid_client_id(c))


def attribute(message: Message, sender: str) -> Message | Refusal:
    """``message`` as sent by ``sender`` (whose stream it came on): its ``client`` filled in
    when empty, refused when it names someone else."""
    named = getattr(message, "client", None)
    if named is None:
        return message
    if named not in ("", sender):
        return Refusal(RejectionCode.BAD_CLIENT, f"a command on {sender}'s stream names "
                       f"client {named[:64]!r}: a client acts only as itself")
    if named == "":
        return msgspec.structs.replace(message, client=sender)  # type: ignore[type-var]
    return message


_KIND = {CreateMatch: quotas.CREATES, RegisterEntrant: quotas.CREATES,
         JoinMatch: quotas.JOINS, SubmitAction: quotas.ACTIONS, ResignMatch: quotas.ACTIONS,
         WatchMatch: quotas.JOINS}


class Admission:
    """What a service lets in from a client's stream: commands as their sender, within its
    quota. Refusals go to the sender's own inbox and never touch a log."""

    def __init__(self, rates: dict[str, quotas.Rate] | None = None) -> None:
        self.quotas = quotas.Quotas(rates) if rates is not None else quotas.Quotas()
        self._swept = time.monotonic()
        # Clients over a quota, and until when their stream is not read: what they send meanwhile
        # waits on their own stream (capped, see serve.CLIENT_BACKLOG) and costs nobody else.
        self._paused: dict[str, float] = {}

    def paused(self, client: str) -> bool:
        until = self._paused.get(client)
        if until is None:
            return False
        if time.monotonic() < until:
            return True
        del self._paused[client]
        return False

    def resting(self) -> frozenset[str]:
        """The clients whose streams rest now (those whose pause ran out are forgotten): what
        :meth:`skips` answers by, for a reader that asks again only when this changed."""
        now = time.monotonic()
        for client in [c for c, until in self._paused.items() if until <= now]:
            del self._paused[client]
        return frozenset(self._paused)

    def skips(self, stream: str) -> bool:
        """For the consumer: whether to leave ``stream`` unread this time."""
        client = client_of_commands_key(stream)
        return client is not None and self.paused(client)

    def note_refused(self, client: str) -> None:
        """Counts a refusal sent to ``client``; past its refusals quota, its stream rests."""
        if client and not self.quotas.allow(client, quotas.REFUSALS, time.monotonic()):
            self._pause(client)

    def _pause(self, client: str) -> None:
        self._paused[client] = time.monotonic() + PAUSE_S

    async def admit(self, ctx: ServiceContext, message: Message, sender: str) -> Message | None:
        """``message`` attributed to ``sender``, or None once refused."""
        bound = attribute(message, sender)
        if isinstance(bound, Refusal):
            await self._refuse(ctx, message, sender, bound)
            return None
        kind = _KIND.get(type(bound))
        now = time.monotonic()
        if now - self._swept > 60:
            self.quotas.forget_idle(now)
            self._swept = now
        if kind is not None and not self.quotas.allow(sender, kind, now):
            self._pause(sender)
            rate = self.quotas.rates[kind]
            await self._refuse(ctx, bound, sender, Refusal(
                RejectionCode.RATE_LIMITED, f"over {rate.per_s:g} {kind} per second "
                f"(bursts of {rate.burst:g}): send it again later"))
            return None
        return bound

    async def _refuse(self, ctx: ServiceContext, message: Message, sender: str,
                      refusal: Refusal) -> None:
        if isinstance(message, SubmitAction | ResignMatch):
            await reject(ctx, msgspec.structs.replace(message, client=sender),
                         Rejection(refusal.code, refusal.detail))
        else:
            await refuse(ctx, sender, command_tag(message), subject_of(message)[:128], refusal)


async def answer_unreadable(ctx: ServiceContext, stream: str, fields: Mapping[bytes, bytes],
                            error: BaseException) -> None:
    """An entry on a client's stream that is no command (a field of the wrong type, one
    missing, an unknown tag, not msgpack at all) is answered ``malformed`` on that client's
    inbox, with what the decoder said (it names the bad field's path, such as ``$.action``):
    an ``ActionRejected`` when the entry still says which action it was, else a
    ``CommandRefused`` naming what can be read of its tag and subject."""
    sender = client_of_commands_key(stream)
    if sender is None:
        return
    body = _loose(fields.get(b"m"))
    tag = body.get("t") if isinstance(body.get("t"), str) else "cmd.unknown"
    refusal = Refusal(RejectionCode.MALFORMED, clipped(f"not a valid command: {error}",
                                                       MAX_DETAIL))
    match_id, seat, command_id = body.get("match_id"), body.get("seat"), body.get("command_id")
    if (tag == "cmd.submit_action" and isinstance(match_id, str) and isinstance(command_id, str)
            and isinstance(seat, int) and not isinstance(seat, bool)):
        await reject(ctx, SubmitAction(
            match_id=match_id[:MAX_MATCH_ID], seat=seat, decision=0,
            command_id=command_id[:MAX_COMMAND_ID], action=b"", client=sender),
            Rejection(refusal.code, refusal.detail))
        return
    subject = body.get("match_id") or body.get("tournament_id")
    await refuse(ctx, sender, clipped(tag, MAX_TAG),
                 clipped(subject[:MAX_MATCH_ID], MAX_MATCH_ID) if isinstance(subject, str)
                 else "", refusal)


def _loose(raw: bytes | None) -> dict[str, Any]:
    """What an unreadable entry's body holds, read as plain msgpack ({} if not even that)."""
    try:
        body = msgspec.msgpack.decode(raw) if raw is not None else None
    except (msgspec.DecodeError, RecursionError):
        return {}
    return body if isinstance(body, dict) else {}


def command_tag(message: Message) -> str:
    return {CreateMatch: "cmd.create_match", JoinMatch: "cmd.join_match",
            RegisterEntrant: "cmd.register_entrant", SubmitAction: "cmd.submit_action",
            ResignMatch: "cmd.resign_match", WatchMatch: "cmd.watch_match"}.get(
                type(message), "cmd.unknown")


def subject_of(message: Message) -> str:
    return str(getattr(message, "match_id", None) or getattr(message, "tournament_id", ""))


Follow = Callable[[Collection[str]], Awaitable[list[str]]]


async def registry_mark(redis: Redis) -> tuple[int, bytes | None]:
    """What changes whenever the registry does, read in O(1): its size, and the id of the
    doorbell's last ring (every registration rings it; a client that adds itself without
    ringing still changes the size)."""
    size = await redis.scard(CLIENTS_KEY)  # two slots on a cluster: asked one after the other
    last = await redis.xrevrange(CLIENTS_CHANGED_STREAM, count=1)
    return int(size), (last[0][0] if last else None)


async def refresh_forever(redis: Redis, follow: Follow, stop: asyncio.Event,
                          every_s: float = REFRESH_EVERY_S,
                          full_every_s: float = FULL_READ_EVERY_S) -> None:
    """Reads the registry at start, and after that whenever its mark (:func:`registry_mark`,
    looked at every ``every_s`` seconds) has changed, or ``full_every_s`` seconds have passed;
    hands the streams to ``follow`` (``StreamConsumer.follow``), until ``stop``.

    The whole registry is every client ever registered: read by every match and rules replica
    every two seconds, it would cost each of them and Redis in proportion to the clients."""
    log = structlog.get_logger("siegeworks.ingress")
    loop = asyncio.get_running_loop()
    seen: tuple[int, bytes | None] | None = None
    read_at = -math.inf
    while not stop.is_set():
        try:
            try:
                mark: tuple[int, bytes | None] | None = await registry_mark(redis)
            except ResponseError:  # the doorbell is no stream (a bad write): read it all
                mark = None
            if mark is None or mark != seen or loop.time() - read_at >= full_every_s:
                # The mark before the read: a registration between the two shows next pass.
                added = await follow(await registered_streams(redis))
                seen, read_at = mark, loop.time()
                if added:
                    log.info("clients_followed", streams=len(added))
        except Exception as exc:  # noqa: BLE001 - the next pass may get through (a closed
            # connection during a cluster failover is no RedisError in redis-py's client)
            log.warning("registry read failed", error=repr(exc))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)
