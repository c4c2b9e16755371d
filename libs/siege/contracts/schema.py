"""The published message contract, generated from the msgspec types (never written by hand).

``contract()`` returns the published files: a JSON Schema with every bus message, every core
event and each hosted game's events, actions and view, every field described; an AsyncAPI 3
document naming every stream and key a client reads or writes, its encoding and the flow of a
match from a client's side; each game's reference data (``games/<game>.json``: its cards, board
and codes, what a client needs to read a view); and the versions released with the fingerprint
of their shapes (``versions.json``, see :mod:`siege.contracts.version`). The CLI writes them to
``docs/contract/``; a test fails when the checked-in files and the code differ.
"""

from __future__ import annotations

from typing import Any

import msgspec

from siege.contracts.envelope import Envelope
from siege.contracts.events import CORE_EVENT_TYPES, SCHEMA_VERSION
from siege.contracts.lobby import OpenSeats
from siege.contracts.messages import BUS_MESSAGES
from siege.contracts.version import CONTRACT_VERSION, fingerprint, recorded
from siege.engine.codecs import view_type
from siege.engine.registry import game_names, get_engine, reference_data
from siege.eventlog.keys import CONTRACT_KEY, LOBBY_HASH, RESULTS_HASH

REF = "#/components/schemas/{name}"
ENCODING_NOTE = (
    "Every bus entry carries one message as plain msgpack in the stream field `m` (no other "
    "framing). Schemas are given in JSON terms: a `string` with `contentEncoding: base64` is a "
    "msgpack bin value on the wire. Tagged types carry their tag in field `t`."
)


def _types() -> list[Any]:
    types: list[Any] = [*BUS_MESSAGES, OpenSeats, *CORE_EVENT_TYPES, Envelope[msgspec.Raw]]
    for game in game_names():
        engine = get_engine(game)
        types += [*engine.event_types, *engine.action_types, view_type(game)]
    return types


