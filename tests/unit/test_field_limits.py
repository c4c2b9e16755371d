"""Bounds on the fields of commands and notices (siege.contracts.messages).

Given a command one over any bound, decoding refuses it; at the bound it decodes. The real
options of every game fit with room to spare. What the services echo in a refusal is cut to its
bound, so no inbox entry is larger than MAX_INBOX_ENTRY_BYTES however large the command was.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
import pytest

from siege.contracts import messages as m
from siege.contracts.messages import (
    ActionRejected,
    CommandRefused,
    CreateMatch,
    EntrantAccepted,
    JoinMatch,
    MatchFinished,
    Message,
    RegisterEntrant,
    SeatGranted,
    SubmitAction,
    TournamentEnded,
    bus_decoder,
    bus_encoder,
    clipped,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.registry import game_names, get_engine
from siege.eventlog.keys import CLIENT_ID, MATCH_ID, view_key
from siege.eventlog.log import MemoryEventLog
from siege.games.castle_assault import decks
from siege.games.castle_assault.cards import CARDS, WARBAND_CARDS
from siege.games.castle_assault.heroes import HEROES
from siege.hosting.clock import FixedClock
from siege.hosting.clocks import MAX_TIMEOUT_MS
from siege.hosting.lobby import Refusal, seat_holders
from siege.hosting.rules import Rejection
from siege.hosting.seats import seat_token
from siege.tournament.events import match_id_for
from siege.tournament.state import entrant_for
from siegeworks.bus import InMemoryBus
from siegeworks.context import ServiceContext
from siegeworks.match.notices import refuse
from siegeworks.rules.handlers import reject

WIDE = "\U0001f3f0"  # a castle: 4 bytes of UTF-8, the widest a character gets
COMMANDS = (CreateMatch, JoinMatch, RegisterEntrant, SubmitAction)
NOTICES = (CommandRefused, ActionRejected)  # the notices that may quote a client

VALID: dict[type[Message], dict[str, Any]] = {
    CreateMatch: {"t": "cmd.create_match", "match_id": "m-1", "game": "castle-dash",
                  "seat_names": ["a", "b", "c"], "client": "alice"},
    JoinMatch: {"t": "cmd.join_match", "match_id": "m-1", "client": "bob"},
    RegisterEntrant: {"t": "cmd.register_entrant", "tournament_id": "t-0123456789ab",
                      "client": "bob"},
    SubmitAction: {"t": "cmd.submit_action", "match_id": "m-1", "seat": 0, "decision": 1,
                   "command_id": "c-1", "action": b"\x80", "token": "0" * 64,
                   "client": "alice"},
    CommandRefused: {"t": "note.command_refused", "command": "cmd.join_match",
                     "subject": "m-1", "code": "unknown_match"},
    ActionRejected: {"t": "note.action_rejected", "match_id": "m-1", "seat": 0,
                     "command_id": "c-1", "code": "unknown_match"},
}


def _str(n: int) -> str:
    return "x" * n


def _names(n: int) -> list[str]:
    return [f"s{i}" for i in range(n)]


def _options(n: int) -> dict[str, str]:
    return {f"k{i}": "v" for i in range(n)}


# (type, field, bound, the field's value of a given size)
BOUNDS: list[tuple[type[Message], str, int, Any]] = [
    (CreateMatch, "match_id", m.MAX_MATCH_ID, _str),
    (CreateMatch, "game", m.MAX_GAME_NAME, _str),
    (CreateMatch, "seat_names", m.MAX_SEATS, _names),
    (CreateMatch, "seat_names[]", m.MAX_SEAT_NAME, lambda n: ["a", "b", _str(n)]),
    (CreateMatch, "options", m.MAX_OPTIONS, _options),
    (CreateMatch, "options{key}", m.MAX_OPTION_KEY, lambda n: {_str(n): "v"}),
    (CreateMatch, "options{value}", m.MAX_OPTION_VALUE, lambda n: {"k": _str(n)}),
    (CreateMatch, "client", m.MAX_CLIENT_ID, _str),
    (CreateMatch, "clients", m.MAX_SEATS, _names),
    (CreateMatch, "clients[]", m.MAX_CLIENT_ID, lambda n: ["", "", _str(n)]),
    (JoinMatch, "match_id", m.MAX_MATCH_ID, _str),
    (JoinMatch, "client", m.MAX_CLIENT_ID, _str),
    (JoinMatch, "name", m.MAX_DISPLAY_NAME, _str),
    (RegisterEntrant, "tournament_id", m.MAX_MATCH_ID, _str),
    (RegisterEntrant, "client", m.MAX_CLIENT_ID, _str),
    (RegisterEntrant, "name", m.MAX_DISPLAY_NAME, _str),
    (SubmitAction, "match_id", m.MAX_MATCH_ID, _str),
    (SubmitAction, "command_id", m.MAX_COMMAND_ID, _str),
    (SubmitAction, "action", m.MAX_ACTION_BYTES, lambda n: b"\x00" * n),
    (SubmitAction, "token", m.MAX_TOKEN, _str),
    (SubmitAction, "client", m.MAX_CLIENT_ID, _str),
    (CommandRefused, "command", m.MAX_TAG, _str),
    (CommandRefused, "subject", m.MAX_MATCH_ID, _str),
    (CommandRefused, "detail", m.MAX_DETAIL, _str),
    (ActionRejected, "match_id", m.MAX_MATCH_ID, _str),
    (ActionRejected, "command_id", m.MAX_COMMAND_ID, _str),
    (ActionRejected, "detail", m.MAX_DETAIL, _str),
]


def _decode_with(kind: type[Message], field: str, value: Any) -> Message:
    body = dict(VALID[kind])
    body[field.split("[")[0].split("{")[0]] = value
    return bus_decoder.decode(msgspec.msgpack.encode(body))


@pytest.mark.parametrize(("kind", "field", "bound", "sized"), BOUNDS,
                         ids=[f"{k.__name__}.{f}" for k, f, _, _ in BOUNDS])
def test_one_over_a_bound_fails_to_decode_and_the_bound_itself_decodes(
        kind: type[Message], field: str, bound: int, sized: Any) -> None:
    assert isinstance(_decode_with(kind, field, sized(bound)), kind)
    with pytest.raises(msgspec.ValidationError, match=f"length <= {bound}"):
        _decode_with(kind, field, sized(bound + 1))


def test_string_bounds_count_characters_not_bytes() -> None:
    """A bound quoted to other languages counts code points: 64 castles are a 64-character,
    256-byte name, and the name is no longer for that."""
    assert isinstance(_decode_with(JoinMatch, "name", WIDE * m.MAX_DISPLAY_NAME), JoinMatch)
    with pytest.raises(msgspec.ValidationError):
        _decode_with(JoinMatch, "name", WIDE * (m.MAX_DISPLAY_NAME + 1))


def test_the_attack_sizes_are_refused() -> None:
    """What was found accepted: a 16 MB seat name, a 4 MB option, a 4 MB command id."""
    big, huge = "x" * (4 << 20), "x" * (16 << 20)
    for kind, field, value in [(CreateMatch, "seat_names", ["a", "b", huge]),
                               (CreateMatch, "options", {"decks": big}),
                               (CreateMatch, "options", {big: "1"}),
                               (SubmitAction, "command_id", big),
                               (SubmitAction, "token", big)]:
        with pytest.raises(msgspec.ValidationError):
            _decode_with(kind, field, value)


def _unbounded(info: msgspec.inspect.Type, path: str) -> list[str]:
    """Every place in a field's type where a string, bytes, list or map has no max_length."""
    found: list[str] = []
    if isinstance(info, msgspec.inspect.StrType | msgspec.inspect.BytesType):
        return [] if info.max_length is not None else [path]
    if isinstance(info, msgspec.inspect.ListType):
        found += [] if info.max_length is not None else [path]
        found += _unbounded(info.item_type, path + "[]")
    elif isinstance(info, msgspec.inspect.DictType):
        found += [] if info.max_length is not None else [path]
        found += _unbounded(info.key_type, path + "{key}")
        found += _unbounded(info.value_type, path + "{value}")
    return found


