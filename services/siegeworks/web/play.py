"""People playing in the browser. The gateway is one client on the bus, ``web-gateway``, and
speaks for every person (a cookie names each: ``web.<16 hex digits>``) and for the bots it runs
for them (``web.bots-<match>``): their JoinMatch, CreateMatch, RegisterEntrant, SubmitAction and
ResignMatch go on the gateway's own commands stream, each naming its client, and what the
services tell them comes on the gateway's inbox, naming them in ``to`` (``desk``). Prompts come
on each seat's own stream. Who holds which table is kept in Redis (``keeping``), so a new
gateway process serves the same cookies the same tables and plays on.

What the browser sees of a table is what its seat may know: the board drawn from the seat's own
view, the legal actions in words, the clock, and what everyone sees happen.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError

from siege.bots.registry import bot_names
from siege.contracts.events import MatchCreated
from siege.contracts.messages import (
    ActionRejected,
    CommandRefused,
    CreateMatch,
    JoinMatch,
    MatchFinished,
    Message,
    RegisterEntrant,
    ResignMatch,
    SeatGranted,
    SeatPrompted,
    SubmitAction,
)
from siege.contracts.rejections import RejectionCode
from siege.dice.fair import new_seed
from siege.engine.codecs import action_list_decoder, view_decoder
from siege.engine.presentation import seat_name, who
from siege.engine.registry import game_names, get_engine, presentation
from siege.engine.scene import Scene, pieces
from siege.eventlog.acl import GATEWAY_PEOPLE
from siege.eventlog.keys import log_key, view_key
from siege.eventlog.log import EventLog, EventLogError, RedisEventLog
from siege.hosting.clocks import DEFAULT_TIMEOUT_MS, parse_timeout_ms
from siege.hosting.loader import CORE_CODEC
from siege.hosting.lobby import OPEN
from siege.hosting.replay import ReplayError
from siegeworks.clients.bots import BotSeat, make_seats
from siegeworks.listing import END_REASONS
from siegeworks.web import replaying
from siegeworks.web.desk import Desk
from siegeworks.web.keeping import BOTS, PERSON, Keeping, KeptBots, KeptTable, result_of

PERSON_COOKIE = "siege_person"
PERSON_PREFIX = GATEWAY_PEOPLE
"""Every person's client id starts so; the gateway's ACL user may act only under it."""
NOT_YET = (RejectionCode.UNKNOWN_MATCH,)
NOT_YET_GRACE_S = 5.0
"""How long "no such match" answers a join with the join again: a join of a match just made
elsewhere may overtake its create (one made here goes before it, on the same stream)."""
RETRY_S = 0.1


def new_person_id() -> str:
    return PERSON_PREFIX + secrets.token_hex(8)


def is_person_id(text: str) -> bool:
    rest = text.removeprefix(PERSON_PREFIX)
    return text.startswith(PERSON_PREFIX) and len(rest) == 16 and all(
        c in "0123456789abcdef" for c in rest)


def bots_id(match_id: str) -> str:
    """The client the gateway's bots at ``match_id`` are (one of its people, never a cookie's)."""
    return f"{PERSON_PREFIX}bots-{match_id[-10:]}"


CLOCKS = {"casual": 86_400_000, "relaxed": 600_000, "brisk": 120_000, "blitz": 30_000}
"""The clock a person may choose for each decision of a new match, by name: a casual match
(the default) gives a day a decision, so a person may leave and come back."""
DEFAULT_CLOCK = "casual"
DEFAULT_NAME = "guest"
"""The name of a person who typed none: never "you", which every other seat would read."""


@dataclass
class Choice:
    words: str
    target: str  # the id of the board's piece it picks, or ""
    group: str  # the heading it is listed under, or ""


@dataclass
class Turn:
    """The seat's open decision as the page shows it."""

    decision: int
    choices: list[Choice]  # each legal action, in the prompt's order
    deadline_ms: int  # 0: no clock
    clock_ms: int = 0  # the whole time a decision is given

    @property
    def groups(self) -> list[tuple[str, list[tuple[int, Choice]]]]:
        """The choices under their headings, in order of first appearance: a long list is read
        by unit or card; a short one, or one without headings, is one group."""
        if len(self.choices) <= GROUP_FROM or not any(c.group for c in self.choices):
            return [("", list(enumerate(self.choices)))]
        grouped: dict[str, list[tuple[int, Choice]]] = {}
        for index, choice in enumerate(self.choices):
            grouped.setdefault(choice.group, []).append((index, choice))
        return list(grouped.items())


