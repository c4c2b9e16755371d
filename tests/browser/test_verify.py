"""The verifier in the browser (static/verify.mjs, WebCrypto only): a tampered log is named at
its first bad sequence, on the match's own page (a log changed in the store) and on the verify
page (an export file the reader chooses). A good log passing on every game's replay page is
checked in test_pages.py."""

from __future__ import annotations

import base64
import json
import urllib.request
from pathlib import Path

import msgspec
import pytest
import redis
from browser_support import ARTIFACTS, siege
from playwright.sync_api import Browser, expect

from siege.contracts.envelope import seal
from siege.contracts.events import DiceRolled
from siege.eventlog.keys import log_key
from siege.hosting.export import dump, parse
from siege.hosting.match_state import codec_for

pytestmark = pytest.mark.e2e
GAME = "castle-dash"
SEED = 41  # the browser tests share one store: a seed no other test plays


def played(redis_url: str, home: Path) -> str:
    siege(["run", "--game", GAME, "--matches", "1", "--players", "3", "--seed", str(SEED),
           "--in-process"], redis_url, home)
    rows = json.loads(siege(["matches", "--game", GAME, "--json"], redis_url, home).stdout)
    (match_id,) = [r["match_id"] for r in rows if r["match_id"].startswith(f"{GAME}-s{SEED}-")]
    return str(match_id)


def redrawn(export: bytes) -> tuple[bytes, int]:
    """The first die changed and the whole chain recomputed after it, as a careful forger
    would; and that die's seq."""
    codec = codec_for(GAME)
    envs = [codec.decode(stored) for _, stored, _ in parse(export)]
    seq = next(e.seq for e in envs if isinstance(e.event, DiceRolled))
    out, head_seq, head = [], 0, bytes(32)
    for env in envs:
        event = env.event
        if env.seq == seq:
            event = msgspec.structs.replace(event, values=[event.values[0] % 6 + 1,
                                                           *event.values[1:]])
        (entry,) = seal(codec, env.match_id, head_seq, head, [event], env.at)
        out.append(entry)
        head_seq, head = entry[0], entry[2]
    return dump(out), seq


def flipped(export: bytes, seq: int) -> bytes:
    """One bit of entry ``seq``'s stored bytes changed, its hash left as it was."""
    lines = export.split(b"\n")
    line = json.loads(lines[seq - 1])
    stored = bytearray(base64.b64decode(line["event"]))
    stored[len(stored) // 2] ^= 0x10
    line["event"] = base64.b64encode(bytes(stored)).decode()
    lines[seq - 1] = json.dumps(line, separators=(",", ":")).encode()
    return b"\n".join(lines)


def test_a_tampered_log_is_named_at_its_first_bad_seq(browser: Browser, web: str,
                                                      redis_url: str, tmp_path: Path) -> None:
    match_id = played(redis_url, tmp_path)
    with urllib.request.urlopen(f"{web}/matches/{match_id}/export.jsonl") as answer:
        export = answer.read()
    assert export == siege(["export", match_id, "-o", "-"], redis_url, tmp_path).stdout.encode()
    forged, die_seq = redrawn(export)
    page = browser.new_page()

    # Files chosen on the verify page: the good one, a changed byte, a changed die.
    page.goto(f"{web}/verify")
    verdict = page.locator("#file-verdict")
    for name, data, state, bad in [("good", export, "good", ""),
                                   ("byte", flipped(export, 5), "bad", "5"),
                                   ("die", forged, "bad", str(die_seq))]:
        page.set_input_files("#export-file", files=[{
            "name": f"{name}.jsonl", "mimeType": "application/x-ndjson", "buffer": data}])
        expect(verdict).to_have_attribute("data-state", state, timeout=30_000)
        expect(verdict).to_have_attribute("data-bad-seq", bad)
        if name == "die":
            assert verdict.get_attribute("data-chain") == "verified"
            assert verdict.get_attribute("data-dice") == "wrong"
            assert f"seq {die_seq}" in verdict.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "verify-tampered-file.png"), full_page=True)

    # The same forgery written over the match's log in the store: its own page names the die.
    store = redis.Redis.from_url(redis_url)
    key = log_key(match_id)
    store.delete(key)
    for seq, stored, digest in parse(forged):
        store.xadd(key, {"e": stored, "h": digest}, id=f"0-{seq}")
    page.goto(f"{web}/matches/{match_id}")
    on_page = page.locator("#verdict")
    expect(on_page).to_have_attribute("data-state", "bad", timeout=30_000)
    expect(on_page).to_have_attribute("data-bad-seq", str(die_seq))
    assert on_page.get_attribute("data-chain") == "verified"
    # The story cannot be told past the changed die, and the page says so instead of failing.
    expect(page.locator("#broken")).to_contain_text("cannot be replayed")
    page.screenshot(path=str(ARTIFACTS / "verify-tampered-replay.png"), full_page=True)
    page.close()
