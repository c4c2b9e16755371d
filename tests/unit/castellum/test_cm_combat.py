"""Phase 4, Combat: column strength against enemy strength, with every boost."""

from __future__ import annotations

from castellum_support import (
    Table,
    angel,
    build,
    deal_angels,
    run_until,
    set_resources,
    start,
    to_angels,
)

from siege.games.castellum.actions import PASS, PLACE_WORKER, PlaceAngel
from siege.games.castellum.board import DINGHUIS
from siege.games.castellum.enemies import ENEMY_CARDS
from siege.games.castellum.events import EnemyPlaced
from siege.games.castellum.rules.combat import (
    DEFEATED,
    HELD_OUT,
    NO_ENEMY,
    column_strength,
    enemy_strength,
)
from siege.games.castellum.rules.scoring import score

# Line cards: start fortification 0 (strength 2), Earthen Rampart 4 (2), Bastion 8 (4),
# Guardhouse 16 (2, infantry +1), Pikemen 20-23 (infantry 1), Musketeers 24 (infantry 2),
# Sergeant 28 (infantry 1, infantry +1), Field Gun 43 (artillery 3).
# 1579 enemies: Tercio 0 (I2) and 1 (I3), Arquebusiers 2 (I3, gold penalty), Walloon Horse 3
# (C3), Lancers 4 (C4), Culverin 5 (A4), Miners 6 (S2, stone penalty), Maestre 7 (I3, I+1).


def fight(table: Table) -> None:
    """Ends the Angel phase (seat 0 holds the only card) so that combat runs."""
    table.when(0, PASS)
    assert table.state.phase != "angels"


def test_the_rulebook_examples_3_against_3_defeats_and_1_against_4_does_not() -> None:
    table = start(2, first=0, enemies={0: [3, 4, 0, 1]})
    deal_angels(table, 0, [angel("switch")])
    build(table, 0, 0, fort=0, troops=[20])  # 2 + 1 = 3
    build(table, 0, 1, troops=[21])  # 1
    to_angels(table, {0: [(3, 0, 0), (4, 0, 1)], 1: [(0, 1, 0), (1, 1, 1)]})
    assert (column_strength(table.state, 0, 0), enemy_strength(table.state, 0, 0)) == (3, 3)
    assert (column_strength(table.state, 0, 1), enemy_strength(table.state, 0, 1)) == (1, 4)
    fight(table)
    assert table.state.results[0][:2] == [DEFEATED, HELD_OUT]
    assert table.state.defeated[0] == [3]


def test_the_rulebook_example_8_against_6_defeats() -> None:
    table = start(2, first=0, enemies={1: [8, 9, 10, 15, 11, 12]})
    deal_angels(table, 0, [angel("switch")])
    run_until(table, lambda s: s.year == 1 and s.phase == "building")
    build(table, 0, 2, fort=8, troops=[43, 20])  # Bastion 4 + Field Gun 3 + Pikemen 1
    to_angels(table, {0: [(15, 0, 2), (11, 0, 0), (12, 0, 1)]})  # Demi-cannon, strength 6
    assert (column_strength(table.state, 0, 2), enemy_strength(table.state, 0, 2)) == (8, 6)
    fight(table)
    assert table.state.results[0][2] == DEFEATED
    assert 15 in table.state.defeated[0]


def test_an_empty_column_never_wins_even_with_help_and_angel_strength() -> None:
    table = start(2, first=0, enemies={0: [0, 3, 1, 4]})
    deal_angels(table, 0, [angel("destroy", 4), angel("switch")])  # strength 3
    build(table, 0, 1)  # nothing in column 2
    table.when(0, PLACE_WORKER[DINGHUIS][0])
    to_angels(table, {0: [(0, 0, 1), (3, 0, 0)]})
    table.when(0, PlaceAngel(card=angel("destroy", 4), column=1))
    assert column_strength(table.state, 0, 1) == 4 > enemy_strength(table.state, 0, 1) == 2
    fight(table)
    assert table.state.results[0][1] == HELD_OUT
    assert table.state.defeated[0] == [3]  # column 1 (start fortification 2 + 1) beat the 3


def test_a_troop_boost_adds_one_to_every_troop_of_its_type_in_the_line_and_stacks() -> None:
    table = start(2, first=0)
    build(table, 0, 0, fort=16, troops=[24])  # Guardhouse 2 + Musketeers 2 + 1
    build(table, 0, 1, troops=[28, 43])  # Sergeant 1 + 2 (itself and the Guardhouse), Gun 3
    assert column_strength(table.state, 0, 0) == 2 + (2 + 2)
    assert column_strength(table.state, 0, 1) == (1 + 2) + 3
    assert column_strength(table.state, 1, 0) == 2  # the other Line is not boosted