GROUP_FROM = 8
"""Decisions offering more actions than this list them under headings."""


@dataclass
class Table:
    """One seat of one match held by a person."""

    match_id: str
    game: str
    seat: int
    names: list[str] = field(default_factory=list)
    turn: Turn | None = None
    scene: Scene | None = None  # the board of the seat's own view at its last prompt
    moved: set[str] = field(default_factory=set)  # pieces that changed since the one before
    result: MatchFinished | None = None
    said: str = ""  # the last thing the services refused, in words
    auto: bool = True  # a decision with one choice is taken by itself
    taken: list[str] = field(default_factory=list)  # the choices so taken, in words, in order
    final: bool = False  # the scene is the board as the match ended
    pages: set[asyncio.Queue[str]] = field(default_factory=set)

    def show(self, scene: Scene) -> None:
        """Draws ``scene``, marking what changed since the board shown before it."""
        if self.scene is not None:
            before = {p.id or p.label: p for p in pieces(self.scene)}
            self.moved = {p.id or p.label for p in pieces(scene)
                          if before.get(p.id or p.label) != p}
        self.scene = scene

    @property
    def ending(self) -> str:
        """Why the match ended, in words, from this seat's side."""
        result = self.result
        if result is None:
            return ""
        if result.reason == "forfeit" and result.timed_out:
            return f"{_listed(self, result.timed_out)} ran out of time: a forfeit"
        if result.reason == "resigned" and result.resigned:
            return f"{_listed(self, result.resigned)} resigned"
        return END_REASONS.get(result.reason, result.reason)

    @property
    def standing(self) -> list[tuple[int, str, bool]]:
        """(rank, name, is this seat) of every seat, best first."""
        if self.result is None:
            return []
        names = self.names or list(self.result.seat_names)
        rows = [(rank, seat_name(names, seat), seat == self.seat)
                for seat, rank in enumerate(self.result.ranks)]
        return sorted(rows, key=lambda row: row[0])

    @property
    def over(self) -> bool:
        return self.result is not None

    def changed(self) -> None:
        for page in self.pages:
            page.put_nowait("turn")


def _listed(table: Table, seats: list[int]) -> str:
    names = table.names or (list(table.result.seat_names) if table.result else [])
    return " and ".join(who(names, s, table.seat) for s in seats)


