"""The main job through the separate service processes: bots are clients on the Redis bus."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoPermissionError

from siege.archive.tombstones import tombstones_of
from siege.contracts.messages import (
    ActionRejected,
    CommandRefused,
    CreateMatch,
    JoinMatch,
    MatchFinished,
    Message,
    SeatGranted,
    SubmitAction,
)
from siege.contracts.rejections import RejectionCode
from siege.dice.fair import new_seed
from siege.eventlog.keys import RESULTS_HASH, RESULTS_STREAM, inbox_key, view_key
from siege.eventlog.pipelined import PipelinedRedis
from siege.eventlog.pipelined_cluster import ClusterPipelinedRedis, pipelined_like
from siege.hosting.lobby import OPEN
from siegeworks import bus as topics
from siegeworks.clients.bots import BotSeat, hand_token, make_seats
from siegeworks.clients.human import HumanSeat
from siegeworks.clients.joiner import OutsideClient
from siegeworks.clients.remote import SeatReader
from siegeworks.errors import StalledError
from siegeworks.runner import RunConfig, RunResult, bot_seed_for
from siegeworks.transport.redis_bus import RedisBus
from siegeworks.transport.streams import is_transient


class MatchIdTakenError(RuntimeError):
    """A match id this run would create belongs to another client's match (or to one made
    with other terms): the run adopts only matches it created itself."""


class StoreBusyError(StalledError):
    """The store stayed busy (``store_busy``) longer than a run waits for it to take a new
    match: memory is not being freed."""


RATE_LIMITED_RETRY_S = 1.0
"""When to send a refused create again that the refusal gives no hint for (``rate_limited``,
or ``store_full`` from services before contract 2.1)."""
STORE_BUSY_PATIENCE_S = 600.0
"""How long a run keeps sending a create the store refuses as busy, from its first refusal,
before it gives up (StoreBusyError): waiting is bounded however the store behaves."""
LATER = (RejectionCode.RATE_LIMITED, RejectionCode.STORE_BUSY, RejectionCode.STORE_FULL)
"""Refusals of a create that the same create, sent again later, may overcome."""
ASKED_AGAIN = (RejectionCode.STALE_DECISION, RejectionCode.NOT_YOUR_TURN,
               RejectionCode.DUPLICATE_COMMAND)


def run_client_id(redis: Redis, bots_seed: bytes) -> str:
    """The client a run of bots acts as: its ACL identity, else one derived from the bots'
    seed (it is written into each MatchCreated, so a seeded re-run writes the same log)."""
    return own_client_id(redis, "run-" + hashlib.sha256(b"client:" + bots_seed).hexdigest()[:16])


def own_client_id(redis: Redis, fallback: str) -> str:
    """The client id a run acts as: under ACLs the one its user name binds it to
    (``client-<id>``), since the services attribute its commands to that; else ``fallback``."""
    user = redis.get_connection_kwargs().get("username") or ""
    return user.removeprefix("client-") if user.startswith("client-") else fallback


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


async def flush_when_possible(bus: RedisBus) -> None:
    """Sends what the seats wrote. What Redis refused (out of memory, read-only) stays queued
    for the next pass; what a lost connection took, the seats answer again once the reader
    recovers."""
    try:
        await bus.flush()
    except (RedisConnectionError, OSError):
        pass
    except Exception as exc:  # noqa: BLE001 - anything else is not Redis' state: raised
        if not is_transient(exc):
            raise


class _ProbedBus(RedisBus):
    def __init__(self, redis: Redis, probe: LatencyProbe, pipelined: PipelinedRedis) -> None:
        super().__init__(redis, buffered=True, pipelined=pipelined, keep_refused=True)
        self.probe = probe

    async def publish(self, topic: str, message: Message) -> None:
        if isinstance(message, SubmitAction):  # the clock starts before the buffered write
            self.probe.submitted(message.match_id)
        await super().publish(topic, message)


@dataclass(frozen=True)
class MatchSpec:
    match_id: str
    game: str
    seat_names: list[str]
    bots: list[str]  # the bot playing each seat; OPEN for a seat an outside client plays
    options: dict[str, str] = field(default_factory=dict)
    # Per seat without a bot: the outside client holding it, or OPEN for whoever joins first.
    outsiders: list[str] = field(default_factory=list)

    def holders(self, client: str) -> list[str]:
        """``CreateMatch.clients`` when this run is ``client``: empty when it holds every seat."""
        if all(self.bots):
            return []
        outsiders = self.outsiders or [OPEN] * len(self.bots)
        return [client if bot else outsiders[seat] for seat, bot in enumerate(self.bots)]


async def play_remote(
    cfg: RunConfig,
    redis: Redis,
    on_finished: Callable[[MatchFinished], None] = lambda r: None,
    stall_timeout_s: float = 60.0,
    probe: LatencyProbe | None = None,
) -> RunResult:
    master = cfg.master_seed()
    names = cfg.seat_bots()
    # The last ``open_seats`` seats of each match wait for outside clients (JoinMatch).
    bots = [OPEN if seat >= cfg.players - cfg.open_seats else n for seat, n in enumerate(names)]
    specs = [MatchSpec(match_id=cfg.match_id(i), game=cfg.game,
                       seat_names=[f"{name or 'open'}-{seat}" for seat, name in enumerate(bots)],
                       bots=bots, options=cfg.options) for i in range(cfg.matches)]
    bots_seed = bot_seed_for(master) if master else new_seed()
    finished = await play_specs(specs, redis, bots_seed, on_finished, stall_timeout_s, probe)
    return RunResult([s.match_id for s in specs], [finished[s.match_id] for s in specs])


async def play_specs(
    specs: list[MatchSpec],
    redis: Redis,
    bots_seed: bytes,
    on_finished: Callable[[MatchFinished], None] = lambda r: None,
    stall_timeout_s: float = 60.0,
    probe: LatencyProbe | None = None,
    concurrency: int | None = None,
    client: str | None = None,
) -> dict[str, MatchFinished]:
    """Plays every match of ``specs`` with bot clients over the bus, at most ``concurrency``
    at a time, as client ``client``; returns their results by match id."""
    # The bots' commands of one poll leave together, in one write, at the end of the pass.
    fast = pipelined_like(redis)
    # The reader's blocking reads on connections of their own: one, or on a cluster two, one
    # for the blocking read of the client's slot and one for the other slots (SeatReader).
    reads = None if isinstance(redis, RedisCluster) else PipelinedRedis.like(redis)
    slot_reads = ((ClusterPipelinedRedis.like(redis), ClusterPipelinedRedis.like(redis))
                  if isinstance(redis, RedisCluster) else None)
    bus = (RedisBus(redis, buffered=True, pipelined=fast, keep_refused=True) if probe is None
           else _ProbedBus(redis, probe, fast))
    reader = SeatReader(redis, on_prompt=probe.prompted if probe else None, pipelined=reads,
                        slot_reads=slot_reads)
    try:
        return await _play(specs, redis, bus, reader, bots_seed, on_finished, stall_timeout_s,
                           concurrency, client)
    finally:
        for link in (fast, reads, *(slot_reads or ())):
            if link is not None:
                await link.aclose()


async def _play(
    specs: list[MatchSpec],
    redis: Redis,
    bus: RedisBus,
    reader: SeatReader,
    bots_seed: bytes,
    on_finished: Callable[[MatchFinished], None],
    stall_timeout_s: float,
    concurrency: int | None,
    client: str | None,
) -> dict[str, MatchFinished]:
    reader.follow(RESULTS_STREAM, await reader.cursor_of(RESULTS_STREAM))
    # This run is one client: its tokens and prompts come on streams of its own. Its id is
    # derived from the bots' seed, since it is written into each MatchCreated: a seeded re-run
    # must write the same log.
    client = client or run_client_id(redis, bots_seed)
    # From its end as it is now: what an earlier run left there (a client's user may not
    # delete its inbox) is not an answer to this run's commands.
    reader.follow(inbox_key(client), await reader.cursor_of(inbox_key(client)))
    clients: dict[str, list[BotSeat | None]] = {}
    decoder = msgspec.msgpack.Decoder(MatchFinished)
    finished: dict[str, MatchFinished] = {}
    wanted = {spec.match_id for spec in specs}
    # A re-run with the same seed finds matches finished before: it reports them as they are
    # once the match service confirms they are its own, on the same terms (a create of one's
    # own match grants its seats again; another's, or other terms, is refused: MatchIdTakenError).
    ids = [spec.match_id for spec in specs]
    adopting: dict[str, MatchFinished] = {}
    for match_id, raw in zip(ids, await redis.hmget(RESULTS_HASH, ids) if ids else [],
                             strict=True):
        result = decoder.decode(raw) if raw is not None else None
        if result is not None and result.creator in ("", client):
            adopting[match_id] = result
    # Played and archived since (siege.archive): the tombstone keeps the result, and the id
    # is taken for good, so there is nothing to ask the match service.
    archived = await tombstones_of(redis, [m for m in ids if m not in adopting])
    for match_id, tombstone in archived.items():
        result = tombstone.finished()
        if result is not None and result.creator in ("", client):
            finished[match_id] = result
            on_finished(result)
    by_id = {spec.match_id: spec for spec in specs}
    waiting = [spec for spec in specs if spec.match_id not in adopting
               and spec.match_id not in finished]
    waiting.reverse()  # popped from the end: start in the given order
    limit = concurrency or len(waiting) or 1

    async def start_more() -> None:
        while waiting and len(clients) < limit:
            spec = waiting.pop()
            clients[spec.match_id] = make_seats(bus, client, spec.game, spec.match_id,
                                                spec.bots, bots_seed)
            for seat, bot in enumerate(clients[spec.match_id]):
                if bot is not None:
                    reader.subscribe_seat(view_key(client, spec.match_id, seat), bot.on_prompt,
                                          bot.forget_answers)
            await bus.publish(topics.commands_topic(client), create_of(spec))

    retry: list[tuple[float, MatchSpec]] = []
    again: Counter[tuple[str, int]] = Counter()
    busy_since: dict[str, float] = {}  # match id -> when the store first refused it as busy
    busy_detail = ""  # what the store said last when it was busy

    async def refused(message: CommandRefused) -> None:
        nonlocal busy_detail
        if message.code in LATER:
            now = time.monotonic()
            if message.code != RejectionCode.RATE_LIMITED:
                busy_detail = message.detail
                first = busy_since.setdefault(message.subject, now)
                if now - first > STORE_BUSY_PATIENCE_S:
                    raise StoreBusyError(
                        f"match {message.subject} was refused for {now - first:.0f}s: the "
                        f"store stayed busy ({message.detail})")
            # After the hint, never sooner; without one, a second.
            wait_s = message.retry_after_ms / 1000 or RATE_LIMITED_RETRY_S
            retry.append((now + wait_s, by_id[message.subject]))
            return
        if message.code == RejectionCode.MATCH_ID_TAKEN:
            raise MatchIdTakenError(
                f"match id {message.subject} is taken: {message.detail}; this run adopts only "
                "matches it created itself (choose another --seed or match id)")
        raise RuntimeError(f"match {message.subject} refused: {message.code}: {message.detail}")

    def create_of(spec: MatchSpec) -> CreateMatch:
        return CreateMatch(match_id=spec.match_id, game=spec.game, seat_names=spec.seat_names,
                           options=spec.options, client=client, clients=spec.holders(client))

    for match_id in adopting:
        await bus.publish(topics.commands_topic(client), create_of(by_id[match_id]))
    await start_more()
    last_progress, handled = time.monotonic(), reader.handled
    recoveries = reader.recoveries
    while len(finished) < len(specs):
        await flush_when_possible(bus)
        messages = await reader.poll()
        if reader.recoveries != recoveries:
            # Redis may have come back older than it was: ask again for every match under
            # way (a create of one's own, on the same terms, only grants the seats again).
            bus.announce_again()
            later = {spec.match_id for _, spec in retry}  # refused: sent again when due
            with contextlib.suppress(RedisConnectionError, OSError):  # else on the next pass
                for match_id in [m for m in clients if m not in later]:
                    await bus.publish(topics.commands_topic(client), create_of(by_id[match_id]))
                recoveries = reader.recoveries
        if reader.handled != handled:
            last_progress, handled = time.monotonic(), reader.handled
        for message in messages:
            if isinstance(message, SeatGranted) and message.match_id in adopting:
                finished[message.match_id] = adopting.pop(message.match_id)
                on_finished(finished[message.match_id])
            elif isinstance(message, SeatGranted):
                busy_since.pop(message.match_id, None)
                await hand_token(clients, message)
            elif isinstance(message, CommandRefused) and (message.subject in clients
                                                          or message.subject in adopting):
                await refused(message)
            elif (isinstance(message, ActionRejected) and reader.recoveries
                  and message.code in ASKED_AGAIN and message.match_id in clients
                  and again[message.match_id, message.seat] < 3):
                # An answer given while the store came back older may meet a service that had
                # not yet noticed: answer the seat's newest prompt again (a few times at most).
                again[message.match_id, message.seat] += 1
                await reader.recover([view_key(client, message.match_id, message.seat)])
            elif (isinstance(message, MatchFinished) and message.match_id in wanted
                  and message.match_id not in finished and message.creator in ("", client)):
                finished[message.match_id] = message
                for seat in range(len(clients.pop(message.match_id, []))):
                    reader.drop_seat(view_key(client, message.match_id, seat))
                on_finished(message)
                last_progress = time.monotonic()
        await start_more()
        now = time.monotonic()
        for due, spec in [r for r in retry if r[0] <= now]:
            retry.remove((due, spec))
            await bus.publish(topics.commands_topic(client), create_of(spec))
        if time.monotonic() - last_progress > stall_timeout_s:
            waiting_busy = {spec.match_id for _, spec in retry} & busy_since.keys()
            if waiting_busy:  # not stalled: kept out by the store
                raise StoreBusyError(
                    f"{len(specs) - len(finished)} matches made no progress for "
                    f"{stall_timeout_s:.0f}s, {len(waiting_busy)} of them waiting for a busy "
                    f"store ({busy_detail})")
            raise StalledError(
                f"{len(specs) - len(finished)} matches made no progress "
                f"for {stall_timeout_s:.0f}s")
    await flush_when_possible(bus)
    # Tidying only: a client's ACL user may only read its inbox, and a connection lost since
    # its last use fails once.
    with contextlib.suppress(NoPermissionError, RedisConnectionError):
        await redis.delete(inbox_key(client))
    return finished


async def play_human_remote(cfg: RunConfig, redis: Redis, human_seat: int,
                            name: str = "player", auto: bool = False) -> RunResult:
    """One match through the services in which a person at this terminal holds
    ``human_seat`` as an outside client of its own, and bots the other seats."""
    match_id = cfg.match_id(0)
    person = "person-" + hashlib.sha256(match_id.encode()).hexdigest()[:12]
    bots = [OPEN if s == human_seat else name for s, name in enumerate(cfg.seat_bots())]
    # The person's seat is open, and the person's own client joins it: a create may not name
    # another client as a holder (siegeworks.match.consent).
    spec = MatchSpec(match_id=match_id, game=cfg.game, options=cfg.options,
                     seat_names=[name if not n else f"{n}-{s}" for s, n in enumerate(bots)],
                     bots=bots)
    master = cfg.master_seed()
    human = OutsideClient(redis, person, make_player=lambda bus, grant: HumanSeat(
        bus, person, grant.game, grant.seat, auto=auto))
    # No stall limit: a person may think as long as the decision clock allows.
    played, _ = await asyncio.gather(
        play_specs([spec], redis, bot_seed_for(master) if master else new_seed(),
                   stall_timeout_s=float("inf")),
        human.run(JoinMatch(match_id=match_id, client=person, seat=human_seat, name=name),
                  match_id, lambda m: isinstance(m, MatchFinished)
                  and m.match_id == match_id, timeout_s=float("inf")))
    return RunResult([match_id], [played[match_id]])
