"""The Assault phase excerpt, one test (or a few) per statement, named after the statement.

Scripts use the card numbers of ``mission_support``; missions are dealt in id order unless a
test says otherwise, so slot 0 holds mission 0 and slot 1 mission 1 (both difficulty 4).
"""

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
    RELAY,
    RIDE,
    SCRAMBLE,
    SCRAMBLE_2,
    SERGEANT,
    Table,
    assault,
    deploy,
    pass_,
    play,
    start,
    stash,
    swerve,
    yield_,
)

from siege.games.mission import actions as a
from siege.games.mission import events as e
from siege.games.mission.state import unswerved

SEAT0 = [CHARGE, MARCH, OUTRIDERS, RELAY, SCRAMBLE, CHARGE_2, RIDE]
SEAT1 = [KNIGHTS, PIKEMEN, MARCH_2, SCRAMBLE_2, SERGEANT]


def game_events(table: Table) -> list[e.GameEvent]:
    return [x for x in table.events if isinstance(x, e.GameEvent)]


def opened_with(seat0: list[int] | None = None, seat1: list[int] | None = None) -> Table:
    return start(first=0, decks={0: seat0 or SEAT0, 1: seat1 or SEAT1})


# --- S1. No unswerved maneuver in play when the turn starts: the phase may be skipped. ---------


def test_on_the_first_turn_without_maneuvers_the_assault_phase_is_skipped() -> None:
    table = opened_with()
    state = table.state
    assert state.turn == 1 and state.active == 0
    # Nothing could happen in an assault: no question is asked, the turn opens at Deploy.
    assert state.phase == "deploy" and table.waiting == frozenset({0})
    assert game_events(table) == []
    assert not any(isinstance(x, a.AssaultMission | a.SkipAssault) for x in table.legal(0))


def test_without_unswerved_maneuvers_the_player_may_skip_the_assault() -> None:
    table = opened_with(seat0=[PIKEMEN, CHARGE, MARCH, RELAY, SCRAMBLE])
    play(table, deploy(0, PIKEMEN, slot=1), pass_(0))
    # Seat 1 has no maneuver; seat 0's Pikemen guard mission 1, so an assault could fight there.
    assert table.state.phase == "assault" and table.state.active == 1
    assert table.legal(1) == [a.SKIP, a.AssaultMission(slot=1)]
    out = table.when(1, a.SKIP)
    assert out == [e.AssaultSkipped(seat=1)]
    assert table.state.phase == "deploy" and table.waiting == frozenset({1})
    assert table.state.points == [0, 0]


def test_without_unswerved_maneuvers_a_seat_may_still_assault_to_fight_and_then_the_phase_ends(
) -> None:
    table = opened_with(seat0=[PIKEMEN, CHARGE, MARCH, RELAY, SCRAMBLE])
    play(table, deploy(0, PIKEMEN, slot=1), pass_(0))
    table.when(1, a.AssaultMission(slot=1))
    # Seat 1 is behind (0 against 2) with nothing to swerve: it loses at once; with no
    # maneuver to stash the phase ends after the combat.
    result = table.state.result
    assert result is not None and (result.winner, result.totals) == (0, [0, 2])
    assert table.state.points == [1, 0]
    assert table.state.phase == "deploy" and table.waiting == frozenset({1})
    assert table.state.stashes == [[[], []], [[], []]]


def test_a_seat_whose_only_maneuvers_are_swerved_may_skip_the_assault() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0))
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0), swerve(0, CHARGE))  # 3 against 3: still behind, all swerved
    play(table, deploy(0, MARCH), pass_(0))
    play(table, deploy(1, PIKEMEN, slot=0), pass_(1))
    play(table, assault(0, 1), stash(0, MARCH), pass_(0))
    # Seat 0 now has only a swerved Charge in play (the March is stashed).
    play(table, deploy(1, SCRAMBLE_2), pass_(1))
    assert table.state.swerved[0] == [CHARGE] and unswerved(table.state, 0) == []
    # Optional: skip, or assault where seat 1's units are (only there could anything happen).
    assert table.legal(0) == [a.SKIP, a.AssaultMission(slot=0)]


