"""What the browser tests share: the system's Chromium, ``siege`` run as a user runs it, and
screenshots saved as test artifacts (``test-artifacts/browser/``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
SIEGE = [sys.executable, "-m", "siegeworks.cli"]
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


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


def screenshots(browser: Browser, url: str, name: str) -> None:
    """The page at ``url`` at desktop and phone widths, saved as test artifacts."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in WIDTHS.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(url)
        page.wait_for_load_state("load")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
        page.close()