class WebSeat:
    """Plays a granted seat for a person: each prompt becomes the table's turn, and the page's
    choice a SubmitAction on the gateway's stream, naming the person."""

    def __init__(self, person: Person, table: Table, token: str) -> None:
        self.person, self.table, self.token = person, table, token
        self._actions = action_list_decoder(table.game)
        self._view = view_decoder(table.game)
        self._presentation = presentation(table.game)
        self._legal: list[Any] = []
        self._answered = -1
        self.clock_ms = 0  # the match's decision clock, once its first event is read

    @property
    def stream(self) -> str:
        return view_key(self.person.client, self.table.match_id, self.table.seat)

    def forget_answers(self) -> None:
        self._answered = -1

    async def on_prompt(self, prompt: SeatPrompted) -> None:
        table = self.table
        if prompt.decision <= self._answered or table.over:
            return
        if not table.names:
            made = await created(self.person.people.redis, table.match_id)
            if made is not None:
                table.names = replaying.seat_names(made.seat_names, made.players)
                self._presentation = self._presentation.bound(made)
                self.clock_ms = parse_timeout_ms(made.options.get(
                    "decision_timeout_ms", "")) or DEFAULT_TIMEOUT_MS
                await self.person.keep(table.match_id, names=table.names)
        self._legal = self._actions.decode(msgspec.msgpack.encode(prompt.legal))
        view = self._view.decode(prompt.view)
        shown = self._presentation
        if shown.scene is not None:
            table.show(shown.scene(view, table.names, table.seat))
        table.turn = Turn(prompt.decision, [
            Choice(shown.action(a, view, table.names), shown.target(a, view),
                   shown.group(a, view, table.names)) for a in self._legal],
            prompt.deadline_ms, self.clock_ms)
        table.said = ""
        if table.auto and len(self._legal) == 1:  # forced: taken by itself, and said so
            table.taken.append(table.turn.choices[0].words)
            await self.choose(prompt.decision, 0)
            return
        table.changed()

    async def choose(self, decision: int, index: int) -> str | None:
        """Takes action ``index`` of the open decision; what is wrong, if anything."""
        turn = self.table.turn
        if turn is None or turn.decision != decision:
            return "that decision is no longer open"
        if not 0 <= index < len(self._legal):
            return f"choose an action from 1 to {len(self._legal)}"
        self._answered, self.table.turn = decision, None
        match_id, seat = self.table.match_id, self.table.seat
        await self.person.people.desk.send(SubmitAction(
            match_id=match_id, seat=seat, decision=decision,
            command_id=f"{match_id}:{seat}:{decision}",
            action=msgspec.msgpack.encode(self._legal[index]), token=self.token,
            client=self.person.client))
        await self.person.people.keeping.touched(self.person.client, match_id)
        self.table.changed()
        return None

    async def resign(self) -> None:
        match_id, seat = self.table.match_id, self.table.seat
        self.table.turn = None
        await self.person.people.desk.send(ResignMatch(
            match_id=match_id, seat=seat, token=self.token,
            command_id=f"{match_id}:{seat}:resign", client=self.person.client))
        self.table.changed()

    async def on_rejected(self, rejected: ActionRejected) -> None:
        self.table.said = f"refused: {rejected.code.value}: {rejected.detail}"
        self.table.changed()


