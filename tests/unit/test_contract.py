"""The checked-in contract is exactly what the code generates."""

from __future__ import annotations

import json
from pathlib import Path

from siege.contracts.schema import contract

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
