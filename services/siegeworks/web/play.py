"""People playing in the browser. The gateway holds one client identity per person (a cookie
names it: ``web.<16 hex digits>``) and speaks the bus contract for them as any outside client
does: JoinMatch or RegisterEntrant on the person's own commands stream, seat grants on the
person's inbox, prompts on the person's seat streams, SubmitAction and ResignMatch with the
seat's token. The bots a person plays against are clients of the gateway's too, under an id of
their own, and hold only their own seats.

What the browser sees of a table is what its seat may know: the board drawn from the seat's own
view, the legal actions in words, the clock, and what everyone sees happen.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from redis.asyncio import Redis

from siege.bots.registry import bot_names
from siege.contracts.events import MatchCreated
from siege.contracts.messages import (
    ActionRejected,
    JoinMatch,
    MatchFinished,
    Message,
    RegisterEntrant,
    ResignMatch,
    SeatGranted,
    SeatPrompted,
    SubmitAction,
    TournamentEnded,
)
from siege.dice.fair import new_seed
from siege.engine.codecs import action_list_decoder, view_decoder
from siege.engine.registry import game_names, get_engine, presentation
from siege.eventlog.acl import GATEWAY_PEOPLE
from siege.eventlog.keys import commands_key, log_key
from siege.hosting.loader import CORE_CODEC
from siege.hosting.lobby import OPEN
from siegeworks.clients.joiner import OutsideClient
from siegeworks.remote_run import MatchSpec, play_specs
from siegeworks.transport.redis_bus import RedisBus
from siegeworks.web import replaying

PERSON_COOKIE = "siege_person"
PERSON_PREFIX = GATEWAY_PEOPLE
"""Every person's client id starts so; the gateway's ACL user may act only under it."""


def new_person_id() -> str:
    return PERSON_PREFIX + secrets.token_hex(8)


def is_person_id(text: str) -> bool:
    rest = text.removeprefix(PERSON_PREFIX)
    return text.startswith(PERSON_PREFIX) and len(rest) == 16 and all(
        c in "0123456789abcdef" for c in rest)


@dataclass
class Turn:
    """The seat's open decision as the page shows it."""

    decision: int
    actions: list[str]  # each legal action in words, in the prompt's order
    deadline_ms: int  # 0: no clock


@dataclass
class Table:
    """One seat of one match held by a person."""

    match_id: str
    game: str
    seat: int
    names: list[str] = field(default_factory=list)
    turn: Turn | None = None
    board: str = ""  # SVG of the seat's own view at its last prompt
    result: MatchFinished | None = None
    said: str = ""  # the last thing the services refused, in words
    pages: set[asyncio.Queue[str]] = field(default_factory=set)

    @property
    def over(self) -> bool:
        return self.result is not None

    def changed(self) -> None:
        for page in self.pages:
            page.put_nowait("turn")


class WebSeat:
    """Plays a granted seat for a person (a Player for OutsideClient): each prompt becomes the
    table's turn, and the page's choice a SubmitAction."""

    def __init__(self, bus: RedisBus, person: Person, table: Table) -> None:
        self.bus, self.person, self.table = bus, person, table
        self.token = ""
        self._actions = action_list_decoder(table.game)
        self._view = view_decoder(table.game)
        self._presentation = presentation(table.game)
        self._legal: list[Any] = []
        self._answered = -1

    async def set_token(self, token: str) -> None:
        self.token = token

    async def on_prompt(self, prompt: SeatPrompted) -> None:
        table = self.table
        if prompt.decision <= self._answered or table.over:
            return
        if not table.names:
            created = await self.person.created(table.match_id)
            if created is not None:
                table.names = replaying.seat_names(created.seat_names, created.players)
                self._presentation = self._presentation.bound(created)
        self._legal = self._actions.decode(msgspec.msgpack.encode(prompt.legal))
        view = self._view.decode(prompt.view)
        table.board = replaying.board_svg(
            table.game, view, table.names, f"{table.match_id}: your view, decision "
            f"{prompt.decision}")
        table.turn = Turn(prompt.decision,
                          [self._presentation.action(a, view, table.names) for a in self._legal],
                          prompt.deadline_ms)
        table.said = ""
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
        await self.bus.publish(commands_key(self.person.client), SubmitAction(
            match_id=match_id, seat=seat, decision=decision,
            command_id=f"{match_id}:{seat}:{decision}",
            action=msgspec.msgpack.encode(self._legal[index]), token=self.token,
            client=self.person.client))
        self.table.changed()
        return None

    async def resign(self) -> None:
        match_id, seat = self.table.match_id, self.table.seat
        self.table.turn = None
        await self.bus.publish(commands_key(self.person.client), ResignMatch(
            match_id=match_id, seat=seat, token=self.token,
            command_id=f"{match_id}:{seat}:resign", client=self.person.client))
        self.table.changed()

    async def on_rejected(self, rejected: ActionRejected) -> None:
        self.table.said = f"refused: {rejected.code.value}: {rejected.detail}"
        self.table.changed()


