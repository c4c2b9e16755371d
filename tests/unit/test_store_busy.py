"""A busy store (siegeworks.headroom): the threshold an operator sets, the retry hint a
``store_busy`` refusal carries (its growth and its cap), and the refusal itself."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import msgspec
import pytest

from siege.contracts.messages import (
    CommandRefused,
    CreateMatch,
    Message,
    SeatGranted,
    bus_decoder,
    bus_encoder,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import inbox_key
from siege.eventlog.log import MemoryEventLog
from siege.hosting.clock import FixedClock
from siegeworks.bus import InMemoryBus
from siegeworks.context import ServiceContext
from siegeworks.errors import StalledError
from siegeworks.headroom import (
    BUSY_AT,
    BUSY_AT_ENV,
    FIRST_RETRY_MS,
    LONGEST_RETRY_MS,
    Headroom,
    StoreBusyAtError,
    retry_hint_ms,
    store_busy_at,
)
from siegeworks.match.handlers import on_create_match
from siegeworks.remote_run import StoreBusyError

MB = 2**20


def test_the_threshold_is_four_fifths_of_maxmemory_unless_the_operator_sets_another() -> None:
    assert BUSY_AT == 0.8
    assert store_busy_at({}) == store_busy_at({BUSY_AT_ENV: ""}) == 0.8
    assert store_busy_at({BUSY_AT_ENV: " 0.5 "}) == 0.5
    assert store_busy_at({BUSY_AT_ENV: "0.95"}) == 0.95


@pytest.mark.parametrize("text", ["0", "1", "1.0", "-0.2", "1.5", "80", "80%", "abc", "nan",
                                  "inf", "0x1"])
def test_a_threshold_that_is_no_fraction_strictly_between_0_and_1_is_refused(text: str) -> None:
    with pytest.raises(StoreBusyAtError) as refused:
        store_busy_at({BUSY_AT_ENV: text})
    said = str(refused.value)
    assert "\n" not in said and BUSY_AT_ENV in said and repr(text) in said
    assert "between 0 and 1" in said


def test_the_context_of_a_service_reads_the_threshold_when_it_is_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BUSY_AT_ENV, "0.6")
    assert Headroom().busy_at == 0.6
    assert ServiceContext.create("match", MemoryEventLog(), InMemoryBus(),
                                 FixedClock(0)).room.busy_at == 0.6
    monkeypatch.setenv(BUSY_AT_ENV, "2")
    with pytest.raises(StoreBusyAtError):
        ServiceContext.create("match", MemoryEventLog(), InMemoryBus(), FixedClock(0))


def test_busy_from_the_threshold_on_and_never_without_maxmemory() -> None:
    assert not Headroom(used=10**12, limit=0, busy_at=0.8).busy  # no maxmemory: no limit
    assert not Headroom(used=80 * MB - 1, limit=100 * MB, busy_at=0.8).busy
    assert Headroom(used=80 * MB, limit=100 * MB, busy_at=0.8).busy
    assert not Headroom(used=80 * MB, limit=100 * MB, busy_at=0.9).busy
    assert Headroom(used=95 * MB, limit=100 * MB, busy_at=0.9).busy


def test_the_hint_is_a_second_at_the_threshold_grows_with_the_memory_used_and_stops_at_30s(
) -> None:
    limit = 100 * MB

    def hint(percent: float, busy_at: float = 0.8) -> int:
        return Headroom(used=int(percent * MB), limit=limit, busy_at=busy_at).retry_after_ms

    assert hint(79.9) == 0  # not busy: no hint
    assert hint(80) == FIRST_RETRY_MS == 1_000
    assert hint(90) == 15_500  # halfway from the threshold to maxmemory
    assert hint(100) == LONGEST_RETRY_MS == 30_000
    assert hint(104) == hint(1_000) == 30_000  # Redis may hold a little over: capped
    hints = [hint(p / 10) for p in range(800, 1_001)]
    assert hints == sorted(hints) and len(set(hints)) > 100  # grows all the way
    # The same from any threshold: a second there, 30 s at maxmemory.
    assert hint(50, busy_at=0.5) == 1_000 and hint(75, busy_at=0.5) == 15_500
    assert hint(100, busy_at=0.5) == 30_000
    assert retry_hint_ms(0, 0, 0.8) == 0


def test_the_description_says_the_store_is_busy_and_from_where() -> None:
    said = Headroom(used=85 * MB, limit=100 * MB, busy_at=0.8).describe()
    assert said.startswith("store busy: Redis holds 85.0 MB of its 100.0 MB (85%")
    assert "new matches wait from 80%" in said and "matches under way go on" in said
    assert len(said.encode()) <= 256  # a refusal's detail, whole
    assert "from 75%" in Headroom(used=80 * MB, limit=100 * MB, busy_at=0.75).describe()


class _Published(InMemoryBus):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, Message]] = []

    async def publish(self, topic: str, message: Message) -> None:
        self.sent.append((topic, bus_decoder.decode(bus_encoder.encode(message))))


def _create(room: Headroom) -> list[tuple[str, Message]]:
    bus = _Published()
    ctx = ServiceContext.create("match", MemoryEventLog(), bus, FixedClock(0))
    ctx.room = room
    asyncio.run(on_create_match(ctx, CreateMatch(
        match_id="m-1", game="castle-dash", seat_names=["a", "b", "c"], client="ann")))
    return bus.sent


def test_a_create_while_the_store_is_busy_is_refused_with_the_hint_of_the_memory_used() -> None:
    room = Headroom(used=90 * MB, limit=100 * MB, busy_at=0.8)
    [(topic, refused)] = _create(room)
    assert topic == inbox_key("ann") and isinstance(refused, CommandRefused)
    assert (refused.command, refused.subject, refused.code) == (
        "cmd.create_match", "m-1", RejectionCode.STORE_BUSY)
    assert refused.retry_after_ms == 15_500 and refused.detail == room.describe()


def test_a_create_while_the_store_is_not_busy_is_granted() -> None:
    sent = _create(Headroom(used=79 * MB, limit=100 * MB, busy_at=0.8))
    assert [type(m) for topic, m in sent if topic == inbox_key("ann")] == [SeatGranted] * 3


class RefusedOf20(msgspec.Struct, frozen=True, tag_field="t", tag="note.command_refused",
                  kw_only=True):
    """CommandRefused as a client of contract 2.0 knows it."""

    command: str
    subject: str
    code: str
    detail: str = ""


def test_the_hint_is_a_field_old_clients_pass_by_and_old_refusals_lack() -> None:
    new = CommandRefused(command="cmd.create_match", subject="m-1",
                         code=RejectionCode.STORE_BUSY, detail="busy", retry_after_ms=2_500)
    assert msgspec.msgpack.decode(bus_encoder.encode(new), type=RefusedOf20) == RefusedOf20(
        command="cmd.create_match", subject="m-1", code="store_busy", detail="busy")
    old = msgspec.msgpack.encode(RefusedOf20(command="cmd.create_match", subject="m-1",
                                             code="store_full"))
    decoded = bus_decoder.decode(old)
    assert isinstance(decoded, CommandRefused) and decoded.retry_after_ms == 0
    assert decoded.code == RejectionCode.STORE_FULL  # from a service before 2.1
    with pytest.raises(msgspec.ValidationError, match="retry_after_ms"):
        bus_decoder.decode(msgspec.msgpack.encode(
            {**msgspec.to_builtins(new), "retry_after_ms": -1}))


def test_a_run_that_gives_up_on_a_busy_store_says_so_in_one_line() -> None:
    assert issubclass(StoreBusyError, StalledError)  # siege run prints it as one line


def test_serve_refuses_a_bad_threshold_in_one_line_before_it_reaches_for_redis() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "siegeworks.cli", "serve", "match",
         "--redis-url", "redis://127.0.0.1:1/0"],
        env={**os.environ, BUSY_AT_ENV: "1.2", "COLUMNS": "500"},
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and BUSY_AT_ENV in lines[0], lines
