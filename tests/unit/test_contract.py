"""The checked-in contract is exactly what the code generates."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

from siege.contracts.schema import contract
from siege.eventlog.acl import client_rules

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "contract"


def test_checked_in_contract_matches_the_code() -> None:
    for name, data in contract().items():
        assert (FOLDER / name).read_bytes() == data, f"{name} is stale: run `siege contract`"


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
    sample = {"client": "{alice}", "match_id": "m-1", "seat": "0", "shard": "{s3}"}
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