class Person:
    """A person the gateway speaks for, and the tables it asked for and holds."""

    def __init__(self, people: People, client: str) -> None:
        self.people, self.client = people, client
        self.tables: dict[str, Table] = {}
        self.seats: dict[str, WebSeat] = {}
        self.kept: dict[str, KeptTable] = {}  # what Redis holds of each table, by match id
        self.asked: dict[str, str] = {}  # match id -> game, of every seat asked for or held
        self.refused: dict[str, str] = {}  # match id -> why its seat was refused
        self.problem = ""  # why the last thing the person asked for failed
        self._asked_at: dict[str, float] = {}

    @property
    def idle(self) -> bool:
        """Nothing in play and nothing asked for: forgetting it costs nothing (it is kept)."""
        return all(k.over for k in self.kept.values())

    async def keep(self, match_id: str, **changes: Any) -> None:
        kept = msgspec.structs.replace(self.kept[match_id], **changes)
        self.kept[match_id] = kept
        await self.people.keeping.keep_table(self.client, kept)

    async def resume(self, kept: list[KeptTable]) -> None:
        """Plays on the tables a gateway process before this one held (``keeping``)."""
        for record in kept:
            self.kept[record.match_id], self.asked[record.match_id] = record, record.game
            if record.token:
                table = self.tables[record.match_id] = Table(
                    record.match_id, record.game, record.seat, names=list(record.names))
                if record.over:
                    table.result = await result_of(self.people.redis, record.match_id)
                    continue
                seat = self._seat(table, record.token)
                await self.people.desk.newest(seat.stream)
                finished = await result_of(self.people.redis, record.match_id)
                if finished is not None:  # it ended while no gateway ran
                    await self._finished(finished)
            elif not record.over:  # asked, not granted yet: asked again (a join is idempotent)
                await self._ask(record)

    def _seat(self, table: Table, token: str) -> WebSeat:
        seat = self.seats[table.match_id] = WebSeat(self, table, token)
        self.people.desk.seat(seat.stream, seat.on_prompt, seat.forget_answers)
        return seat

    async def join(self, match_id: str, game: str, seat: int = -1,
                   name: str = DEFAULT_NAME) -> None:
        self.asked[match_id] = game
        self.refused.pop(match_id, None)
        held = self.kept.get(match_id)
        if held is None or not held.token:
            self.kept[match_id] = KeptTable(match_id=match_id, game=game, seat=seat, name=name)
            await self.people.keeping.keep_table(self.client, self.kept[match_id])
        await self._ask(self.kept[match_id])

    async def _ask(self, record: KeptTable) -> None:
        self._asked_at.setdefault(record.match_id, time.monotonic())
        await self.people.desk.send(JoinMatch(
            match_id=record.match_id, client=self.client, seat=record.seat if not record.token
            else -1, name=record.name))

    async def enter(self, tournament_id: str, name: str) -> None:
        await self.people.desk.send(RegisterEntrant(tournament_id=tournament_id,
                                                    client=self.client, name=name))

    async def hear(self, message: Message) -> None:
        """What the services told this person (on the gateway's inbox)."""
        if isinstance(message, SeatGranted):
            await self._granted(message)
        elif isinstance(message, CommandRefused):
            await self._refused(message)
        elif isinstance(message, ActionRejected):
            seat = self.seats.get(message.match_id)
            if seat is not None:
                await seat.on_rejected(message)
        elif isinstance(message, MatchFinished):
            await self._finished(message)

    async def _granted(self, grant: SeatGranted) -> None:
        self.asked.setdefault(grant.match_id, grant.game)  # a tournament's table
        self.refused.pop(grant.match_id, None)
        self._asked_at.pop(grant.match_id, None)
        seat = self.seats.get(grant.match_id)
        if seat is not None:
            seat.token = grant.token
        elif grant.match_id not in self.tables or not self.tables[grant.match_id].over:
            table = self.tables[grant.match_id] = Table(grant.match_id, grant.game, grant.seat)
            self._seat(table, grant.token)
        known = self.kept.get(grant.match_id)
        if known is None or (known.token, known.seat) != (grant.token, grant.seat):
            self.kept[grant.match_id] = known or KeptTable(match_id=grant.match_id,
                                                           game=grant.game)
            await self.keep(grant.match_id, seat=grant.seat, token=grant.token)
        self.tables[grant.match_id].changed()

    async def _refused(self, refusal: CommandRefused) -> None:
        match_id = refusal.subject
        asked = self._asked_at.get(match_id)
        if (refusal.command == "cmd.join_match" and refusal.code in NOT_YET and asked is not None
                and time.monotonic() - asked < NOT_YET_GRACE_S and match_id in self.kept):
            self.people.later(RETRY_S, self._ask(self.kept[match_id]))  # not created yet
            return
        self.refuse(match_id, f"{refusal.code.value}: {refusal.detail}")
        if match_id in self.kept and not self.kept[match_id].token:
            await self.keep(match_id, over=True)

    def refuse(self, match_id: str, why: str) -> None:
        self.problem = why
        self._asked_at.pop(match_id, None)
        if match_id in self.asked and match_id not in self.tables:
            self.refused[match_id] = why

    async def _finished(self, result: MatchFinished) -> None:
        table = self.tables.get(result.match_id)
        if table is None or table.over:
            return
        table.result, table.turn = result, None
        seat = self.seats.pop(result.match_id, None)
        if seat is not None:
            self.people.desk.drop(seat.stream)
        await self.people.final_board(table)
        table.changed()
        if result.match_id in self.kept:
            await self.keep(result.match_id, over=True)


