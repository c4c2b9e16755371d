"""Commands are packed in RESP by hiredis where it can and by our own code otherwise: both ways
give the same bytes, so no argument type changes what Redis receives."""

from __future__ import annotations

import pytest

from siege.eventlog.pipelined import bulk, pack

CASES = [
    ["PING"],
    ["XADD", "siege:bus:3:rules", "*", b"m", b"\x00\xff\r\n" * 40],
    ["EVALSHA", "a" * 40, 2, "k1", "k2", -7, 0, 12345678901234567890],
    ["SET", "ünïcode", 1.5, 0.1, 1e20],
    ["SET", "k", True, memoryview(b"view"), bytearray(b"array")],  # hiredis refuses these
]


def by_hand(args: list) -> bytes:
    return b"*%d\r\n" % len(args) + b"".join(bulk(arg) for arg in args)


@pytest.mark.parametrize("args", CASES)
def test_packed_commands_are_the_resp_our_own_packer_writes(args: list) -> None:
    assert pack(args) == by_hand(args)


def test_a_packed_command_is_an_array_of_bulk_strings() -> None:
    assert pack(["SET", "k", 10]) == b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\n10\r\n"
    assert pack(("GET", b"k")) == b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"
