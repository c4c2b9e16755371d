"""A batch's clock changes are sent as one ZREM and one ZADD NX per shard, with the same net
effect as applying them one by one."""

from __future__ import annotations

from siege.eventlog.keys import deadlines_key, shard_of
from siege.hosting.clocks import deadline_member, held_member
from siegeworks.transport.redis_bus import net_deadlines, net_deadlines_by_key


def test_each_member_ends_as_its_last_change_left_it() -> None:
    changes: list[tuple[str, int | None]] = [
        ("m\t0\t1", 100),  # prompted, then answered in the same batch: never scheduled
        ("m\t0\t1", None),
        ("m\t1\t2", 300),
        ("m\t1\t2", 200),  # a repeated prompt: NX keeps the earlier clock
        ("n\t0\t7", None),  # answered, prompted in an earlier batch
        ("n\t0\t8", 500),
    ]
    cleared, scheduled = net_deadlines(changes)
    assert sorted(cleared) == ["m\t0\t1", "n\t0\t7"]
    assert scheduled == {"m\t1\t2": 200, "n\t0\t8": 500}


def test_nothing_to_send_for_no_changes() -> None:
    assert net_deadlines([]) == ([], {})


def test_each_clock_goes_to_its_matchs_shard_held_ones_too() -> None:
    first, second = "m", next(m for m in ("n", "o", "p", "q") if shard_of(m) != shard_of("m"))
    held = held_member(deadline_member(first, 0, 3), "1700000000000-0")
    changes: list[tuple[str, int | None]] = [
        (deadline_member(first, 0, 2), None), (held, 900), (deadline_member(second, 1, 4), 700)]
    by_key = net_deadlines_by_key(changes)
    assert by_key == {
        deadlines_key(shard_of(first)): ([deadline_member(first, 0, 2)], {held: 900}),
        deadlines_key(shard_of(second)): ([], {deadline_member(second, 1, 4): 700}),
    }
    assert all(key.startswith("{s") for key in by_key)  # the shard's slot on a cluster