def test_an_enemy_boost_counts_every_enemy_of_its_type_in_the_same_line_itself_included() -> None:
    table = start(2, first=0, enemies={0: [7, 0, 1, 3]})
    deal_angels(table, 0, [angel("switch")])
    to_angels(table, {0: [(7, 0, 0), (0, 0, 1)], 1: [(1, 1, 0), (3, 1, 1)]})
    assert enemy_strength(table.state, 0, 0) == 3 + 1  # Maestre de Campo boosts itself
    assert enemy_strength(table.state, 0, 1) == 2 + 1  # and the Tercio beside it
    assert enemy_strength(table.state, 1, 0) == 3  # but not a Tercio in another Line
    assert enemy_strength(table.state, 1, 1) == 3  # nor cavalry


def test_all_columns_are_judged_before_defeated_cards_leave_the_line() -> None:
    table = start(2, first=0, enemies={0: [7, 0, 1, 3]})
    deal_angels(table, 0, [angel("switch")])
    build(table, 0, 0, fort=0, troops=[24])  # 4 against the Maestre's 4
    build(table, 0, 1, fort=4)  # 2 against the Tercio's 2 + 1
    to_angels(table, {0: [(7, 0, 0), (0, 0, 1)]})
    fight(table)
    # The Maestre falls, but its boost still counted for the Tercio in the same combat.
    assert table.state.results[0][:2] == [DEFEATED, HELD_OUT]


def test_an_undefeated_enemy_with_a_penalty_takes_a_resource_if_there_is_one() -> None:
    table = start(2, first=0, enemies={0: [2, 6, 0, 1]})
    deal_angels(table, 0, [angel("switch")])
    build(table, 0, 1, fort=8)  # Bastion 4 beats the Miners' 2: no stone penalty
    to_angels(table, {0: [(2, 0, 0), (6, 0, 1)], 1: [(0, 1, 0), (1, 1, 1)]})
    set_resources(table, 0, 1, 1, 1)
    fight(table)
    assert table.state.results[0][:2] == [HELD_OUT, DEFEATED]
    assert table.state.resources[0] == [1, 1, 0]  # the Arquebusiers took the gold


def test_a_penalty_without_the_resource_costs_nothing() -> None:
    table = start(2, first=0, enemies={0: [2, 6, 0, 1]})
    deal_angels(table, 0, [angel("switch")])
    to_angels(table, {0: [(2, 0, 0), (6, 0, 1)], 1: [(0, 1, 0), (1, 1, 1)]})
    set_resources(table, 0, 2, 0, 0)
    fight(table)
    assert table.state.results[0][:2] == [HELD_OUT, HELD_OUT]
    assert table.state.resources[0] == [2, 0, 0]
    assert table.state.results[0][2:] == [NO_ENEMY] * 3


def test_a_defeated_enemy_placed_by_an_opponent_goes_to_the_lines_owner() -> None:
    # Given seat 1 puts both its enemy cards (Walloon Horse 3, Lancers 4) into seat 0's
    # Bastions, and seat 0 puts its Tercio (2) against seat 1's start fortification (2)
    table = start(2, first=0, enemies={0: [0, 1, 3, 4]})
    deal_angels(table, 0, [angel("switch")])
    build(table, 0, 0, fort=8)
    build(table, 0, 1, fort=9)
    to_angels(table, {0: [(0, 1, 0), (1, 1, 1)], 1: [(3, 0, 0), (4, 0, 1)]})
    placed_by = {event.card: event.seat for event in table.events
                 if isinstance(event, EnemyPlaced)}
    assert placed_by == {0: 0, 1: 0, 3: 1, 4: 1}
    # When combat runs
    fight(table)
    # Then each defeated card joins the collection of the Line that defeated it, whoever
    # placed it there, and counts for that seat's defeats and points
    assert table.state.results[0][:2] == [DEFEATED, DEFEATED]
    assert table.state.results[1][:2] == [DEFEATED, HELD_OUT]
    assert table.state.defeated == [[3, 4], [0]]
    assert table.state.year_defeats == [2, 1]
    assert score(table.state, 0).enemies == ENEMY_CARDS[3].points + ENEMY_CARDS[4].points
