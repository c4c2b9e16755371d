"""A batch's clock changes are sent as one ZREM and one ZADD NX with the same net effect as
applying them one by one."""

from __future__ import annotations

from siegeworks.transport.redis_bus import net_deadlines


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