@pytest.mark.parametrize("kind", [*COMMANDS, *NOTICES], ids=lambda k: k.__name__)
def test_every_field_is_bounded_and_has_a_case_here(kind: type[Message]) -> None:
    info = msgspec.inspect.type_info(kind)
    assert isinstance(info, msgspec.inspect.StructType)
    sized = [p for f in info.fields
             for p in _paths(f.type, f.name)]
    unbounded = [p for f in info.fields for p in _unbounded(f.type, f.name)]
    assert unbounded == []
    tested = {f for k, f, _, _ in BOUNDS if k is kind}
    assert set(sized) <= tested, f"no case in BOUNDS for {set(sized) - tested}"


def _paths(info: msgspec.inspect.Type, path: str) -> list[str]:
    if isinstance(info, msgspec.inspect.StrType | msgspec.inspect.BytesType):
        return [path]
    if isinstance(info, msgspec.inspect.ListType):
        return [path, *_paths(info.item_type, path + "[]")]
    if isinstance(info, msgspec.inspect.DictType):
        return [path, *_paths(info.key_type, path + "{key}"),
                *_paths(info.value_type, path + "{value}")]
    return []


def test_the_published_contract_shows_the_bounds() -> None:
    from siege.contracts.schema import schemas
    create = schemas()["CreateMatch"]["properties"]
    assert create["seat_names"]["maxItems"] == m.MAX_SEATS
    assert create["seat_names"]["items"]["maxLength"] == m.MAX_SEAT_NAME
    assert create["options"]["maxProperties"] == m.MAX_OPTIONS
    assert create["options"]["propertyNames"]["maxLength"] == m.MAX_OPTION_KEY
    assert create["options"]["additionalProperties"]["maxLength"] == m.MAX_OPTION_VALUE
    submit = schemas()["SubmitAction"]["properties"]
    assert submit["command_id"]["maxLength"] == m.MAX_COMMAND_ID
    # Bytes appear in JSON terms, as base64: 4096 bytes are 5464 characters of it.
    assert submit["action"]["maxLength"] == 4 * -(-m.MAX_ACTION_BYTES // 3)


# --------------------------------------------------------------------------------------------
# The bounds fit real use


def _decodes(kind: type[Message], field: str, value: Any) -> bool:
    try:
        _decode_with(kind, field, value)
    except msgspec.ValidationError:
        return False
    return True


# Each test below checks that real use decodes and that the bound it sits under is enforced:
# without the bounds the second half fails.


def test_id_bounds_are_those_of_the_key_names() -> None:
    longest_match, longest_client = "a" * m.MAX_MATCH_ID, "a" * m.MAX_CLIENT_ID
    assert MATCH_ID.fullmatch(longest_match) and not MATCH_ID.fullmatch(longest_match + "a")
    assert CLIENT_ID.fullmatch(longest_client) and not CLIENT_ID.fullmatch(longest_client + "a")
    for kind, field, bound, _ in BOUNDS:
        if bound == m.MAX_MATCH_ID and field in ("match_id", "tournament_id"):
            assert _decodes(kind, field, longest_match)
            assert not _decodes(kind, field, longest_match + "a")
        if field == "client":
            assert _decodes(kind, field, longest_client)
            assert not _decodes(kind, field, longest_client + "a")


def test_what_the_services_and_bots_make_fits() -> None:
    longest_match, longest_client = "m" * m.MAX_MATCH_ID, "c" * m.MAX_CLIENT_ID
    token = seat_token(b"secret", longest_match, m.MAX_SEATS - 1)
    assert _decodes(SubmitAction, "token", token)
    assert not _decodes(SubmitAction, "token", token + "0")
    # The command ids the bots send: Python "<match>:<seat>:<decision>", JS "<client>-<n>-<uuid>".
    for command_id in (f"{longest_match}:{m.MAX_SEATS - 1}:{2**31}",
                       f"{longest_client}-{2**31}-{'0' * 36}"):
        assert _decodes(SubmitAction, "command_id", command_id)
        assert not _decodes(SubmitAction, "command_id", command_id.ljust(m.MAX_COMMAND_ID + 1))
    # A tournament's matches: its entrants' ids are the seat names, its match ids the ids.
    entrant = entrant_for(longest_client)
    assert _decodes(CreateMatch, "seat_names", ["a", "b", entrant])
    assert not _decodes(CreateMatch, "seat_names", ["a", "b", entrant.ljust(m.MAX_SEAT_NAME + 1)])
    assert _decodes(CreateMatch, "match_id", match_id_for("t-0123456789ab", 99, 9999))
    # Every game's largest table, and not one seat more than the bound.
    for game in game_names():
        assert _decodes(CreateMatch, "seat_names", _names(get_engine(game).max_players))
    assert not _decodes(CreateMatch, "seat_names", _names(m.MAX_SEATS + 1))


def longest_legal_decks() -> str:
    """The longest ``decks`` option a legal pair of Castle Assault decks makes: for the warband
    with the longest names, 40 cards with as many distinct names (longest first) as it has."""
    options = []
    for warband in WARBAND_CARDS:
        pool = sorted((c for c in CARDS if c.kind in ("unit", "command")
                       and c.warband in ("neutral", warband)), key=lambda c: -len(c.name))
        cards = {c.name: 1 for c in pool[:decks.MAX_CARDS]}
        for card in pool:
            if sum(cards.values()) < decks.MAX_CARDS and not card.epic:
                cards[card.name] += 1
        deck = decks.Deck(warband=warband, hero=HEROES[warband].name, cards=cards)
        assert decks.problems(deck) == []
        options.append(decks.encode([deck, deck]))
    return max(options, key=len)


def _create(game: str, options: dict[str, str]) -> CreateMatch:
    players = get_engine(game).max_players
    body = {"t": "cmd.create_match", "match_id": "m" * m.MAX_MATCH_ID, "game": game,
            "seat_names": [f"random-{seat}" for seat in range(players)],
            "options": options, "client": "c" * m.MAX_CLIENT_ID,
            "clients": ["c" * m.MAX_CLIENT_ID] * players}
    cmd = bus_decoder.decode(msgspec.msgpack.encode(body))
    assert isinstance(cmd, CreateMatch)
    return cmd


def test_the_longest_legal_decks_decode_and_start_a_match_with_room_to_spare() -> None:
    option = longest_legal_decks()
    # Room for a hand-made option too: the same decks pretty-printed still fit, twice over.
    pretty = json.dumps(json.loads(option), indent=4)
    assert 2 * len(pretty) <= m.MAX_OPTION_VALUE
    for value in (option, pretty):
        assert seat_holders(_create("castle-assault", {"decks": value})) == ["c" * 64] * 2
    padded = pretty + " " * (m.MAX_OPTION_VALUE + 1 - len(pretty))  # still legal JSON
    assert not _decodes(CreateMatch, "options", {"decks": padded})


def test_every_games_real_options_decode() -> None:
    real = {"castle-assault": [{"warbands": "war-engine,dragons"},
                               {"decks": decks.encode([decks.stock(w) for w in
                                                       ("war-engine", "dwarves")])}],
            "storm-castle": [{"intro": "1"}]}
    for game in game_names():
        for options in [*real.get(game, [{}]), {"decision_timeout_ms": str(MAX_TIMEOUT_MS)}]:
            cmd = _create(game, options)
            assert not isinstance(seat_holders(cmd), Refusal), (game, options)
            crowded = {**options, **_options(m.MAX_OPTIONS + 1 - len(options))}
            assert not _decodes(CreateMatch, "options", crowded)


# --------------------------------------------------------------------------------------------
# What a notice may echo


def test_clipped_cuts_to_bytes_without_splitting_a_character() -> None:
    assert clipped("short", 10) == "short"
    assert clipped("x" * 10, 10) == "x" * 10
    cut = clipped("x" * 11, 10)
    assert cut.endswith("\u2026") and len(cut.encode()) <= 10
    wide = clipped(WIDE * 100, 17)
    assert wide == WIDE * 3 + "\u2026" and len(wide.encode()) == 15


class _Published(InMemoryBus):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, bytes]] = []

    async def publish(self, topic: str, message: Message) -> None:
        self.sent.append((topic, bus_encoder.encode(message)))


