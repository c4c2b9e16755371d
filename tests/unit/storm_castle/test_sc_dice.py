"""The dice: our Burst and Battle die faces read from d6 values, and their odds checked over
many fair rolls (chi-square)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from siege.dice import fair
from siege.games.storm_castle.rules.battle import battle_hit, burst_face

ROLLS = 12_000
CHI2_5_DOF_999 = 20.52  # the 99.9% point of chi-square with 5 degrees of freedom
CHI2_2_DOF_999 = 13.82


def test_each_die_face_is_read_from_the_d6_value() -> None:
    assert [burst_face(v) for v in range(1, 7)] == ["critical", "hit"] + ["blank"] * 4
    assert [battle_hit(v) for v in range(1, 7)] == [True, True] + [False] * 4


def test_each_die_hits_one_time_in_three_and_the_burst_die_crits_one_in_six() -> None:
    p_burst_hit = Fraction(sum(burst_face(v) != "blank" for v in range(1, 7)), 6)
    p_critical = Fraction(sum(burst_face(v) == "critical" for v in range(1, 7)), 6)
    p_battle = Fraction(sum(battle_hit(v) for v in range(1, 7)), 6)
    assert (p_burst_hit, p_critical, p_battle) == (Fraction(1, 3), Fraction(1, 6), Fraction(1, 3))
    # An Attack 1: a plain hit (1/6) is 1 hit; a critical (1/6) is 1 + three Battle dice.
    expected = Fraction(1, 6) + p_critical * (1 + 3 * p_battle)
    assert expected == Fraction(1, 2)


def _chi2(counts: Counter[str], probs: dict[str, float], n: int) -> float:
    return sum((counts[k] - n * p) ** 2 / (n * p) for k, p in probs.items())


def test_fair_rolls_give_the_faces_with_their_odds() -> None:
    values = fair.rolls(b"storm-dice", "odds", 0, ROLLS, 6)
    by_value = Counter(str(v) for v in values)
    assert _chi2(by_value, {str(v): 1 / 6 for v in range(1, 7)}, ROLLS) < CHI2_5_DOF_999
    faces = Counter(burst_face(v) for v in values)
    assert _chi2(faces, {"critical": 1 / 6, "hit": 1 / 6, "blank": 2 / 3}, ROLLS) < CHI2_2_DOF_999
    hits = Counter("hit" if battle_hit(v) else "miss" for v in values)
    assert abs(hits["hit"] / ROLLS - 1 / 3) < 0.02
