"""Finding matches without scraping text: ``siege run --json`` and ``siege lobby``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from pathlib import Path

from cli_support import SIEGE, hears_ctrl_c, siege


def test_run_json_gives_ids_first_then_results_audits_and_a_summary(tmp_path: Path) -> None:
    done = siege(["run", "--matches", "2", "--seed", "5", "--json"], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]  # stdout: JSON only
    assert [line["event"] for line in lines] == [
        "matches", "finished", "finished", "audited", "audited", "summary"]
    ids = lines[0]["match_ids"]
    assert ids == ["castle-dash-s5-00000", "castle-dash-s5-00001"]
    assert lines[0]["game"] == "castle-dash" and lines[0]["players"] == 4
    assert sorted(line["match_id"] for line in lines[1:3]) == ids
    assert all(len(line["ranks"]) == 4 and min(line["ranks"]) == 1
               and line["reason"] == "finished" for line in lines[1:3])
    assert [(line["match_id"], line["ok"], line["seal"]) for line in lines[3:5]] == [
        (ids[0], True, "verified"), (ids[1], True, "verified")]
    assert lines[5] == {"event": "summary", "finished": 2, "unfinished": 0,
                        "audits_passed": 2, "audits_failed": 0}
    assert "audits passed" in done.stderr  # the text for people is still there, on stderr


def test_lobby_needs_a_redis_to_read(tmp_path: Path) -> None:
    done = siege(["lobby"], tmp_path)
    assert done.returncode == 2
    assert "--redis-url or REDIS_URL" in done.stderr and "Traceback" not in done.stderr


def test_ctrl_c_during_a_run_says_what_it_left_behind(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(SIEGE_HOME=str(tmp_path), COLUMNS="200")
    # Enough matches that the last finish seconds after the first (they all play at once):
    # with 40 a loaded machine could deliver the interrupt after every one had finished.
    run = subprocess.Popen([*SIEGE, "run", "--matches", "120", "--json"], env=env, cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=hears_ctrl_c)
    assert run.stdout is not None
    for line in run.stdout:  # interrupted once the first match has finished
        if json.loads(line)["event"] == "finished":
            run.send_signal(signal.SIGINT)
            break
    rest, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    interrupted = json.loads(rest.splitlines()[-1])
    assert interrupted["event"] == "interrupted"
    assert len(interrupted["finished"]) + len(interrupted["unfinished"]) == 120
    assert interrupted["finished"] and interrupted["unfinished"]
    assert f"{len(interrupted['unfinished'])} did not" in err
    assert "error: interrupted" in err and "cannot reach Redis" not in err
    assert "Traceback" not in err and "exit 0" in err  # the services stopped cleanly


def test_tournament_json_gives_its_id_first_then_results_and_standings(tmp_path: Path) -> None:
    done = siege(["tournament", "--entrants", "6", "--rounds", "1", "--table-size", "3",
                  "--seed", "4", "--json"], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["event"] for line in lines] == ["tournament", "finished", "finished",
                                                 "standings"]
    tid = lines[0]["tournament_id"]
    assert lines[0]["seed"] == 4 and tid.startswith("t-")
    assert all(line["match_id"].startswith(tid) for line in lines[1:3])
    assert lines[3]["finished"] and len(lines[3]["rows"]) == 6
    assert f"tournament {tid}" in done.stderr


def test_a_person_registers_and_plays_a_tournament_at_the_terminal(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(SIEGE_HOME=str(tmp_path), COLUMNS="200")
    organiser = subprocess.Popen(
        [*SIEGE, "tournament", "--entrants", "3", "--table-size", "3", "--rounds", "2",
         "--outside", "1", "--seed", "6", "--json"], env=env, cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert organiser.stdout is not None
    lines = [json.loads(organiser.stdout.readline()) for _ in range(2)]
    assert [line["event"] for line in lines] == ["tournament", "registration"]
    person = subprocess.run(
        [*SIEGE, "register", lines[0]["tournament_id"], "--client", "person", "--human"],
        env={**env, "REDIS_URL": lines[1]["redis"]}, cwd=tmp_path, input="1\n" * 2000,
        capture_output=True, text=True, timeout=240)
    rest, err = organiser.communicate(timeout=120)
    assert organiser.returncode == 0, err
    assert person.returncode == 0, person.stderr
    assert person.stdout.count("--- ") >= 2 and "your choice" in person.stdout
    assert "2 matches played" in person.stdout
    assert len(re.findall(r": you placed [123] of 3 \(", person.stdout)) == 2
    standings = json.loads(rest.splitlines()[-1])
    assert standings["event"] == "standings" and standings["finished"]
    assert len(standings["rows"]) == 3