# --- S2. The target is one of the two missions in play. S10. With an unswerved maneuver in
# --- play, picking a mission is compulsory. ------------------------------------------------


def test_the_assault_targets_one_of_the_two_missions_in_play() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0), pass_(1))
    assert table.legal(0) == [a.AssaultMission(slot=0), a.AssaultMission(slot=1)]
    out = table.when(0, a.AssaultMission(slot=1))
    assert out == [e.MissionAssaulted(seat=0, slot=1, mission=table.state.missions[1])]
    assert table.state.target == 1


def test_with_an_unswerved_maneuver_in_play_choosing_a_mission_to_assault_is_mandatory() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0))
    play(table, deploy(1, KNIGHTS, slot=0), deploy(1, PIKEMEN, slot=1))
    # Both missions are guarded and an assault will cost a combat, yet no skip is offered.
    assert table.state.phase == "assault" and table.waiting == frozenset({0})
    assert a.SKIP not in table.legal(0)
    assert table.legal(0) == [a.AssaultMission(slot=0), a.AssaultMission(slot=1)]


# --- S3. Enemy units at the target mean close combat, begun without asking (S10 too). -------


def test_opponent_units_at_the_chosen_mission_start_close_combat_automatically() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    play(table, deploy(1, KNIGHTS, slot=0), deploy(1, PIKEMEN, slot=1))
    out = table.when(0, a.AssaultMission(slot=0))
    assert out == [e.MissionAssaulted(seat=0, slot=0, mission=0)]  # no other choice was asked
    combat = table.state.combat
    assert table.state.phase == "combat" and combat is not None
    assert (combat.slot, combat.sides) == (0, [0, 1])
    # Only the units at that mission fight: Knights (3), not the Pikemen at mission 1.
    assert ENGINE.view(table.state, 0).combat.totals == [0, 3]  # type: ignore[union-attr]
    # The combat itself cannot be declined: swerve or yield, both inside the combat.
    assert table.legal(0) == [a.SwerveManeuver(card=CHARGE), a.SwerveManeuver(card=MARCH),
                              a.YIELD]


def test_no_close_combat_when_the_opponent_has_no_units_at_the_chosen_mission() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0))
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    table.when(0, a.AssaultMission(slot=1))  # the Knights guard the other mission
    assert table.state.combat is None and table.state.result is None
    assert table.state.phase == "stash"
    assert table.legal(0) == [a.StashManeuver(card=CHARGE)]


def test_combat_does_not_start_when_only_your_own_units_hold_the_target() -> None:
    # Given seat 0 guards mission 0 with its own Pikemen; seat 1's Knights guard mission 1
    table = opened_with(seat0=[PIKEMEN, CHARGE, MARCH, RELAY, SCRAMBLE])
    play(table, deploy(0, PIKEMEN, slot=0), deploy(0, CHARGE))
    play(table, (1, a.SKIP), deploy(1, KNIGHTS, slot=1), pass_(1))
    # When seat 0 assaults mission 0
    table.when(0, a.AssaultMission(slot=0))
    # Then there is nobody to fight: no combat, no point, and straight on to the stash
    assert table.state.combat is None and table.state.result is None
    assert table.state.phase == "stash" and table.legal(0) == [a.StashManeuver(card=CHARGE)]
    assert table.state.points == [0, 0]
    assert table.state.units[0][0] == [PIKEMEN] and table.state.units[1][1] == [KNIGHTS]
    play(table, stash(0, CHARGE), pass_(0))
    # And a seat without maneuvers is never offered an assault where only its own units are
    assert unswerved(table.state, 1) == [] and table.state.units[1][1] == [KNIGHTS]
    assert table.legal(1) == [a.SKIP, a.AssaultMission(slot=0)]


# --- S4. Once combat is over, win or lose, exactly one unswerved maneuver goes under the
# --- target mission (S10: it must, while one is left). ------------------------------------


