"""Phase 2, the Siege: enemy cards dealt in secret and placed one per turn."""

from __future__ import annotations

import msgspec
from castellum_support import (
    ENGINE,
    angel,
    at,
    deal_angels,
    place_enemies,
    run_until,
    start,
)

from siege.games.castellum.actions import PlaceEnemy
from siege.games.castellum.enemies import ENEMY_DECKS
from siege.games.castellum.events import EnemyPlaced


def test_each_seat_is_dealt_as_many_enemy_cards_as_it_has_columns_first_player_first() -> None:
    table = start(3, first=2, enemies={0: [7, 6, 5, 4, 3, 2]})
    run_until(table, at("siege"))
    assert table.state.enemy_hands == [[5, 4], [3, 2], [7, 6]]  # seat 2 first, then 0, 1
    assert table.state.enemy_decks[0] == [0, 1]  # the rest stays unused this year
    assert table.asked == 2


def test_an_enemy_card_may_go_into_any_free_available_column_of_any_line() -> None:
    table = start(2, first=0, enemies={0: [0, 1, 2, 3]})
    deal_angels(table, 0, [angel("resources")])
    run_until(table, at("siege"))
    legal = table.legal(0)
    assert all(isinstance(a, PlaceEnemy) for a in legal)  # no angel effects in the Siege
    assert {(a.card, a.owner, a.column) for a in legal} == {
        (card, owner, col) for card in (0, 1) for owner in (0, 1) for col in (0, 1)}
    out = table.when(0, PlaceEnemy(card=1, owner=1, column=0))
    assert out == [EnemyPlaced(seat=0, card=1, owner=1, column=0)]
    assert table.state.lines[1][0].enemy == 1
    # One enemy card per column: that column is no longer offered to anyone.
    assert all((a.owner, a.column) != (1, 0) for a in table.legal(1))
    assert table.asked == 1


def test_placements_go_clockwise_until_every_available_column_holds_one_enemy() -> None:
    table = start(3, first=1)
    deal_angels(table, 0, [0])  # so that the Angel phase stops the game after the Siege
    run_until(table, lambda s: s.year == 1 and s.phase == "siege" and bool(s.waiting))
    asked = []
    while table.state.phase == "siege":
        seat = table.asked
        asked.append(seat)
        table.when(seat, table.legal(seat)[-1])  # into the last free column of the table
    assert asked == [2, 0, 1] * 3
    assert table.state.phase == "angels"
    for line in table.state.lines:
        assert [col.enemy >= 0 for col in line] == [True] * 3 + [False] * 2
    placed = [col.enemy for line in table.state.lines for col in line if col.enemy >= 0]
    assert sorted(placed) == sorted(ENEMY_DECKS[1][:9])
    assert table.state.enemy_hands == [[], [], []]


def test_dealt_enemy_cards_are_secret_until_placed() -> None:
    table = start(2, first=0, enemies={0: [0, 1, 2, 3]})
    deal_angels(table, 0, [0])
    run_until(table, at("siege"))
    view = ENGINE.view(table.state, 1)
    assert view.enemy_hand == [2, 3]
    assert view.enemy_hand_sizes == [2, 2]
    assert ENGINE.view(table.state, 0).enemy_hand == [0, 1]
    # Seat 1's view is the same whatever seat 0 was dealt.
    swapped = msgspec.convert(msgspec.to_builtins(table.state), type(table.state))
    swapped.enemy_hands[0] = [6, 7]
    assert msgspec.msgpack.encode(view) == msgspec.msgpack.encode(ENGINE.view(swapped, 1))
    place_enemies(table, {0: [(0, 1, 1)]})
    assert ENGINE.view(table.state, 1).lines[1][1].enemy == 0  # placed cards lie open
