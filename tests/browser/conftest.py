"""Pages in a real browser: Playwright driving the system's Chromium (Debian's ``chromium``,
which ``make test`` installs where it runs as root), against ``siege web`` run as a user runs
it. Where there is no Chromium the tests say so and are skipped, except in CI, where they
must run."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import chromium, start_web
from playwright.sync_api import Browser, Playwright, sync_playwright


# Per module, not per session: Playwright's sync API keeps an event loop running on the main
# thread while it is open, and every other test's asyncio.run would then refuse to start.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    found = playwright.chromium.launch(executable_path=chromium(), headless=True)
    yield found
    found.close()


@pytest.fixture
def web(redis_url: str, tmp_path: Path) -> Iterator[str]:
    """``siege web`` on the test's Redis, on a free port: its base URL."""
    server, url = start_web(redis_url, tmp_path)
    yield url
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:  # never left running behind the tests
        server.kill()
        server.wait()
        pytest.fail("siege web did not stop within 30 s of SIGTERM")
