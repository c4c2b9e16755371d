"""The main job: bot matches through the services' handlers, then an audit of every log."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from siege.contracts.messages import (
    ActionRejected,
    CreateMatch,
    MatchFinished,
    Message,
    SeatGranted,
    WatchMatch,
)
from siege.dice.fair import new_seed
from siege.eventlog.keys import inbox_key, view_key, watch_key
from siege.eventlog.log import EventLog, RedisEventLog
from siege.hosting.audit import AuditReport, audit
from siege.hosting.clock import Clock, FixedClock, SystemClock
from siege.hosting.signing import Keyring
from siegeworks import bus as topics
from siegeworks import keys
from siegeworks.clients.bots import BotSeat, hand_token, make_seats, seat_bots
from siegeworks.clients.recap import Recap
from siegeworks.wiring import Wired, wire_in_process

LOCAL_CLIENT = "local"  # the one client of an in-process run: it holds every seat


@dataclass
class RunConfig:
    game: str
    matches: int
    players: int
    bots: list[str]
    seed: int | None = None
    fixed_clock_ms: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    open_seats: int = 0  # seats per match left for outside clients to join (services only)
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])

    def clock(self) -> Clock:
        return FixedClock(self.fixed_clock_ms) if self.fixed_clock_ms is not None else SystemClock()

    def master_seed(self) -> bytes | None:
        if self.seed is None:
            return None
        return hashlib.sha256(f"siegeworks-run:{self.seed}".encode()).digest()

    def match_id(self, index: int) -> str:
        if self.seed is None:  # one random stem per run: every call names the same match
            return f"{self.game}-{self.run_id}-{index:05d}"
        return f"{self.game}-s{self.seed}-{index:05d}"

    def seat_bots(self) -> list[str]:
        return [self.bots[seat % len(self.bots)] for seat in range(self.players)]


@dataclass
class RunResult:
    match_ids: list[str]
    finished: list[MatchFinished]
    wired: Wired | None = None  # the in-process services, for tests that look inside


def bot_seed_for(master: bytes) -> bytes:
    """Bots draw from their own key, never the dice seed, so they cannot foresee a roll."""
    return hashlib.sha256(b"bots:" + master).digest()


async def play_matches(
    cfg: RunConfig, log: EventLog, on_finished: Callable[[MatchFinished], None] = lambda r: None
) -> RunResult:
    master = cfg.master_seed()
    wired = wire_in_process(log, cfg.clock(), master)
    if isinstance(log, RedisEventLog):  # the seals of logs kept in a store verify later too
        for record in wired.keyring.values():
            await keys.publish_record(log.redis, record)
    bot_seed = bot_seed_for(master) if master else new_seed()

    clients: dict[str, list[BotSeat | None]] = {}

    async def report(result: MatchFinished) -> None:
        on_finished(result)

    async def inbox(message: Message) -> None:
        if isinstance(message, SeatGranted):
            await hand_token(clients, message)

    wired.bus.subscribe(topics.RESULTS, report)
    wired.bus.subscribe(inbox_key(LOCAL_CLIENT), inbox)
    match_ids = [cfg.match_id(i) for i in range(cfg.matches)]
    names = cfg.seat_bots()
    for match_id in match_ids:
        clients[match_id] = seat_bots(wired.bus, LOCAL_CLIENT, cfg.game, match_id, names,
                                      bot_seed)
        await wired.bus.publish(topics.commands_topic(LOCAL_CLIENT), CreateMatch(
            match_id=match_id, game=cfg.game, client=LOCAL_CLIENT,
            seat_names=[f"{name}-{seat}" for seat, name in enumerate(names)],
            options=cfg.options))
    await wired.bus.drain()
    finished = wired.results.finished
    done = [finished[m] for m in match_ids if m in finished]
    return RunResult(match_ids, done, wired)


async def audit_match(log: EventLog, match_id: str,
                      keyring: Keyring | None = None) -> AuditReport:
    entries = await log.read(match_id)
    report = audit(entries, keyring)
    if not report.match_id:
        report.match_id = match_id
    return report


async def play_with_human(cfg: RunConfig, log: EventLog, human_seat: int,
                          make_human: Callable[[Any, str, Recap], Any],
                          name: str = "player") -> RunResult:
    """One match in which a person (``make_human(bus, client, recap)``, a HumanSeat) holds
    ``human_seat`` and bots the others; ``recap`` hears the match's public story."""
    master = cfg.master_seed()
    wired = wire_in_process(log, cfg.clock(), master)
    recap = Recap()
    human = make_human(wired.bus, LOCAL_CLIENT, recap)
    bot_seed = bot_seed_for(master) if master else new_seed()
    match_id = cfg.match_id(0)
    names = cfg.seat_bots()
    names[human_seat] = name
    bots = make_seats(wired.bus, LOCAL_CLIENT, cfg.game, match_id, cfg.seat_bots(), bot_seed)
    seats: list[Any] = list(bots)
    seats[human_seat] = human
    for seat, client in enumerate(seats):
        wired.bus.subscribe(view_key(LOCAL_CLIENT, match_id, seat), client.on_prompt)

    async def inbox(message: Message) -> None:
        if isinstance(message, SeatGranted):
            await hand_token({match_id: seats}, message)
        elif isinstance(message, ActionRejected) and message.seat == human_seat:
            await human.on_rejected(message)

    wired.bus.subscribe(inbox_key(LOCAL_CLIENT), inbox)
    await wired.bus.publish(topics.commands_topic(LOCAL_CLIENT), CreateMatch(
        match_id=match_id, game=cfg.game, options=cfg.options, client=LOCAL_CLIENT,
        seat_names=[shown if seat == human_seat else f"{shown}-{seat}"
                    for seat, shown in enumerate(names)]))
    # Queued after the create, so the match exists when it is asked to be watched.
    wired.bus.subscribe(watch_key(match_id), recap.on_message)
    await wired.bus.publish(topics.commands_topic(LOCAL_CLIENT), WatchMatch(
        match_id=match_id, client=LOCAL_CLIENT))
    await wired.bus.drain()
    finished = wired.results.finished
    return RunResult([match_id], [finished[match_id]] if match_id in finished else [], wired)