def _ctx(name: str) -> tuple[ServiceContext, _Published]:
    bus = _Published()
    return ServiceContext.create(name, MemoryEventLog(), bus, FixedClock(0)), bus


def test_a_refusal_of_a_huge_command_is_small() -> None:
    """Refusals echo the command (an illegal option's value, a bad id): 20 refusals of 4 MB
    made a 105 MB inbox. Now each entry decodes and fits MAX_INBOX_ENTRY_BYTES."""
    ctx, bus = _ctx("match")
    huge = WIDE * (4 << 20)
    asyncio.run(refuse(ctx, "alice", "cmd.create_match", huge,
                       Refusal(RejectionCode.BAD_OPTIONS, f"not {huge!r}")))
    [(_, body)] = bus.sent
    assert len(body) <= m.MAX_INBOX_ENTRY_BYTES
    refused = bus_decoder.decode(body)
    assert isinstance(refused, CommandRefused)
    assert len(refused.detail.encode()) <= m.MAX_DETAIL
    assert len(refused.subject.encode()) <= m.MAX_MATCH_ID
    assert refused.detail.startswith("not '" + WIDE)


def test_a_rejection_quoting_a_huge_action_is_small() -> None:
    ctx, bus = _ctx("rules")
    cmd = SubmitAction(match_id="m" * m.MAX_MATCH_ID, seat=0, decision=1,
                       command_id=WIDE * m.MAX_COMMAND_ID, action=b"\x00" * m.MAX_ACTION_BYTES,
                       client="c" * m.MAX_CLIENT_ID)
    asyncio.run(reject(ctx, cmd, Rejection(RejectionCode.ILLEGAL_ACTION,
                                           "x" * (4 << 20) + " is not legal now")))
    [(_, body)] = bus.sent
    assert len(body) <= m.MAX_INBOX_ENTRY_BYTES
    rejected = bus_decoder.decode(body)
    assert isinstance(rejected, ActionRejected)
    assert len(rejected.detail.encode()) <= m.MAX_DETAIL
    assert rejected.command_id == cmd.command_id  # ids are bounded, so never cut


