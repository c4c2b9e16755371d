"""A person's recap tells each line of a match's story once, in order, whatever snapshots
repeat (a watch renewed after its lease ran out starts again with the last lines)."""

from __future__ import annotations

import asyncio

import msgspec

from siege.contracts.messages import MatchWatched, Said
from siegeworks.clients.recap import Recap


def watched(seqs: range, snapshot: bool = False) -> MatchWatched:
    return MatchWatched(match_id="m-1", game="castle-dash", seat_names=["Red", "Blue", "Green"],
                        seq=seqs[-1], snapshot=snapshot,
                        lines=[Said(seq=s, text=f"line {s}") for s in seqs],
                        view=msgspec.Raw(msgspec.msgpack.encode({})), over=False)


def told(recap: Recap) -> list[int]:
    return [said.seq for said in asyncio.run(recap.fresh())]


def test_each_line_is_told_once_in_order_and_snapshots_do_not_repeat_them() -> None:
    recap = Recap()
    assert told(recap) == [] and recap.names is None
    asyncio.run(recap.on_message(watched(range(1, 6), snapshot=True)))
    assert recap.names == ["Red", "Blue", "Green"]
    assert told(recap) == [1, 2, 3, 4, 5]
    assert told(recap) == []
    recap.hear(watched(range(6, 8)))
    recap.hear(watched(range(2, 10), snapshot=True))  # a renewed watch's snapshot
    assert told(recap) == [6, 7, 8, 9]
    recap.hear(watched(range(3, 10), snapshot=True))  # nothing new in it
    assert told(recap) == []


def test_anything_else_on_the_bus_is_not_a_line() -> None:
    recap = Recap()
    asyncio.run(recap.on_message(Said(seq=1, text="not a message")))
    assert told(recap) == []
