from __future__ import annotations

from siege.hosting.clocks import deadline_member, forfeit_ranks, parse_member


def test_forfeiting_seats_share_last_place_and_others_keep_their_order() -> None:
    assert forfeit_ranks([1, 2, 3, 4], [0]) == [4, 1, 2, 3]
    assert forfeit_ranks([2, 1, 1, 4], [1, 3]) == [2, 3, 1, 3]
    assert forfeit_ranks([1, 1, 3], [2]) == [1, 1, 3]


def test_deadline_members_round_trip_even_with_odd_match_ids() -> None:
    member = deadline_member("cup:final\\7", 3, 42)
    assert parse_member(member) == ("cup:final\\7", 3, 42)
