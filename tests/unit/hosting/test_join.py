"""Open seats: a match waits for clients to join, grants each its own token and stream, and
starts only when every seat is held."""

from __future__ import annotations

import asyncio

import pytest

from siege.contracts.events import MatchCreated
from siege.contracts.messages import (
    CommandRefused,
    CreateMatch,
    JoinMatch,
    MatchFinished,
    Message,
    SeatGranted,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import inbox_key, view_key
from siege.eventlog.log import MemoryEventLog
from siege.hosting.clock import FixedClock
from siege.hosting.lobby import Lobby, Refusal, claim, seat_holders
from siege.hosting.match_state import codec_for
from siegeworks import bus as topics
from siegeworks.clients.bots import hand_token, seat_bots
from siegeworks.wiring import wire_in_process

CREATE = CreateMatch(match_id="open-1", game="castle-dash", seat_names=["a", "b", "c"],
                     client="host", clients=["host", "", ""])


def lobby() -> Lobby:
    holders = seat_holders(CREATE)
    assert isinstance(holders, list)
    return Lobby(create=CREATE, clients=holders, seat_names=list(CREATE.seat_names))


def test_claim_takes_the_lowest_open_seat_and_a_retry_keeps_it() -> None:
    first = claim(lobby(), "ann", -1, "Ann")
    assert not isinstance(first, Refusal)
    after, seat = first
    assert seat == 1 and after.seat_names[1] == "Ann" and not after.full
    again = claim(after, "ann", 2, "")
    assert not isinstance(again, Refusal) and again[1] == 1 and again[0] == after


@pytest.mark.parametrize(("client", "seat", "code"), [
    ("bob", 0, RejectionCode.SEAT_TAKEN),
    ("bob", 7, RejectionCode.UNKNOWN_SEAT),
    ("b*b", -1, RejectionCode.BAD_CLIENT),
    ("", -1, RejectionCode.BAD_CLIENT),
])
def test_claim_refusals(client: str, seat: int, code: RejectionCode) -> None:
    refused = claim(lobby(), client, seat, "")
    assert isinstance(refused, Refusal) and refused.code == code


def test_a_full_lobby_refuses_newcomers() -> None:
    full = lobby()
    for name in ("ann", "bob"):
        outcome = claim(full, name, -1, "")
        assert not isinstance(outcome, Refusal)
        full = outcome[0]
    assert full.full
    refused = claim(full, "cat", -1, "")
    assert isinstance(refused, Refusal) and refused.code == RejectionCode.MATCH_FULL


@pytest.mark.parametrize(("change", "code"), [
    ({"client": "no good"}, RejectionCode.BAD_CLIENT),
    ({"game": "chess"}, RejectionCode.UNKNOWN_GAME),
    ({"seat_names": ["a"]}, RejectionCode.BAD_SEATS),
    ({"clients": ["host", ""]}, RejectionCode.BAD_SEATS),
    ({"clients": ["host", "x:y", ""]}, RejectionCode.BAD_CLIENT),
    ({"match_id": ""}, RejectionCode.MALFORMED),
    ({"match_id": "a b"}, RejectionCode.MALFORMED),
    ({"match_id": "t-0123456789ab"}, RejectionCode.MALFORMED),  # a tournament's shape
    ({"options": {"decision_timeout_ms": "abc"}}, RejectionCode.MALFORMED),
    ({"options": {"decision_timeout_ms": "0"}}, RejectionCode.MALFORMED),
    ({"game": "castle-assault", "seat_names": ["a", "b"], "options": {"warbands": "orcs,fae"}},
     RejectionCode.BAD_OPTIONS),  # options the game itself refuses
])
def test_create_refusals(change: dict, code: RejectionCode) -> None:
    fields = {"match_id": "m", "game": "castle-dash", "seat_names": ["a", "b", "c"],
              "client": "host", **change}
    refused = seat_holders(CreateMatch(**fields))
    assert isinstance(refused, Refusal) and refused.code == code


class _Kept(list):
    async def append_async(self, message: Message) -> None:
        self.append(message)


def test_a_match_starts_when_its_open_seats_are_joined_and_plays_to_the_end() -> None:
    async def scenario() -> None:
        log = MemoryEventLog()
        wired = wire_in_process(log, FixedClock(0), b"master")
        seen: dict[str, _Kept] = {c: _Kept() for c in ("host", "ann", "bob", "cat")}
        for client, kept in seen.items():
            wired.bus.subscribe(inbox_key(client), kept.append_async)
        bots = {c: seat_bots(wired.bus, c, "castle-dash", "open-1", ["random"] * 3, b"bots")
                for c in ("host", "ann", "bob")}

        await wired.bus.publish(topics.COMMANDS, CREATE)
        await wired.bus.drain()
        assert await log.read("open-1") == []  # no log, no clock, before the seats are held
        assert [(g.seat, g.stream) for g in seen["host"] if isinstance(g, SeatGranted)] == [
            (0, view_key("host", "open-1", 0))]

        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="open-1", client="ann",
                                                           name="Ann"))
        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="open-1", client="ann"))
        await wired.bus.drain()
        assert [g.seat for g in seen["ann"] if isinstance(g, SeatGranted)] == [1, 1]
        assert await log.read("open-1") == []

        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="open-1", client="bob",
                                                           seat=1))
        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="nope", client="bob"))
        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="no pe!", client="bob"))
        await wired.bus.drain()
        refusals = [(r.subject, r.code) for r in seen["bob"] if isinstance(r, CommandRefused)]
        assert refusals == [("open-1", RejectionCode.SEAT_TAKEN),
                            ("nope", RejectionCode.UNKNOWN_MATCH),
                            ("no pe!", RejectionCode.MALFORMED)]  # no match can have that id

        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="open-1", client="bob"))
        await wired.bus.drain()
        for client in ("host", "ann", "bob"):
            for grant in seen[client]:
                if isinstance(grant, SeatGranted):
                    await hand_token({"open-1": bots[client]}, grant)
        await wired.bus.drain()

        entries = await log.read("open-1")
        created = codec_for("castle-dash").decode(entries[0][1]).event
        assert isinstance(created, MatchCreated)
        assert created.clients == ["host", "ann", "bob"]
        assert created.seat_names == ["a", "Ann", "c"]
        for client in ("host", "ann", "bob"):  # each holder hears of the end on its inbox
            assert [m.match_id for m in seen[client] if isinstance(m, MatchFinished)] == [
                "open-1"]

        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="open-1", client="cat"))
        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="open-1", client="bob"))
        await wired.bus.drain()
        assert [r.code for r in seen["cat"] if isinstance(r, CommandRefused)] == [
            RejectionCode.MATCH_FULL]
        assert [g.seat for g in seen["bob"] if isinstance(g, SeatGranted)] == [2, 2]

    asyncio.run(scenario())


