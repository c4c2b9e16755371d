"""The `siege` command as a user runs it: separate processes, each with its own embedded Redis."""

from __future__ import annotations

import getpass
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_support import SIEGE, siege

RUN = ["run", "--game", "castle-dash", "--matches", "2", "--players", "4",
       "--seed", "11", "--fixed-clock", "0"]


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, Path]]:
    """Two separate processes with the same seed and clock, each exporting its first match."""
    out = []
    for name in ("a", "b"):
        data = tmp_path_factory.mktemp(name)
        done = siege(RUN, data)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "castle-dash-s11-00000" in done.stdout
        assert done.stdout.count(": OK (") == 2
        export = data / "match.jsonl"
        exported = siege(["export", "castle-dash-s11-00000", "-o", str(export)], data)
        assert exported.returncode == 0, exported.stderr
        out.append((data, export))
    return out


def test_same_seed_and_clock_give_byte_identical_exports(two_runs: list) -> None:
    (_, first), (_, second) = two_runs
    assert first.read_bytes() == second.read_bytes()
    assert len(first.read_bytes().splitlines()) > 20


def test_audit_passes_on_file_and_on_match_id(two_runs: list) -> None:
    data, export = two_runs[0]
    by_file = siege(["audit", str(export)], data)
    assert by_file.returncode == 0 and ": OK (" in by_file.stdout
    by_id = siege(["audit", "castle-dash-s11-00001"], data)
    assert by_id.returncode == 0 and ": OK (" in by_id.stdout


def test_audit_of_a_tampered_file_exits_1_naming_the_seq(two_runs: list, tmp_path: Path) -> None:
    data, export = two_runs[0]
    lines = export.read_bytes().splitlines(keepends=True)
    del lines[9]  # seq 10 removed: seq 11 now stands on line 10
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(b"".join(lines))
    result = siege(["audit", str(tampered)], data)
    assert result.returncode == 1
    assert "FAILED at seq 10" in result.stdout


def test_replay_prints_the_state_at_a_sequence(two_runs: list) -> None:
    data, export = two_runs[0]
    result = siege(["replay", str(export), "--to", "5"], data)
    assert result.returncode == 0, result.stderr
    snapshot = json.loads(result.stdout)
    assert snapshot["seq"] == 5 and snapshot["game"] == "castle-dash"
    final = json.loads(siege(["replay", str(export)], data).stdout)
    assert final["ended"] is not None and final["seq"] > 5


def test_replay_as_text_is_a_move_list_and_a_spectators_board(two_runs: list) -> None:
    data, export = two_runs[0]
    result = siege(["replay", str(export), "--text", "--to", "40"], data)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Castle Dash  castle-dash-s11-00000")
    assert lines[1].split()[:5] == ["1", "Castle", "Dash", "for", "4:"]
    moves = [int(line.split()[0]) for line in lines[1:] if line[:5].strip().isdigit()]
    assert moves == sorted(moves) and moves[-1] <= 40 and len(moves) > 10
    assert "After seq 40" in result.stdout and "Armory" in result.stdout
    assert "(you)" not in result.stdout  # a spectator sits at no seat
    assert "Traceback" not in result.stderr
    final = siege(["replay", str(export), "--text"], data)
    assert "The match ended (finished): " in final.stdout and "1st" in final.stdout
    past = siege(["replay", str(export), "--text", "--to", "100000"], data)
    assert past.returncode == 2 and "past the end of the log" in past.stderr


def test_bad_input_gets_a_clear_error_not_a_traceback(two_runs: list) -> None:
    data, _ = two_runs[0]
    for args in (["replay", "no-such-match"], ["run", "--game", "chess"],
                 ["run", "--players", "9"], ["run", "--bots", "clever"],
                 ["run", "--open-seats", "1", "--in-process"],
                 ["run", "--players", "3", "--open-seats", "3"],
                 ["join", "m-1", "--client", "no spaces"],
                 ["register", "t-1", "--client", "a:b"], ["acl"],
                 ["acl", "setuser", "x*"]):
        result = siege(args, data)
        assert result.returncode == 2, args
        assert "Traceback" not in result.stderr and "error" in result.stderr.lower(), args


