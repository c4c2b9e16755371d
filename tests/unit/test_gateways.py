"""A gateway speaks for many (docs/decisions/0018): on its one commands stream a command may
name one of its own people, and nowhere else; what the services tell a person goes to the
gateway's inbox, naming the person (siegeworks.ingress.attribute, siegeworks.bus.tell)."""

from __future__ import annotations

import asyncio

import pytest

from siege.contracts.messages import (
    CommandRefused,
    CreateMatch,
    JoinMatch,
    Message,
    ResignMatch,
    SeatGranted,
    SubmitAction,
    bus_decoder,
)
from siege.contracts.rejections import RejectionCode
from siege.eventlog.acl import GATEWAY_CLIENT, GATEWAY_PEOPLE
from siege.eventlog.keys import (
    GATEWAYS,
    answers_key,
    gateway_key,
    gateway_of,
    inbox_key,
    speaks_for,
)
from siege.hosting.lobby import Refusal
from siegeworks.bus import InMemoryBus, addressed, tell
from siegeworks.ingress import attribute

PERSON = "web.0123456789abcdef"


def _commands(client: str) -> list[Message]:
    return [
        JoinMatch(match_id="m", client=client),
        CreateMatch(match_id="m", game="castellum", seat_names=["a", "b"], client=client),
        SubmitAction(match_id="m", seat=0, decision=1, command_id="c", action=b"",
                     client=client),
        ResignMatch(match_id="m", seat=0, command_id="c", client=client),
    ]


def test_the_gateways_are_named_in_one_place() -> None:
    assert GATEWAYS[GATEWAY_CLIENT] == GATEWAY_PEOPLE == "web."
    prefixes = list(GATEWAYS.values())
    assert not any(a != b and a.startswith(b) for a in prefixes for b in prefixes)
    assert gateway_of(PERSON) == GATEWAY_CLIENT and gateway_of("web.bots-x") == GATEWAY_CLIENT
    for nobody in ("alice", "web.", "web-gateway", "webber", "xweb.0123456789abcdef"):
        assert gateway_of(nobody) is None
    assert gateway_key(GATEWAY_CLIENT, "person", PERSON).startswith("siege:gateway:web-gateway:")
    with pytest.raises(ValueError):
        gateway_key("alice", "x")


@pytest.mark.parametrize("command", _commands(PERSON))
def test_a_gateway_speaks_for_its_people(command: Message) -> None:
    assert speaks_for(GATEWAY_CLIENT, PERSON)
    assert attribute(command, GATEWAY_CLIENT) == command


@pytest.mark.parametrize("named", ["alice", "web-gateway2", "web.", "web.a:b", "webber"])
def test_a_gateway_speaks_for_nobody_else(named: str) -> None:
    """(b): on the gateway's stream, an id that is not one of its people is refused."""
    for command in _commands(named):
        refused = attribute(command, GATEWAY_CLIENT)
        assert isinstance(refused, Refusal) and refused.code == RejectionCode.BAD_CLIENT


def test_another_gateways_people_are_not_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GATEWAYS, "irc-gateway", "irc.")
    for command in _commands("irc.someone"):
        refused = attribute(command, GATEWAY_CLIENT)
        assert isinstance(refused, Refusal) and refused.code == RejectionCode.BAD_CLIENT
        assert attribute(command, "irc-gateway") == command


@pytest.mark.parametrize("sender", ["alice", "mallory", "web-gateway-not"])
def test_an_ordinary_client_cannot_name_a_person(sender: str) -> None:
    """(a): a command on an ordinary client's stream naming a ``web.`` person is refused."""
    for command in _commands(PERSON):
        refused = attribute(command, sender)
        assert isinstance(refused, Refusal) and refused.code == RejectionCode.BAD_CLIENT


def test_a_persons_own_stream_speaks_for_nobody() -> None:
    """Only the gateway acts for a person: a stream under a person's id (an old gateway's,
    or one an operator issued by mistake) is refused, even naming itself or nobody."""
    for command in [*_commands(PERSON), JoinMatch(match_id="m")]:
        refused = attribute(command, PERSON)
        assert isinstance(refused, Refusal) and refused.code == RejectionCode.BAD_CLIENT


def test_a_gateways_own_commands_are_its_own() -> None:
    join = attribute(JoinMatch(match_id="m"), GATEWAY_CLIENT)
    assert isinstance(join, JoinMatch) and join.client == GATEWAY_CLIENT


def test_what_a_person_is_told_goes_to_the_gateways_inbox_naming_them() -> None:
    assert answers_key(PERSON) == inbox_key(GATEWAY_CLIENT)
    assert answers_key("alice") == inbox_key("alice")
    grant = SeatGranted(match_id="m", game="castellum", seat=1, token="t", stream="s")
    assert addressed(grant, PERSON).to == PERSON
    assert addressed(grant, "alice") is grant  # a client's own inbox: as it was

    async def told() -> list[tuple[str, bytes]]:
        bus = InMemoryBus()
        await tell(bus, PERSON, CommandRefused(command="cmd.join_match", subject="m",
                                               code=RejectionCode.SEAT_TAKEN))
        await tell(bus, "alice", grant)
        return list(bus._queue)

    (first, body), (second, plain) = asyncio.run(told())
    assert first == inbox_key(GATEWAY_CLIENT)
    refused = bus_decoder.decode(body)
    assert isinstance(refused, CommandRefused) and refused.to == PERSON
    assert second == inbox_key("alice") and bus_decoder.decode(plain).to == ""  # type: ignore[union-attr]
