"""A person at a real terminal: ``siege play`` and ``siege watch`` driven in a pseudo-terminal
(pexpect), as someone typing would: a whole match of every game with a clock shown, help, the
rules, resigning, a clock that runs out, Ctrl-C, and a spectator following a person's match."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from cli_support import hears_ctrl_c

from siege.engine.registry import game_names, get_engine

pytestmark = pytest.mark.e2e

CHOICE = re.compile(r"your choice \(1-\d+, \? for help\): ")
END = re.compile(r"final table")
SIEGE = [sys.executable, "-m", "siegeworks.cli"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def plain(shown: str) -> str:
    """What the terminal showed without its colours and styles."""
    return ANSI.sub("", shown)


def spawn(args: list[str], home: Path, redis_url: str | None = None) -> pexpect.spawn:
    """``siege ARGS`` in a terminal of 300 columns (no line of words wraps), its own data
    folder, and the embedded Redis unless ``redis_url`` is given; Ctrl-C reaches it whatever
    the tests' own SIGINT disposition."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "COLUMNS", "LINES")}
    env.update(SIEGE_HOME=str(home), SIEGE_DATA_DIR=str(home))
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    return pexpect.spawn(SIEGE[0], SIEGE[1:] + args, env=env, cwd=str(home), timeout=120,
                         encoding="utf-8", dimensions=(50, 300), codec_errors="replace",
                         preexec_fn=hears_ctrl_c)


def play_to_the_end(child: pexpect.spawn) -> str:
    """Answers 1 at every prompt until the end screen; everything the terminal showed."""
    shown = []
    while child.expect([CHOICE, END], timeout=120) == 0:
        shown.append(child.before)
        child.sendline("1")
    shown.append(child.before + child.after)
    child.expect(pexpect.EOF, timeout=120)
    shown.append(child.before)
    child.close()
    assert child.exitstatus == 0, plain("".join(shown))[-3000:]
    return plain("".join(shown))


@pytest.mark.parametrize("game", game_names())
def test_a_person_plays_a_whole_match_of_every_game_with_a_clock(
        game: str, tmp_path: Path) -> None:
    players = get_engine(game).min_players
    child = spawn(["play", "--game", game, "--players", str(players), "--seed", "7",
                   "--clock", "10m"], tmp_path)
    screen = play_to_the_end(child)
    assert "through the match, rules, dice and scoring services" in screen
    clocks = [int(s) for s in re.findall(r", (\d+) s on your clock ---", screen)]
    assert clocks and all(500 < left <= 600 for left in clocks)  # a 10 minute clock, shown
    assert "so far:" in screen  # what happened before the first prompt, in words
    assert re.search(r"match \S+ over \(the game ended\): you placed \d of " + str(players),
                     screen)
    assert ": OK (" in screen and "Traceback" not in screen


def test_help_the_rules_and_resigning(tmp_path: Path) -> None:
    child = spawn(["play", "--game", "castellum", "--players", "3", "--seed", "2"], tmp_path)
    child.expect(CHOICE)
    assert ", no time limit ---" in plain(child.before)  # the casual default
    child.sendline("?")
    child.expect("'rules'\\) for a summary")
    child.expect(CHOICE)
    child.sendline("r")  # the rules, one key away
    child.expect(CHOICE)
    summary = plain(child.before)
    assert len(summary.strip().splitlines()) >= 6
    child.sendline("resign")
    child.expect(END)
    assert "over (a seat resigned): you placed 3 of 3" in plain(child.before)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_clock_counts_down_warns_and_says_at_the_end_that_it_ran_out(
        tmp_path: Path) -> None:
    child = spawn(["play", "--players", "3", "--seed", "2", "--clock", "32s"], tmp_path)
    child.expect(r", (\d+) s on your clock ---")
    assert 20 < int(child.match.group(1)) <= 32
    child.expect("30 seconds left on your clock", timeout=30)  # nobody types
    child.expect("10 seconds left on your clock: choose now", timeout=30)
    child.expect("your clock ran out", timeout=30)
    child.expect(END, timeout=60)
    assert "over (a clock ran out): you placed 3 of 3" in plain(child.before)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_at_the_prompt_ends_cleanly(tmp_path: Path) -> None:
    child = spawn(["play", "--players", "3", "--seed", "2"], tmp_path)
    child.expect(CHOICE)
    child.sendintr()
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    assert child.exitstatus == 130 or child.signalstatus is not None
    said = plain(child.before)
    assert "error: interrupted (Ctrl-C)" in said and "Traceback" not in said