def schemas(ref_template: str = REF) -> dict[str, Any]:
    _, components = msgspec.json.schema_components(_types(), ref_template=ref_template)
    for schema in components.values():
        tag = schema.get("properties", {}).get("t")
        if tag is not None and len(tag.get("enum", ())) == 1:  # the type's own tag
            tag["description"] = f"The type tag: always `{tag['enum'][0]}` for this type."
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
        "ResignMatch": _message(
            "ResignMatch", "Give up a match for a seat you hold (its token): the match ends "
            "at once, that seat last (MatchFinished reason `resigned`)."),
        "WatchMatch": _message(
            "WatchMatch", "Follow a match as a spectator, for 60 s from this command: its "
            "public stream gets a snapshot, then what changes. Renew with `snapshot` false."),
        "MatchWatched": _message(
            "MatchWatched", "What a spectator may know of a match: the events since the last "
            "entry in words (`lines`) and the spectator's view (`view`, seat -1: nobody's "
            "secrets), up to `seq`; `over` on the last."),
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
        "OpenSeats": _message("OpenSeats", "A match waiting for players, as the public lobby "
                              "lists it: JoinMatch one of its `open` seats."),
        "LogEntry": {
            "name": "LogEntry", "contentType": "application/msgpack",
            "summary": "One stored event: fields `e` (the envelope's bytes) and `h` (their "
                       "sha256). Entry ids are `0-<seq>`; the log is append-only.",
            "payload": {"$ref": REF.format(name="Envelope_Raw_")},
        },
    }
    shard = {"description": "`s` and the match's shard: crc32(match_id) mod 16, e.g. `{s3}`."}
    client_shard = {"description": "`s` and your client's shard in braces (a Redis hash tag): "
                                 "crc32(client id) mod 16, e.g. `{s7}` for `alice`."}
    client = {"description": "Your client id, e.g. `alice`. Ids are 1-64 of "
                           "`A-Z a-z 0-9 _ . -`."}
    match_id = {"description": "The match id."}
    seat = {"description": "The seat number, from 0."}

    def ref(kind: str, name: str) -> dict[str, str]:
        return {"$ref": f"#/{kind}/{name}"}

    def refs(*names: str) -> dict[str, dict[str, str]]:
        return {m: ref("components/messages", m) for m in names}

    channels = {
        "commands": {
            "address": "siege:client:{client_shard}:{client}:commands",
            "title": "A client's commands",
            "description": "The one stream a client writes (XADD): its commands. The services "
                           "take the stream's owner as the sender: `client` may be left empty; "
                           "a command naming another client is refused (`bad_client`). The "
                           "services read the streams of the clients in the set "
                           "`siege:clients` (the operator's `siege acl issue` adds one; on a "
                           "server without ACLs a client adds itself with SADD and rings "
                           "`siege:clients:changed` with XADD * c <id>). " + ENCODING_NOTE,
            "parameters": {"client_shard": client_shard, "client": client},
            "messages": refs("CreateMatch", "JoinMatch", "RegisterEntrant", "SubmitAction",
                             "ResignMatch", "WatchMatch"),
        },
        "inbox": {
            "address": "siege:client:{client_shard}:{client}:inbox", "title": "A client's inbox",
            "description": "Read with XREAD (a consumer group would need write rights). Only "
                           "this client may read it.",
            "parameters": {"client_shard": client_shard, "client": client},
            "messages": refs("SeatGranted", "EntrantAccepted", "CommandRefused",
                             "ActionAcknowledged", "ActionRejected", "MatchFinished"),
        },
        "seat": {
            "address": "siege:client:{client_shard}:{client}:seat:{match_id}:{seat}",
            "title": "One seat's prompts",
            "description": "Read with XREAD. One entry per decision, entry id `<decision>-1`, "
                           "so a prompt is never delivered twice. Only the seat's holder may "
                           "read it.",
            "parameters": {"client_shard": client_shard, "client": client,
                           "match_id": match_id, "seat": seat},
            "messages": refs("SeatPrompted"),
        },
        "watch": {
            "address": "{shard}:watch:{match_id}", "title": "A match's public stream",
            "description": "Read with XREAD, any client: written while someone watches the "
                           "match (WatchMatch, renewed every 20 s or so), nothing otherwise. "
                           "Public information only. It expires an hour after the match "
                           "ends.",
            "parameters": {"shard": shard, "match_id": match_id},
            "messages": refs("MatchWatched"),
        },
        "results": {
            "address": "siege:results", "title": "Finished matches (public)",
            "description": "Read with XREAD: every result as it comes, newest last (capped, so "
                           "older ones leave it; the hash below keeps every one).",
            "messages": refs("MatchFinished"),
        },
        "resultsByMatch": {
            "address": RESULTS_HASH, "title": "Every result, by match id (public)",
            "description": "A Redis hash, not a stream: HGET it with a match id for that "
                           "match's MatchFinished (msgpack), or HSCAN it. Written once per "
                           "match, when its result is first recorded.",
            "messages": refs("MatchFinished"),
        },
        "lobby": {
            "address": LOBBY_HASH, "title": "Matches waiting for players (public)",
            "description": "A Redis hash, not a stream: field a match id, value the msgpack of "
                           "its OpenSeats. HSCAN (or HGETALL) it to find a seat, then send "
                           "JoinMatch. A listing leaves as its last seat is taken.",
            "messages": refs("OpenSeats"),
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
        "resign": op("send", "commands", "ResignMatch", "Or give the match up, at any time "
                     "before its end."),
        "receiveAcknowledgement": op("receive", "inbox", "ActionAcknowledged", "5a. An "
                                     "accepted action is acknowledged."),
        "receiveRejection": op("receive", "inbox", "ActionRejected", "5b. A refused command "
                               "comes back with its reason."),
        "receiveRefusal": op("receive", "inbox", "CommandRefused", "A refused create, join or "
                             "registration."),
        "receiveResult": op("receive", "inbox", "MatchFinished", "6. The match has ended."),
        "readLobby": op("receive", "lobby", "OpenSeats", "0. Find a match with open seats."),
        "watchMatch": op("send", "commands", "WatchMatch", "Or watch any match as a "
                         "spectator."),
        "readWatch": op("receive", "watch", "MatchWatched", "A watched match, move by move."),
        "readResult": op("receive", "resultsByMatch", "MatchFinished", "Look up any match's "
                         "result by its id."),
        "auditLog": op("receive", "matchLog", "LogEntry", "Auditors read the whole log."),
    }
    return {
        "asyncapi": "3.0.0",
        "info": {"title": "Siegeworks bus", "version": CONTRACT_VERSION,
                 "description": ENCODING_NOTE + " The running services' version is in the "
                 f"hash `{CONTRACT_KEY}` (field `version`), readable by every client; "
                 "docs/clients.md says what may change within a major version."},
        "defaultContentType": "application/msgpack",
        "channels": channels,
        "operations": operations,
        "components": {"messages": messages, "schemas": schemas()},
        "x-siege-games": games(),
    }


def games() -> dict[str, Any]:
    """Per hosted game: its player counts, the schema names of its view, actions and events
    (the game named in ``CreateMatch.game`` decides which apply) and its reference data file."""
    def name(t: Any) -> str:
        return t.__name__

    return {game: {"players": [get_engine(game).min_players, get_engine(game).max_players],
                   "view": name(view_type(game)),
                   "actions": sorted(map(name, get_engine(game).action_types)),
                   "events": sorted(map(name, get_engine(game).event_types)),
                   "reference": f"games/{game}.json"}
            for game in game_names()}


def shapes_fingerprint() -> str:
    """The fingerprint of every shape the contract publishes (:mod:`siege.contracts.version`)."""
    return fingerprint(schemas())


def contract(versions: dict[str, str] | None = None) -> dict[str, bytes]:
    """File name (relative to the contract folder) -> pretty JSON bytes, exactly as checked in.
    ``versions``: the versions file as released so far (raises ``VersionNotRaisedError`` when
    the shapes changed under a version already recorded)."""
    def pretty(doc: Any) -> bytes:
        return msgspec.json.format(msgspec.json.encode(doc), indent=2) + b"\n"

    files = {
        "schema.json": pretty({"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "$defs": schemas("#/$defs/{name}")}),
        "asyncapi.json": pretty(asyncapi()),
        "versions.json": pretty(recorded(versions or {}, shapes_fingerprint())),
    }
    for game in game_names():
        files[f"games/{game}.json"] = pretty(reference_data(game))
    return files
