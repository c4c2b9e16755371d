"""People play in the browser (siegeworks.web.play): a whole match of every hosted game
against bots, two people in two browser contexts against each other, and a person entering a
tournament from its page; every match audited. Screenshots of each game's play screen are
saved as test artifacts."""

from __future__ import annotations

import asyncio
import os
import random
import re
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_support import ARTIFACTS, SIEGE, siege, start_web
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from redis.asyncio import Redis

from siege.engine.registry import game_names, get_engine
from siegeworks.supervisor import ServiceProcesses

pytestmark = pytest.mark.e2e
TURN_WAIT_MS = 90_000  # a bot's whole round of turns, on a loaded machine


@pytest.fixture
def services(redis_url: str, tmp_path: Path) -> Iterator[ServiceProcesses]:
    """The four services on the test's Redis. Their health is awaited on a thread of its own:
    Playwright's sync API holds this thread's event loop."""
    running = ServiceProcesses(redis_url, tmp_path / "service-logs")
    running.start_all()
    failed: list[BaseException] = []

    def healthy() -> None:
        async def wait() -> None:
            redis = Redis.from_url(redis_url)
            try:
                await running.wait_healthy(redis)
            finally:
                await redis.aclose()
        try:
            asyncio.run(wait())
        except BaseException as error:  # noqa: BLE001 - re-raised on the test's thread
            failed.append(error)

    waiter = threading.Thread(target=healthy)
    waiter.start()
    waiter.join()
    try:
        if failed:
            raise failed[0]
        yield running
    finally:
        running.stop_all()


def start(page: Page, web: str, game: str, players: int, people: int = 0) -> str:
    page.goto(f"{web}/play")
    page.select_option("select[name=game]", game)
    page.fill("input[name=players]", str(players))
    page.fill("input[name=people]", str(people))
    page.click("#new-match button[type=submit]")
    page.wait_for_url(re.compile(r"/play/web-"))
    return page.url.rsplit("/", 1)[1]


READY = """(answered) => { const t = document.querySelector('.turn');
  return !!t && (t.dataset.over === 'yes' || (Number(t.dataset.decision) > answered
    && t.querySelector('button.action:not([disabled])') !== null)); }"""
"""A decision newer than the last one answered is open, or the match is over."""


class Seat:
    """One person's table page, played by clicking a random legal action at each turn."""

    def __init__(self, page: Page, seed: int) -> None:
        self.page, self.rng = page, random.Random(seed)
        self.answered, self.clocks, self.turns = -1, 0, 0

    @property
    def over(self) -> bool:
        return self.page.locator(".turn[data-over=yes]").count() > 0

    def wait(self, timeout_ms: float) -> bool:
        """Waits up to ``timeout_ms`` for this seat's next turn (or end); True if it came."""
        try:
            self.page.wait_for_function(READY, arg=self.answered, timeout=timeout_ms)
        except PlaywrightTimeoutError:
            return False
        return True

    def play_one(self) -> None:
        decision = int(self.page.locator(".turn").get_attribute("data-decision") or -1)
        if self.page.locator("#clock").count():
            expect(self.page.locator("#clock")).to_contain_text("left on your clock")
            self.clocks += 1
        buttons = self.page.locator("button.action")
        buttons.nth(self.rng.randrange(buttons.count())).click()
        self.answered, self.turns = decision, self.turns + 1


def play_out(seats: list[Seat], on_first_turn: Callable[[Page], None] | None = None) -> None:
    """Plays every seat until all their matches are over: each page in turn is given a moment
    to show its next decision (the others may be waiting for it)."""
    deadline = time.monotonic() + 600
    while not all(s.over for s in seats):
        assert time.monotonic() < deadline, "the matches did not end within 10 minutes"
        waiting = [s for s in seats if not s.over]
        for seat in waiting:
            if not seat.wait(TURN_WAIT_MS if len(waiting) == 1 else 100) or seat.over:
                continue
            if seat.turns == 0 and on_first_turn is not None:
                on_first_turn(seat.page)
            seat.play_one()


