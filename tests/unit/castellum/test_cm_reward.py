"""The Bonus Reward card: threshold, who orients it, the four sides, and what they give."""

from __future__ import annotations

import pytest
from castellum_support import (
    ENGINE,
    Table,
    angel,
    build,
    deal_angels,
    play,
    run_until,
    start,
)

from siege.games.castellum.actions import ORIENT, DiscardAngel, OrientReward
from siege.games.castellum.cards import ARTILLERY, INFANTRY
from siege.games.castellum.enemies import ENEMY_CARDS
from siege.games.castellum.events import RewardOriented
from siege.games.castellum.rewards import REWARD_CARDS, side_for
from siege.games.castellum.rules.combat import column_strength
from siege.games.castellum.rules.reward import chooser
from siege.games.castellum.state import new_state

STRONG = [(0, 8, ()), (1, 9, ())]  # two Bastions of strength 4: every 1579 enemy falls


def fortify(table: Table, seat: int, columns: list[tuple[int, int, tuple[int, ...]]]) -> None:
    for col, fort, troops in columns:
        build(table, seat, col, fort=fort, troops=troops)


def three_player_reward() -> Table:
    """1579 with first player 1: seats 0 and 2 each defeat both their enemies, seat 1 none."""
    table = start(3, first=1)
    fortify(table, 0, STRONG)
    fortify(table, 2, [(0, 10, ()), (1, 16, (24,))])  # Hornwork 3; Guardhouse 2 + Musketeers 3
    build(table, 1, 0)  # seat 1's Line is empty
    run_until(table, lambda s: s.phase == "reward" or s.year > 0)
    return table


def test_the_seat_with_most_defeats_orients_the_card_ties_go_clockwise_from_the_first() -> None:
    table = three_player_reward()
    assert table.state.year_defeats == [2, 0, 2]
    # Seats 0 and 2 tie; clockwise from the first player (1) seat 2 comes before seat 0.
    assert table.state.asking == "reward" and table.asked == 2
    assert table.legal(2) == list(ORIENT)


def test_every_seat_gets_its_side_and_three_players_take_three_edges_in_a_row() -> None:
    table = three_player_reward()
    before = [list(have) for have in table.state.resources]
    out = table.when(2, OrientReward(side=3))  # seat 2 takes the angel card side
    assert out == [RewardOriented(seat=2, side=3)]
    assert len(table.state.hands[2]) == 1
    assert table.state.resources[0] == [before[0][0] + 3, before[0][1], before[0][2]]  # side 0
    assert table.state.resources[1] == [before[1][0], before[1][1] + 3, before[1][2]]  # side 1


def test_an_angel_reward_over_the_hand_limit_makes_its_receiver_discard() -> None:
    table = start(3, first=1)
    fortify(table, 0, STRONG)
    fortify(table, 2, [(0, 10, ()), (1, 16, (24,))])
    build(table, 1, 0)
    held = [angel("switch"), angel("take"), angel("cancel")]
    deal_angels(table, 2, held)
    run_until(table, lambda s: s.phase == "reward" and s.asking == "reward")
    table.when(2, OrientReward(side=3))
    assert table.state.asking == "discard" and table.asked == 2
    table.when(2, DiscardAngel(card=held[0]))
    assert len(table.state.hands[2]) == 3
    # The year is over; the discarded card is shuffled back under the angel deck first.
    assert table.state.year == 1 and table.need().purpose == "angel_reshuffle"
    assert table.need().count == 1


def test_no_reward_when_the_players_together_miss_the_threshold() -> None:
    table = start(2, first=0)
    for seat in (0, 1):
        build(table, seat, 0)  # no Line card anywhere: nothing can be defeated
    run_until(table, lambda s: s.year == 1 and s.phase == "building")
    assert all(event.__class__ is not RewardOriented for event in table.events)
    assert table.state.resources[0] == [5, 3, 3]  # two woods from the bridge, no reward


@pytest.mark.parametrize(("players", "chosen", "sides"), [
    (2, 0, [0, 2]),
    (2, 3, [3, 1]),
    (3, 1, [1, 2, 3]),
    (4, 2, [2, 3, 0, 1]),
])
def test_sides_go_round_the_table_from_the_chooser(players: int, chosen: int,
                                                    sides: list[int]) -> None:
    # Listed from the chooser clockwise; two players sit across the table from each other.
    chooser_seat = players - 1
    got = [side_for(players, chooser_seat, chosen, (chooser_seat + k) % players)
           for k in range(players)]
    assert got == sides


def test_ties_for_most_defeats_include_the_first_player_itself() -> None:
    state = new_state(4)
    state.first = 2
    state.year_defeats = [1, 2, 2, 0]
    assert chooser(state) == 2  # the first player is the first of the tied seats
    state.year_defeats = [2, 1, 0, 2]
    assert chooser(state) == 3  # clockwise from seat 2: 3 before 0
    state.year_defeats = [1, 0, 0, 0]
    assert chooser(state) == -1  # 1 < 4, the 1579 threshold for four players


@pytest.mark.parametrize(("players", "thresholds"), [(2, [2, 3, 4, 5]), (3, [3, 5, 6, 8]),
                                                     (4, [4, 6, 8, 10])])
def test_thresholds_depend_on_the_player_count(players: int, thresholds: list[int]) -> None:
    assert [card.threshold[players] for card in REWARD_CARDS] == thresholds


def test_a_strength_reward_adds_one_to_every_column_of_the_next_year_only() -> None:
    table = start(2, first=0)
    run_until(table, lambda s: s.year == 1 and s.phase == "building")
    fortify(table, 0, [(0, 8, (46, 47)), (1, 9, (43, 44)), (2, 6, (45, 51))])
    run_until(table, lambda s: s.phase == "reward" and s.asking == "reward")
    assert table.asked == 0 and table.state.year_defeats[0] == 3
    before = list(table.state.resources[1])
    play(table, (0, OrientReward(side=3)))  # 1632: side 3 is +1 strength next year
    # Seat 1, across the table, got side 1: two stone and a gold.
    assert table.state.resources[1] == [before[0], before[1] + 2, before[2] + 1]
    assert table.state.year == 2 and table.state.reward_strength == [1, 0]
    run_until(table, lambda s: s.year == 2 and s.phase == "building")
    assert column_strength(table.state, 0, 3) == 1  # even an empty column shows it
    assert column_strength(table.state, 1, 3) == 0
    run_until(table, lambda s: s.year == 3 and s.phase == "building")
    assert table.state.reward_strength == [0, 0]


def test_the_1794_reward_gives_each_seat_a_pair_type_that_scores_at_the_end() -> None:
    table = start(2, first=0)
    run_until(table, lambda s: s.year == 3 and s.phase == "building")
    for col, fort in enumerate((8, 9, 6, 7, 10)):
        build(table, 0, col, fort=fort, troops=[46 + col % 2, 43 + col % 3])
    build(table, 1, 0)
    run_until(table, lambda s: s.phase == "reward" and s.asking == "reward")
    assert table.asked == 0
    table.when(0, OrientReward(side=2))  # artillery for seat 0, infantry for seat 1 (across)
    assert table.state.pair_type == [ARTILLERY, INFANTRY]
    assert ENGINE.is_terminal(table.state)
    score = ENGINE.view(table.state, 1).scores[0]
    artillery = [c for c in table.state.defeated[0] if ENEMY_CARDS[c].type == ARTILLERY]
    assert len(artillery) >= 2
    assert score.pairs == len(artillery) // 2
    assert score.total == score.enemies + score.resources + score.stars + score.pairs
