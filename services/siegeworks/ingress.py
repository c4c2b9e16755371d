"""Commands coming in: one stream per client, read by the match and rules services.

A client writes only its own commands stream (``siege.eventlog.keys.commands_key``), so the
stream a command arrives on says who sent it: the services fill in or check the ``client``
field of every command against it (a command naming another client is refused), and answers go
to the sender's own inbox. A gateway (``siege.eventlog.keys.GATEWAYS``) speaks for many people
on its one stream: a command there may name one of its own people, and is then theirs
(docs/decisions/0018-a-gateway-speaks-for-many.md). Which streams to read is the registry
``siege:clients``, followed by ``siegeworks.following``. See
docs/decisions/0007-a-bus-no-client-can-break.md.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import msgspec

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
    client_of_commands_key,
    gateway_of,
    speaks_for,
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

def attribute(message: Message, sender: str) -> Message | Refusal:
    """``message`` as sent by ``sender`` (whose stream it came on): its ``client`` filled in
    when empty, refused when it names someone else, unless ``sender`` is a gateway and the
    client named one of its people. A person's own stream is nobody's to write: only its
    gateway speaks for it."""
    named = getattr(message, "client", None)
    if gateway_of(sender) is not None:
        return Refusal(RejectionCode.BAD_CLIENT, f"{sender} is a person of gateway "
                       f"{gateway_of(sender)}: only that gateway's stream speaks for it")
    if named is None:
        return message
    if speaks_for(sender, named):
        return message
    if named not in ("", sender):
        return Refusal(RejectionCode.BAD_CLIENT, f"a command on {sender}'s stream names "
                       f"client {named[:64]!r}: a client acts only as itself (a gateway, "
                       "only for its own people)")
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
        # A gateway's people have a quota each: one person's flood is refused, and the gateway's
        # stream, which carries everyone else's commands too, is not rested for it.
        acting = str(getattr(bound, "client", "") or sender)
        if kind is not None and not self.quotas.allow(acting, kind, now):
            if acting == sender:
                self._pause(sender)
            rate = self.quotas.rates[kind]
            await self._refuse(ctx, bound, sender, Refusal(
                RejectionCode.RATE_LIMITED, f"over {rate.per_s:g} {kind} per second "
                f"(bursts of {rate.burst:g}): send it again later"))
            return None
        return bound

    async def _refuse(self, ctx: ServiceContext, message: Message, sender: str,
                      refusal: Refusal) -> None:
        """Tells the acting client (the person a gateway spoke for, once attributed; else the
        stream's owner) why its command was not let in."""
        named = str(getattr(message, "client", ""))
        if speaks_for(sender, named):
            sender = named
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
