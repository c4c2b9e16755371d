"""Rough edges of the `siege` command, run as a user runs it: each ends as a one-line error or
the right behaviour, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_support import siege

from siegeworks.supervisor import ServiceProcesses


def test_a_redis_url_that_is_no_url_is_a_one_line_error_without_its_password(
        tmp_path: Path) -> None:
    done = siege(["audit", "x"], tmp_path, REDIS_URL="not-a-url")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "is not a Redis URL" in done.stderr
    secret = siege(["audit", "x"], tmp_path, REDIS_URL="http://user:hunter2@example:1/0")
    assert secret.returncode == 2 and "hunter2" not in secret.stderr + secret.stdout
    assert "user:***@example:1" in secret.stderr


def test_a_line_into_a_pipe_stays_one_line_unless_columns_are_given(tmp_path: Path) -> None:
    """Into a pipe no width is known (COLUMNS unset): a line cut at rich's 80 columns would
    break grep and logs. A width given in COLUMNS is kept to."""
    done = siege(["run", "--matches", "1", "--in-process", "--seed", "3"], tmp_path,
                 COLUMNS="")
    assert done.returncode == 0, done.stderr
    audits = [line for line in done.stdout.splitlines() if line.startswith("audit ")]
    assert len(audits) == 1 and len(audits[0]) > 80, done.stdout
    assert audits[0].endswith(")") and "signed by" in audits[0]
    narrow = siege(["audit", audits[0].split()[1].rstrip(":")], tmp_path, COLUMNS="60")
    assert narrow.returncode == 0, narrow.stderr
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60, narrow.stdout


def test_a_tournament_too_small_for_one_table_is_refused(tmp_path: Path) -> None:
    done = siege(["tournament", "--entrants", "3", "--table-size", "4"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "3 entrants cannot fill a table of 4" in done.stderr


def test_the_seat_count_defaults_to_what_the_game_allows(tmp_path: Path) -> None:
    done = siege(["run", "--game", "mission", "--matches", "1", "--in-process"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 players" in done.stdout and "unseeded" in done.stdout
    assert "seed None" not in done.stdout


def test_a_negative_fixed_clock_is_refused(tmp_path: Path) -> None:
    done = siege(["run", "--fixed-clock", "-1", "--in-process"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_a_tournament_id_given_for_a_match_says_what_it_is(tmp_path: Path) -> None:
    done = siege(["replay", "t-0123456789ab"], tmp_path)
    assert done.returncode == 2 and "is a tournament, not a match" in done.stderr
    # siege audit takes tournaments (every match they recorded): this one does not exist.
    done = siege(["audit", "t-0123456789ab"], tmp_path)
    assert done.returncode == 2 and "no tournament named 't-0123456789ab'" in done.stderr


def test_export_to_dash_writes_standard_output(tmp_path: Path) -> None:
    run = siege(["run", "--game", "mission", "--matches", "1", "--seed", "2", "--in-process"],
                tmp_path)
    assert run.returncode == 0, run.stderr
    done = siege(["export", "mission-s2-00000", "-o", "-"], tmp_path)
    assert done.returncode == 0 and not (tmp_path / "-").exists()
    lines = done.stdout.splitlines()
    assert len(lines) > 10 and lines[0].startswith('{"seq":1,')


def test_a_client_signed_in_as_another_is_told_before_anything_is_sent(tmp_path: Path) -> None:
    """Commands are taken as the sender's from the stream they are written on, and a client's
    user may write only its own: ``--client`` naming another is a clear error, not a refused
    write (no Redis is reached: port 1)."""
    for args in (["join", "m-1"], ["register", "t-0123456789ab"]):
        result = siege([*args, "--client", "bob", "--redis-url",
                        "redis://client-alice:secret@127.0.0.1:1/0"], tmp_path)
        assert result.returncode == 2, args
        assert "signed in as client-alice" in result.stderr and "--client alice" in result.stderr
        assert "secret" not in result.stderr + result.stdout


@pytest.mark.parametrize("args", [
    ["standings", "castle-dash-s1-00000"],
    ["withdraw", "castle-dash-s1-00000", "someone"],
    ["enter", "castle-dash-s1-00000", "someone"],
    ["register", "castle-dash-s1-00000", "--client", "me", "--redis-url", "redis://127.0.0.1:1"],
])
def test_a_match_id_given_for_a_tournament_says_what_it_is(tmp_path: Path,
                                                           args: list[str]) -> None:
    done = siege(args, tmp_path)
    assert done.returncode == 2
    assert "is not a tournament id" in done.stderr and "Traceback" not in done.stderr


def test_the_data_folder_is_the_checkouts_from_wherever_siege_is_run(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items()
           if k not in ("SIEGE_HOME", "SIEGE_DATA_DIR", "SIEGE_SIGNING_KEY")}
    ask = ("from siegeworks.redis_target import data_dir; from siegeworks.keys import key_path; "
           "print(data_dir().resolve(), key_path().resolve())")
    seen = {subprocess.run([sys.executable, "-c", ask], cwd=cwd, env=env, capture_output=True,
                           text=True, check=True).stdout.strip()
            for cwd in (tmp_path, root / "docs", root)}
    assert seen == {f"{root / '.siege' / 'redis'} {root / '.siege' / 'keys' / 'signing.key'}"}


def test_join_of_a_match_nobody_created_ends_with_the_refusal(
        services: ServiceProcesses, redis_url: str, tmp_path: Path) -> None:
    started = time.monotonic()
    done = siege(["join", "no-such-match", "--client", "bob"], tmp_path, REDIS_URL=redis_url)
    assert done.returncode == 1, done.stderr
    assert "unknown_match" in done.stderr and "Traceback" not in done.stderr
    assert time.monotonic() - started < 60  # not the 300 s timeout


def test_contract_check_works_from_any_folder(tmp_path: Path) -> None:
    done = siege(["contract", "--check"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "matches the code" in done.stdout
    assert not (tmp_path / "docs").exists()  # it looked at the checkout's, wrote nothing here


@pytest.mark.parametrize("command", ["health", "serve"])
def test_commands_that_need_the_services_redis_say_so_in_help_and_error(
        tmp_path: Path, command: str) -> None:
    helped = siege([command, "--help"], tmp_path)
    assert "embedded Redis is started" not in helped.stdout
    assert "The Redis the services use" in helped.stdout
    args = [command] if command == "health" else [command, "match"]
    done = siege(args, tmp_path)
    assert done.returncode == 2 and "REDIS_URL" in done.stderr and "Traceback" not in done.stderr