def test_prompts_reach_only_the_holder_of_each_seat() -> None:
    async def scenario() -> None:
        log = MemoryEventLog()
        wired = wire_in_process(log, FixedClock(0), b"master")
        streams: dict[str, list] = {}
        for client in ("ann", "bob"):
            for seat in range(3):
                key = view_key(client, "duel", seat)
                streams[key] = _Kept()
                wired.bus.subscribe(key, streams[key].append_async)
        await wired.bus.publish(topics.COMMANDS, CreateMatch(
            match_id="duel", game="castle-dash", seat_names=["a", "b", "c"], client="ann",
            clients=["ann", "", "ann"]))
        await wired.bus.publish(topics.COMMANDS, JoinMatch(match_id="duel", client="bob"))
        await wired.bus.drain()
        prompted = {key for key, kept in streams.items() if kept}
        assert prompted  # the match started and someone was asked
        # Seats 0 and 2 are asked on ann's streams only, seat 1 on bob's only.
        assert prompted <= {view_key("ann", "duel", 0), view_key("bob", "duel", 1),
                            view_key("ann", "duel", 2)}
        for key in prompted:
            assert {p.seat for p in streams[key]} == {int(key[-1])}

    asyncio.run(scenario())


def test_a_create_may_not_name_another_client_outside_a_tournament_table() -> None:
    """Naming a client as a holder sends it grants and prompts: only a tournament's pairing may
    (for clients that registered), so nobody can flood another client's streams by naming it."""
    async def scenario() -> tuple[list, list, list]:
        log = MemoryEventLog()
        wired = wire_in_process(log, FixedClock(0), b"master")
        inboxes: dict[str, _Kept] = {c: _Kept() for c in ("ann", "bob")}
        for client, kept in inboxes.items():
            wired.bus.subscribe(inbox_key(client), kept.append_async)
        await wired.bus.publish(topics.COMMANDS, CreateMatch(
            match_id="spam", game="castle-dash", seat_names=["a", "b", "c"], client="ann",
            clients=["ann", "bob", "bob"]))
        await wired.bus.drain()
        return list(inboxes["ann"]), list(inboxes["bob"]), await log.read("spam")

    ann, bob, entries = asyncio.run(scenario())
    assert [(m.command, m.code) for m in ann] == [("cmd.create_match", RejectionCode.BAD_CLIENT)]
    assert bob == [] and entries == []
