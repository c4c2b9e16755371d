"""Close combat (our own design): totals, who is asked, ties, the result."""

from __future__ import annotations

from mission_support import (
    CHARGE,
    CHARGE_2,
    ENGINE,
    KNIGHTS,
    MARCH,
    MARCH_2,
    OUTRIDERS,
    PIKEMEN,
    PIKEMEN_2,
    RELAY,
    SCRAMBLE,
    SCRAMBLE_2,
    SERGEANT,
    Table,
    assault,
    deploy,
    pass_,
    play,
    start,
    swerve,
    yield_,
)

from siege.games.mission import actions as a
from siege.games.mission import events as e


def totals(table: Table) -> list[int]:
    fight = ENGINE.view(table.state, 0).combat
    assert fight is not None
    return fight.totals


def guarded(seat1: list[int]) -> Table:
    """Seat 0 has Charge and March in play; seat 1 has deployed its first two cards as given."""
    table = start(first=0, decks={0: [CHARGE, MARCH, KNIGHTS, RELAY, SCRAMBLE],
                                  1: seat1})
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    return table


def test_the_side_behind_is_asked_to_swerve_or_yield_until_it_stops() -> None:
    table = guarded([PIKEMEN, MARCH_2, KNIGHTS, SCRAMBLE_2, SERGEANT])
    play(table, deploy(1, PIKEMEN, slot=0), deploy(1, MARCH_2))
    play(table, assault(0, 0))
    assert totals(table) == [0, 2] and table.waiting == frozenset({0})
    first = table.decision
    table.when(0, a.SwerveManeuver(card=CHARGE))
    # 3 against 2: now the defender is behind and is asked, under a new decision number.
    assert totals(table) == [3, 2] and table.waiting == frozenset({1})
    assert table.decision == first + 1
    assert table.legal(1) == [a.SwerveManeuver(card=MARCH_2), a.YIELD]
    table.when(1, a.SwerveManeuver(card=MARCH_2))
    assert totals(table) == [3, 4] and table.waiting == frozenset({0})
    assert table.legal(0) == [a.SwerveManeuver(card=MARCH), a.YIELD]
    out = table.when(0, a.YIELD)
    assert out == [e.CombatYielded(seat=0)]
    result = table.state.result
    assert result is not None and (result.winner, result.totals) == (1, [3, 4])
    assert table.state.points == [0, 1]


def test_the_defender_holds_ties() -> None:
    table = guarded([KNIGHTS, PIKEMEN, MARCH_2, SCRAMBLE_2, SERGEANT])
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0), swerve(0, CHARGE))
    # 3 against 3: the attacker is still the side behind and is asked again.
    assert totals(table) == [3, 3] and table.waiting == frozenset({0})
    table.when(0, a.YIELD)
    assert table.state.result is not None and table.state.result.winner == 1


def test_the_winner_scores_a_point_and_the_losers_units_there_are_destroyed() -> None:
    table = guarded([PIKEMEN, PIKEMEN_2, MARCH_2, SCRAMBLE_2, SERGEANT])
    play(table, deploy(1, PIKEMEN, slot=0), deploy(1, PIKEMEN_2, slot=1))
    play(table, assault(0, 0), swerve(0, CHARGE))  # 3 against 2; seat 1 has nothing to swerve
    result = table.state.result
    assert result is not None
    assert (result.winner, result.destroyed, result.totals) == (0, [PIKEMEN], [3, 2])
    assert table.state.points == [1, 0]
    assert table.state.units[1] == [[], [PIKEMEN_2]]  # the unit at the other mission stays
    assert table.state.discards[1] == [PIKEMEN]


def test_a_losing_attackers_own_units_at_that_mission_are_destroyed() -> None:
    table = guarded([KNIGHTS, PIKEMEN, MARCH_2, SCRAMBLE_2, SERGEANT])
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 1), (0, a.StashManeuver(card=CHARGE)),
         (0, a.DeployUnit(card=KNIGHTS, slot=0)), pass_(0))
    play(table, (1, a.SKIP), deploy(1, PIKEMEN, slot=0), pass_(1))
    play(table, assault(0, 0))
    assert totals(table) == [3, 5]  # the attacker's own Knights fight too
    play(table, yield_(0))
    assert table.state.units[0] == [[], []] and table.state.discards[0] == [KNIGHTS]
    assert table.state.units[1][0] == [KNIGHTS, PIKEMEN]


def test_a_side_behind_with_nothing_to_swerve_loses_without_being_asked() -> None:
    table = start(first=0, decks={0: [CHARGE, KNIGHTS, MARCH, RELAY, SCRAMBLE],
                                  1: [PIKEMEN, MARCH_2, CHARGE_2, SCRAMBLE_2, SERGEANT]})
    play(table, deploy(0, CHARGE), deploy(0, KNIGHTS, slot=0))
    play(table, (1, a.SKIP), deploy(1, PIKEMEN, slot=0), pass_(1))
    before = table.decision
    play(table, assault(0, 0))
    # 3 against 2: seat 1 is behind with no maneuver in play, so the combat is decided.
    result = table.state.result
    assert result is not None and result.winner == 0 and result.destroyed == [PIKEMEN]
    assert table.state.phase == "stash" and table.decision == before + 1


def test_swerved_maneuvers_stay_in_play_swerved_after_the_combat() -> None:
    table = guarded([KNIGHTS, PIKEMEN, MARCH_2, SCRAMBLE_2, SERGEANT])
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0), swerve(0, CHARGE), yield_(0))
    assert table.state.maneuvers[0] == [CHARGE, MARCH]
    assert table.state.swerved[0] == [CHARGE]
    assert table.legal(0) == [a.StashManeuver(card=MARCH)]  # a swerved one cannot be stashed


def test_outriders_strengthen_every_unit_in_combat_even_when_swerved() -> None:
    table = start(first=0, decks={0: [OUTRIDERS, CHARGE, MARCH, RELAY, SCRAMBLE],
                                  1: [KNIGHTS, PIKEMEN, MARCH_2, SCRAMBLE_2, SERGEANT]})
    play(table, deploy(0, OUTRIDERS), deploy(0, CHARGE))
    play(table, deploy(1, KNIGHTS, slot=0), deploy(1, PIKEMEN, slot=0))
    play(table, assault(0, 0), swerve(0, OUTRIDERS))
    # Seat 1's Outriders-free units: 3 + 2; seat 0 swerved 2 (no units of its own there).
    assert totals(table) == [2, 5]