def reload_until(page: Page, find: Callable[[], str | None], what: str) -> str:
    """What ``find`` finds on the page, reloading it until it does: the play page is drawn per
    load, and grants and lobby listings arrive when the services get to them."""
    deadline = time.monotonic() + TURN_WAIT_MS / 1000
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        page.wait_for_timeout(250)
        page.reload()
    raise AssertionError(f"{what} never showed on {page.url}")


def next_table(page: Page, played: list[str]) -> str:
    """The person's table not played yet, as the play page lists it once it is granted."""
    def fresh() -> str | None:
        ids = [li.get_attribute("data-match") for li in page.locator("#your-tables li").all()]
        return next((i for i in ids if i and i not in played), None)
    return reload_until(page, fresh, f"a table after {played}")


def audited(match_id: str, redis_url: str, home: Path) -> str:
    return siege(["audit", match_id], redis_url, home).stdout


@pytest.mark.parametrize("game", game_names())
def test_a_person_plays_a_whole_match_against_bots(
        game: str, browser: Browser, web: str, services: ServiceProcesses, redis_url: str,
        tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    match_id = start(page, web, game, get_engine(game).min_players)
    expect(page.locator("#rules")).to_contain_text("rules")
    assert page.locator("#rules .rules p").count() >= 1  # the game's summary is at hand
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def shoot(p: Page) -> None:
        p.screenshot(path=str(ARTIFACTS / f"play-{game}.png"), full_page=True)

    seat = Seat(page, seed=len(game))
    play_out([seat], on_first_turn=shoot)
    assert seat.turns >= 1 and seat.clocks == seat.turns  # every turn showed its clock
    expect(page.locator("#status")).to_contain_text("the match is over")
    assert "OK" in audited(match_id, redis_url, tmp_path)
    # The person's table is listed as finished on the play page.
    page.goto(f"{web}/play")
    expect(page.locator(f"#your-tables li[data-match='{match_id}']")).to_contain_text("finished")
    page.close()


def test_two_people_in_two_browsers_play_each_other(
        browser: Browser, web: str, services: ServiceProcesses, redis_url: str,
        tmp_path: Path) -> None:
    ann_context, bob_context = browser.new_context(), browser.new_context()  # two cookies
    ann, bob = ann_context.new_page(), bob_context.new_page()
    match_id = start(ann, web, "castle-dash", 3, people=1)  # one bot, one seat for a person
    bob.goto(f"{web}/play")
    offer = bob.locator(f"#open-seats li[data-match='{match_id}']")
    reload_until(bob, lambda: "listed" if offer.count() else None, f"{match_id}'s open seat")
    offer.locator("input[name=name]").fill("bob")
    offer.locator("button[type=submit]").click()
    bob.wait_for_url(re.compile(f"/play/{match_id}$"))
    # Neither person sees the other's seat as theirs.
    expect(ann.locator("#status")).to_contain_text("seat 0", timeout=TURN_WAIT_MS)
    expect(bob.locator("#status")).to_contain_text("seat 1", timeout=TURN_WAIT_MS)
    seats = [Seat(ann, seed=1), Seat(bob, seed=2)]
    play_out(seats)
    assert all(s.turns >= 1 for s in seats)
    for page in (ann, bob):
        expect(page.locator("#status")).to_contain_text("the match is over")
    assert "OK" in audited(match_id, redis_url, tmp_path)
    ann_context.close()
    bob_context.close()


def test_a_person_enters_a_tournament_from_its_page_and_plays_each_table(
        browser: Browser, web: str, services: ServiceProcesses, redis_url: str,
        tmp_path: Path) -> None:
    env = {**os.environ, "REDIS_URL": redis_url, "SIEGE_HOME": str(tmp_path)}
    organiser = subprocess.Popen(
        [*SIEGE, "tournament", "--game", "castle-dash", "--entrants", "3", "--outside", "1",
         "--rounds", "2", "--table-size", "3", "--seed", "12", "--registration-timeout", "300"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    try:
        assert organiser.stdout is not None
        first = organiser.stdout.readline()
        tid = first.split()[1]
        assert first.startswith("tournament t-"), first
        # The page offers a place once the tournament is recorded, which the organiser says
        # after its services are up (on a loaded machine, longer than a page waits).
        for line in organiser.stdout:
            if line.startswith("outside entrants registered: 0/1"):
                break
        else:
            raise AssertionError(f"the organiser ended before registration: {organiser.wait()}")
        page = browser.new_page()
        page.goto(f"{web}/tournaments/{tid}")
        page.fill("#enter input[name=name]", "pat")
        page.click("#enter button[type=submit]")
        page.wait_for_url(re.compile("/play$"))
        played: list[str] = []
        for _ in range(2):  # one table per round, granted as the round is paired
            match_id = next_table(page, played)
            page.goto(f"{web}/play/{match_id}")
            play_out([Seat(page, seed=len(played))])
            played.append(match_id)
            page.goto(f"{web}/play")
        out, _ = organiser.communicate(timeout=300)
        assert organiser.returncode == 0, out
        for match_id in played:
            assert "OK" in audited(match_id, redis_url, tmp_path)
        # The person is an entrant of the standings, under its client's entrant id.
        client = next(c["value"] for c in page.context.cookies() if c["name"] == "siege_person")
        page.goto(f"{web}/tournaments/{tid}")
        expect(page.locator("#standings")).to_contain_text(f"c-{client}")
    finally:
        if organiser.poll() is None:
            organiser.kill()


def test_a_person_resigns_and_nobody_else_can_act_for_them(
        browser: Browser, web: str, services: ServiceProcesses, redis_url: str,
        tmp_path: Path) -> None:
    page = browser.new_page()
    match_id = start(page, web, "castle-dash", 3)
    seat = Seat(page, seed=3)
    assert seat.wait(TURN_WAIT_MS) and not seat.over
    decision = int(page.locator(".turn").get_attribute("data-decision") or -1)
    # Another browser (another person, another cookie) cannot act or resign at this table.
    stranger = browser.new_context().new_page()
    stranger.goto(f"{web}/play")
    for path, body in [("act", {"decision": decision, "index": 0}), ("resign", {})]:
        status = stranger.evaluate(
            """async ([url, body]) => (await fetch(url, {method: 'POST', body: JSON.stringify(body),
                 headers: {'Content-Type': 'application/json'}})).status""",
            [f"/play/{match_id}/{path}", body])
        assert status == 404
    told = stranger.evaluate("async (url) => (await fetch(url)).text()",
                             f"/play/{match_id}/events")  # ends at once, never hangs
    assert "event: refused" in told and "you hold no seat" in told
    assert page.locator("button.action:not([disabled])").count() > 0  # still this seat's turn
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator(".turn[data-over=yes]")).to_have_count(1, timeout=TURN_WAIT_MS)
    expect(page.locator("#status")).to_contain_text("your rank: 3 of 3")
    assert "OK" in audited(match_id, redis_url, tmp_path)
    stranger.context.close()


def test_the_gateway_stops_on_sigterm_with_live_pages_open(redis_url: str,
                                                           tmp_path: Path) -> None:
    """A live page never closes its stream; SIGTERM still stops ``siege web`` promptly (a few
    seconds' grace), instead of waiting for every reader to leave."""
    server, url = start_web(redis_url, tmp_path)
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as page:
        page.sendall(b"GET /tournaments/t-0123456789ab/events HTTP/1.1\r\nHost: x\r\n\r\n")
        assert page.recv(100).startswith(b"HTTP/1.1 200")  # the stream is open
        started = time.monotonic()
        server.terminate()
        try:
            code = server.wait(timeout=20)
        finally:
            if server.poll() is None:
                server.kill()
        assert code is not None and time.monotonic() - started < 20
