"""``siege conformance`` passes a client that keeps the contract and names what a careless one
did wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_support import siege
from test_js_client import JS_DIR, node_command

from siege.engine.registry import game_names

SLOPPY = Path(__file__).resolve().parent / "clients" / "sloppy_client.py"
PYTHON_BOT = Path(__file__).resolve().parents[2] / "clients" / "python" / "bot.py"


def verdicts(stdout: str) -> dict[str, dict]:
    found = [json.loads(line) for line in stdout.splitlines()]
    assert all(line["event"] == "verdict" for line in found)
    return {line["game"]: line for line in found}


def test_the_js_client_passes_in_every_hosted_game(tmp_path: Path) -> None:
    command = f"{node_command()} {JS_DIR / 'bot.js'} --match {{match}} --client {{client}}"
    done = siege(["conformance", "--json", "--client", command], tmp_path)
    assert done.returncode == 0, done.stderr
    found = verdicts(done.stdout)
    assert sorted(found) == game_names()
    for game, verdict in found.items():
        assert verdict["passed"] and verdict["problems"] == [], game
        assert verdict["joined"] and verdict["reason"] == "finished" and verdict["audit"] == "ok"
        assert verdict["decisions"] > 0 and verdict["acknowledged"] >= verdict["decisions"]
    assert "5 of 5 game(s) passed" in done.stderr


def test_the_minimal_python_client_passes_too(tmp_path: Path) -> None:
    """clients/python/bot.py uses no Siegeworks code: the docs were enough to write it."""
    source = PYTHON_BOT.read_text()
    assert "import siege" not in source and "from siege" not in source
    command = f"{sys.executable} {PYTHON_BOT} --match {{match}} --client {{client}} " \
              "--redis {redis}"
    done = siege(["conformance", "--json", "--game", "castellum", "--game", "mission",
                  "--client", command], tmp_path)
    assert done.returncode == 0, done.stderr
    assert all(v["passed"] for v in verdicts(done.stdout).values())


def test_a_sloppy_client_is_told_each_thing_it_did_wrong(tmp_path: Path) -> None:
    command = f"{sys.executable} {SLOPPY} {{redis}} {{match}} {{client}} sloppy"
    done = siege(["conformance", "--json", "--game", "castle-dash", "--clock", "1000",
                  "--client", command], tmp_path)
    assert done.returncode == 1, done.stderr
    verdict = verdicts(done.stdout)["castle-dash"]
    assert verdict["joined"] and not verdict["passed"]
    assert verdict["malformed"] == 1
    assert verdict["rejected"].get("malformed") == 1  # the action that is no action
    assert verdict["rejected"].get("illegal_action") == 1
    assert verdict["timeouts"] >= 1 and verdict["ignored_rejections"] == 1
    assert verdict["reason"] == "forfeit" and verdict["exit_code"] == 3
    problems = " ".join(verdict["problems"])
    for said in ("1 malformed command", "1 illegal action", "timeout", "1 rejection(s) ignored",
                 "match ended: forfeit", "exited with status 3"):
        assert said in problems
    assert "castle-dash: " in done.stderr and "FAIL" in done.stderr


@pytest.mark.parametrize("command", ["", "'unclosed", "x {nosuch}"])
def test_a_client_command_that_cannot_start_is_one_line_of_error(tmp_path: Path,
                                                                 command: str) -> None:
    done = siege(["conformance", "--game", "mission", "--client", command], tmp_path)
    assert done.returncode == 2
    assert "error:" in done.stderr and "Traceback" not in done.stderr


def test_a_client_that_never_joins_fails(tmp_path: Path) -> None:
    command = f"{sys.executable} {SLOPPY} {{redis}} {{match}} {{client}} silent"
    done = siege(["conformance", "--json", "--game", "mission", "--join-timeout", "2",
                  "--client", command], tmp_path)
    assert done.returncode == 1
    verdict = verdicts(done.stdout)["mission"]
    assert not verdict["joined"] and "never joined" in verdict["problems"]
