"""Seat tokens: only the token of that seat of that match is accepted; replays change nothing."""

from __future__ import annotations

import asyncio

import msgspec

from siege.contracts.events import ActionAccepted
from siege.contracts.messages import (
    ActionAcknowledged,
    ActionRejected,
    CreateMatch,
    Message,
    SeatGranted,
    SeatPrompted,
    SubmitAction,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.codecs import action_list_decoder
from siege.eventlog.keys import inbox_key, view_key
from siege.eventlog.log import MemoryEventLog
from siege.hosting.clock import FixedClock
from siege.hosting.match_state import codec_for
from siege.hosting.seats import TokenChecker, check_token, seat_token
from siegeworks import bus as topics
from siegeworks.wiring import wire_in_process


def test_commands_need_the_token_of_their_seat_and_match() -> None:
    async def scenario() -> None:
        log = MemoryEventLog()
        wired = wire_in_process(log, FixedClock(0), b"master")
        seen: list[Message] = []
        prompts: list[SeatPrompted] = []

        async def keep(message: Message) -> None:
            seen.append(message)

        async def prompt(message: SeatPrompted) -> None:
            prompts.append(message)

        wired.bus.subscribe(inbox_key("c1"), keep)
        for match_id in ("m-a", "m-b"):
            for seat in range(3):
                wired.bus.subscribe(view_key("c1", match_id, seat), prompt)
            await wired.bus.publish(topics.COMMANDS, CreateMatch(
                match_id=match_id, game="castle-dash", seat_names=["x", "y", "z"],
                client="c1"))
        await wired.bus.drain()
        grants = sorted((m.match_id, m.seat, m.token) for m in seen if isinstance(m, SeatGranted))
        tokens = {match_id: [t for m, _, t in grants if m == match_id]
                  for match_id in ("m-a", "m-b")}
        assert len(set(tokens["m-a"]) | set(tokens["m-b"])) == 6  # every seat its own token

        first = next(p for p in prompts if p.match_id == "m-a")
        legal = action_list_decoder("castle-dash").decode(msgspec.msgpack.encode(first.legal))
        action = msgspec.msgpack.encode(legal[0])
        other_seat = (first.seat + 1) % 3

        def command(token: str, command_id: str) -> SubmitAction:
            return SubmitAction(match_id="m-a", seat=first.seat, decision=first.decision,
                                command_id=command_id, action=action, token=token,
                                client="c1")

        before = await log.read("m-a")
        for n, token in enumerate(["", "00" * 32, tokens["m-a"][other_seat],
                                   tokens["m-b"][first.seat]]):
            await wired.bus.publish(topics.COMMANDS, command(token, f"bad-{n}"))
        await wired.bus.drain()
        rejected = [m for m in seen if isinstance(m, ActionRejected)]
        assert [r.code for r in rejected] == [RejectionCode.BAD_TOKEN] * 4
        assert await log.read("m-a") == before

        good = command(tokens["m-a"][first.seat], "good")
        await wired.bus.publish(topics.COMMANDS, good)
        await wired.bus.drain()
        after = await log.read("m-a")
        assert len(after) > len(before)
        acks = [m for m in seen if isinstance(m, ActionAcknowledged)]
        assert [(a.command_id, a.seat, a.decision) for a in acks] == [
            ("good", first.seat, first.decision)]
        codec = codec_for("castle-dash")
        at = {seq: codec.decode(stored).event for seq, stored, _ in after}
        assert isinstance(at[acks[0].seq], ActionAccepted)  # the ack names where it went
        assert at[acks[0].seq].command_id == "good"
        await wired.bus.publish(topics.COMMANDS, good)  # the same signed command, replayed
        await wired.bus.drain()
        # A repeat (a retry, or a redelivery after a restart) is acknowledged again, not refused.
        assert [m for m in seen if isinstance(m, ActionAcknowledged)] == acks * 2
        assert [m for m in seen if isinstance(m, ActionRejected)][-1].command_id != "good"
        assert await log.read("m-a") == after
        # The id again for another decision is a true duplicate.
        await wired.bus.publish(topics.COMMANDS, msgspec.structs.replace(
            good, decision=first.decision + 1))
        await wired.bus.drain()
        replay = [m for m in seen if isinstance(m, ActionRejected)][-1]
        assert replay.command_id == "good" and replay.code == RejectionCode.DUPLICATE_COMMAND
        assert await log.read("m-a") == after

    asyncio.run(scenario())


def test_a_token_of_any_text_is_simply_wrong() -> None:
    good = seat_token(b"k", "m", 0)
    assert check_token(b"k", "m", 0, good)
    for token in ("t\u00e9", "\ud800", "", good.upper(), good + "0"):
        assert not check_token(b"k", "m", 0, token)


def test_the_checker_remembers_only_tokens_it_was_shown() -> None:
    checker = TokenChecker(b"k")
    good = seat_token(b"k", "m", 0)
    for _ in range(1000):  # a flood of forged tokens for seats nobody has proven
        assert not checker.check("m", 0, "forged")
        assert not checker.check("other", 1, good)
    assert not checker._known
    assert checker.check("m", 0, good)
    assert checker._known == {("m", 0): good.encode()}
    # Remembered, the seat's token still refuses every other text, and other seats stay apart.
    for token in ("t\u00e9", "\ud800", "", good.upper(), good + "0", "forged"):
        assert not checker.check("m", 0, token)
    assert not checker.check("m", 1, good)
    assert checker.check("m", 0, good)
    checker.forget("m", 2)
    assert not checker._known and checker.check("m", 0, good)


def test_the_checker_memory_is_bounded() -> None:
    checker = TokenChecker(b"k")
    checker.LIMIT = 10
    for i in range(25):
        assert checker.check(f"m{i}", 0, seat_token(b"k", f"m{i}", 0))
        assert len(checker._known) <= 10
