"""Redelivered messages reach the real handlers twice and change nothing the second time."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import redis.asyncio

from siege.contracts.messages import CreateMatch, LogAppended, SubmitAction, bus_decoder
from siege.engine.codecs import action_list_decoder
from siege.eventlog.keys import RESULTS_STREAM, view_key
from siege.eventlog.log import RedisEventLog
from siege.hosting.clock import FixedClock
from siege.hosting.seats import seat_token
from siegeworks.context import ServiceContext
from siegeworks.dice import handlers as dice
from siegeworks.match import handlers as match
from siegeworks.rules import handlers as rules
from siegeworks.scoring import handlers as scoring
from siegeworks.transport.redis_bus import RedisBus

Run = Callable[[Awaitable[Any]], Any]
MATCH = "redeliver-1"
SECRET = b"seat secret"


def seat_key(match_id: str, seat: int) -> str:
    return view_key("c1", match_id, seat)


def contexts(client: redis.asyncio.Redis) -> dict[str, ServiceContext]:
    log, bus = RedisEventLog(client), RedisBus(client)
    ctx = {n: ServiceContext.create(n, log, bus, FixedClock(0))
           for n in ("match", "rules", "dice", "scoring")}
    ctx["match"].seat_secret = ctx["rules"].seat_secret = SECRET  # signs and checks tokens
    return ctx


async def settle(ctx: dict[str, ServiceContext], vault: dice.SeedVault) -> None:
    """Runs dice and rules until neither owes the log anything (what the pointers would do)."""
    for _ in range(50):
        head = (await ctx["rules"].log.head(MATCH))[0]
        note = LogAppended(match_id=MATCH, first=head, last=head)
        await dice.on_log_appended(ctx["dice"], vault, note)
        await rules.on_log_appended(ctx["rules"], note)
        if (await ctx["rules"].log.head(MATCH))[0] == head:
            return


def test_every_handler_is_idempotent(redis_client: redis.asyncio.Redis, run: Run) -> None:
    async def scenario() -> None:
        ctx = contexts(redis_client)
        log = ctx["rules"].log
        vault = dice.SeedVault(b"master")
        create = CreateMatch(match_id=MATCH, game="castle-dash", seat_names=["a", "b", "c"],
                             client="c1")
        await match.on_create_match(ctx["match"], create)
        await match.on_create_match(ctx["match"], create)  # redelivered
        assert (await log.head(MATCH))[0] == 1
        await settle(ctx, vault)
        before = await log.read(MATCH)
        await settle(ctx, vault)  # the same pointers again
        assert await log.read(MATCH) == before

        # The prompted seat answers; the same command is then delivered twice more.
        prompts = await redis_client.xrange(seat_key(MATCH, 0)) or []
        seat = 0
        if not prompts:
            seat = next(s for s in range(3) if await redis_client.xlen(seat_key(MATCH, s)))
            prompts = await redis_client.xrange(seat_key(MATCH, seat))
        prompt = bus_decoder.decode(prompts[-1][1][b"m"])
        legal = action_list_decoder("castle-dash").decode(msgspec.msgpack.encode(prompt.legal))
        cmd = SubmitAction(match_id=MATCH, seat=seat, decision=prompt.decision,
                           command_id="c-1", action=msgspec.msgpack.encode(legal[0]),
                           token=seat_token(SECRET, MATCH, seat))
        await rules.on_submit_action(ctx["rules"], cmd)
        after_once = await log.read(MATCH)
        assert len(after_once) > len(before)
        await rules.on_submit_action(ctx["rules"], cmd)
        await rules.on_submit_action(contexts(redis_client)["rules"], cmd)  # a fresh replica
        assert await log.read(MATCH) == after_once
        # A seat's stream keeps only its newest prompt (siegeworks.transport.bounds), so a
        # second prompt shows in the stream's last id, not in its length.
        prompts_now = (await redis_client.xinfo_stream(seat_key(MATCH, seat)))["last-generated-id"]
        await rules.on_log_appended(contexts(redis_client)["rules"], LogAppended(
            match_id=MATCH, first=1, last=len(after_once)))
        assert (await redis_client.xinfo_stream(seat_key(MATCH, seat)))[
            "last-generated-id"] == prompts_now  # no second prompt

        # Scoring: a finished match is recorded once, however often its end is delivered.
        results = scoring.RedisResults(redis_client)
        assert not await results.has(MATCH)
        await scoring.on_log_appended(ctx["scoring"], results, LogAppended(
            match_id=MATCH, first=1, last=len(after_once)))
        assert await redis_client.xlen(RESULTS_STREAM) == 0  # not finished: nothing recorded

    run(scenario())