class Person:
    """A person's identity on the bus and the tables it plays."""

    def __init__(self, redis: Redis, client: str) -> None:
        self.redis, self.client = redis, client
        self.tables: dict[str, Table] = {}
        self.seats: dict[str, WebSeat] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.problem = ""  # why the last thing the person asked for failed
        self.asked: dict[str, str] = {}  # match id -> game, of every seat asked for

    async def created(self, match_id: str) -> MatchCreated | None:
        return await created(self.redis, match_id)

    def _player(self, bus: RedisBus, grant: SeatGranted) -> WebSeat:
        table = self.tables.get(grant.match_id)
        self.asked.setdefault(grant.match_id, grant.game)  # a tournament's table
        if table is None:
            table = self.tables[grant.match_id] = Table(grant.match_id, grant.game, grant.seat)
        seat = self.seats[grant.match_id] = WebSeat(bus, self, table)
        return seat

    def _start(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.problem = str(task.exception())

    def _seen(self) -> list[Message]:
        return _Results(self)

    def run(self, command: JoinMatch | RegisterEntrant, subject: str,
            done: Callable[[Message], bool]) -> None:
        """Sends ``command`` for the person and plays what it grants, in the background."""
        client = OutsideClient(self.redis, self.client, seen=self._seen(),
                               make_player=self._player)
        self._start(client.run(command, subject, done, timeout_s=float("inf")))

    def join(self, match_id: str, game: str, seat: int = -1, name: str = "you") -> None:
        self.asked[match_id] = game
        self.run(JoinMatch(match_id=match_id, client=self.client, seat=seat, name=name),
                 match_id, lambda m: isinstance(m, MatchFinished) and m.match_id == match_id)

    def enter(self, tournament_id: str, name: str) -> None:
        self.run(RegisterEntrant(tournament_id=tournament_id, client=self.client, name=name),
                 tournament_id, lambda m: isinstance(m, TournamentEnded)
                 and m.tournament_id == tournament_id)

    def start(self, game: str, bots: list[str], people: int, name: str) -> str:
        """A new match: this person at seat 0, ``people`` more seats open to other people, the
        rest played by ``bots`` (run by the gateway as a client of their own)."""
        match_id = f"web-{game}-{secrets.token_hex(5)}"
        seats = [OPEN] * (1 + people) + bots
        names = [name] + [f"open-{s}" for s in range(1, 1 + people)] + [
            f"{bot}-{s}" for s, bot in enumerate(bots, start=1 + people)]
        spec = MatchSpec(match_id=match_id, game=game, seat_names=names, bots=seats)
        self._start(play_specs([spec], self.redis, new_seed(), stall_timeout_s=float("inf"),
                               client=f"{PERSON_PREFIX}bots-{match_id[-10:]}"))
        self.join(match_id, game, seat=0, name=name)
        return match_id

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class _Results(list):  # type: ignore[type-arg]
    """What the person's client hears on its inbox, kept as results of its tables."""

    def __init__(self, person: Person) -> None:
        super().__init__()
        self.person = person

    def append(self, message: Message) -> None:
        if isinstance(message, MatchFinished):
            table = self.person.tables.get(message.match_id)
            if table is not None:
                table.result, table.turn = message, None
                table.changed()


async def created(redis: Redis, match_id: str) -> MatchCreated | None:
    """A match's first event: its game, its seat names, what binds the game's words to it."""
    first = await redis.xrange(log_key(match_id), count=1)
    event = CORE_CODEC.decode(first[0][1][b"e"]).event if first else None
    return event if isinstance(event, MatchCreated) else None


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
    """Every person the gateway plays for, by client id."""

    LIMIT = 10_000
    """People kept before the idle ones are forgotten."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._people: dict[str, Person] = {}

    def get(self, client: str) -> Person:
        """The person of ``client`` (made on first sight: a cookie this gateway never gave, or
        gave before it restarted, names a person with no tables)."""
        person = self._people.get(client)
        if person is None:
            if len(self._people) >= self.LIMIT:
                self._evict_idle()
            person = self._people[client] = Person(self.redis, client)
        return person

    def _evict_idle(self) -> None:
        """Forgets the people who hold no table and run nothing (cookies that asked for
        nothing, or made up): what a crawler's cookies cost stays bounded."""
        for client in [c for c, p in self._people.items() if not p.tables and not p.tasks]:
            del self._people[client]

    def find(self, client: str) -> Person | None:
        return self._people.get(client)

    async def close(self) -> None:
        for person in self._people.values():
            await person.close()