def test_after_a_lost_combat_exactly_one_unswerved_maneuver_is_stashed() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0), yield_(0))
    result = table.state.result
    assert result is not None and result.winner == 1
    assert table.state.phase == "stash"
    assert table.legal(0) == [a.StashManeuver(card=CHARGE), a.StashManeuver(card=MARCH)]
    out = table.when(0, a.StashManeuver(card=MARCH))
    assert out == [e.ManeuverStashed(seat=0, card=MARCH, slot=0)]
    assert table.state.stashes[0][0] == [MARCH]
    assert table.state.maneuvers[0] == [CHARGE]  # the other one stays in play, unswerved
    assert table.state.phase == "deploy"  # one stash, and the phase is over


def test_after_a_won_combat_exactly_one_unswerved_maneuver_is_stashed() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    play(table, deploy(1, PIKEMEN, slot=0), pass_(1))
    play(table, assault(0, 0), swerve(0, CHARGE))  # 3 against 2; seat 1 has nothing to swerve
    result = table.state.result
    assert result is not None and result.winner == 0
    assert table.legal(0) == [a.StashManeuver(card=MARCH)]
    table.when(0, a.StashManeuver(card=MARCH))
    assert table.state.stashes[0][0] == [MARCH]


def test_the_stash_must_be_made_even_with_a_single_unswerved_maneuver_left() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0), pass_(1), assault(0, 0))
    # No way to keep the maneuver: the only legal action is to stash it.
    assert table.legal(0) == [a.StashManeuver(card=CHARGE)]


def test_a_stashed_maneuver_lies_at_the_mission_with_its_speed_visible_to_both_seats() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0), pass_(1), assault(0, 1), stash(0, CHARGE))
    for viewer in (0, 1):
        slot = ENGINE.view(table.state, viewer).missions[1]
        assert slot.stashed == [[CHARGE], []]
        assert slot.stashed_speed == [3, 0]


# --- S5. The check: own stashed speed there at least the difficulty completes the mission. --


def test_a_mission_is_completed_when_the_stashed_speed_equals_its_difficulty() -> None:
    table = opened_with(seat0=[RIDE, CHARGE, MARCH, RELAY, SCRAMBLE])
    play(table, deploy(0, RIDE), pass_(0), pass_(1), assault(0, 0), stash(0, RIDE))
    state = table.state
    assert state.completed[0] == [0]  # Fire the Granary, difficulty 4, from speed 4
    assert state.points == [2, 0]


def test_a_mission_is_completed_when_the_stashed_speed_exceeds_its_difficulty() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), deploy(0, MARCH), pass_(1))
    play(table, assault(0, 0), stash(0, CHARGE), pass_(0), pass_(1))
    assert table.state.completed[0] == []  # 3 of 4
    play(table, assault(0, 0), stash(0, MARCH))
    assert table.state.completed[0] == [0]  # 5 of 4
    assert table.state.points == [2, 0]


def test_a_mission_below_its_difficulty_is_not_completed() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0), pass_(1), assault(0, 0), stash(0, CHARGE))
    assert table.state.missions[0] == 0 and table.state.completed == [[], []]
    assert table.state.stashes[0][0] == [CHARGE]


def test_only_the_assaulting_players_own_stashed_speed_counts() -> None:
    table = opened_with(seat1=[CHARGE_2, MARCH_2, KNIGHTS, PIKEMEN, SERGEANT])
    play(table, deploy(0, MARCH), pass_(0))
    play(table, deploy(1, CHARGE_2), pass_(1))
    play(table, assault(0, 0), stash(0, MARCH), pass_(0))
    play(table, assault(1, 0), stash(1, CHARGE_2))
    # 2 + 3 at mission 0 would reach 4, but each player's stash counts alone.
    assert table.state.completed == [[], []]
    assert table.state.stashes[0] == [[MARCH], [CHARGE_2]]


# --- S6. Completed or not, the phase is over after the check. ------------------------------


