"""Step 4: battles, cannonballs, battle dice and wall placement."""

from __future__ import annotations

import msgspec
from castle_dash_support import ENGINE, P, duel, place_all, replay, run_until, start

from siege.games.castle_dash.actions import ChooseBattle, ChooseCannonballs
from siege.games.castle_dash.events import CannonballsChosen


def cannons(count: int) -> ChooseCannonballs:
    return ChooseCannonballs(count=count)


def test_a_one_sided_battle_is_won_without_dice_and_all_its_soldiers_go_on_the_wall() -> None:
    table = duel(3, 4)
    state = table.state
    # Seat 0 put 5 soldiers against seat 2, who put none: no dice, all 5 onto seat 2's wall.
    assert state.walls[2][0] == 5
    assert state.troops[0][2] == 0
    assert state.resolved[0] >> 2 & 1
    # The only contested battle of seat 0 starts by itself: no battle choice is asked.
    assert state.battle is not None and state.battle.sides == [0, 1]


def test_the_rulebook_example_totals_5_against_6_put_1_soldier_on_the_losers_wall() -> None:
    table = duel(3, 4)
    table.when(0, cannons(0))
    table.when(1, cannons(0))
    need = table.need()
    assert (need.sides, need.count, need.purpose) == (4, 2, "battle")
    table.roll(2, 2)  # 3 + 2 = 5 against 4 + 2 = 6
    outcome = table.state.outcome
    assert outcome is not None
    assert (outcome.totals, outcome.winner, outcome.placed) == ([5, 6], 1, 1)
    assert table.state.walls[0][1] == 1  # seat 0's wall, opposite seat 1
    assert table.state.troops[1][0] == 3  # the rest of the winners stay in the field


def test_the_wall_placement_is_capped_by_the_winners_soldiers_left_in_the_battle() -> None:
    table = duel(2, 2)
    table.when(0, cannons(0))
    table.when(1, cannons(0))
    table.roll(4, 1)  # 2 + 4 = 6 against 2 + 1 = 3: a margin of 3, but only 2 soldiers
    assert table.state.outcome is not None and table.state.outcome.placed == 2
    assert table.state.walls[1][0] == 2
    assert table.state.troops[0][1] == 0


def test_tied_totals_are_rerolled_with_a_new_request() -> None:
    table = duel(3, 3)
    table.when(0, cannons(0))
    table.when(1, cannons(0))
    before = ENGINE.pending(table.state).decision
    table.roll(2, 2)
    again = ENGINE.pending(table.state)
    assert again.chance is not None and again.chance.purpose == "battle"
    assert again.decision == before + 1
    assert table.state.walls[1][0] == table.state.walls[0][1] == 0
    table.roll(1, 4)  # 3 + 1 against 3 + 4: seat 1 wins by 3
    assert table.state.walls[0][1] == 3


def test_cannonball_counts_are_chosen_together_under_one_decision_number() -> None:
    table = duel(3, 4)
    pending = ENGINE.pending(table.state)
    assert pending.seats == frozenset({0, 1})
    assert table.legal(0) == [cannons(0), cannons(1), cannons(2)]
    out = table.when(0, cannons(2))
    assert out == [CannonballsChosen(seat=0, opponent=1, count=2)]
    after = ENGINE.pending(table.state)
    # Seat 1's pending decision is unchanged by seat 0's move.
    assert after.decision == pending.decision
    assert after.seats == frozenset({1})
    assert table.legal(0) == []
    # Nothing is spent while the count is sealed.
    assert table.state.cannonballs == [2, 2, 2]


def test_a_sealed_cannonball_count_is_invisible_to_every_other_seat() -> None:
    table = duel(3, 4)
    encode = msgspec.msgpack.encode
    states = []
    for count in (0, 2):
        state = replay(table.events)
        state = ENGINE.evolve(state, CannonballsChosen(seat=0, opponent=1, count=count))
        states.append(state)
    low, high = states
    assert low != high
    for seat in (1, 2):
        assert encode(ENGINE.view(low, seat)) == encode(ENGINE.view(high, seat))
    assert ENGINE.view(low, 1).battle.chosen == [True, False]
    assert ENGINE.view(low, 1).battle.shots == [-1, -1]
    # The chooser sees its own count.
    assert ENGINE.view(high, 0).battle.shots[0] == 2
    assert encode(ENGINE.view(low, 0)) != encode(ENGINE.view(high, 0))