def test_a_spectator_follows_a_persons_match_in_public_words(
        redis_url: str, tmp_path: Path) -> None:
    """A person plays through the services on a shared Redis; a spectator runs ``siege
    watch`` on the same match from the person's first prompt: every line it shows is the
    line ``siege replay --text`` tells of that seq (public words only), to the end of the
    game, and it
    never marks a seat as "(you)"."""
    for home in ("a", "b"):
        (tmp_path / home).mkdir()
    player = spawn(["play", "--players", "3", "--seed", "11"], tmp_path / "a", redis_url)
    player.expect(CHOICE)
    match_id = re.search(r"--- (\S+): seat 0", plain(player.before))
    assert match_id is not None
    watcher = spawn(["watch", match_id.group(1), "--client", "spectator-1",
                     "--board-every", "0"], tmp_path / "b", redis_url)
    watcher.expect("watching " + match_id.group(1))
    player.sendline("1")
    play_to_the_end(player)
    watcher.expect(f"{match_id.group(1)} is over", timeout=60)
    watched = plain(watcher.before)
    watcher.expect(pexpect.EOF)
    watcher.close()
    assert watcher.exitstatus == 0
    told = re.findall(r"^ *(\d+)  (.+?)\r?$", watched, flags=re.M)
    assert len(told) > 20
    replay = subprocess.run(
        SIEGE + ["replay", match_id.group(1), "--text"], capture_output=True, text=True,
        timeout=120, cwd=tmp_path, env={**os.environ, "REDIS_URL": redis_url,
                                        "SIEGE_HOME": str(tmp_path), "COLUMNS": "300"})
    assert replay.returncode == 0, replay.stderr
    lines = dict(re.findall(r"^ *(\d+)  (.+?)$", replay.stdout, flags=re.M))
    for seq, text in told:
        assert lines[seq] == text
    # To the end of the game; what the services add to the log after it (the seed revealed,
    # the signature) is for the audit.
    ended = next(seq for seq, text in lines.items() if text.startswith("The match ended"))
    assert max(int(seq) for seq, _ in told) == int(ended)
    assert "(you)" not in watched
    # Castle Dash's one secret, a sealed cannonball count, is never a number to a spectator.
    sealed = [text for _, text in told if "cannonball count" in text]
    unnamed = [re.sub(r"\b(random|greedy)-\d\b", "", text) for text in sealed]  # bots' names
    assert sealed and all("(sealed)" in text and not re.search(r"\d", text) for text in unnamed)


def test_a_named_player_with_auto_takes_single_choices_and_is_you_only_to_itself(
        tmp_path: Path) -> None:
    """Castle Assault offers many decisions of one choice: ``--auto`` takes them and says so;
    the seat's name is the one given, which the final table and the log carry (a spectator,
    a replay or another seat reads "Ada", never "you")."""
    child = spawn(["play", "--game", "castle-assault", "--players", "2", "--seed", "3",
                   "--auto", "--name", "Ada", "--in-process"], tmp_path)
    shown = play_to_the_end(child)
    assert "the only choice, taken by itself:" in shown
    assert re.search(r"0 \(you\)\W+Ada\b", shown), shown[-1500:]
    listed = subprocess.run([*SIEGE, "matches", "--json"], capture_output=True, text=True,
                            env={**{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
                                 "SIEGE_HOME": str(tmp_path), "SIEGE_DATA_DIR": str(tmp_path)},
                            cwd=tmp_path, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert '"Ada"' in listed.stdout and '"you"' not in listed.stdout


def test_a_name_of_you_is_refused_with_a_reason(tmp_path: Path) -> None:
    child = spawn(["play", "--name", "You", "--in-process"], tmp_path)
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    assert child.exitstatus == 2 and 'not "you"' in plain(child.before)