def test_no_inbox_entry_exceeds_the_largest_inbox_entry() -> None:
    """The worst case of every message an inbox receives, from inputs at their bounds."""
    match_id, client = "m" * m.MAX_MATCH_ID, "c" * m.MAX_CLIENT_ID
    worst: list[Message] = [
        SeatGranted(match_id=match_id, game=WIDE * m.MAX_GAME_NAME, seat=m.MAX_SEATS - 1,
                    token=seat_token(b"k", match_id, 0),
                    stream=view_key(client, match_id, m.MAX_SEATS - 1)),
        EntrantAccepted(tournament_id=WIDE * m.MAX_MATCH_ID, entrant_id=entrant_for(client)),
        TournamentEnded(tournament_id=WIDE * m.MAX_MATCH_ID),
        CommandRefused(command=WIDE * m.MAX_TAG, subject=clipped(WIDE * 999, m.MAX_MATCH_ID),
                       code=RejectionCode.BAD_OPTIONS, detail=clipped(WIDE * 999, m.MAX_DETAIL)),
        ActionRejected(match_id=WIDE * m.MAX_MATCH_ID, seat=-(2**63),
                       command_id=WIDE * m.MAX_COMMAND_ID, code=RejectionCode.ILLEGAL_ACTION,
                       detail=clipped(WIDE * 999, m.MAX_DETAIL)),
        MatchFinished(match_id=match_id, game=WIDE * m.MAX_GAME_NAME,
                      seat_names=[WIDE * m.MAX_SEAT_NAME] * m.MAX_SEATS,
                      ranks=[2**63 - 1] * m.MAX_SEATS),
    ]
    sizes = {type(msg).__name__: len(bus_encoder.encode(msg)) for msg in worst}
    assert max(sizes.values()) <= m.MAX_INBOX_ENTRY_BYTES, sizes
