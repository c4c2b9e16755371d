"""The hidden-information check every game's view tests make: change one seat's secrets and
every other seat's view, and the spectator's, must stay byte-identical once encoded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from siege.engine.protocol import SPECTATOR, Engine


def views_unchanged(engine: Engine[Any], state: Any, players: int,
                    with_other_secrets: Callable[[Any, int], Any]) -> int:
    """For each seat whose secrets ``with_other_secrets(state, seat)`` can change, asserts that
    every other seat's encoded view, and the spectator's, is the same in both states; returns
    the views compared."""
    compared = 0
    for secret in range(players):
        other = with_other_secrets(state, secret)
        if other == state:
            continue
        for seat in [*range(players), SPECTATOR]:
            if seat == secret:
                continue
            mine = msgspec.msgpack.encode(engine.view(state, seat))
            theirs = msgspec.msgpack.encode(engine.view(other, seat))
            assert mine == theirs, (secret, seat)
            compared += 1
    return compared
