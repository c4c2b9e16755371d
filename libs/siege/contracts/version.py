"""The contract's version, and the fingerprint that says when it must move.

``CONTRACT_VERSION`` is ``MAJOR.MINOR``. The compatibility rule (docs/clients.md, "Versions"):
a minor version adds only what a client written for the previous one may ignore (an optional
field with a default, a new message type, a new code, a new game); anything else (a field
removed, renamed or retyped, a new required field, a changed meaning) is a new major version.

The fingerprint is a hash of every message, event, action and view shape the contract publishes,
descriptions and titles left out, so rewording a description moves nothing while any change of
shape does. ``docs/contract/versions.json`` records the fingerprint of each version released;
a test fails when the shapes no longer match the fingerprint recorded for ``CONTRACT_VERSION``,
which is the reminder to raise the version (``siege contract`` then records the new one).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

CONTRACT_VERSION = "2.2"
"""The running services say it in the hash ``siege.eventlog.keys.CONTRACT_KEY`` (``version``)."""


def _shape(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _shape(v) for k, v in node.items() if k not in ("description", "title")}
    if isinstance(node, list):
        return [_shape(v) for v in node]
    return node


def fingerprint(schemas: dict[str, Any]) -> str:
    """sha256 (hex) of the shapes of ``schemas`` (JSON Schema components by name)."""
    canonical = msgspec.json.encode(_shape(schemas), order="sorted")
    return hashlib.sha256(canonical).hexdigest()


class VersionNotRaisedError(ValueError):
    pass


def recorded(versions: dict[str, str], current: str) -> dict[str, str]:
    """``versions`` with ``current`` recorded for ``CONTRACT_VERSION``; refuses to record
    other shapes under a version already released."""
    known = versions.get(CONTRACT_VERSION)
    if known is not None and known != current:
        raise VersionNotRaisedError(
            f"the message shapes changed since contract version {CONTRACT_VERSION} was "
            "recorded: raise CONTRACT_VERSION in siege/contracts/version.py (minor for "
            "additions a client may ignore, major otherwise; see docs/clients.md, Versions)")
    return {**versions, CONTRACT_VERSION: current}
