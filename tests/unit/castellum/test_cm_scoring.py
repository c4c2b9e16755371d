"""Final scoring: defeated enemies, resources, star cards, the 1794 pairs; ties share."""

from __future__ import annotations

from castellum_support import ENGINE

from siege.games.castellum.cards import ARTILLERY, INFANTRY, SAPPERS
from siege.games.castellum.rules.scoring import Score, score, star_points
from siege.games.castellum.state import State, new_state


def final_table() -> State:
    """Three Lines at the end of 1794, worked out by hand below."""
    state = new_state(3)
    state.phase = "over"
    state.year = 3
    # Seat 0: Lancers 2 + Culverin 2 + Demi-cannons 2 and 3 + Siege Battery 3 = 12 points; four
    # artillery defeated make two pairs; 8 resources make 2 points. Stars: Hornwork and
    # Crownwork score the 3 fortifications each (6), Gun Crew the 2 artillery troops (2),
    # Citizen Watch the 1 infantry troop (1): 9. Total 12 + 2 + 9 + 2 = 25.
    state.defeated[0] = [4, 5, 14, 15, 28]
    state.pair_type[0] = ARTILLERY
    state.resources[0] = [4, 3, 1]
    lines = state.lines
    lines[0][1].fort, lines[0][2].fort = 10, 11
    lines[0][0].troops = [49, 43]
    lines[0][1].troops = [30]
    # Seat 1: two Demi-brigades 3 + 3 and Grenadiers 4 = 10; three infantry make one pair;
    # 27 resources make 9. Total 10 + 9 + 0 + 1 = 20.
    state.defeated[1] = [36, 37, 40]
    state.pair_type[1] = INFANTRY
    state.resources[1] = [9, 9, 9]
    # Seat 2: Siege Guns 5, Miners 4, Engineer-General 4, Carabiniers 4 = 17; two sappers make
    # one pair; 12 resources make 4; the Countermine Gallery scores its 3 artillery troops.
    # Total 17 + 4 + 3 + 1 = 25.
    state.defeated[2] = [47, 51, 55, 43]
    state.pair_type[2] = SAPPERS
    state.resources[2] = [4, 4, 4]
    lines[2][1].fort = 19
    lines[2][1].troops = [46, 47]
    lines[2][2].troops = [48]
    return state


def test_a_full_final_scoring_computed_by_hand() -> None:
    state = final_table()
    assert score(state, 0) == Score(enemies=12, resources=2, stars=9, pairs=2, total=25)
    assert score(state, 1) == Score(enemies=10, resources=9, stars=0, pairs=1, total=20)
    assert score(state, 2) == Score(enemies=17, resources=4, stars=3, pairs=1, total=25)
    assert ENGINE.ranks(state) == [1, 3, 1]  # the tied seats share the victory
    assert ENGINE.view(state, 1).scores == [score(state, p) for p in range(3)]


def test_resources_of_mixed_kinds_score_together_and_remainders_are_lost() -> None:
    state = new_state(2)
    state.resources = [[2, 0, 0], [1, 1, 3]]
    assert [score(state, p).resources for p in (0, 1)] == [0, 1]


def test_without_the_1794_reward_nobody_scores_pairs() -> None:
    state = final_table()
    state.pair_type = [-1, -1, -1]
    assert [score(state, p).pairs for p in range(3)] == [0, 0, 0]


def test_a_star_card_counts_itself_when_it_is_of_its_own_kind() -> None:
    assert star_points([10]) == 1  # a lone Hornwork is one fortification
    assert star_points([49]) == 1  # a lone Gun Crew is one artillery troop
    assert star_points([40, 34, 49]) == 3  # Hussars: two cavalry; Gun Crew: itself
    assert star_points([0, 4, 20]) == 0  # no star card, no star points
