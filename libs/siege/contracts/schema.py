"""The published message contract, generated from the msgspec types (never written by hand).

``contract()`` returns two documents: a JSON Schema with every bus message, every core event and
each hosted game's events, actions and view; and an AsyncAPI 3 document naming every stream a
client reads or writes, its encoding and the flow of a match from a client's side. The CLI writes
them to ``docs/contract/``; a test fails when the checked-in files and the code differ.
"""

from __future__ import annotations

from typing import Any

import msgspec

from siege.contracts.envelope import Envelope
from siege.contracts.events import CORE_EVENT_TYPES, SCHEMA_VERSION
from siege.contracts.messages import BUS_MESSAGES
from siege.engine.codecs import view_type
from siege.engine.registry import game_names, get_engine

REF = "#/components/schemas/{name}"
ENCODING_NOTE = (
    "Every bus entry carries one message as plain msgpack in the stream field `m` (no other "
    "framing). Schemas are given in JSON terms: a `string` with `contentEncoding: base64` is a "
    "msgpack bin value on the wire. Tagged types carry their tag in field `t`."
)


def _types() -> list[Any]:
    types: list[Any] = [*BUS_MESSAGES, *CORE_EVENT_TYPES, Envelope[msgspec.Raw]]
    for game in game_names():
        engine = get_engine(game)
        types += [*engine.event_types, *engine.action_types, view_type(game)]
    return types


def schemas(ref_template: str = REF) -> dict[str, Any]:
    _, components = msgspec.json.schema_components(_types(), ref_template=ref_template)
    return dict(sorted(components.items()))


def _message(name: str, summary: str) -> dict[str, Any]:
    return {"name": name, "summary": summary, "contentType": "application/msgpack",
            "payload": {"$ref": REF.format(name=name)}}


