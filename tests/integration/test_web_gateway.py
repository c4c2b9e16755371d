"""The web gateway speaks for many (docs/decisions/0018-a-gateway-speaks-for-many.md), against
the four services on a real redis-server and the HTTP app (served by uvicorn on a thread, asked
with urllib as a browser would, cookies and all):

- people cannot act for one another: a command on an ordinary client's stream naming a person
  is refused, one on the gateway's stream naming a non-person is refused, and one person's
  cookie (or a made-up one) gets nothing of another's table;
- a restart of ``siege web`` keeps who holds which table: a second app on the same Redis serves
  the same cookie the same table, and the person finishes the match;
- a gateway serving 200 people makes the services follow one stream for them, not 200.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import redis
import redis.asyncio
import uvicorn
from starlette.applications import Starlette

from siege.contracts.messages import (
    ActionRejected,
    CommandRefused,
    JoinMatch,
    Message,
    SubmitAction,
    bus_decoder,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.acl import GATEWAY_CLIENT
from siege.eventlog.keys import CLIENTS_KEY, commands_key, inbox_key
from siegeworks.supervisor import ServiceProcesses
from siegeworks.transport.redis_bus import RedisBus
from siegeworks.web.app import make_app
from siegeworks.web.keeping import Keeping
from siegeworks.web.play import PERSON_COOKIE

pytestmark = pytest.mark.integration
TURN_S = 60.0


@dataclass
class Page:
    status: int
    text: str
    url: str


class Browser:
    """One browser: its own cookie jar, against the gateway at ``base``."""

    def __init__(self, base: str, cookie: str | None = None) -> None:
        self.base, self.jar = base, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.cookies = _Cookies(self)
        if cookie is not None:
            self.cookies.set(PERSON_COOKIE, cookie)

    def _open(self, path: str, body: bytes | None = None, kind: str = "") -> Page:
        request = urllib.request.Request(self.base + path, data=body)
        if kind:
            request.add_header("Content-Type", kind)
        try:
            with self.opener.open(request, timeout=30) as answer:
                return Page(answer.status, answer.read().decode(), answer.url)
        except urllib.error.HTTPError as error:
            return Page(error.code, error.read().decode(), error.url)

    def get(self, path: str) -> Page:
        return self._open(path)

    def post(self, path: str, data: dict[str, str] | None = None,
             json_body: dict[str, int] | None = None) -> Page:
        if json_body is not None:
            return self._open(path, json.dumps(json_body).encode(), "application/json")
        return self._open(path, urllib.parse.urlencode(data or {}).encode(),
                          "application/x-www-form-urlencoded")

    def first_event(self, path: str) -> str:
        """The first server-sent event's lines of ``path``."""
        with self.opener.open(self.base + path, timeout=30) as stream:
            lines = []
            while (line := stream.readline().decode().strip()) or not lines:
                if line:
                    lines.append(line)
            return "\n".join(lines)


class _Cookies:
    def __init__(self, browser: Browser) -> None:
        self.browser = browser

    def __getitem__(self, name: str) -> str:
        for cookie in self.browser.jar:
            if cookie.name == name and cookie.value:
                return cookie.value
        raise KeyError(name)

    def clear(self) -> None:
        self.browser.jar.clear()

    def set(self, name: str, value: str) -> None:
        host = urllib.parse.urlsplit(self.browser.base).hostname or ""
        self.browser.jar.set_cookie(http.cookiejar.Cookie(
            0, name, value, None, False, host, False, False, "/", True, False, None, False,
            None, None, {}))


@contextlib.contextmanager
def serving(redis_url: str) -> Iterator[tuple[str, Starlette]]:
    """The gateway's app served on a free port until the block ends (its lifespan's end
    included: the process is then gone, as far as Redis can tell)."""
    app = make_app(redis_url)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, lifespan="on",
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the gateway did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=30)



