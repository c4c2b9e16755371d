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
from browser_support import ARTIFACTS, SIEGE, assert_fits, siege, start_web
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


def start(page: Page, web: str, game: str, players: int | None = None, people: int = 0,
          name: str = "", clock: str = "") -> str:
    page.goto(f"{web}/play")
    page.select_option("select[name=game]", game)
    if players is not None:
        page.fill("input[name=players]", str(players))
    page.fill("input[name=people]", str(people))
    if name:
        page.fill("input[name=name]", name)
    if clock:
        page.select_option("select[name=clock]", clock)
    page.click("#new-match button[type=submit]")
    page.wait_for_url(re.compile(r"/play/web-"))
    return page.url.rsplit("/", 1)[1]


READY = """(answered) => { const t = document.querySelector('.turn');
  return !!t && (t.dataset.over === 'yes' || (Number(t.dataset.decision) > answered
    && t.querySelector('button.action:not([disabled])') !== null)); }"""
"""A decision newer than the last one answered is open, or the match is over."""

class Seat:
    """One person's table page, played by clicking: a piece on the board where one is offered
    (then, if it offers several, one of those), else a random legal action."""

    def __init__(self, page: Page, seed: int, on_board: bool = False) -> None:
        self.page, self.rng, self.on_board = page, random.Random(seed), on_board
        self.answered, self.clocks, self.turns, self.board_clicks = -1, 0, 0, 0

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
        picks = self.page.locator("button.piece.pick")
        if self.on_board and picks.count() and self.rng.random() < 0.8:
            picks.nth(self.rng.randrange(picks.count())).click()
            self.board_clicks += 1
            offered = self.page.locator("#choices button.action:visible")
            if self.page.locator(".picking:visible").count():  # several: the list narrowed
                assert 2 <= offered.count() < self.page.locator("button.action").count() or (
                    offered.count() == self.page.locator("button.action").count() >= 2)
                offered.nth(self.rng.randrange(offered.count())).click()
        else:
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


WIDTHS = {"desktop": 1280, "phone": 375}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", game_names())
def test_a_person_plays_a_whole_match_against_bots_on_the_board(
        game: str, width: str, browser: Browser, web: str, services: ServiceProcesses,
        redis_url: str, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": WIDTHS[width], "height": 900})
    match_id = start(page, web, game, name="Ada")
    expect(page.locator("#rules")).to_contain_text("rules")
    assert page.locator("#rules .rules p").count() >= 1  # the game's summary is at hand
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    checked: list[int] = []

    def first_turn(p: Page) -> None:
        expect(p.locator("#status")).to_contain_text("(Ada)")
        expect(p.locator("#board .scene .zone").first).to_be_visible()
        assert_fits(p)
        p.screenshot(path=str(ARTIFACTS / f"play-{game}-{width}.png"), full_page=True)
        checked.append(1)

    seat = Seat(page, seed=len(game), on_board=True)
    play_out([seat], on_first_turn=first_turn)
    assert checked and seat.turns >= 1 and seat.clocks == seat.turns  # every turn: its clock
    # Wherever a place or card was the choice, the person picked on the board.
    assert seat.board_clicks >= 1
    # The end: why, every seat's rank, the board as it ended, what happened since the last turn.
    expect(page.locator("#status")).to_contain_text("the match is over")
    expect(page.locator("#end #why")).not_to_be_empty()
    players = len(page.locator("#ranks tbody tr").all())
    assert players >= get_engine(game).min_players
    expect(page.locator("#ranks tr.mine")).to_contain_text("Ada (you)")
    expect(page.locator("#board")).to_have_attribute("aria-label", "the board as the match ended")
    expect(page.locator("#since li").first).to_be_visible()
    # Nobody else's words call the person "you": the public lines name Ada.
    lines = page.locator("#lines").inner_text()
    assert "Ada" in lines and "you's" not in lines
    if game == "castle-assault":  # its many one-choice prompts were taken by themselves
        assert "taken by itself (the only choice)" in lines
    assert_fits(page)
    page.screenshot(path=str(ARTIFACTS / f"play-{game}-{width}-end.png"), full_page=True)
    assert "OK" in audited(match_id, redis_url, tmp_path)
    # The person's table is listed as finished on the play page.
    page.goto(f"{web}/play")
    expect(page.locator(f"#your-tables li[data-match='{match_id}']")).to_contain_text("finished")
    assert_fits(page)
    page.close()


def test_the_players_field_follows_the_game_and_the_clock_warns_before_it_runs_out(
        browser: Browser, web: str, services: ServiceProcesses) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 800})
    page.clock.install()  # the page's clock only: the services judge by Redis' own
    page.goto(f"{web}/play")
    players = page.locator("input[name=players]")
    for game in game_names():
        engine = get_engine(game)
        page.select_option("select[name=game]", game)
        assert players.get_attribute("min") == str(engine.min_players)
        assert players.get_attribute("max") == str(engine.max_players)
        assert engine.min_players <= int(players.input_value()) <= engine.max_players
    expect(page.locator("select[name=clock]")).to_have_value("casual")
    start(page, web, "castle-dash", clock="blitz")
    expect(page.locator("#clock")).to_contain_text("left on your clock", timeout=TURN_WAIT_MS)
    expect(page.locator("#clock")).not_to_have_class(re.compile("late"))
    page.clock.fast_forward("00:25")  # 5 s of a 30 s clock left
    expect(page.locator("#clock")).to_have_class(re.compile("late"))
    expect(page.locator("#clock")).to_contain_text("choose now, or you forfeit the match")
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
        # The person is an entrant of the standings, under the name typed (its client's
        # entrant id beside it), and so in the rounds and the rating chart.
        client = next(c["value"] for c in page.context.cookies() if c["name"] == "siege_person")
        page.goto(f"{web}/tournaments/{tid}")
        expect(page.locator(f"#standings span[title='c-{client}']")).to_have_text("pat")
        expect(page.locator("#rounds")).to_contain_text("pat")
        expect(page.locator("#rating-chart")).to_contain_text("pat")
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


