"""The conformance kit: an outside client plays a seat of every game against bots, and what it
did wrong is reported from what the bus and the logs recorded.

The client is a command (any language) started once per game with the match to join; it is
judged only by what it wrote and what the services answered, never by its own output:
- joined: it took the open seat (the match started with it as the seat's holder);
- malformed: entries on its commands stream that are no valid command (answered ``malformed``);
- illegal: actions refused as ``illegal_action``; other rejections by code;
- timeouts: decisions its clock ran out on (``SeatTimedOut``), and among them those where it
  had been told its answer was refused and sent no other ("ignored rejections");
- the end: the match finished, its log audits, and the client process exited with status 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgspec
from redis.asyncio import Redis

from siege.contracts.events import ActionAccepted, MatchCreated, SeatTimedOut
from siege.contracts.messages import (
    ActionAcknowledged,
    ActionRejected,
    CommandRefused,
    MatchFinished,
    SubmitAction,
    bus_decoder,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.registry import get_engine
from siege.eventlog.keys import (
    DEAD_LETTER_STREAM,
    LOBBY_HASH,
    RESULTS_HASH,
    commands_key,
    inbox_key,
)
from siege.eventlog.log import RedisEventLog
from siege.hosting.audit import audit
from siege.hosting.lobby import OPEN
from siege.hosting.match_state import codec_for
from siege.hosting.signing import Keyring
from siegeworks.remote_run import MatchSpec, play_specs

PLACEHOLDERS = ("redis", "match", "client", "game", "seat")


class CommandError(ValueError):
    """The client command cannot be started as written."""


def client_argv(template: str, values: dict[str, str]) -> list[str]:
    """The command line for one game: ``template`` split as a shell would, with ``{redis}``,
    ``{match}``, ``{client}``, ``{game}`` and ``{seat}`` filled in."""
    try:
        words = shlex.split(template)
    except ValueError as error:
        raise CommandError(f"cannot split the client command: {error}") from None
    if not words:
        raise CommandError("the client command is empty")
    try:
        return [word.format(**values) for word in words]
    except (KeyError, IndexError, ValueError) as error:
        raise CommandError(f"unknown placeholder {error} in the client command; use "
                           + ", ".join("{" + p + "}" for p in PLACEHOLDERS)) from None


@dataclass
class Verdict:
    game: str
    match_id: str
    client: str
    seat: int
    joined: bool = False
    decisions: int = 0  # actions of its seat accepted
    acknowledged: int = 0
    malformed: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # creates/joins refused, by code
    timeouts: int = 0
    ignored_rejections: int = 0
    reason: str = ""  # how the match ended; "" if it did not
    audit: str = ""  # "ok", the failure, or "" when there was no log
    exit_code: int | None = None
    stderr_tail: str = ""
    seconds: float = 0.0

    @property
    def problems(self) -> list[str]:
        found = []
        if not self.joined:
            found.append("never joined")
        if self.malformed:
            found.append(f"{self.malformed} malformed command(s)")
        if self.rejected.get(RejectionCode.ILLEGAL_ACTION.value):
            found.append(f"{self.rejected[RejectionCode.ILLEGAL_ACTION.value]} illegal action(s)")
        others = {c: n for c, n in self.rejected.items() if c != RejectionCode.ILLEGAL_ACTION.value}
        if others:
            found.append("rejected: " + ", ".join(f"{c} x{n}" for c, n in sorted(others.items())))
        if self.refused:
            found.append("refused: " + ", ".join(f"{c} x{n}" for c, n in sorted(
                self.refused.items())))
        if self.timeouts:
            found.append(f"{self.timeouts} timeout(s)")
        if self.ignored_rejections:
            found.append(f"{self.ignored_rejections} rejection(s) ignored")
        if self.joined and self.reason != "finished":
            found.append(f"match ended: {self.reason or 'not finished'}")
        if self.audit not in ("ok", ""):
            found.append(f"audit failed: {self.audit}")
        if self.exit_code != 0:
            found.append("client still running at the end" if self.exit_code is None
                         else f"client exited with status {self.exit_code}")
        return found

    @property
    def passed(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Trial:
    """One game's match for the client: its seat is the last one, open; bots hold the rest."""

    game: str
    match_id: str
    client: str
    clock_ms: int

    def spec(self) -> MatchSpec:
        players = get_engine(self.game).min_players
        seats = max(2, players)
        bots: list[str] = ["random"] * (seats - 1) + [OPEN]
        names = [f"random-{seat}" for seat in range(seats - 1)] + ["client"]
        return MatchSpec(match_id=self.match_id, game=self.game, seat_names=names, bots=bots,
                         options={"decision_timeout_ms": str(self.clock_ms)})

    @property
    def seat(self) -> int:
        return len(self.spec().bots) - 1