def test_run_without_redis_server_on_path_uses_the_packaged_one(tmp_path: Path) -> None:
    server = shutil.which("redis-server")
    path = os.pathsep.join(
        p for p in os.environ["PATH"].split(os.pathsep)
        if not server or Path(p) != Path(server).parent
    )
    result = siege(["run", "--matches", "1", "--players", "3", "--seed", "2"], tmp_path, path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ": OK (" in result.stdout


def test_unreachable_redis_is_a_clear_error(tmp_path: Path) -> None:
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0", "SIEGE_DATA_DIR": str(tmp_path)}
    for args in (["audit", "some-match"], ["run", "--matches", "1", "--in-process"],
                 ["join", "m-1", "--client", "me"],
                 ["register", "t-0123456789ab", "--client", "me"]):
        result = subprocess.run(SIEGE + args, env=env, capture_output=True, text=True,
                                timeout=120)
        assert result.returncode == 2, args
        assert "cannot reach Redis" in result.stderr and "Traceback" not in result.stderr


def test_a_person_plays_a_match_at_the_terminal(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["SIEGE_DATA_DIR"] = str(tmp_path)
    keys = "nonsense\n99\n" + "1\n" * 600  # two bad answers first, then always the first option
    result = subprocess.run(SIEGE + ["play", "--players", "3", "--seed", "4"], input=keys,
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "please type a number" in result.stdout
    assert "through the match, rules, dice and scoring services" in result.stdout
    # What happened before the first prompt, then between turns, in words.
    # The person's seat is named for everyone else (the login name), never "you".
    assert f"so far:\n  Castle Dash for 3: {getpass.getuser()}, " in result.stdout
    assert result.stdout.count("since your last turn:") > 3
    assert "you placed" in result.stdout and ": OK (" in result.stdout
    assert "final table" in result.stdout


def test_a_person_may_ask_for_help_and_resign(tmp_path: Path) -> None:
    done = subprocess.run(SIEGE + ["play", "--players", "3", "--seed", "4", "--in-process"],
                          input="?\nresign\n", env={**os.environ, "SIEGE_HOME": str(tmp_path)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "'resign' to give the match" in done.stdout and "'rules') for a summary" in done.stdout
    assert "over (a seat resigned): you placed 3 of 3" in done.stdout
    assert ": OK (" in done.stdout  # the resignation audits


def test_tournament_then_standings_in_every_format(tmp_path: Path) -> None:
    done = siege(["tournament", "--entrants", "6", "--rounds", "2", "--table-size", "3",
                  "--seed", "3"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    first_line = done.stdout.splitlines()[0]
    assert first_line.startswith("tournament t-")
    tid = first_line.split()[1]
    # Each round prints its pairing, table by table, and the standings fit 80 columns.
    assert done.stdout.count("  table 1: ") == 2 and done.stdout.count("  table 2: ") == 2
    narrow = siege(["standings", tid], tmp_path, COLUMNS="80").stdout
    table = [line for line in narrow.splitlines() if line[:1] in "┏┃┡│└"]
    assert table and all(len(line) <= 80 for line in table) and "…" not in narrow
    as_json = siege(["standings", tid, "--format", "json"], tmp_path)
    rows = json.loads(as_json.stdout)
    assert len(rows) == 6 and [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert {"entrant", "points", "tiebreaks", "rating_change"} <= set(rows[0])
    as_csv = siege(["standings", tid, "--format", "csv"], tmp_path).stdout.splitlines()
    assert as_csv[0].startswith("rank,entrant,points") and len(as_csv) == 7
    header = as_csv[0].split(",")
    assert "False" not in "\n".join(as_csv)
    assert as_csv[1].split(",")[header.index("withdrawn")] == "false"
    assert as_csv[1].split(",")[header.index("no_show")] == "false"
    assert siege(["standings", "t-nope"], tmp_path).returncode == 2
    # What exists, listed: the tournament and its four matches, all finished.
    listed = json.loads(siege(["matches", "--finished", "--json"], tmp_path).stdout)
    assert len(listed) == 4 and all(m["match_id"].startswith(tid) for m in listed)
    assert {(m["game"], m["seats"], m["state"]) for m in listed} == {("castle-dash", 3,
                                                                      "finished")}
    assert json.loads(siege(["matches", "--running", "--json"], tmp_path).stdout) == []
    (tournament,) = json.loads(siege(["tournaments", "--json"], tmp_path).stdout)
    assert (tournament["tournament_id"], tournament["state"], tournament["entrants"]) == (
        tid, "finished", 6)
    assert tournament["leader"] == rows[0]["entrant"]