def test_the_assault_phase_ends_after_the_check_whether_or_not_the_mission_was_completed(
) -> None:
    done = opened_with(seat0=[RIDE, CHARGE, MARCH, RELAY, SCRAMBLE])
    play(done, deploy(0, RIDE), deploy(0, CHARGE), pass_(1), assault(0, 0), stash(0, RIDE))
    not_done = opened_with()
    play(not_done, deploy(0, CHARGE), deploy(0, MARCH), pass_(1), assault(0, 0),
         stash(0, MARCH))
    for table in (done, not_done):
        # Seat 0 still has an unswerved Charge, yet it is not asked to stash again: on to Deploy.
        assert table.state.phase == "deploy" and table.waiting == frozenset({0})
        assert CHARGE in unswerved(table.state, 0)
        assert table.state.target == -1
    assert done.state.completed[0] == [0] and not_done.state.completed[0] == []


# --- S7. Every maneuver swerved during combat: nothing to stash, the phase ends there. -----


def test_if_every_maneuver_became_swerved_in_combat_the_phase_ends_right_after_the_combat(
) -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0))
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0))
    before = table.decision
    out = table.when(0, a.SwerveManeuver(card=CHARGE))
    assert out == [e.ManeuverSwerved(seat=0, card=CHARGE, speed=3)]
    # 3 against 3: the defender holds the tie, and seat 0 has nothing left to swerve.
    result = table.state.result
    assert result is not None and (result.winner, result.totals) == (1, [3, 3])
    assert table.state.phase == "deploy" and table.waiting == frozenset({0})
    assert table.decision == before + 1  # the next decision is the deploy, not a stash
    assert not any(isinstance(x, e.ManeuverStashed) for x in table.events)
    assert table.state.swerved[0] == [CHARGE] and table.state.maneuvers[0] == [CHARGE]


# --- S8a. A stashed maneuver's text no longer applies. -------------------------------------


def test_a_stashed_maneuvers_game_text_is_ignored() -> None:
    table = opened_with(seat0=[OUTRIDERS, PIKEMEN, CHARGE, RELAY, SCRAMBLE])
    play(table, deploy(0, OUTRIDERS), deploy(0, PIKEMEN, slot=1), (1, a.SKIP), pass_(1))
    # Outriders in play: the Pikemen have 2 + 1.
    assert ENGINE.view(table.state, 1).missions[1].strength == [3, 0]
    play(table, assault(0, 0), stash(0, OUTRIDERS))
    assert table.state.stashes[0][0] == [OUTRIDERS]
    assert ENGINE.view(table.state, 1).missions[1].strength == [2, 0]  # the text is gone


def test_a_stash_refuses_an_already_stashed_maneuver_and_the_opponents_maneuvers() -> None:
    # Given seat 0 has a Charge stashed at mission 1 and a March in play; seat 1 has its own
    # Charge and March in play, unswerved
    table = opened_with(seat1=[CHARGE_2, MARCH_2, KNIGHTS, PIKEMEN, SERGEANT])
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    play(table, deploy(1, CHARGE_2), deploy(1, MARCH_2))
    play(table, assault(0, 1), stash(0, CHARGE), pass_(0))
    play(table, assault(1, 1), stash(1, MARCH_2), pass_(1))
    assert table.state.stashes[1] == [[CHARGE], [MARCH_2]]
    assert table.state.maneuvers == [[MARCH], [CHARGE_2]]
    # When seat 0 assaults mission 0 and reaches its stash
    table.when(0, a.AssaultMission(slot=0))
    # Then only its own unswerved maneuver in play is offered: not the Charge already stashed,
    # not the opponent's Charge in play, not the opponent's stashed March
    assert table.legal(0) == [a.StashManeuver(card=MARCH)]
    for refused in (CHARGE, CHARGE_2, MARCH_2):
        assert a.StashManeuver(card=refused) not in table.legal(0)