async def run_trial(redis: Redis, url: str, trial: Trial, template: str, keyring: Keyring | None,
                    join_timeout_s: float, timeout_s: float) -> Verdict:
    """Starts the match and the client, waits for the end (or gives up), then judges."""
    verdict = Verdict(game=trial.game, match_id=trial.match_id, client=trial.client,
                      seat=trial.seat)
    argv = client_argv(template, {"redis": url, "match": trial.match_id, "client": trial.client,
                                  "game": trial.game, "seat": str(trial.seat)})
    env = {**os.environ, "REDIS_URL": url, "SIEGE_MATCH_ID": trial.match_id,
           "SIEGE_CLIENT_ID": trial.client, "SIEGE_GAME": trial.game}
    started = time.monotonic()
    played = asyncio.create_task(play_specs([trial.spec()], redis, trial.match_id.encode(),
                                            stall_timeout_s=float("inf")))
    # The client is started once the match exists: a join that overtook the create would be
    # refused (unknown_match), which is the kit's doing, not the client's.
    await _created(redis, trial.match_id, join_timeout_s, played)
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    except OSError as error:
        played.cancel()
        raise CommandError(f"cannot start {argv[0]!r}: {error.strerror or error}") from None
    stderr = asyncio.create_task(process.stderr.read() if process.stderr else _nothing())
    log = RedisEventLog(redis)
    try:
        if await _started(log, trial.match_id, join_timeout_s):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(played), timeout_s)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), 10)  # a client may take a moment to leave
    finally:
        played.cancel()
        with contextlib.suppress(BaseException):
            await played
        if process.returncode is None:
            process.kill()
            await process.wait()
            verdict.exit_code = None
        else:
            verdict.exit_code = process.returncode
        tail = (await stderr).decode("utf-8", "replace").strip().splitlines()
        verdict.stderr_tail = "\n".join(tail[-5:])
    verdict.seconds = time.monotonic() - started
    await judge(redis, log, trial, verdict, keyring)
    return verdict


async def _nothing() -> bytes:
    return b""


async def _created(redis: Redis, match_id: str, within_s: float,
                   played: asyncio.Task[Any]) -> None:
    """Waits (at most ``within_s``) until the match service lists the match in the public
    lobby (what any client may read), or the bots' side of the trial ended (a refused create:
    the client then starts all the same, and the verdict says what happened)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline and not played.done():
        if await redis.hget(LOBBY_HASH, match_id) is not None:
            return
        await asyncio.sleep(0.05)  # polling a key: there is no notice for "it was created"


async def _started(log: RedisEventLog, match_id: str, within_s: float) -> bool:
    """Whether the match's log began (every seat held) within ``within_s``."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if (await log.head(match_id))[0] > 0:
            return True
        await asyncio.sleep(0.1)  # polling a log head: there is no notice for "it started"
    return False


async def judge(redis: Redis, log: RedisEventLog, trial: Trial, verdict: Verdict,
                keyring: Keyring | None) -> None:
    """Fills ``verdict`` from the client's streams and the match log."""
    decision_of: dict[str, int] = {}
    stream = commands_key(trial.client)
    # An entry that is no command leaves the stream as it is dead-lettered: the dead letters
    # count them (and one still on the stream, not read yet, counts too).
    unreadable = {fields[b"id"] for _, fields in await redis.xrange(DEAD_LETTER_STREAM)
                  if fields.get(b"stream") == stream.encode()
                  and fields.get(b"reason", b"").startswith(b"undecodable")}
    for entry_id, fields in await redis.xrange(stream):
        try:
            command = bus_decoder.decode(fields.get(b"m", b""))
        except msgspec.MsgspecError:
            unreadable.add(entry_id)
            continue
        if isinstance(command, SubmitAction) and command.match_id == trial.match_id:
            decision_of[command.command_id] = command.decision
    verdict.malformed = len(unreadable)
    rejected_decisions: set[int] = set()
    for _, fields in await redis.xrange(inbox_key(trial.client)):
        with contextlib.suppress(msgspec.MsgspecError):
            note = bus_decoder.decode(fields[b"m"])
            if isinstance(note, ActionRejected) and note.match_id == trial.match_id:
                if note.code == RejectionCode.MALFORMED and note.command_id not in decision_of:
                    continue  # an unreadable entry, counted above
                verdict.rejected[note.code.value] += 1
                if note.command_id in decision_of:
                    rejected_decisions.add(decision_of[note.command_id])
            elif isinstance(note, CommandRefused) and note.subject == trial.match_id:
                verdict.refused[note.code.value] += 1
            elif isinstance(note, ActionAcknowledged) and note.match_id == trial.match_id:
                verdict.acknowledged += 1
    result = await redis.hget(RESULTS_HASH, trial.match_id)
    if result is not None:
        verdict.reason = msgspec.msgpack.decode(result, type=MatchFinished).reason
    entries = await log.read(trial.match_id)
    if not entries:
        return
    codec = codec_for(trial.game)
    accepted: set[int] = set()
    timed_out: set[int] = set()
    for _, stored, _ in entries:
        event: Any = codec.decode(stored).event
        if isinstance(event, MatchCreated):
            verdict.joined = event.clients[trial.seat] == trial.client
        elif isinstance(event, ActionAccepted) and event.seat == trial.seat:
            accepted.add(event.decision)
        elif isinstance(event, SeatTimedOut) and event.seat == trial.seat:
            timed_out.add(event.decision)
    verdict.decisions = len(accepted)
    verdict.timeouts = len(timed_out)
    verdict.ignored_rejections = len(timed_out & rejected_decisions)
    report = audit(entries, keyring)
    verdict.audit = "ok" if report.ok else f"seq {report.failure.seq}: {report.failure.reason}" \
        if report.failure else "failed"