@pytest.fixture(scope="module")
def services(redis_url: str, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[ServiceProcesses]:
    redis.Redis.from_url(redis_url).flushdb()
    running = ServiceProcesses(redis_url, tmp_path_factory.mktemp("service-logs"))
    running.start_all()

    async def healthy() -> None:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            await running.wait_healthy(client)
        finally:
            await client.aclose()

    try:
        asyncio.run(healthy())
        yield running
    finally:
        running.stop_all()


def _new_match(web: Browser, game: str = "castellum", players: int = 2) -> str:
    answer = web.post("/play/new", data={"game": game, "players": str(players), "people": "0",
                                         "bot": "random", "name": "ann"})
    found = re.search(r"/play/(web-[\w-]+)$", str(answer.url))
    assert found, answer.text
    return found[1]


def _turn(web: Browser, match_id: str, after: int, timeout_s: float = TURN_S
          ) -> tuple[int, int] | None:
    """(decision, actions) of the table's next open decision after ``after``; None once over."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        page = web.get(f"/play/{match_id}")
        assert page.status == 200, page.text
        if 'data-over="yes"' in page.text:
            return None
        found = re.search(r'data-decision="(\d+)"', page.text)
        if found and int(found[1]) > after:
            return int(found[1]), page.text.count('class="action"')
        time.sleep(0.05)
    raise AssertionError(f"no turn at {match_id} after decision {after} in {timeout_s}s")


def _take(web: Browser, match_id: str, turn: tuple[int, int]) -> None:
    answer = web.post(f"/play/{match_id}/act", json_body={"decision": turn[0], "index": 0})
    assert answer.status == 200, answer.text


def _first_turn(web: Browser) -> tuple[str, str, tuple[int, int]]:
    """A new match of ``web``'s person against a bot: its id, the person's cookie and the
    person's first turn."""
    match_id = _new_match(web)
    turn = _turn(web, match_id, -1)
    assert turn is not None
    return match_id, web.cookies[PERSON_COOKIE], turn


def test_a_restart_of_the_gateway_keeps_who_holds_which_table(
        redis_url: str, services: ServiceProcesses) -> None:
    with serving(redis_url) as (base, _):
        first = Browser(base)
        match_id, cookie, turn = _first_turn(first)
        _take(first, match_id, turn)
        answered = turn[0]
    # The first process is gone: a second one on the same Redis knows the person's table,
    # resumes its bot, and the person plays on to the end.
    with serving(redis_url) as (base, _):
        second = Browser(base, cookie)
        listing = second.get("/play")
        assert match_id in listing.text
        turns = 1
        while (turn := _turn(second, match_id, answered)) is not None:
            _take(second, match_id, turn)
            answered, turns = turn[0], turns + 1
            assert turns < 500, "the match did not end"
        page = second.get(f"/play/{match_id}")
        assert "the match is over" in page.text
    kept = asyncio.run(_kept_tables(redis_url, cookie))
    assert [(t.match_id, t.seat, t.over, bool(t.token)) for t in kept] == [
        (match_id, 0, True, True)]


async def _kept_tables(redis_url: str, person: str) -> list:  # type: ignore[type-arg]
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        keeping = Keeping(client)
        ttl = await client.ttl(keeping.person_key(person))
        assert 0 < ttl <= 8 * 86400  # bounded: it goes some days after the last table ended
        assert ("person", person) not in await keeping.playing()
        return await keeping.tables(person)
    finally:
        await client.aclose()


def _as(web: Browser, cookie: str | None) -> None:
    """From now on ``web`` is the browser holding ``cookie`` (None: no cookie at all)."""
    web.cookies.clear()
    if cookie is not None:
        web.cookies.set(PERSON_COOKIE, cookie)


def test_one_persons_cookie_gets_nothing_of_anothers_table(
        redis_url: str, services: ServiceProcesses) -> None:
    with serving(redis_url) as (base, _):
        web = Browser(base)
        match_id, ann, turn = _first_turn(web)
        _as(web, None)
        _new_match(web)  # bob has a table of his own
        bob = web.cookies[PERSON_COOKIE]
        for cookie in (bob, None, "web.0123456789abcdef",  # another person, none, made up,
                       "web.bots-" + match_id[-10:], "alice"):  # the bots' id, no person's
            _as(web, cookie)
            assert web.get(f"/play/{match_id}").status == 404
            assert f"/play/{match_id}" not in web.get("/play").text
            act = web.post(f"/play/{match_id}/act", json_body={"decision": turn[0], "index": 0})
            assert act.status == 404
            assert web.post(f"/play/{match_id}/resign").status == 404
            assert "refused" in web.first_event(f"/play/{match_id}/events")
        # Ann's decision is still open, and hers to take.
        _as(web, ann)
        assert _turn(web, match_id, -1) == turn
        _take(web, match_id, turn)


def _inbox(redis_url: str, client: str) -> list[Message]:
    with redis.Redis.from_url(redis_url) as sync:
        return [bus_decoder.decode(fields[b"m"]) for _, fields in sync.xrange(inbox_key(client))]


def _refused_on(redis_url: str, client: str, subject: str) -> Message | None:
    for message in _inbox(redis_url, client):
        if isinstance(message, CommandRefused | ActionRejected) and subject in (
                getattr(message, "subject", ""), getattr(message, "match_id", "")):
            return message
    return None


def test_nobody_speaks_for_a_person_but_its_gateway_and_the_gateway_only_for_its_people(
        redis_url: str, services: ServiceProcesses) -> None:
    person = "web.00000000000000aa"

    async def send() -> None:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            bus = RedisBus(client)  # no ACLs here: each sender registers itself
            # (a) mallory, on its own stream, names a person of the gateway
            await bus.publish(commands_key("mallory"), JoinMatch(match_id="m-a", client=person))
            await bus.publish(commands_key("mallory"), SubmitAction(
                match_id="m-a2", seat=0, decision=1, command_id="c", action=b"", client=person))
            # (b) the gateway names someone who is not one of its people
            await bus.publish(commands_key(GATEWAY_CLIENT), JoinMatch(match_id="m-b",
                                                                      client="alice"))
            await bus.publish(commands_key(GATEWAY_CLIENT), JoinMatch(match_id="m-c",
                                                                      client="irc.someone"))
            # ... and a stream of the person's own is nobody's
            await bus.publish(commands_key(person), JoinMatch(match_id="m-d", client=person))
        finally:
            await client.aclose()

    asyncio.run(send())
    deadline = time.monotonic() + 30
    wanted = {("mallory", "m-a"), ("mallory", "m-a2"), (GATEWAY_CLIENT, "m-b"),
              (GATEWAY_CLIENT, "m-c")}
    found: dict[tuple[str, str], Message] = {}
    while time.monotonic() < deadline and len(found) < len(wanted) + 1:
        for sender, subject in wanted:
            seen = _refused_on(redis_url, sender, subject)
            if seen is not None:
                found[sender, subject] = seen
        own = _refused_on(redis_url, GATEWAY_CLIENT, "m-d")
        if own is not None:
            found[person, "m-d"] = own
        time.sleep(0.1)
    assert set(found) == wanted | {(person, "m-d")}, found
    assert all(m.code == RejectionCode.BAD_CLIENT for m in found.values())  # type: ignore[attr-defined]
    # The refusals of mallory's and the gateway's forgeries went to their senders, as their
    # own; the one on the person's stream to the person, through its gateway's inbox.
    assert all(getattr(found[k], "to", "") == "" for k in wanted)
    assert getattr(found[person, "m-d"], "to", "") == person


def test_two_hundred_people_are_one_stream_to_the_services(
        redis_url: str, services: ServiceProcesses) -> None:
    people = 200
    with redis.Redis.from_url(redis_url) as sync:
        registered_before = {m.decode() for m in sync.smembers(CLIENTS_KEY)}
        read_before = _entries_read(sync)
        streams_before = {k.decode() for k in sync.scan_iter("siege:client:*:commands")}
    with serving(redis_url) as (base, app):
        web = Browser(base)
        tables: list[tuple[str, str]] = []
        for _ in range(people):
            _as(web, None)  # a new browser each time
            match_id = _new_match(web, game="storm-the-castle", players=1)
            tables.append((web.cookies[PERSON_COOKIE], match_id))
        gateway = app.state.gateway
        deadline = time.monotonic() + 120
        granted = 0
        while time.monotonic() < deadline and granted < people:
            granted = sum(bool(getattr(gateway.people.find(cookie), "seats", None))
                          for cookie, _ in tables)
            time.sleep(0.2)
        assert granted == people
        for cookie, match_id in tables[::40]:  # and each sees its own first prompt
            _as(web, cookie)
            assert _turn(web, match_id, -1) is not None
    with redis.Redis.from_url(redis_url) as sync:
        registered = {m.decode() for m in sync.smembers(CLIENTS_KEY)}
        streams = {k.decode() for k in sync.scan_iter("siege:client:*:commands")}
        read = _entries_read(sync)
    # Not one person is a stream the services follow: the registry holds the gateway, and its
    # one stream carried all 400 commands (200 creates, 200 joins) to each service's group.
    assert GATEWAY_CLIENT in registered
    assert not [c for c in registered - registered_before if c != GATEWAY_CLIENT]
    assert streams - streams_before <= {commands_key(GATEWAY_CLIENT)}
    assert read and all(read[g] - read_before.get(g, 0) >= 2 * people for g in read)


def _entries_read(sync: redis.Redis) -> dict[str, int]:
    """Entries each consumer group has read of the gateway's commands stream."""
    if not sync.exists(commands_key(GATEWAY_CLIENT)):
        return {}
    return {g["name"].decode(): int(g["entries-read"] or 0)
            for g in sync.xinfo_groups(commands_key(GATEWAY_CLIENT))}