def test_counts_are_revealed_and_spent_once_both_have_chosen() -> None:
    table = duel(3, 4)
    table.when(0, cannons(2))
    table.when(1, cannons(1))
    assert table.state.cannonballs[:2] == [0, 1]
    assert ENGINE.view(table.state, 2).battle.shots == [2, 1]
    need = table.need()
    assert (need.sides, need.count, need.purpose) == (6, 3, "cannonballs")


def test_cannonball_dice_come_active_player_first_and_hit_on_at_most_the_soldiers() -> None:
    table = duel(3, 4)
    table.when(0, cannons(2))
    table.when(1, cannons(1))
    # Seat 0's two dice (1 hits 4 soldiers, 6 misses), then seat 1's die (3 hits 3 soldiers).
    table.roll(1, 6, 3)
    assert table.state.troops[1][0] == 3
    assert table.state.troops[0][1] == 2
    assert table.state.battle is not None and table.state.battle.knocked == [1, 1]


def test_each_cannonball_counts_the_soldiers_still_standing_when_it_is_rolled() -> None:
    table = duel(2, 2)
    table.when(0, cannons(2))
    table.when(1, cannons(0))
    # The first 2 hits (2 soldiers); the second 2 now faces 1 soldier and misses.
    table.roll(2, 2)
    assert table.state.troops[1][0] == 1


def test_a_battler_without_cannonballs_is_not_asked() -> None:
    table = duel(3, 4)
    table.when(0, cannons(0))
    table.when(1, cannons(2))
    table.roll(6, 6)
    table.roll(4, 1)  # battle (0, 1) over; next is seat 1's battle against seat 2
    assert table.state.battle is not None and table.state.battle.sides == [1, 2]
    assert ENGINE.pending(table.state).seats == frozenset({2})


def test_a_side_wiped_out_before_the_dice_loses_as_if_the_battle_were_one_sided() -> None:
    table = duel(2, 2)
    table.when(0, cannons(2))
    table.when(1, cannons(0))
    table.roll(1, 1)  # both hit: seat 1 has nobody left
    outcome = table.state.outcome
    assert outcome is not None
    assert (outcome.totals, outcome.winner, outcome.placed) == (None, 0, 2)
    assert table.state.walls[1][0] == 2
    assert table.state.battle is not None and table.state.battle.sides == [1, 2]


def test_a_battle_both_sides_of_which_are_wiped_out_ends_with_nothing() -> None:
    table = duel(2, 2)
    table.when(0, cannons(2))
    table.when(1, cannons(2))
    table.roll(1, 1, 1, 1)
    outcome = table.state.outcome
    assert outcome is not None and outcome.winner == -1 and outcome.placed == 0
    assert table.state.walls[0][1] == table.state.walls[1][0] == 0


def contested_everywhere():
    table = start(3, first=0)
    place_all(table, {0: [P(1, 4), P(2, 4)], 1: [P(0, 4), P(2, 4)], 2: [P(0, 4), P(1, 4)]})
    return table


def test_the_active_player_chooses_the_order_of_its_contested_battles() -> None:
    table = contested_everywhere()
    assert table.waiting == frozenset({0})
    assert table.legal(0) == [ChooseBattle(opponent=1), ChooseBattle(opponent=2)]
    table.when(0, ChooseBattle(opponent=2))
    assert table.state.battle is not None and table.state.battle.sides == [0, 2]


def test_battles_are_resolved_from_the_first_player_clockwise() -> None:
    table = contested_everywhere()
    table.when(0, ChooseBattle(opponent=2))
    order = []
    while table.state.phase == "battle":
        fight = table.state.battle
        if fight is not None and (not order or order[-1] != fight.sides):
            order.append(list(fight.sides))
        run_until(table, lambda s: s.phase != "battle" or (
            s.battle is not None and (not order or s.battle.sides != order[-1])))
    assert order == [[0, 2], [0, 1], [1, 2]]


def test_battles_with_nobody_in_them_ask_nothing() -> None:
    # 4 players: seat 0 never meets seat 2 and seat 1 never meets seat 3.
    table = start(4, first=0)
    place_all(table, {
        0: [P(1, 4), P(3, 4)], 1: [P(0, 4), P(2, 4)],
        2: [P(1, 4), P(3, 4)], 3: [P(0, 4), P(2, 4)],
    })
    assert table.legal(0) == [ChooseBattle(opponent=1), ChooseBattle(opponent=3)]
    run_until(table, lambda s: s.phase != "battle")
    assert table.state.resolved[0] >> 2 & 1 and table.state.resolved[1] >> 3 & 1
