"""The spectator's view of every hosted game (``view(state, SPECTATOR)``, what ``siege watch``
and ``siege replay --text`` show): everything open to all seats, and nobody's secrets.

Checked field by field against the seats' own views at points of seeded playouts: where every
seat sees the same value, the spectator sees it too; where the seats see different values (a
hand, a sealed count, what only the Boss is offered), the spectator sees the hidden form (an
empty list, -1), never one seat's value. A view that indexed a per-seat list with the
spectator's -1 would show the last seat's hand: this is the test that catches it. Each game's
own view tests also hold the spectator to the byte-identical rule (``siege.testing.privacy``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import pytest

from siege.engine.codecs import view_type
from siege.engine.protocol import SPECTATOR
from siege.engine.registry import game_names, get_engine
from siege.testing.playout import seeded_playout
from siege.testing.scenario import replay

HIDDEN_FORMS: tuple[Any, ...] = ([], -1, "")


@cache
def playout(game: str, seed: int) -> list[Any]:
    engine = get_engine(game)
    players = max(engine.min_players, min(4, engine.max_players))
    _, events = seeded_playout(engine, ["random"] * players, seed)
    return events


def leaves(value: Any, path: str = "view") -> list[tuple[str, str, Any]]:
    """(field path, path with list indexes, value) of every leaf of a view; a list that is
    empty is a leaf itself."""
    if isinstance(value, msgspec.Struct):
        return [leaf for name in value.__struct_fields__
                for leaf in leaves(getattr(value, name), f"{path}.{name}")]
    if isinstance(value, list) and value:
        return [(field, f"{path}[{i}]" + at[len(path):], v)
                for i, item in enumerate(value) for field, at, v in leaves(item, path)]
    return [(path, path, value)]


def fields(view: Any) -> dict[str, Any]:
    """A view as {path with list indexes: leaf}, with the path without indexes beside."""
    return {at: (field, v) for field, at, v in leaves(view)}


@pytest.mark.parametrize("game", game_names())
def test_the_spectator_sees_what_every_seat_sees_and_no_seats_secret(game: str) -> None:
    engine = get_engine(game)
    decoder = msgspec.msgpack.Decoder(view_type(game))
    samples: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for seed in (0, 1):
        events = playout(game, seed)
        players = int(events[0].players)
        for cut in range(2, len(events), max(1, len(events) // 40)):
            state = replay(engine, events[:cut])
            spectator = engine.view(state, SPECTATOR)
            assert spectator.seat == SPECTATOR
            assert decoder.decode(msgspec.msgpack.encode(spectator)) == spectator
            # The seat is the one field that always differs: set aside.
            seats = [msgspec.structs.replace(engine.view(state, seat), seat=SPECTATOR)
                     for seat in range(players)]
            samples.append((fields(spectator), [fields(v) for v in seats]))
    # A field is private if the seats ever saw it differently (same place, same moment).
    private: set[str] = set()
    for _, seats in samples:
        for at in set().union(*seats):
            if len({msgspec.json.encode(v.get(at, (None, "absent"))[1]) for v in seats}) > 1:
                private.add(next(v[at][0] for v in seats if at in v))
    checked = 0
    for spectator, seats in samples:
        for at, (field, value) in spectator.items():
            agreed = all(at in v and v[at][1] == seats[0].get(at, (field, None))[1]
                         for v in seats)
            if agreed and value == seats[0][at][1]:
                pass  # open to every seat and to the spectator
            else:
                # Seats that differ here, or agree by chance on a private field (two empty
                # hands): the spectator sees only the hidden form.
                assert field in private or not agreed, f"{at}: open to every seat, not shown"
                assert value in HIDDEN_FORMS, f"{at}: the spectator sees {value!r}"
            checked += 1
        for at in set(seats[0]) - set(spectator):  # a seat's list the spectator sees empty
            assert seats[0][at][0] in private or any(p in private for p in parents(at)), at
    assert len(samples) >= 40 and checked > 1000
    assert private, "no seat ever saw something of its own: the check saw no secret"


def parents(field: str) -> list[str]:
    parts = field.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


