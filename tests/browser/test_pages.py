"""The web pages in Chromium: the replay viewer steps a match of every game to the position
``siege replay`` shows, a tournament's standings and rounds arrive without a reload while it
runs, and a spectator follows a person's match in public words only."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pexpect
import pytest
from browser_support import SIEGE, assert_fits, screenshots, siege
from playwright.sync_api import Browser, expect
from redis.asyncio import Redis

from siege.engine.protocol import SPECTATOR
from siege.engine.registry import game_names, get_engine, presentation
from siege.eventlog.log import RedisEventLog
from siege.hosting.replay import fold_to
from siegeworks.web.app import scene_html

pytestmark = pytest.mark.e2e


def match_of(game: str, seed: int, redis_url: str, home: Path) -> str:
    """The match ``siege run --seed`` played, as ``siege matches`` lists it."""
    rows = json.loads(siege(["matches", "--game", game, "--json"], redis_url, home).stdout)
    ids = [r["match_id"] for r in rows if r["match_id"].startswith(f"{game}-s{seed}-")]
    assert len(ids) == 1, rows
    return str(ids[0])


def replay_board(redis_url: str, home: Path, match_id: str) -> tuple[dict[str, str], str]:
    """``siege replay --text`` in 80 columns: its lines by seq, and the board it ends with."""
    wide = siege(["replay", match_id, "--text"], redis_url, home).stdout  # no line wraps
    told = wide.split("\nAfter seq ", 1)[0]  # the move list, not the board after it
    lines = dict(re.findall(r"^ *(\d+)  (.+?)$", told, flags=re.M))
    narrow = siege(["replay", match_id, "--text"], redis_url, home, columns=80).stdout
    board = narrow.split("\nAfter seq ", 1)[1].split("\n", 1)[1]
    return lines, board


SAME_BOARD = """(html) => { const drawn = document.createElement('div');
  drawn.innerHTML = html.replaceAll('\\n', ' ');
  const shown = document.getElementById('board').cloneNode(true);
  return drawn.innerHTML.replace(/\\s+/g, ' ') === shown.innerHTML.replace(/\\s+/g, ' '); }"""
"""The board on the page is ``html`` (both through the browser's own serialiser)."""


def same_text(a: str, b: str) -> bool:
    return [line.rstrip() for line in a.strip().splitlines()] == [
        line.rstrip() for line in b.strip().splitlines()]


@pytest.mark.parametrize("game", game_names())
def test_the_replay_viewer_steps_a_match_to_what_siege_replay_shows(
        game: str, browser: Browser, web: str, redis_url: str, tmp_path: Path) -> None:
    players = get_engine(game).min_players
    siege(["run", "--game", game, "--matches", "1", "--players", str(players), "--seed", "4",
           "--in-process"], redis_url, tmp_path)  # audited as it ends
    match_id = match_of(game, 4, redis_url, tmp_path)
    lines, board = replay_board(redis_url, tmp_path, match_id)
    last = max(int(seq) for seq in lines)
    page = browser.new_page()
    page.goto(f"{web}/matches/{match_id}")
    viewer = page.locator("#viewer")
    end = int(viewer.get_attribute("data-last") or 0)
    assert end >= last
    # Every told line of the page is the replay's line for that seq.
    shown = {li.get_attribute("data-seq"): li.inner_text()
             for li in page.locator("#moves li").all()}
    assert shown == lines
    # Keys: to the start, a move on, an event back, to the end.
    page.keyboard.press("Home")
    expect(page.locator("#seq")).to_have_value("1")
    assert page.inner_text("#told").startswith(f"1: {lines['1']}")
    page.keyboard.press("PageDown")
    second = sorted(int(s) for s in lines)[1]
    expect(page.locator("#seq")).to_have_value(str(second))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#seq")).to_have_value(str(second - 1))
    page.keyboard.press("End")
    expect(page.locator("#seq")).to_have_value(str(end))
    expect(page.locator("#board .scene")).to_have_attribute("data-seq", str(end))
    # The board is the game's own, drawn in words from the spectator's view at that seq.
    drawn = page.evaluate("async (u) => (await fetch(u)).text()",
                          f"/matches/{match_id}/board.html?seq={end}")
    assert page.evaluate(SAME_BOARD, drawn)
    assert page.locator("#board .piece").count() >= 3
    assert_fits(page)
    # The final position is the one siege replay --text draws.
    final = page.evaluate("async (u) => (await fetch(u)).json()",
                          f"/matches/{match_id}/view.json?seq={end}")
    assert same_text(final["board"], board), (final["board"], board)
    # The page re-checked the log by itself: the chain, every draw, the seal.
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-state", "good", timeout=30_000)
    assert verdict.get_attribute("data-chain") == "verified"
    assert verdict.get_attribute("data-dice") == "verified"
    assert verdict.get_attribute("data-seal") == "verified", verdict.inner_text()
    # A link to a position opens at that position.
    page.goto(f"{web}/matches/{match_id}#seq={second}")
    expect(page.locator("#seq")).to_have_value(str(second))
    page.close()
    if game == "castle-dash":
        screenshots(browser, f"{web}/matches/{match_id}#seq={end}", "replay")
        screenshots(browser, f"{web}/matches", "matches")
        for path, name in (("/", "home"), ("/play", "play"), ("/verify", "verify")):
            screenshots(browser, web + path, name)


def test_a_tournaments_standings_and_rounds_arrive_without_a_reload(
        browser: Browser, web: str, redis_url: str, tmp_path: Path) -> None:
    args = ["tournament", "--entrants", "6", "--rounds", "3", "--table-size", "3",
            "--seed", "5"]
    first = siege([*args, "--pause-after", "1"], redis_url, tmp_path).stdout
    tid = first.splitlines()[0].split()[1]
    page = browser.new_page()
    page.goto(f"{web}/tournaments/{tid}")
    expect(page.locator("section.round")).to_have_count(1)
    page.evaluate("window.notReloaded = true")
    env = {**os.environ, "REDIS_URL": redis_url, "SIEGE_HOME": str(tmp_path),
           "SIEGE_DATA_DIR": str(tmp_path)}
    resumed = pexpect.spawn(sys.executable, [*SIEGE[1:], *args], env=env, cwd=str(tmp_path),
                            timeout=300, encoding="utf-8")
    try:
        expect(page.locator("section.round[data-round='2']")).to_have_count(1, timeout=120_000)
        expect(page.locator("#progress")).to_have_text("final", timeout=180_000)
        resumed.expect(pexpect.EOF)
    finally:
        resumed.close()
    assert page.evaluate("window.notReloaded") is True
    expect(page.locator("section.round")).to_have_count(3)
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(6)
    ranks = [int(r.locator("td").first.inner_text()) for r in rows.all()]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert page.locator("#rating-chart rect").count() == 6
    page.close()
    screenshots(browser, f"{web}/tournaments/{tid}", "tournament")
    screenshots(browser, f"{web}/tournaments", "tournaments")


def test_a_spectator_follows_a_persons_match_and_sees_no_secret(
        browser: Browser, web: str, redis_url: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(REDIS_URL=redis_url, SIEGE_HOME=str(tmp_path), SIEGE_DATA_DIR=str(tmp_path))
    person = pexpect.spawn(sys.executable, [*SIEGE[1:], "play", "--players", "3", "--seed", "8"],
                           env=env, cwd=str(tmp_path), timeout=120, encoding="utf-8",
                           dimensions=(50, 300))
    choice = re.compile(r"your choice \(1-\d+, \? for help\): ")
    person.expect(choice)
    match_id = re.search(r"--- (\S+): seat 0", person.before)
    assert match_id is not None
    page = browser.new_page()
    page.goto(f"{web}/matches/{match_id.group(1)}/watch")
    expect(page.locator("#lines li").first).to_be_visible(timeout=30_000)
    screenshots(browser, f"{web}/matches/{match_id.group(1)}/watch", "spectator")
    person.sendline("1")  # the person thought long enough: play on, always the first option
    while person.expect([choice, "final table"], timeout=120) == 0:
        person.sendline("1")
    person.expect(pexpect.EOF)
    person.close()
    expect(page.locator("#status")).to_contain_text("the match is over", timeout=60_000)
    told = {li.get_attribute("data-seq"): li.inner_text()
            for li in page.locator("#lines li").all()}
    lines, _ = replay_board(redis_url, tmp_path, match_id.group(1))
    assert len(told) > 20
    for seq, text in told.items():
        assert lines[seq] == text  # public words: the replay's, told to nobody in particular
    html = page.content()
    assert "(you)" not in html, re.findall(r".{80}\(you\).{40}", html)[:3]
    # The last board shown is the spectator's view of the final position, as the replay
    # viewer draws it (view(state, SPECTATOR): tested field by field against every seat's).
    over = re.search(r"seq (\d+)", page.inner_text("#status"))
    assert over is not None
    expect(page.locator("#board .scene")).to_have_attribute("data-seq", over.group(1))
    drawn = page.evaluate("async (u) => (await fetch(u)).text()",
                          f"/matches/{match_id.group(1)}/board.html?seq={over.group(1)}")
    assert page.evaluate(SAME_BOARD, drawn)
    assert_fits(page)
    sealed = [text for text in told.values() if "cannonball count" in text]
    assert sealed and all("(sealed)" in text for text in sealed)
    page.close()


def test_what_is_not_there_gets_a_clear_answer(web: str, redis_url: str, tmp_path: Path) -> None:
    siege(["run", "--matches", "1", "--players", "3", "--seed", "6", "--in-process"],
          redis_url, tmp_path)
    match_id = match_of("castle-dash", 6, redis_url, tmp_path)

    def get(path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(web + path) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    status, body = get("/matches/no-such-match")
    assert status == 404 and "no match &#39;no-such-match&#39;" in body  # escaped
    status, body = get("/tournaments/t-000000000000")
    assert status == 404 and "no tournament" in body
    for seq in ("abc", "0", "100000"):
        status, body = get(f"/matches/{match_id}/view.json?seq={seq}")
        assert status == 400 and "seq must be a number from 1 to" in json.loads(body)["error"]
    status, body = get(f"/matches/{match_id}/board.svg?seq=3")
    assert status == 200 and body.startswith("<svg") and "cdnjs" not in body  # no web font
    status, body = get("/matches?state=finished&game=castle-dash")
    assert status == 200 and match_id in body
    status, body = get("/matches?game=castellum")
    assert status == 200 and match_id not in body


def test_an_elimination_is_drawn_as_a_bracket(browser: Browser, web: str, redis_url: str,
                                              tmp_path: Path) -> None:
    done = siege(["tournament", "--format", "elimination", "--entrants", "9", "--table-size",
                  "3", "--rounds", "2", "--advance", "1", "--seed", "3"], redis_url, tmp_path)
    tid = done.stdout.splitlines()[0].split()[1]
    page = browser.new_page()
    page.goto(f"{web}/tournaments/{tid}")
    expect(page.locator("h2", has_text="Bracket")).to_have_count(1)
    expect(page.locator(".bracket section.round")).to_have_count(2)
    # Round 1's winners, and only they, are the final's table.
    winners = sorted(page.locator("section.round[data-round='1'] .advanced").all_inner_texts())
    final = page.locator("section.round[data-round='2'] li").first.inner_text()
    assert len(winners) == 3
    assert all(name.split(" (")[0] in final for name in winners)
    page.close()
    screenshots(browser, f"{web}/tournaments/{tid}", "bracket")


CAPTURE_BOARDS = """
window.boards = [];
const listen = EventSource.prototype.addEventListener;
EventSource.prototype.addEventListener = function (kind, handler, options) {
  if (kind === "board") {
    const inner = handler;
    handler = (e) => { window.boards.push(e.data); inner(e); };
  }
  return listen.call(this, kind, handler, options);
};
"""


def test_a_spectator_of_a_game_with_hands_never_sees_one(
        browser: Browser, web: str, redis_url: str, tmp_path: Path) -> None:
    """Sally Forth: every board the spectator page drew is the spectator's scene at its seq,
    checked against the seats' own boards there: no card of either seat's hand, as that seat's
    own board draws it, is on the page."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(REDIS_URL=redis_url, SIEGE_HOME=str(tmp_path), SIEGE_DATA_DIR=str(tmp_path))
    person = pexpect.spawn(sys.executable, [*SIEGE[1:], "play", "--game", "mission", "--players",
                                            "2", "--seed", "5"],
                           env=env, cwd=str(tmp_path), timeout=120, encoding="utf-8",
                           dimensions=(50, 300))
    choice = re.compile(r"your choice \(1-\d+, \? for help\): ")
    person.expect(choice)
    found = re.search(r"--- (\S+): seat 0", person.before)
    assert found is not None
    match_id = found.group(1)
    page = browser.new_page()
    page.add_init_script(CAPTURE_BOARDS)
    page.goto(f"{web}/matches/{match_id}/watch")
    page.wait_for_function("window.boards.length > 0", timeout=30_000)
    person.sendline("1")
    while person.expect([choice, "final table"], timeout=120) == 0:
        person.sendline("1")
    person.expect(pexpect.EOF)
    person.close()
    expect(page.locator("#status")).to_contain_text("the match is over", timeout=60_000)
    boards = page.evaluate("window.boards")
    page.close()
    # In a thread of its own: Playwright's sync API holds this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        entries = pool.submit(asyncio.run, _read_log(redis_url, match_id)).result()
    engine, shown = get_engine("mission"), presentation("mission")
    assert shown.scene is not None
    checked = 0
    for drawn in boards:
        at = re.search(r'data-seq="(\d+)"', drawn)
        assert at is not None, drawn[:200]
        ms, _ = fold_to(entries, int(at.group(1)))
        names = ms.created.seat_names if ms.created else ["x", "y"]
        assert drawn.split() == scene_html("mission", engine.view(ms.game, SPECTATOR), names,
                                           seq=int(at.group(1))).split()
        on_page = set(re.findall(r'data-piece="([^"]+)"', drawn))
        for seat in range(2):
            own = shown.scene(engine.view(ms.game, seat), names, seat)
            hand = {p.id for z in own.zones for inner in (z, *z.zones)
                    if "hand" in inner.title.lower()
                    for p in inner.pieces if p.kind == "card" and p.id}
            assert not hand & on_page, (seat, at.group(1), hand & on_page)
            checked += bool(hand)
    assert len(boards) > 5 and checked > 10


async def _read_log(redis_url: str, match_id: str) -> list:
    client = Redis.from_url(redis_url)
    try:
        return list(await RedisEventLog(client).read(match_id))
    finally:
        await client.aclose()