class Bots:
    """The gateway's bots at one match (one client, ``bots_id``), holding only their seats."""

    def __init__(self, people: People, record: KeptBots) -> None:
        self.people, self.record = people, record
        self.client = bots_id(record.match_id)
        self.seats: list[BotSeat | None] = make_seats(
            people.desk.voice, self.client, record.game, record.match_id, record.bots,
            record.seed)

    def _stream(self, seat: int) -> str:
        return view_key(self.client, self.record.match_id, seat)

    async def play(self, resumed: bool = False) -> None:
        for seat, bot in enumerate(self.seats):
            if bot is None:
                continue
            self.people.desk.seat(self._stream(seat), bot.on_prompt, bot.forget_answers)
            if seat in self.record.tokens:
                await bot.set_token(self.record.tokens[seat])
            if resumed:
                await self.people.desk.newest(self._stream(seat))
        if any(self.record.bots):
            await self.people.keeping.keep_bots(self.record)

    async def hear(self, message: Message) -> None:
        record = self.record
        if isinstance(message, SeatGranted) and 0 <= message.seat < len(self.seats):
            bot = self.seats[message.seat]
            if bot is not None:
                await bot.set_token(message.token)
                if record.tokens.get(message.seat) != message.token:
                    self.record = msgspec.structs.replace(
                        record, tokens={**record.tokens, message.seat: message.token})
                    await self.people.keeping.keep_bots(self.record)
        elif isinstance(message, CommandRefused):  # the create: its owner is told why
            owner = self.people.find(record.owner)
            if owner is not None:
                owner.refuse(record.match_id, f"{message.code.value}: {message.detail}")
            await self.end()
        elif isinstance(message, MatchFinished):
            await self.end()

    async def end(self) -> None:
        for seat, bot in enumerate(self.seats):
            if bot is not None:
                self.people.desk.drop(self._stream(seat))
        self.people.bots.pop(self.client, None)
        if any(self.record.bots) and not self.record.over:
            self.record = msgspec.structs.replace(self.record, over=True)
            await self.people.keeping.keep_bots(self.record)


async def created(redis: Redis, match_id: str) -> MatchCreated | None:
    """A match's first event: its game, its seat names, what binds the game's words to it."""
    first = await redis.xrange(log_key(match_id), count=1)
    event = CORE_CODEC.decode(first[0][1][b"e"]).event if first else None
    return event if isinstance(event, MatchCreated) else None


def checked_clock(name: str) -> int:
    """The decision clock named on the form, in ms; ValueError saying what is wrong."""
    if name not in CLOCKS:
        raise ValueError(f"choose a clock: {', '.join(CLOCKS)}")
    return CLOCKS[name]


def checked_new(game: str, players: str, people: str, bot: str) -> tuple[str, list[str], int]:
    """A new match's terms from the form: (game, the bot of each bot seat, seats for other
    people); ValueError saying what is wrong."""
    if game not in game_names():
        raise ValueError(f"choose a game: {', '.join(game_names())}")
    engine = get_engine(game)
    try:
        count, others = int(players), int(people or 0)
    except ValueError:
        raise ValueError("players and seats for people are numbers") from None
    if not engine.min_players <= count <= engine.max_players:
        raise ValueError(f"{game} takes {engine.min_players} to {engine.max_players} players")
    if not 0 <= others < count:
        raise ValueError(f"seats for other people: 0 to {count - 1}")
    if bot not in bot_names(game):
        raise ValueError(f"{game}'s bots are {', '.join(bot_names(game))}")
    return game, [bot] * (count - 1 - others), others