def asyncapi() -> dict[str, Any]:
    messages = {
        "CreateMatch": _message(
            "CreateMatch", "Create a match. `clients[seat]` names each seat's holder; `\"\"` "
            "leaves a seat open for JoinMatch, and the match starts once every seat is held."),
        "JoinMatch": _message(
            "JoinMatch", "Claim a seat of a match with open seats (`seat` -1: any). Joining "
            "again returns the same seat, so a client may retry."),
        "RegisterEntrant": _message(
            "RegisterEntrant", "Enter a tournament that is open for registration."),
        "SubmitAction": _message(
            "SubmitAction", "A seat's answer to its open decision: `action` is the msgpack of "
            "one of the game's actions, chosen from the prompt's `legal` list; `token` is the "
            "seat's token from SeatGranted."),
        "SeatGranted": _message(
            "SeatGranted", "You hold a seat: its token, and the stream its prompts come on."),
        "EntrantAccepted": _message(
            "EntrantAccepted", "You are entered; your matches come as SeatGranted."),
        "CommandRefused": _message(
            "CommandRefused", "A create, join or registration refused, with a typed reason: "
            "`command` is the refused command's tag, `subject` the match or tournament id it "
            "named."),
        "SeatPrompted": _message(
            "SeatPrompted", "What one seat may know now (`view`: the game's view, see "
            "`x-siege-games`) and what it may do (`legal`: a list of the game's actions), for "
            "decision number `decision`. `view` and each item of `legal` are embedded msgpack "
            "values (a map inside the message), not `bin`."),
        "ActionAcknowledged": _message(
            "ActionAcknowledged", "Your SubmitAction was accepted: its action is in the match "
            "log at `seq`. The same command sent again is acknowledged again."),
        "ActionRejected": _message("ActionRejected", "A command refused, with a typed reason."),
        "MatchFinished": _message("MatchFinished", "A match's result: `ranks[seat]`, 1 = won."),
        "LogEntry": {
            "name": "LogEntry", "contentType": "application/msgpack",
            "summary": "One stored event: fields `e` (the envelope's bytes) and `h` (their "
                       "sha256). Entry ids are `0-<seq>`; the log is append-only.",
            "payload": {"$ref": REF.format(name="Envelope_Raw_")},
        },
    }
    shard = {"description": "`s` and the match's shard: crc32(match_id) mod 16, e.g. `{s3}`."}
    client = {"description": "Your client id in braces (a Redis hash tag), e.g. `{alice}`. "
                           "Ids are 1-64 of `A-Z a-z 0-9 _ . -`."}
    match_id = {"description": "The match id."}
    seat = {"description": "The seat number, from 0."}

    def ref(kind: str, name: str) -> dict[str, str]:
        return {"$ref": f"#/{kind}/{name}"}

    def refs(*names: str) -> dict[str, dict[str, str]]:
        return {m: ref("components/messages", m) for m in names}

    channels = {
        "commands": {
            "address": "siege:client:{client}:commands", "title": "A client's commands",
            "description": "The one stream a client writes (XADD): its commands. The services "
                           "take the stream's owner as the sender: `client` may be left empty; "
                           "a command naming another client is refused (`bad_client`). The "
                           "services read the streams of the clients in the set "
                           "`siege:clients` (the operator's `siege acl issue` adds one; on a "
                           "server without ACLs a client adds itself with SADD and rings "
                           "`siege:clients:changed` with XADD * c <id>). " + ENCODING_NOTE,
            "parameters": {"client": client},
            "messages": refs("CreateMatch", "JoinMatch", "RegisterEntrant", "SubmitAction"),
        },
        "inbox": {
            "address": "siege:client:{client}:inbox", "title": "A client's inbox",
            "description": "Read with XREAD (a consumer group would need write rights). Only "
                           "this client may read it.",
            "parameters": {"client": client},
            "messages": refs("SeatGranted", "EntrantAccepted", "CommandRefused",
                             "ActionAcknowledged", "ActionRejected", "MatchFinished"),
        },
        "seat": {
            "address": "siege:client:{client}:seat:{match_id}:{seat}",
            "title": "One seat's prompts",
            "description": "Read with XREAD. One entry per decision, entry id `<decision>-1`, "
                           "so a prompt is never delivered twice. Only the seat's holder may "
                           "read it.",
            "parameters": {"client": client, "match_id": match_id, "seat": seat},
            "messages": refs("SeatPrompted"),
        },
        "results": {
            "address": "siege:results", "title": "Finished matches (public)",
            "messages": refs("MatchFinished"),
        },
        "matchLog": {
            "address": "{shard}:log:{match_id}", "title": "A match's event log",
            "description": "For auditors: every event of the match, hash-chained "
                           f"(schema version {SCHEMA_VERSION}). Clients never need it to play.",
            "parameters": {"shard": shard, "match_id": match_id},
            "messages": refs("LogEntry"),
        },
    }

    def op(action: str, channel: str, message: str, summary: str) -> dict[str, Any]:
        return {"action": action, "summary": summary, "channel": ref("channels", channel),
                "messages": [ref(f"channels/{channel}/messages", message)]}

    operations = {
        "createMatch": op("send", "commands", "CreateMatch", "1a. An organiser creates a "
                          "match, holding seats itself, naming their holders or leaving them "
                          "open."),
        "joinMatch": op("send", "commands", "JoinMatch", "1b. Or join an open seat."),
        "registerEntrant": op("send", "commands", "RegisterEntrant", "1c. Or enter a "
                              "tournament."),
        "receiveEntry": op("receive", "inbox", "EntrantAccepted", "Your tournament entry."),
        "receiveGrant": op("receive", "inbox", "SeatGranted", "2. Your seat's token and the "
                           "stream of its prompts."),
        "receivePrompt": op("receive", "seat", "SeatPrompted", "3. Wait for your view and legal "
                            "actions on your seat's stream."),
        "submitAction": op("send", "commands", "SubmitAction", "4. Answer the prompt's decision "
                           "with one of its legal actions, your token and a fresh command id."),
        "receiveAcknowledgement": op("receive", "inbox", "ActionAcknowledged", "5a. An "
                                     "accepted action is acknowledged."),
        "receiveRejection": op("receive", "inbox", "ActionRejected", "5b. A refused command "
                               "comes back with its reason."),
        "receiveRefusal": op("receive", "inbox", "CommandRefused", "A refused create, join or "
                             "registration."),
        "receiveResult": op("receive", "inbox", "MatchFinished", "6. The match has ended."),
        "auditLog": op("receive", "matchLog", "LogEntry", "Auditors read the whole log."),
    }
    return {
        "asyncapi": "3.0.0",
        "info": {"title": "Siegeworks bus", "version": str(SCHEMA_VERSION),
                 "description": ENCODING_NOTE},
        "defaultContentType": "application/msgpack",
        "channels": channels,
        "operations": operations,
        "components": {"messages": messages, "schemas": schemas()},
        "x-siege-games": games(),
    }


def games() -> dict[str, Any]:
    """Per hosted game: its player counts and the schema names of its view, actions and
    events (the game named in ``CreateMatch.game`` decides which apply)."""
    def name(t: Any) -> str:
        return t.__name__

    return {game: {"players": [get_engine(game).min_players, get_engine(game).max_players],
                   "view": name(view_type(game)),
                   "actions": sorted(map(name, get_engine(game).action_types)),
                   "events": sorted(map(name, get_engine(game).event_types))}
            for game in game_names()}


def contract() -> dict[str, bytes]:
    """File name -> pretty JSON bytes, exactly as checked in."""
    def pretty(doc: Any) -> bytes:
        return msgspec.json.format(msgspec.json.encode(doc), indent=2) + b"\n"

    return {
        "schema.json": pretty({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "$defs": schemas("#/$defs/{name}")}),
        "asyncapi.json": pretty(asyncapi()),
    }
