"""What the browser tests share: the system's Chromium, ``siege`` run as a user runs it, and
screenshots saved as test artifacts (``test-artifacts/browser/``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
SIEGE = [sys.executable, "-m", "siegeworks.cli"]
WIDTHS = {"desktop": (1280, 900), "phone": (375, 812)}


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    why = ("no Chromium on this machine: install Debian's chromium package (make test does "
           "when it runs as root)")
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests, and {why}")
    pytest.skip(why)


def siege(args: list[str], redis_url: str, home: Path,
          columns: int = 200) -> subprocess.CompletedProcess:
    env = {**os.environ, "REDIS_URL": redis_url, "SIEGE_HOME": str(home),
           "SIEGE_DATA_DIR": str(home), "COLUMNS": str(columns)}
    done = subprocess.run(SIEGE + args, env=env, capture_output=True, text=True, timeout=600,
                          cwd=home)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def start_web(redis_url: str, home: Path) -> tuple[subprocess.Popen[str], str]:
    """``siege web`` on ``redis_url``, on a free port: the process and its base URL."""
    env = {**os.environ, "SIEGE_HOME": str(home), "SIEGE_DATA_DIR": str(home)}
    server = subprocess.Popen(SIEGE + ["web", "--port", "0", "--redis-url", redis_url],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout is not None
    first = server.stdout.readline()
    assert first.startswith("serving http://"), first + (server.stderr.read() if server.stderr
                                                         else "")
    return server, first.split()[1].rstrip("/")


LAYOUT = """() => {
  const page = document.documentElement;
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, box = node.parentElement;
    if (!node.textContent.trim() || !box) continue;
    const rects = Array.from(node.parentElement.getClientRects());
    const style = getComputedStyle(box);
    if (!rects.some((r) => r.width > 0 && r.height > 0) || style.visibility === 'hidden') continue;
    if (box.closest('.piece.gap, [hidden]')) continue;
    const text = node.textContent.trim().slice(0, 40);
    if (parseFloat(style.fontSize) < 12) small.push(`${style.fontSize}: ${text}`);
  }
  return {sideways: page.scrollWidth - page.clientWidth, small: small.slice(0, 5)};
}"""
"""How far the page scrolls sideways (0: it fits), and visible text under 12 px."""


def assert_fits(page: Page) -> None:
    found = page.evaluate(LAYOUT)
    assert found["sideways"] <= 0, f"{page.url} scrolls {found['sideways']} px sideways"
    assert not found["small"], f"text under 12 px on {page.url}: {found['small']}"


def screenshots(browser: Browser, url: str, name: str) -> None:
    """The page at ``url`` at desktop and phone widths, saved as test artifacts; at each it
    fits the screen's width, and no text is under 12 px."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in WIDTHS.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(url)
        page.wait_for_load_state("load")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
        assert_fits(page)
        page.close()
