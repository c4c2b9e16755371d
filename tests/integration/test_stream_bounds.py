"""Every stream the services write stays within its bound (siegeworks.transport.bounds), written
past it through the code that writes it, against a real redis-server; and what its readers need
is still there.

Expiries are checked by the TTL set (PTTL), never by waiting for them; a lobby's expiry is
stood in for by deleting its key, which is all a sweep can tell of an expiry.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest
import redis.asyncio

from siege.contracts.lobby import open_seats_encoder
from siege.contracts.messages import (
    CommandRefused,
    CreateMatch,
    JoinMatch,
    LogAppended,
    MatchFinished,
    MatchWatched,
    ResignMatch,
    SeatGranted,
    SeatPrompted,
    SubmitAction,
    WatchMatch,
    bus_decoder,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.codecs import action_list_decoder
from siege.eventlog.keys import (
    AUDIENCES,
    CLIENTS_CHANGED_STREAM,
    DEAD_LETTER_STREAM,
    LOBBY_HASH,
    REPLIES_STREAM,
    RESULTS_STREAM,
    bus_key,
    inbox_key,
    lobby_key,
    shard_of,
    view_key,
    watch_key,
)
from siege.eventlog.log import RedisEventLog
from siege.eventlog.pipelined import PipelinedRedis
from siege.hosting.clock import FixedClock
from siege.hosting.lobby import OPEN, Lobby, Refusal, lobby_encoder
from siege.hosting.seats import seat_token
from siege.testing.waiting import wait_until
from siege.tournament.events import (
    EntrantRegistered,
    RoundPaired,
    TournamentCreated,
    TournamentFinished,
)
from siege.tournament.store import TournamentStore
from siegeworks import following
from siegeworks.clients.remote import SeatReader
from siegeworks.context import ServiceContext
from siegeworks.dice import handlers as dice
from siegeworks.match import handlers as match
from siegeworks.match import notices
from siegeworks.match.lobby import RedisLobbies, listed, sweep_listing
from siegeworks.rules import handlers as rules
from siegeworks.rules import watching
from siegeworks.scoring import handlers as scoring
from siegeworks.transport import bounds
from siegeworks.transport.redis_bus import RedisBus, announce
from siegeworks.transport.streams import StreamConsumer

pytestmark = pytest.mark.integration

Run = Callable[[Awaitable[Any]], Any]
Redis = redis.asyncio.Redis

SECRET = b"seat secret"
NODE = 100
"""Entries of one stream node (redis-server's default ``stream-node-max-entries``): a stream
written with ``MAXLEN ~ n`` holds at least n (once written past it) and fewer than n + NODE."""
EXPIRY_SLACK_MS = 60_000


def within_about(length: int, bound: int) -> bool:
    return bound <= length < bound + NODE


async def pttl_near(r: Redis, key: str, seconds: int, slack_ms: int = EXPIRY_SLACK_MS) -> bool:
    left = await r.pttl(key)
    return seconds * 1000 - slack_ms < left <= seconds * 1000


def contexts(r: Redis, pipelined: bool = False) -> dict[str, ServiceContext]:
    """The four services' contexts on one bus, as test_handlers_redelivery has them: the bus
    on redis-py's pipelines, or (``pipelined``) on the auto-pipelined connection the services
    write on."""
    log = RedisEventLog(r)
    bus = RedisBus(r, pipelined=PipelinedRedis.like(r) if pipelined else None)
    ctx = {n: ServiceContext.create(n, log, bus, FixedClock(0))
           for n in ("match", "rules", "dice", "scoring")}
    ctx["match"].seat_secret = ctx["rules"].seat_secret = SECRET
    ctx["match"].lobbies = RedisLobbies(r, sweep_every_s=0)
    return ctx


async def settle(ctx: dict[str, ServiceContext], vault: dice.SeedVault, match_id: str) -> None:
    """Runs dice and rules until neither owes the log anything (what the pointers would do)."""
    for _ in range(50):
        head = (await ctx["rules"].log.head(match_id))[0]
        note = LogAppended(match_id=match_id, first=head, last=head)
        await dice.on_log_appended(ctx["dice"], vault, note)
        await rules.on_log_appended(ctx["rules"], note)
        if (await ctx["rules"].log.head(match_id))[0] == head:
            return


async def entries_added(r: Redis, key: str) -> int:
    """How many entries were ever added to ``key`` (Redis 7: XINFO STREAM ``entries-added``;
    on an older server, the last id's decision, which is as good for a seat's stream)."""
    info = await r.xinfo_stream(key)
    if "entries-added" in info:
        return int(info["entries-added"])
    last = info["last-generated-id"]
    return int((last.decode() if isinstance(last, bytes) else last).split("-")[0])


# --------------------------------------------------------------------------------------------
# Seats: one prompt, the current one, through a match; an hour after it


@pytest.mark.parametrize("pipelined", [False, True], ids=["redis-py", "pipelined"])
def test_a_seat_keeps_only_its_current_prompt_and_goes_an_hour_after_the_match(
    redis_client: Redis, run: Run, pipelined: bool
) -> None:
    match_id = f"bounded-{pipelined}"

    async def scenario() -> None:
        r = redis_client
        ctx = contexts(r, pipelined)
        vault = dice.SeedVault(b"master")
        seats = [view_key("c1", match_id, seat) for seat in range(3)]
        await match.on_create_match(ctx["match"], CreateMatch(
            match_id=match_id, game="castle-dash", seat_names=["a", "b", "c"], client="c1"))
        await settle(ctx, vault, match_id)
        legal_of = action_list_decoder("castle-dash")
        answered = 0
        for step in range(40):
            ms = await ctx["rules"].loader.load(match_id)
            assert ms.engine is not None
            if ms.ended is not None:
                break
            pending = ms.engine.pending(ms.game)
            for seat in sorted(pending.seats):
                kept = await r.xrange(seats[seat])
                assert len(kept) <= bounds.SEAT_PROMPTS_KEPT
                prompt = bus_decoder.decode(kept[-1][1][b"m"])
                # What the seat needs is there: its open prompt, the newest entry.
                assert isinstance(prompt, SeatPrompted) and prompt.decision == pending.decision
                legal = legal_of.decode(msgspec.msgpack.encode(prompt.legal))
                await rules.on_submit_action(ctx["rules"], SubmitAction(
                    match_id=match_id, seat=seat, decision=prompt.decision,
                    command_id=f"c-{step}-{seat}", action=msgspec.msgpack.encode(legal[0]),
                    token=seat_token(SECRET, match_id, seat)))
                answered += 1
            await settle(ctx, vault, match_id)
        assert answered > 3 * bounds.SEAT_PROMPTS_KEPT
        written = [await entries_added(r, key) for key in seats]
        assert max(written) > bounds.SEAT_PROMPTS_KEPT  # the bound was written past
        assert [await r.xlen(key) for key in seats] == [bounds.SEAT_PROMPTS_KEPT] * 3

        # A client that reconnects reads its seat afresh: it finds the current prompt, the
        # one it answers (SeatReader.recover, and XREAD from 0-0 as the example clients do).
        ms = await ctx["rules"].loader.load(match_id)
        assert ms.engine is not None and ms.ended is None
        pending = ms.engine.pending(ms.game)
        seat = min(pending.seats)
        seen: list[SeatPrompted] = []

        async def keep(prompt: SeatPrompted) -> None:
            seen.append(prompt)

        reader = SeatReader(r)
        reader.subscribe_seat(seats[seat], keep)
        await reader.recover()
        [(_, from_start)] = await r.xread({seats[seat]: "0-0"})
        assert [p.decision for p in seen] == [pending.decision]
        assert bus_decoder.decode(from_start[-1][1][b"m"]).decision == pending.decision

        # The trim keeps the stream's last id: a prompt sent again (a redelivery) is still
        # refused by its id, and the stream is as it was.
        before = await r.xrange(seats[seat])
        await ctx["rules"].bus.publish(seats[seat], msgspec.structs.replace(
            seen[0], decision=seen[0].decision - 1))
        assert await r.xrange(seats[seat]) == before

        # The end: each seat's stream gets an hour, its last prompt still there to read.
        await rules.on_resign(ctx["rules"], ResignMatch(
            match_id=match_id, seat=seat, command_id="resign",
            token=seat_token(SECRET, match_id, seat)))
        await settle(ctx, vault, match_id)
        head = (await ctx["rules"].log.head(match_id))[0]
        await scoring.on_log_appended(ctx["scoring"], scoring.RedisResults(r), LogAppended(
            match_id=match_id, first=head, last=head))
        for key in seats:
            if await r.exists(key):
                assert await pttl_near(r, key, bounds.SEAT_RETIRED_S)
                assert await r.xlen(key) == bounds.SEAT_PROMPTS_KEPT
        # The holder hears of the end on its inbox, which goes when idle.
        newest = await r.xrevrange(inbox_key("c1"), count=1)
        assert isinstance(bus_decoder.decode(newest[0][1][b"m"]), MatchFinished)
        assert await pttl_near(r, inbox_key("c1"), bounds.INBOX_IDLE_S)

        # A finished match watched: one snapshot, nobody renews, no retire; it goes anyway.
        await watching.on_watch(ctx["rules"], WatchMatch(match_id=match_id, client="c1"))
        assert await r.xlen(watch_key(match_id)) == 1
        assert await pttl_near(r, watch_key(match_id), bounds.WATCH_IDLE_S)

    run(scenario())


# --------------------------------------------------------------------------------------------
# Inboxes: the newest INBOX_MAXLEN, and gone when idle


def test_a_gateways_inbox_keeps_fifty_clients_worth(redis_client: Redis, run: Run) -> None:
    """A gateway's inbox carries the answers of all its people (decision 0018): it is bounded
    at GATEWAY_INBOX_MAXLEN, not at a client's 2,000, and every answer names its person."""
    async def scenario() -> None:
        r = redis_client
        ctx = contexts(r, True)["match"]
        ctx.bus = bus = RedisBus(r, buffered=True, pipelined=PipelinedRedis.like(r))
        sent = bounds.INBOX_MAXLEN * 2
        for n in range(sent):
            await notices.refuse(ctx, f"web.{n % 7:016x}", "cmd.join_match", f"m-{n}",
                                 Refusal(RejectionCode.UNKNOWN_MATCH, "no such match"))
        await bus.flush()
        inbox = inbox_key("web-gateway")
        assert await r.xlen(inbox) == sent
        assert bounds.write_bound(inbox).maxlen == bounds.GATEWAY_INBOX_MAXLEN
        assert bounds.write_bound(inbox_key("alice")).maxlen == bounds.INBOX_MAXLEN
        last = bus_decoder.decode((await r.xrevrange(inbox, count=1))[0][1][b"m"])
        assert isinstance(last, CommandRefused) and last.to == f"web.{(sent - 1) % 7:016x}"

    run(scenario())


@pytest.mark.parametrize("pipelined", [False, True], ids=["redis-py", "pipelined"])
def test_an_inbox_keeps_about_its_newest_entries_and_goes_when_idle(
    redis_client: Redis, run: Run, pipelined: bool
) -> None:
    async def scenario() -> None:
        r = redis_client
        ctx = contexts(r, pipelined)["match"]
        ctx.bus = bus = RedisBus(r, buffered=True,
                                 pipelined=PipelinedRedis.like(r) if pipelined else None)
        inbox = inbox_key("flooded")
        for n in range(bounds.INBOX_MAXLEN * 2 + 500):
            await notices.refuse(ctx, "flooded", "cmd.join_match", f"m-{n}",
                                 Refusal(RejectionCode.UNKNOWN_MATCH, "no such match"))
        await notices.grant(ctx, "m-last", "castle-dash", 0, "flooded")
        await bus.flush()
        assert within_about(await r.xlen(inbox), bounds.INBOX_MAXLEN)
        # What the client has not read yet is what it needs: the newest entries.
        newest = [bus_decoder.decode(f[b"m"]) for _, f in await r.xrevrange(inbox, count=2)]
        assert isinstance(newest[0], SeatGranted) and newest[0].match_id == "m-last"
        assert isinstance(newest[1], CommandRefused)
        assert newest[1].subject == f"m-{bounds.INBOX_MAXLEN * 2 + 499}"
        assert await pttl_near(r, inbox, bounds.INBOX_IDLE_S)

        # Not an EXPIRE per entry: within IDLE_REFRESH_S the bus leaves the expiry alone...
        await r.pexpire(inbox, 10_000)  # as if the expiry were nearly spent
        await notices.grant(ctx, "m-last", "castle-dash", 0, "flooded")
        await bus.flush()
        assert 0 < await r.pttl(inbox) <= 10_000
        # ... and sets it again with the first write after that.
        bus._idle_set[inbox] -= bounds.IDLE_REFRESH_S
        await notices.grant(ctx, "m-last", "castle-dash", 0, "flooded")
        await bus.flush()
        assert await pttl_near(r, inbox, bounds.INBOX_IDLE_S)

    run(scenario())


def test_an_idle_expiry_refused_with_its_stream_is_sent_again(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        bus = RedisBus(r)
        inbox = inbox_key("later")
        # The EXPIRE of a stream that is not there (its XADD refused) sets nothing: the bus
        # does not take it as set.
        bus._idle_done([(inbox, bounds.INBOX_IDLE_S)], [0])
        assert inbox not in bus._idle_set
        await bus.publish(inbox, CommandRefused(command="c", subject="s", code="malformed"))
        assert await pttl_near(r, inbox, bounds.INBOX_IDLE_S)
        assert inbox in bus._idle_set

    run(scenario())


# --------------------------------------------------------------------------------------------
# Shared streams: replies, results, the doorbell, dead letters


def test_replies_and_results_keep_about_their_bound_and_their_newest(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        bus = RedisBus(r, buffered=True)
        refused = CommandRefused(command="cmd.create_match", subject="x", code="bad_client")
        for _ in range(bounds.REPLIES_MAXLEN + 500):
            await bus.publish(REPLIES_STREAM, refused)
        total = bounds.RESULTS_MAXLEN + 500
        for n in range(total):
            await bus.publish(RESULTS_STREAM, MatchFinished(
                match_id=f"m-{n}", game="castle-dash", seat_names=["a", "b"], ranks=[1, 2]))
        await bus.flush()
        assert within_about(await r.xlen(REPLIES_STREAM), bounds.REPLIES_MAXLEN)
        assert within_about(await r.xlen(RESULTS_STREAM), bounds.RESULTS_MAXLEN)
        # A run follows the results from the end it saw at its start: the newest are there.
        [(_, last)] = await r.xrevrange(RESULTS_STREAM, count=1)
        assert bus_decoder.decode(last[b"m"]).match_id == f"m-{total - 1}"

    run(scenario())


def test_the_doorbell_keeps_about_its_bound_and_a_reader_behind_it_reads_everything_again(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        await announce(r, "first")
        behind = (await r.xrevrange(CLIENTS_CHANGED_STREAM, count=1))[0][0]
        for n in range(bounds.DOORBELL_MAXLEN + 300):
            await announce(r, f"c{n}")
        assert within_about(await r.xlen(CLIENTS_CHANGED_STREAM), bounds.DOORBELL_MAXLEN)
        # A replica whose next rings were trimmed away gets a full page, and so reads the whole
        # registry rather than trust the rings (siegeworks.following.RegistryFollower.run).
        assert not await r.xrange(CLIENTS_CHANGED_STREAM, behind, behind)
        rings, _ = await following.rings_after(r, behind, 100, asyncio.Event())
        assert len(rings) == following.RINGS_PER_READ

    run(scenario())


def test_dead_letters_keep_about_their_bound(redis_client: Redis, run: Run) -> None:
    async def scenario() -> None:
        r = redis_client
        # Every consumer writes its dead letters with this bound unless told otherwise.
        default = inspect.signature(StreamConsumer).parameters["dead_letter_maxlen"].default
        assert default == bounds.DEAD_LETTER_MAXLEN
        # The stream as full as it may be (written directly: 10,000 poison entries through a
        # consumer would take a while), then one more through a consumer.
        async with r.pipeline(transaction=False) as pipe:
            for _entry in range(bounds.DEAD_LETTER_MAXLEN):
                pipe.xadd(DEAD_LETTER_STREAM, {b"reason": b"old"})
            await pipe.execute()
        await r.xadd("bus:bounded", {b"x": b"no m field"})

        async def never(stream: str, entry_id: str, message: Any) -> None:
            raise AssertionError("nothing here decodes")

        consumer = StreamConsumer(r, ["bus:bounded"], "svc", "svc-0", never, block_ms=50)
        task = asyncio.create_task(consumer.run())
        try:
            await wait_until(lambda: consumer.dead_lettered == 1, "the entry dead-lettered")
        finally:
            consumer.stop()
            await asyncio.wait_for(task, 10)
        assert within_about(await r.xlen(DEAD_LETTER_STREAM), bounds.DEAD_LETTER_MAXLEN)
        [(_, newest)] = await r.xrevrange(DEAD_LETTER_STREAM, count=1)
        assert newest[b"stream"] == b"bus:bounded"  # the operator sees the latest

    run(scenario())


# --------------------------------------------------------------------------------------------
# Public streams of watched matches


def test_a_public_stream_keeps_about_its_bound_and_goes_when_idle(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        bus = RedisBus(r, buffered=True)
        stream = watch_key("watched")
        for seq in range(1, bounds.WATCH_MAXLEN + 300):
            await bus.publish(stream, MatchWatched(
                match_id="watched", game="castle-dash", seat_names=["a", "b"], seq=seq,
                snapshot=False, lines=[], view=msgspec.Raw(msgspec.msgpack.encode({}))))
        await bus.flush()
        assert within_about(await r.xlen(stream), bounds.WATCH_MAXLEN)
        assert await pttl_near(r, stream, bounds.WATCH_IDLE_S)
        # The rules' retire at the end wins over the idle expiry written in the same flush.
        await bus.publish(stream, MatchWatched(
            match_id="watched", game="castle-dash", seat_names=["a", "b"], seq=0,
            snapshot=False, lines=[], view=msgspec.Raw(msgspec.msgpack.encode({})), over=True))
        bus._idle_set.clear()
        await bus.retire(stream, 120)
        await bus.flush()
        assert await pttl_near(r, stream, 120, slack_ms=10_000)

    run(scenario())


# --------------------------------------------------------------------------------------------
# The general shard bus: nothing writes it any more


def test_a_tournament_leaves_no_pointer_but_the_one_its_end_owes(
    redis_client: Redis, run: Run
) -> None:
    tid = "t-00000000b0de"

    async def scenario() -> None:
        r = redis_client
        store = TournamentStore(RedisEventLog(r), FixedClock(1_790_000_000_000))
        await store.append_owed(tid, lambda s: [TournamentCreated(
            tournament_id=tid, game="castle-dash", format="swiss", rounds=1, table_size=3,
            seed=0)])
        for entrant in "abc":
            await store.append_owed(tid, lambda s, e=entrant: [
                EntrantRegistered(entrant=e, bot="random")])
        await store.append_owed(tid, lambda s: [
            RoundPaired(round=1, tables=[["a", "b", "c"]], byes=[])])
        shard = shard_of(tid)
        assert not await r.exists(bus_key(shard), *(bus_key(shard, a) for a in AUDIENCES))
        await store.append_owed(tid, lambda s: [TournamentFinished()])
        assert not await r.exists(bus_key(shard))  # the general bus: never written
        pointers = await r.xrange(bus_key(shard, "dice"))
        assert [p[b"m"] for _, p in pointers] == [tid.encode()]  # the dice seal the stream
        assert len(await RedisEventLog(r).read(tid)) == 6

    run(scenario())


# --------------------------------------------------------------------------------------------
# The lobby: a day without a join, then off the listing


def test_a_lobby_nobody_joins_expires_and_leaves_the_listing(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        ctx = contexts(r)
        lobbies = ctx["match"].lobbies
        assert isinstance(lobbies, RedisLobbies)

        def create(match_id: str, creator: str = "host") -> CreateMatch:
            return CreateMatch(match_id=match_id, game="castle-dash",
                               seat_names=["a", "b", "c"], client=creator,
                               clients=[creator, OPEN, OPEN])

        await match.on_create_match(ctx["match"], create("waits"))
        assert await r.hexists(LOBBY_HASH, "waits")
        assert await pttl_near(r, lobby_key("waits"), bounds.LOBBY_IDLE_S)

        # A join keeps it another day.
        await r.pexpire(lobby_key("waits"), 10_000)
        await match.on_join_match(ctx["match"], JoinMatch(match_id="waits", client="guest"))
        assert await pttl_near(r, lobby_key("waits"), bounds.LOBBY_IDLE_S)

        # A lobby from before lobbies expired (no TTL) is given one by the next sweep.
        stale = Lobby(create=create("old-one"), clients=["host", OPEN, OPEN],
                      seat_names=["a", "b", "c"])
        await r.set(lobby_key("old-one"), lobby_encoder.encode(stale))
        await r.hset(LOBBY_HASH, "old-one", open_seats_encoder.encode(listed("old-one", stale)))

        # "waits" expires (its key goes, as an expiry takes it); the next create sweeps.
        await r.delete(lobby_key("waits"))
        await match.on_create_match(ctx["match"], create("next", "other"))
        assert not await r.hexists(LOBBY_HASH, "waits")
        assert await r.hexists(LOBBY_HASH, "next") and await r.hexists(LOBBY_HASH, "old-one")
        assert await pttl_near(r, lobby_key("old-one"), bounds.LOBBY_IDLE_S)
        # A join after the expiry finds no match; the seat it held is void.
        await match.on_join_match(ctx["match"], JoinMatch(match_id="waits", client="late"))
        [(_, last)] = await r.xrevrange(inbox_key("late"), count=1)
        refusal = bus_decoder.decode(last[b"m"])
        assert isinstance(refusal, CommandRefused) and refusal.code == "unknown_match"

    run(scenario())


def test_a_sweep_lists_again_a_lobby_opened_again_in_the_meantime(
    redis_client: Redis, run: Run
) -> None:
    async def scenario() -> None:
        r = redis_client
        lobbies = RedisLobbies(r, sweep_every_s=3600)
        cmd = CreateMatch(match_id="again", game="castle-dash", seat_names=["a", "b", "c"],
                          client="host", clients=["host", OPEN, OPEN])
        lobby = Lobby(create=cmd, clients=list(cmd.clients), seat_names=list(cmd.seat_names))
        await lobbies.open("again", lobby)
        real_hdel = r.hdel

        async def reopened_before_hdel(*args: Any) -> Any:
            # The lobby expired and was opened again between the sweep's look and its HDEL.
            await lobbies.open("again", lobby)
            return await real_hdel(*args)

        await r.delete(lobby_key("again"))
        r.hdel = reopened_before_hdel  # type: ignore[method-assign]
        try:
            assert await sweep_listing(r) == 1
        finally:
            r.hdel = real_hdel  # type: ignore[method-assign]
        assert await r.hexists(LOBBY_HASH, "again")
        assert [s.match_id for s in await lobbies.listing()] == ["again"]

    run(scenario())


def test_the_operators_rings_keep_the_services_bound() -> None:
    from siege.eventlog import credentials
    from siegeworks.transport import bounds

    assert credentials.DOORBELL_MAXLEN == bounds.DOORBELL_MAXLEN


def test_a_dead_letter_keeps_at_most_its_byte_bound_of_the_entry_in_all() -> None:
    from siegeworks.transport.streams import DEAD_LETTER_FIELD_BYTES, dead_letter_record

    fat = {b"f%d" % i: b"x" * 20_000 for i in range(16)}
    record = dead_letter_record("siege:client:{s1}:c:commands", "1-0", "match", "m-0",
                                "undecodable", fat)
    kept = sum(len(v) for k, v in record.items() if k.startswith(b"f"))
    assert kept == DEAD_LETTER_FIELD_BYTES
    assert b"cut from 20000 bytes" in record[b"reason"]
