"""The checked-in contract is exactly what the code generates."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

import msgspec
import pytest

from siege.contracts.schema import contract, schemas, shapes_fingerprint
from siege.contracts.version import (
    CONTRACT_VERSION,
    VersionNotRaisedError,
    fingerprint,
    recorded,
)
from siege.engine.registry import game_names, reference_data
from siege.eventlog.acl import client_rules
from siege.hosting.examples import example_files

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "contract"


def released() -> dict[str, str]:
    return json.loads((FOLDER / "versions.json").read_text())


def test_checked_in_contract_matches_the_code() -> None:
    for name, data in (contract(released()) | example_files()).items():
        assert (FOLDER / name).read_bytes() == data, f"{name} is stale: run `siege contract`"


def test_the_shapes_are_those_recorded_for_this_contract_version() -> None:
    """Fails when a message, event, action or view changes shape and CONTRACT_VERSION stays:
    raise it (docs/clients.md, Versions), then `siege contract` records the new shapes."""
    assert released().get(CONTRACT_VERSION) == shapes_fingerprint(), (
        f"the shapes changed under contract version {CONTRACT_VERSION}: raise it")


def test_a_new_field_moves_the_fingerprint_and_a_reworded_description_does_not() -> None:
    base = schemas()
    reworded = json.loads(json.dumps(base))
    reworded["SubmitAction"]["description"] = "said otherwise"
    grown = json.loads(json.dumps(base))
    grown["SubmitAction"]["properties"]["priority"] = {"type": "string"}
    assert fingerprint(reworded) == fingerprint(base) != fingerprint(grown)
    with pytest.raises(VersionNotRaisedError, match="raise CONTRACT_VERSION"):
        recorded({CONTRACT_VERSION: fingerprint(base)}, fingerprint(grown))
    assert recorded({"0.9": "old"}, fingerprint(grown)) == {
        "0.9": "old", CONTRACT_VERSION: fingerprint(grown)}


def test_every_message_and_event_has_a_schema_and_refs_resolve() -> None:
    doc = json.loads((FOLDER / "asyncapi.json").read_text())
    schemas = doc["components"]["schemas"]
    for name in ("CreateMatch", "SubmitAction", "SeatPrompted", "ActionRejected", "MatchCreated",
                 "DiceRolled", "ActionAccepted", "SeedRevealed", "CastleDashView"):
        assert name in schemas
    missing = [ref for ref in _refs(doc) if not _resolves(doc, ref)]
    assert missing == []


def _refs(node: object) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        return found + [r for value in node.values() for r in _refs(value)]
    if isinstance(node, list):
        return [r for item in node for r in _refs(item)]
    return []


def _resolves(doc: dict, ref: str) -> bool:
    node: object = doc
    for part in ref.removeprefix("#/").split("/"):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def test_a_client_may_read_every_channel_the_contract_says_it_receives_on() -> None:
    """The contract and the ACLs agree: every channel but the audit log is one a client's ACL
    user may read, except the one it sends on (its commands), which it may write."""
    doc = json.loads((FOLDER / "asyncapi.json").read_text())
    rules = client_rules("alice")
    readable = [r.removeprefix("%R~") for r in rules if r.startswith("%R~")]
    writable = [r.removeprefix("%W~") for r in rules if r.startswith("%W~")]
    sample = {"client": "alice", "client_shard": "{s7}", "match_id": "m-1", "seat": "0",
              "shard": "{s3}"}
    sends = {op["channel"]["$ref"].rsplit("/", 1)[-1]
             for op in doc["operations"].values() if op["action"] == "send"}
    assert sends == {"commands"}
    for name, channel in doc["channels"].items():
        if name == "matchLog":
            continue  # for auditors, under their own user
        address = channel["address"].format(**sample)
        patterns = writable if name in sends else readable
        assert any(fnmatch.fnmatchcase(address, p) for p in patterns), (name, address)
    assert {"inbox", "seat", "results", "commands"} <= set(doc["channels"])
    assert "replies" not in doc["channels"]  # every answer goes to the sender's inbox


@pytest.mark.parametrize("game", game_names())
def test_each_games_reference_data_is_plain_json_and_the_same_every_time(game: str) -> None:
    data = msgspec.json.encode(reference_data(game))
    # Only JSON types: a tuple or an int dict key would not come back equal.
    assert json.loads(data) == reference_data(game)
    assert msgspec.json.encode(reference_data(game)) == data
