"""The main job through the separate service processes: bots are clients on the Redis bus."""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec
from redis.asyncio import Redis

from siege.contracts.messages import (
    CreateMatch,
    MatchFinished,
    MatchSeated,
    Message,
    SubmitAction,
)
from siege.dice.fair import new_seed
from siege.eventlog.keys import REPLIES_STREAM, RESULTS_HASH, RESULTS_STREAM
from siegeworks import bus as topics
from siegeworks.clients.bots import BotSeat, hand_tokens, make_seats
from siegeworks.clients.remote import SeatReader
from siegeworks.runner import RunConfig, RunResult, bot_seed_for
from siegeworks.transport.redis_bus import RedisBus


class StalledError(RuntimeError):
    pass


class LatencyProbe:
    """Time from a seat's SubmitAction to the next prompt of that match reaching its client."""

    def __init__(self) -> None:
        self._sent: dict[str, float] = {}
        self.samples: list[float] = []

    def submitted(self, match_id: str) -> None:
        self._sent[match_id] = time.perf_counter()

    def prompted(self, match_id: str) -> None:
        sent = self._sent.pop(match_id, None)
        if sent is not None:
            self.samples.append(time.perf_counter() - sent)


class _ProbedBus(RedisBus):
    def __init__(self, redis: Redis, probe: LatencyProbe) -> None:
        super().__init__(redis)
        self.probe = probe

    async def publish(self, topic: str, message: Message) -> None:
        if isinstance(message, SubmitAction):
            self.probe.submitted(message.match_id)
        await super().publish(topic, message)


async def play_remote(
    cfg: RunConfig,
    redis: Redis,
    on_finished: Callable[[MatchFinished], None] = lambda r: None,
    stall_timeout_s: float = 60.0,
    probe: LatencyProbe | None = None,
) -> RunResult:
    bus = RedisBus(redis) if probe is None else _ProbedBus(redis, probe)
    reader = SeatReader(redis, on_prompt=probe.prompted if probe else None)
    reader.follow(RESULTS_STREAM, await reader.cursor_of(RESULTS_STREAM))
    reader.follow(REPLIES_STREAM, await reader.cursor_of(REPLIES_STREAM))
    clients: dict[str, list[BotSeat]] = {}
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
        clients[match_id] = make_seats(bus, cfg.game, match_id, names, bots_seed)
        for seat, client in enumerate(clients[match_id]):
            reader.subscribe_seat(match_id, seat, client.on_prompt)
        await bus.publish(topics.COMMANDS, CreateMatch(
            match_id=match_id, game=cfg.game,
            seat_names=[f"{name}-{seat}" for seat, name in enumerate(names)],
            options=cfg.options))
    last_progress, handled = time.monotonic(), reader.handled
    while len(finished) < len(match_ids):
        messages = await reader.poll()
        if reader.handled != handled:
            last_progress, handled = time.monotonic(), reader.handled
        for message in messages:
            if isinstance(message, MatchSeated) and message.match_id in clients:
                await hand_tokens(clients[message.match_id], message)
        for result in messages:
            if not isinstance(result, MatchFinished):
                continue
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