def test_no_card_text_acts_while_its_maneuver_is_stashed() -> None:
    # Given seat 1 stashed its Outriders and guards mission 0 with Pikemen and a Drill
    # Sergeant; seat 0 stashed its Relay
    table = opened_with(seat0=[CHARGE, RELAY, MARCH, SCRAMBLE, RIDE],
                        seat1=[OUTRIDERS, PIKEMEN, SERGEANT, SCRAMBLE_2, KNIGHTS])
    play(table, deploy(0, CHARGE), deploy(0, RELAY))
    play(table, deploy(1, OUTRIDERS), deploy(1, PIKEMEN, slot=0))
    play(table, assault(0, 1), stash(0, RELAY))
    # The stashed Relay's text never acts: with no Relay in hand no deploy may move a stash
    assert not [x for x in table.legal(0) if isinstance(x, a.DeployManeuver) and x.move >= 0]
    play(table, pass_(0))
    play(table, assault(1, 1), stash(1, OUTRIDERS), deploy(1, SERGEANT, slot=0), pass_(1))
    assert table.state.maneuvers[1] == [] and table.state.stashes[1][1] == [OUTRIDERS]
    # When seat 0 assaults mission 0
    table.when(0, a.AssaultMission(slot=0))
    # Then the defenders fight with printed strength: Pikemen 2, no +1 from the Outriders, and a
    # Drill Sergeant that finds no maneuver of seat 1 in play (in play they would make 5)
    fight = ENGINE.view(table.state, 0).combat
    assert fight is not None and fight.totals == [0, 2]
    assert ENGINE.view(table.state, 0).missions[0].unit_strength[1] == [2, 0]


# --- S8b. A stashed maneuver cannot be swerved for combat speed. ---------------------------


def test_a_stashed_maneuver_cannot_be_swerved_in_combat() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0), pass_(1))
    play(table, assault(0, 0), stash(0, CHARGE), deploy(0, MARCH), pass_(0))
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0))
    assert table.legal(0) == [a.SwerveManeuver(card=MARCH), a.YIELD]  # never the stashed Charge


def test_a_defenders_stashed_maneuver_cannot_be_swerved_either() -> None:
    table = opened_with(seat1=[CHARGE_2, KNIGHTS, MARCH_2, SCRAMBLE_2, SERGEANT])
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    play(table, deploy(1, CHARGE_2), deploy(1, KNIGHTS, slot=0))
    play(table, assault(0, 1), stash(0, MARCH), pass_(0))
    play(table, assault(1, 1), stash(1, CHARGE_2), deploy(1, MARCH_2), pass_(1))
    play(table, assault(0, 0), swerve(0, CHARGE))  # 3 against 3: seat 0 still behind, loses
    assert table.state.result is not None and table.state.result.winner == 1
    play(table, deploy(0, SCRAMBLE), deploy(0, RIDE))
    play(table, assault(1, 0), stash(1, MARCH_2), deploy(1, SCRAMBLE_2), pass_(1))
    play(table, assault(0, 0), swerve(0, RIDE))  # 4 against 3: now the defender is behind
    assert table.waiting == frozenset({1})
    assert table.state.stashes[0][1] == [MARCH_2] and table.state.stashes[1][1] == [CHARGE_2]
    assert table.legal(1) == [a.SwerveManeuver(card=SCRAMBLE_2), a.YIELD]


# --- S8c. Effects or rules that look for or count maneuvers do not see stashed ones. -------


def test_a_stashed_maneuver_is_not_counted_as_a_maneuver() -> None:
    table = opened_with(seat0=[SERGEANT, CHARGE, MARCH, RELAY, SCRAMBLE])
    play(table, deploy(0, SERGEANT, slot=1), deploy(0, CHARGE), (1, a.SKIP), pass_(1))
    assert ENGINE.view(table.state, 1).missions[1].unit_strength[0] == [1]  # one maneuver
    play(table, assault(0, 0), stash(0, CHARGE))
    # The Drill Sergeant counts maneuvers: the stashed Charge is not one any more.
    assert ENGINE.view(table.state, 1).missions[1].unit_strength[0] == [0]


