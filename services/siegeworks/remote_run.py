"""The main job through the separate service processes: bots are clients on the Redis bus."""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec
from redis.asyncio import Redis

from siege.contracts.messages import CreateMatch, MatchFinished
from siege.dice.fair import new_seed
from siege.eventlog.keys import RESULTS_HASH
from siegeworks import bus as topics
from siegeworks.clients.bots import make_seats
from siegeworks.clients.remote import SeatReader
from siegeworks.runner import RunConfig, RunResult, bot_seed_for
from siegeworks.transport.redis_bus import RedisBus


class StalledError(RuntimeError):
    pass


async def play_remote(
    cfg: RunConfig,
    redis: Redis,
    on_finished: Callable[[MatchFinished], None] = lambda r: None,
    stall_timeout_s: float = 60.0,
) -> RunResult:
    bus = RedisBus(redis)
    reader = SeatReader(redis)
    results_after = await reader.results_cursor()
    master = cfg.master_seed()
    bots_seed = bot_seed_for(master) if master else new_seed()
    match_ids = [cfg.match_id(i) for i in range(cfg.matches)]
    names = cfg.seat_bots()
    decoder = msgspec.msgpack.Decoder(MatchFinished)
    finished: dict[str, MatchFinished] = {}
    # A re-run with the same seed finds matches finished before: report them as they are.
    for match_id, raw in zip(match_ids, await redis.hmget(RESULTS_HASH, match_ids), strict=True):
        if raw is not None:
            finished[match_id] = decoder.decode(raw)
            on_finished(finished[match_id])
    for match_id in match_ids:
        if match_id in finished:
            continue
        for seat, client in enumerate(make_seats(bus, cfg.game, match_id, names, bots_seed)):
            reader.subscribe_seat(match_id, seat, client.on_prompt)
        await bus.publish(topics.COMMANDS, CreateMatch(
            match_id=match_id, game=cfg.game,
            seat_names=[f"{name}-{seat}" for seat, name in enumerate(names)],
            options=cfg.options))
    last_progress, handled = time.monotonic(), reader.handled
    while len(finished) < len(match_ids):
        done, results_after = await reader.poll(results_after)
        if reader.handled != handled:
            last_progress, handled = time.monotonic(), reader.handled
        for result in done:
            if result.match_id in match_ids and result.match_id not in finished:
                finished[result.match_id] = result
                reader.drop_match(result.match_id, len(names))
                on_finished(result)
                last_progress = time.monotonic()
        if time.monotonic() - last_progress > stall_timeout_s:
            raise StalledError(
                f"{len(match_ids) - len(finished)} matches made no progress "
                f"for {stall_timeout_s:.0f}s")
    return RunResult(match_ids, [finished[m] for m in match_ids])
