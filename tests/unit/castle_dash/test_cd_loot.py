"""Step 5: looting castles whose walls hold 3 or more soldiers of one attacker."""

from __future__ import annotations

from castle_dash_support import C, P, duel, place_all, run_until, start

from siege.games.castle_dash import cards
from siege.games.castle_dash.actions import Loot
from siege.games.castle_dash.events import LootTaken
from siege.games.castle_dash.rules import loot as loot_rules
from siege.games.castle_dash.state import State

RESCUE = Loot(choice="rescue")
COIN = Loot(choice="coin")


def looting_seat_2():
    """Round 1 of :func:`duel`: seat 0 has 5 on seat 2's wall and 2 on seat 1's wall."""
    table = duel(3, 4)
    run_until(table, lambda s: s.phase == "loot")
    assert table.state.walls[2][0] == 5 and table.state.walls[1][0] == 2
    assert table.state.current == [2, 0]
    return table


def test_a_looter_with_a_captive_and_coins_to_take_chooses() -> None:
    table = looting_seat_2()
    assert table.waiting == frozenset({0})
    assert table.legal(0) == [RESCUE, COIN]


def test_rescuing_frees_the_captive_and_the_looters_soldiers_go_home() -> None:
    table = looting_seat_2()
    out = table.when(0, RESCUE)
    assert out == [LootTaken(seat=0, castle=2, choice="rescue")]
    state = table.state
    assert 0 not in state.hostages[2]
    assert state.rescued[0] == 1
    assert state.walls[2][0] == 0
    assert state.coins[2] == 5
    # That was the last loot: round 2 has begun, with the captive and the 5 looters at home
    # (and 2 soldiers still on seat 1's wall).
    assert state.round == 2
    assert state.supply[0] == 8 + 1 - 2


def test_stealing_takes_one_coin() -> None:
    table = looting_seat_2()
    table.when(0, COIN)
    assert table.state.coins[2] == 4
    assert table.state.stolen[0] == 1
    assert 0 in table.state.hostages[2]


def test_walls_under_three_stay_for_later_rounds() -> None:
    table = looting_seat_2()
    table.when(0, COIN)
    run_until(table, lambda s: s.round == 2)
    assert table.state.walls[1][0] == 2
    # Soldiers on walls stay out of their owner's hand: 8 - 2 on seat 1's wall.
    assert table.state.supply[0] == 6


def test_a_looter_whose_captive_is_home_must_steal_a_coin() -> None:
    table = looting_seat_2()
    table.when(0, RESCUE)
    run_until(table, lambda s: s.phase == "place")
    # Round 2 (first player 1): seat 0 again hits seat 2's castle unopposed.
    assert table.state.supply[0] == 8 + 1 - 2
    place_all(table, {2: [P(1, 6), C(table.state.face_up[0]), C(table.state.face_up[1])],
                      0: [P(2, 6), P(1, 1)]})
    round_two = len(table.events)
    stolen_before = table.state.stolen[0]
    run_until(table, lambda s: s.round == 3)
    later = table.events[round_two:]
    assert not [e for e in later if isinstance(e, LootTaken) and e.seat == 0 and e.castle == 2]
    # The coin was taken all the same: seat 0's 6 soldiers broke in and came home with it.
    chosen_coins = sum(isinstance(e, LootTaken) and e.seat == 0 and e.choice == "coin"
                       for e in later)
    assert table.state.stolen[0] == stolen_before + 1 + chosen_coins
    assert table.state.walls[2][0] == 0
    assert 0 not in table.state.hostages[2]


def test_a_looter_at_a_castle_without_coins_must_rescue_and_with_neither_takes_nothing() -> None:
    # Shortcut: a castle already emptied in earlier rounds (it takes five steals by three or
    # more players to get there), checked on the options the engine offers.
    state = State(players=3, supply=[0, 0, 0], cannonballs=[2, 2, 2], coins=[0, 5, 5],
                  stolen=[0, 2, 2], rescued=[0, 0, 0], hostages=[[1, 2], [0, 2], [0, 1]],
                  troops=[[0] * 3 for _ in range(3)], placed=[0] * 3, resolved=[0] * 3,
                  smoke=[0] * 3, walls=[[0, 3, 0], [0, 0, 0], [0, 0, 0]])
    assert loot_rules.options(state, 0, 1) == ["rescue"]
    state.hostages[0] = [2]
    assert loot_rules.options(state, 0, 1) == []
    loot_rules.take(state, 0, 1, None)
    assert state.walls[0][1] == 0 and state.supply[1] == 3
    assert state.stolen == [0, 2, 2] and state.rescued == [0, 0, 0]


def test_castles_are_looted_from_the_first_player_and_attackers_clockwise_from_the_owner() -> None:
    table = start(4, first=0, top=[cards.RALLY, cards.IRON_HELMETS])
    place_all(table, {
        0: [P(1, 3), P(3, 5)],
        1: [P(3, 6), C(cards.RALLY), C(cards.IRON_HELMETS)],
        2: [P(1, 3), P(3, 5)],
        3: [P(0, 5), P(2, 3)],
    })
    run_until(table, lambda s: s.phase == "loot")
    asked = []
    while table.state.phase == "loot":
        (seat,) = table.waiting
        asked.append(tuple(table.state.current))
        table.when(seat, COIN)
    # Castle 1: attackers from its left (2), then 0. Castle 3: from its left (0), 1, then 2.
    assert asked == [(1, 2), (1, 0), (3, 0), (3, 1), (3, 2)]


def test_a_rescue_frees_only_the_captive_held_at_that_castle() -> None:
    # Given seat 0 breaks into seat 2's castle; seat 0's other captive is held by seat 1
    table = looting_seat_2()
    before = [list(held) for held in table.state.hostages]
    assert before == [[1, 2], [0, 2], [0, 1]]
    # When it rescues
    table.when(0, RESCUE)
    # Then only its captive at seat 2 comes home: seat 1 still holds one of seat 0's soldiers,
    # seat 2 still holds seat 1's, and the captives seat 0 itself holds stay with it
    assert table.state.hostages == [[1, 2], [0, 2], [1]]
    assert table.state.rescued == [1, 0, 0]