def test_a_stashed_maneuver_is_not_looked_for_when_the_assault_phase_begins() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0), pass_(1), assault(0, 0), stash(0, CHARGE), pass_(0))
    play(table, pass_(1))
    # Seat 0's only maneuver is stashed: it has no unswerved maneuver in play, so the phase is
    # skipped (seat 1 has no units either) instead of being mandatory.
    assert table.state.active == 0 and table.state.phase == "deploy"
    assert table.state.stashes[0][0] == [CHARGE]


def test_a_regroup_does_not_touch_stashed_maneuvers() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0), swerve(0, CHARGE), yield_(0), stash(0, MARCH))
    out = table.when(0, a.REGROUP)
    assert out == [e.ManeuversRegrouped(seat=0, cards=[CHARGE])]
    assert table.state.swerved[0] == [] and table.state.maneuvers[0] == [CHARGE]
    assert table.state.stashes[0][0] == [MARCH]


# --- S8d. Only effects that name stashed maneuvers may affect them (Relay, Tunnellers; see
# --- also test_mi_cards.py). ---------------------------------------------------------------


def test_only_cards_that_name_stashed_maneuvers_offer_to_touch_them() -> None:
    table = opened_with()
    play(table, deploy(0, CHARGE), pass_(0), pass_(1), assault(0, 0), stash(0, CHARGE))
    # Of every deploy action, only Relay's may name the stashed Charge.
    naming = [x for x in table.legal(0)
              if isinstance(x, a.DeployManeuver) and x.move >= 0]
    assert naming == [a.DeployManeuver(card=RELAY, move=CHARGE)]


# --- S9. A stash moved to the other mission that reaches its difficulty completes it only at
# --- its owner's next assault there. -------------------------------------------------------


def moved_to_completion() -> Table:
    """Seat 0 has 2 stashed at mission 0 and 3 at mission 1, then Relays the 3 over to 0."""
    table = opened_with(seat0=[CHARGE, MARCH, RELAY, SCRAMBLE, SCRAMBLE_2, CHARGE_2, RIDE])
    play(table, deploy(0, CHARGE), deploy(0, MARCH), pass_(1))
    play(table, assault(0, 1), stash(0, CHARGE), pass_(0), pass_(1))
    play(table, assault(0, 0), stash(0, MARCH))
    table.when(0, a.DeployManeuver(card=RELAY, move=CHARGE))
    return table


def test_a_stashed_maneuver_moved_to_the_other_mission_does_not_complete_it_at_once() -> None:
    table = moved_to_completion()
    state = table.state
    moved = table.events[-1]
    assert moved == e.ManeuverDeployed(seat=0, card=RELAY, moved=CHARGE, moved_to=0)
    assert state.stashes[0][0] == [MARCH, CHARGE]  # 5 against difficulty 4
    assert state.missions[0] == 0 and state.completed[0] == [] and state.points == [0, 0]


def test_a_moved_stash_completes_the_mission_at_the_next_assault_there() -> None:
    table = moved_to_completion()
    play(table, deploy(0, SCRAMBLE), pass_(1))
    play(table, assault(0, 1), stash(0, SCRAMBLE))
    assert table.state.completed[0] == []  # an assault elsewhere changes nothing at mission 0
    play(table, pass_(0), pass_(1), assault(0, 0), stash(0, RELAY))
    assert table.state.completed[0] == [0]
    assert table.state.points == [2, 0]


def test_a_moved_stash_does_not_complete_when_the_next_assault_there_ends_after_combat(
) -> None:
    table = moved_to_completion()
    play(table, pass_(0))
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0), swerve(0, RELAY))  # 1 against 3, and nothing left to swerve
    # The phase ends right after the combat: no stash, so no check either (our ruling).
    assert table.state.phase == "deploy"
    assert table.state.completed[0] == [] and table.state.missions[0] == 0
    assert table.state.points == [0, 1]
