"""`siege deck` and `--decks` as a user runs them: separate processes."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec

SIEGE = [sys.executable, "-m", "siegeworks.cli"]


def siege(args: list[str], data_dir: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["SIEGE_DATA_DIR"] = str(data_dir)
    env["COLUMNS"] = "200"
    return subprocess.run(SIEGE + args, env=env, capture_output=True, text=True, timeout=300)


def _dragons(path: Path, extra: str = "") -> Path:
    shown = siege(["deck", "show", "dragons"], path.parent)
    assert shown.returncode == 0, shown.stderr
    lines = ["warband: dragons", "hero: Vyrax, the Ashen Tyrant"]
    for line in shown.stdout.splitlines()[1:]:
        copies, _, rest = line.partition(" x ")
        lines.append(f"{copies} {rest.split('  cost ')[0]}")
    path.write_text("\n".join(lines) + "\n" + extra)
    return path


def test_deck_show_prints_every_card_with_cost_and_text(tmp_path: Path) -> None:
    shown = siege(["deck", "show", "dwarves"], tmp_path)
    assert shown.returncode == 0
    assert shown.stdout.startswith("Adamantine Anvil Dwarves (")
    assert "2 x Goldguard Garrison  cost 3  M1 A3 Ar2 H3" in shown.stdout
    unknown = siege(["deck", "show", "orcs"], tmp_path)
    assert unknown.returncode == 2 and "unknown warband 'orcs'" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_deck_check_says_legal_or_lists_every_reason(tmp_path: Path) -> None:
    good = siege(["deck", "check", str(_dragons(tmp_path / "good.txt"))], tmp_path)
    assert good.returncode == 0 and "legal (" in good.stdout
    bad = _dragons(tmp_path / "bad.txt", "3 Soot\nForge Master\n")
    checked = siege(["deck", "check", str(bad)], tmp_path)
    assert checked.returncode == 1 and "illegal deck" in checked.stdout
    assert "Soot: 5 copies; at most 2" in checked.stdout
    assert "Forge Master belongs to the Adamantine Anvil Dwarves" in checked.stdout
    missing = siege(["deck", "check", str(tmp_path / "none.txt")], tmp_path)
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_run_plays_the_decks_given_and_records_them(tmp_path: Path) -> None:
    deck = _dragons(tmp_path / "mine.txt")
    done = siege(["run", "--game", "castle-assault", "--players", "2", "--matches", "1",
                  "--seed", "4", "--in-process", "--decks", f"{deck},dwarves"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ": OK (" in done.stdout
    export = tmp_path / "m.jsonl"
    exported = siege(["export", "castle-assault-s4-00000", "-o", str(export)], tmp_path)
    assert exported.returncode == 0
    first = json.loads(export.read_text().splitlines()[0])
    created = msgspec.msgpack.decode(base64.b64decode(first["event"]))["event"]
    decks = json.loads(created["options"]["decks"])
    assert [d["warband"] for d in decks] == ["dragons", "dwarves"]
    plain = siege(["run", "--game", "castle-assault", "--players", "2", "--matches", "1",
                   "--seed", "5", "--in-process"], tmp_path)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    exported = siege(["export", "castle-assault-s5-00000", "-o", str(export)], tmp_path)
    assert exported.returncode == 0
    first = json.loads(export.read_text().splitlines()[0])
    created = msgspec.msgpack.decode(base64.b64decode(first["event"]))["event"]
    assert [d["warband"] for d in json.loads(created["options"]["decks"])] == [
        "dragons", "dwarves"]  # the stock decks, recorded all the same
    refused = siege(["run", "--game", "castle-assault", "--players", "2", "--matches", "1",
                     "--in-process", "--decks", "dragons,orcs"], tmp_path)
    assert refused.returncode == 2 and "neither a deck file nor a warband" in refused.stderr
    wrong = siege(["run", "--game", "castle-dash", "--players", "3", "--matches", "1",
                   "--in-process", "--decks", "dragons,dwarves,dwarves"], tmp_path)
    assert wrong.returncode == 2 and "--decks is for castle-assault" in wrong.stderr