def test_a_store_without_services_says_so_instead_of_waiting(browser: Browser, web: str) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 800})
    page.goto(f"{web}/play")
    expect(page.locator("#missing")).to_contain_text("No match, rules, dice, scoring service")
    start(page, web, "castle-dash")
    expect(page.locator("#turn #missing")).to_contain_text("no match can start")
    expect(page.locator("#turn #missing")).to_contain_text("siege web --services")
    assert_fits(page)
    page.close()


def test_the_readme_path_reaches_a_first_decision(browser: Browser, tmp_path: Path) -> None:
    """``make run``, then ``siege web`` and /play, as the README says, on a fresh data folder
    and the embedded store (no REDIS_URL): the first decision of a match comes."""
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "MAKEFLAGS")}
    env.update(SIEGE_HOME=str(tmp_path), SIEGE_DATA_DIR=str(tmp_path / "redis"))
    ran = subprocess.run(["make", "-s", "run", "RUN_ARGS=--matches 2"], cwd=root, env=env,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert "siege web" in ran.stdout.strip().splitlines()[-1]
    web = subprocess.Popen([*SIEGE, "web", "--port", "0"], env=env, cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert web.stdout is not None
        first = web.stdout.readline()
        assert first.startswith("serving http://") and "embedded redis" in first, (
            first + (web.stderr.read() if web.stderr else ""))
        url = first.split()[1].rstrip("/")
        page = browser.new_page(viewport={"width": 375, "height": 800})
        page.goto(f"{url}/play")
        assert page.locator("#missing").count() == 0  # its own services are running
        start(page, url, "castle-dash")
        expect(page.locator("button.action").first).to_be_visible(timeout=TURN_WAIT_MS)
        expect(page.locator("#board .scene")).to_be_visible()
        assert_fits(page)
        page.close()
    finally:
        web.terminate()
        try:
            web.wait(timeout=30)
        except subprocess.TimeoutExpired:
            web.kill()
            web.wait()
            pytest.fail("siege web did not stop within 30 s of SIGTERM")