class People:
    """Every person the gateway speaks for, by client id, and the bots it runs for them."""

    LIMIT = 10_000
    """People kept in memory before the idle ones are forgotten (they are kept in Redis)."""

    def __init__(self, redis: Redis, log: EventLog | None = None) -> None:
        self.redis = redis
        self.log = log or RedisEventLog(redis)
        self.keeping = Keeping(redis)
        self.desk = Desk(redis, self.keeping)
        self._people: dict[str, Person] = {}
        self.bots: dict[str, Bots] = {}  # by bots' client id
        self._loading = asyncio.Lock()
        self._later: set[asyncio.Task[None]] = set()

    async def get(self, client: str, keep: bool = True) -> Person:
        """The person of ``client``, with what Redis keeps of its tables. One with none (a
        cookie this gateway never gave: made up, or a person who asked for nothing) is
        remembered only with ``keep``: a page merely looked at costs the gateway nothing."""
        person = self._people.get(client)
        if person is not None:
            return person
        async with self._loading:
            person = self._people.get(client)
            if person is not None:
                return person
            person = Person(self, client)
            kept = await self.keeping.tables(client)
            if kept or keep:
                self._remember(person)
            await person.resume(kept)
            return person

    async def final_board(self, table: Table) -> None:
        """The board as the match ended, from the table's seat (its last prompt shows the board
        before the last move); kept as it was where the log cannot be read."""
        try:
            entries = await self.log.read(table.match_id)
            game, view, names = replaying.seat_view(entries, table.seat)
        except (ReplayError, EventLogError, RedisError):
            return
        shown = presentation(game)
        if shown.scene is not None:
            table.show(shown.scene(view, table.names or names, table.seat))
        table.final = True

    def stranger(self) -> Person:
        """A person with a new id, not yet remembered (nothing asked for)."""
        return Person(self, new_person_id())

    def _remember(self, person: Person) -> None:
        if len(self._people) >= self.LIMIT:
            self._evict_idle()
        self._people[person.client] = person

    def _evict_idle(self) -> None:
        """Forgets the people with nothing in play (cookies that asked for nothing, or made up;
        people whose tables are over): what a crawler's cookies cost stays bounded, and one
        forgotten is read from Redis again when it comes back."""
        for client in [c for c, p in self._people.items() if p.idle]:
            del self._people[client]

    def find(self, client: str) -> Person | None:
        return self._people.get(client)

    async def start(self, person: Person, game: str, bots: list[str], people: int,
                    name: str, clock_ms: int = CLOCKS[DEFAULT_CLOCK]) -> str:
        """A new match: ``person`` at seat 0, ``people`` more seats open to other people, the
        rest played by ``bots`` (the gateway's client ``bots_id``, holding only their seats),
        ``clock_ms`` a decision; the create goes before the person's join, on the same
        stream."""
        match_id = f"web-{game}-{secrets.token_hex(5)}"
        seats = [OPEN] * (1 + people) + bots
        names = [name] + [f"open-{s}" for s in range(1, 1 + people)] + [
            f"{bot}-{s}" for s, bot in enumerate(bots, start=1 + people)]
        made = Bots(self, KeptBots(match_id=match_id, game=game, owner=person.client,
                                   bots=seats, seed=new_seed()))
        if any(bots):  # a match of people alone needs none
            self.bots[made.client] = made
            await made.play()
        await self.desk.send(CreateMatch(
            match_id=match_id, game=game, seat_names=names, client=made.client,
            clients=[made.client if bot else OPEN for bot in seats],
            options={"decision_timeout_ms": str(clock_ms)}))
        await person.join(match_id, game, seat=0, name=name)
        return match_id

    async def hear(self, message: Message) -> None:
        """Hands what came on the gateway's inbox to the client it names."""
        to = getattr(message, "to", "")
        bots = self.bots.get(to)
        if bots is not None:
            await bots.hear(message)
        elif is_person_id(to):
            await (await self.get(to, keep=False)).hear(message)
        elif to.startswith(f"{PERSON_PREFIX}bots-") and isinstance(message, CommandRefused):
            # a match of people alone: its create was refused; its owner asked to join it
            for person in self._people.values():
                if message.subject in person.asked:
                    person.refuse(message.subject, f"{message.code.value}: {message.detail}")

    async def open(self) -> None:
        """Resumes every table in play a gateway process before this one held, then hears."""
        await self.desk.open()
        for kind, name in await self.keeping.playing():
            if kind == PERSON and is_person_id(name):
                person = await self.get(name, keep=False)
                if not person.kept:
                    await self.keeping.forget_playing(kind, name)
            elif kind == BOTS:
                await self._resume_bots(name)
        self.desk.start(self.hear)

    async def _resume_bots(self, match_id: str) -> None:
        record = await self.keeping.bots(match_id)
        if record is None or record.over:
            await self.keeping.forget_playing(BOTS, match_id)
            return
        made = self.bots[bots_id(match_id)] = Bots(self, record)
        await made.play(resumed=True)
        if await result_of(self.redis, match_id) is not None:
            await made.end()

    def later(self, delay_s: float, work: Coroutine[Any, Any, None]) -> None:
        """Runs ``work`` ``delay_s`` from now, without holding up the answers meanwhile."""
        async def run() -> None:
            await asyncio.sleep(delay_s)
            await work
        task = asyncio.create_task(run())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def close(self) -> None:
        for task in list(self._later):
            task.cancel()
        await self.desk.close()
