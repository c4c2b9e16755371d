"""How far each stream the services write may grow, and why: the numbers in one place.

A host that runs for a year must not grow Redis for ever. The match logs are the exception:
they are the truth of a match, never trimmed (the archiver moves finished ones out of Redis).
Every other stream is bounded where it is written:

- by count, with ``MAXLEN`` on the XADD that writes it. Approximate (``~``) wherever keeping a
  few more entries than the number is harmless: Redis then trims only whole nodes of the stream
  (``stream-node-max-entries``, 100 by default), so a stream holds at most about the number plus
  one node, at no cost beyond the XADD. Exact where the number is small and means something to
  a reader (a seat's prompts);
- by age, with ``EXPIRE``: after its last write (an idle expiry, set again as it is written) or
  once the match is over (``RedisBus.retire``).

docs/durability.md ("Every stream's bound") lists every stream with its bound, the rule behind
it, where it is enforced and the test that holds it. :func:`write_bound` is what
:class:`siegeworks.transport.redis_bus.RedisBus` applies to every entry it writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from siege.eventlog.keys import (
    CLIENTS_CHANGED_STREAM,
    DEAD_LETTER_STREAM,
    GATEWAYS,
    KEYS_CACHED,
    REPLIES_STREAM,
    RESULTS_STREAM,
    inbox_key,
)
from siege.hosting.clocks import MAX_TIMEOUT_MS

# --------------------------------------------------------------------------------------------
# A client's own streams

SEAT_PROMPTS_KEPT = 1
"""Prompts kept on a seat's stream (``siege:client:{s<k>}:<id>:seat:<match>:<seat>``), exactly
(``MAXLEN 1``, not ``~``). A match waits for one decision at a time (``Pending.decision``), so a
seat has at most one open prompt, and it is always the newest entry of its stream: an older one
answers a decision that is over (``stale_decision``). Every reader wants only that one: a
client's ``SeatReader.recover`` reads the newest (XREVRANGE COUNT 1), and a client that starts
reading from ``0-0`` after its grant (clients/python, clients/js, docs/clients.md) finds it
first and only. The entry ids stay ``<decision>-1``: Redis keeps a stream's last id however it
is trimmed, so a prompt repeated after a redelivery is still refused by its id. Exact costs no
more than ``~`` here (one entry removed per prompt), and ``~ 1`` would keep up to a whole node
(100 prompts). Memory per seat: one prompt and, at worst, the rest of one stream node."""

SEAT_RETIRED_S = 3600
"""How long a finished match's seat streams stay (EXPIRE, set by scoring with the result): their
holders get an hour to read the last prompt (a view of the end). A match always finishes, by its
clocks if nobody plays, so every seat stream gets this expiry."""

INBOX_MAXLEN = 2_000
"""Entries kept (about: ``~``) on a client's inbox. What a client needs is what it has not read
yet, and it reads its inbox as it goes; a ``siege run`` client holding many seats gets an
``ActionAcknowledged`` per accepted action there and reads 200 entries a poll, so 2,000 is ten
polls of slack. Every entry the services write there is at most
``siege.contracts.messages.MAX_INBOX_ENTRY_BYTES`` (4 KB), so an inbox holds at most about 8 MB
however many refusals a flood earns. docs/clients.md tells clients the inbox keeps about its
newest 2,000."""

GATEWAY_INBOX_MAXLEN = 100_000
"""Entries kept (about) on a gateway's inbox, which carries the answers of all its people
(docs/decisions/0018): fifty times a client's, for a gateway of ten thousand people that falls
behind by seconds; at most about 400 MB with the largest entries, 20 MB as they are."""
_GATEWAY_INBOXES = frozenset(inbox_key(gateway) for gateway in GATEWAYS)
INBOX_IDLE_S = MAX_TIMEOUT_MS // 1000 + 24 * 3600
"""An inbox nothing was written to for this long goes (EXPIRE, set again as it is written):
eight days, the longest a decision clock may run (``siege.hosting.clocks.MAX_TIMEOUT_MS``, a
week) and a day more, so an inbox never goes while its client may still be thinking over a
prompt of a match whose grant it holds (and a client that lost its grant gets it again with a
``JoinMatch``). A client that never comes back costs nothing after that."""

IDLE_REFRESH_S = 60
"""An idle expiry is set again at most this often per stream and writing process (not on every
XADD: an inbox takes an acknowledgement per action), so a stream goes between its idle expiry
less a minute and its idle expiry after its last write. One deleted by hand (``siege run``
deletes its inbox at its end, where it may) and written again within the minute by a process
that had just set its expiry gets none until that process writes it again: its MAXLEN still
holds it."""

# --------------------------------------------------------------------------------------------
# Shared streams

REPLIES_MAXLEN = 2_000
"""Entries kept (about) on ``siege:replies``: refusals of commands that named no valid client,
so nobody's inbox; a diagnostic trail that anyone can fill by sending nonsense, kept like an
inbox (entries of at most 4 KB: about 8 MB)."""

RESULTS_MAXLEN = 10_000
"""Entries kept (about) on ``siege:results``, a notice per finished match. The record of every
result is the hash ``siege:results:by-match``; the stream is only followed, by XREAD from its end
at the start of a run (``remote_run``, ``SeatReader.follow``), which also hears of its own
matches' ends on its inbox. For a reader that falls behind, 10,000 is 100 s of results at 100
matches a second, half an hour at the 5 a second of a 1,024-entrant tournament; a
``MatchFinished`` is at most 4 KB (40 MB at worst, a few MB in practice)."""

DOORBELL_MAXLEN = 1_000
"""Entries kept (about) on the registry's doorbell ``siege:clients:changed``. A ring is only a
hint: the set ``siege:clients`` is the record. Every replica reads the rings after the last it
saw, ``siegeworks.following.RINGS_PER_READ`` (100) at a time, and takes a full page as a burst,
reading the whole registry instead; since Redis trims only a stream longer than 1,000, a
replica whose next rings were trimmed away always gets a full page, so no ring is lost unseen."""

DEAD_LETTER_MAXLEN = 10_000
"""Entries kept (about) on ``siege:dead``; the default of
``siegeworks.transport.streams.StreamConsumer(dead_letter_maxlen=...)``, which writes every dead
letter. An operator lists and replays them (``siege dead``): after an incident (a bug that
failed every pointer of a shard for a few minutes) every letter may be worth replaying once
fixed. A letter keeps at most ``DEAD_LETTER_FIELD_BYTES`` (16 KB) of the entry's fields in all,
so the stream holds at most about 160 MB, however a client fills it with undecodable
commands."""

WATCH_MAXLEN = 1_000
"""Entries kept (about) on a match's public stream ``{sN}:watch:<match>``. A spectator reads it
from the id it noted before its ``WatchMatch``, as it goes: the snapshot it asked for and what
follows (docs/clients.md); a spectator that falls further behind asks for a new snapshot. Each
entry is the lines since the previous one and the board."""

WATCH_IDLE_S = 3600
"""A public stream nothing was written to for an hour goes. The rules retire it an hour after
its last entry (``over``) when the match ends while watched; this also takes the streams that
nothing else would: one whose watchers stopped renewing their lease before the end, and the
snapshot written for a match watched after it finished."""

# --------------------------------------------------------------------------------------------
# The lobby (not streams: a key per waiting match and the public listing)

LOBBY_IDLE_S = 24 * 3600
"""A lobby (``{sN}:lobby:<match>``) that nobody joined for a day goes (EXPIRE, set again with
each join): a match waiting for players has no clock (clocks start with the log, once every seat
is held), so nothing else would ever end it. Its entry in the listing ``siege:lobby`` goes at the
next sweep (:data:`LOBBY_SWEEP_EVERY_S`). A seat granted in it is void: a join after it is
``unknown_match``, and the creator may create it again."""

LOBBY_SWEEP_EVERY_S = 60
"""How often (at most) a match replica drops from the listing ``siege:lobby`` the lobbies that
expired: a hash field cannot expire, so the listing is swept, as the replica next opens a lobby
or handles a join after this long (``siegeworks.match.lobby.RedisLobbies``). With neither, the
listing does not grow either."""


# --------------------------------------------------------------------------------------------
# Which bound a stream gets


@dataclass(frozen=True)
class Bound:
    """How a stream is bounded where it is written."""

    maxlen: int
    approximate: bool = True  # ``MAXLEN ~``: Redis may keep up to a node more
    idle_s: int | None = None  # EXPIRE after the last write (None: no idle expiry)


_SEAT = re.compile(r"siege:client:\{s\d+\}:[^:]+:seat:.+:\d+")
_INBOX = re.compile(r"siege:client:\{s\d+\}:[^:]+:inbox")
_WATCH = re.compile(r"\{s\d+\}:watch:.+")

_SHARED = {
    REPLIES_STREAM: Bound(REPLIES_MAXLEN),
    RESULTS_STREAM: Bound(RESULTS_MAXLEN),
    CLIENTS_CHANGED_STREAM: Bound(DOORBELL_MAXLEN),
    DEAD_LETTER_STREAM: Bound(DEAD_LETTER_MAXLEN),
}


@lru_cache(maxsize=KEYS_CACHED)
def write_bound(key: str) -> Bound | None:
    """The bound of the stream ``key`` at write time; None for the streams bounded elsewhere or
    never: a client's commands stream (trimmed below what the consumer groups still need,
    ``siegeworks.transport.trimming``), the shard buses (the same) and the match logs (never)."""
    shared = _SHARED.get(key)
    if shared is not None:
        return shared
    if key in _GATEWAY_INBOXES:
        return Bound(GATEWAY_INBOX_MAXLEN, idle_s=INBOX_IDLE_S)
    if _INBOX.fullmatch(key):
        return Bound(INBOX_MAXLEN, idle_s=INBOX_IDLE_S)
    if _SEAT.fullmatch(key):
        return Bound(SEAT_PROMPTS_KEPT, approximate=False)
    if _WATCH.fullmatch(key):
        return Bound(WATCH_MAXLEN, idle_s=WATCH_IDLE_S)
    return None
