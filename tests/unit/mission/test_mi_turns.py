"""The turn around the Assault phase (our own design): Deploy, Draw, reshuffles."""

from __future__ import annotations

from mission_support import (
    CHARGE,
    CHARGE_2,
    CHARGE_3,
    ENGINE,
    KNIGHTS,
    MARCH,
    MARCH_2,
    PIKEMEN,
    RELAY,
    RIDE,
    SCRAMBLE,
    SCRAMBLE_2,
    TUNNELLERS,
    assault,
    deploy,
    pass_,
    pass_turn,
    play,
    start,
    stash,
    swerve,
)

from siege.games.mission import actions as a
from siege.games.mission import events as e
from siege.games.mission.cards import DECK_SIZE


def test_a_turn_allows_two_deploy_actions_then_the_seat_draws_and_the_turn_passes() -> None:
    table = start(first=0, decks={0: [CHARGE, MARCH, KNIGHTS, RELAY, SCRAMBLE, RIDE]})
    table.when(0, a.DeployManeuver(card=CHARGE))
    assert table.waiting == frozenset({0}) and table.state.deploys_left == 1
    table.when(0, a.DeployUnit(card=KNIGHTS, slot=1))
    state = table.state
    assert state.active == 1 and state.turn == 2
    assert sorted(state.hands[0]) == sorted([MARCH, RELAY, SCRAMBLE, RIDE])  # drew the Ride
    assert len(state.decks[0]) == DECK_SIZE - 6


def test_deployed_maneuvers_enter_play_unswerved_and_units_go_to_the_chosen_mission() -> None:
    table = start(first=0, decks={0: [CHARGE, MARCH, KNIGHTS, RELAY, SCRAMBLE]})
    legal = table.legal(0)
    assert a.DeployUnit(card=KNIGHTS, slot=0) in legal
    assert a.DeployUnit(card=KNIGHTS, slot=1) in legal
    out = table.when(0, a.DeployManeuver(card=CHARGE))
    assert out == [e.ManeuverDeployed(seat=0, card=CHARGE)]
    assert table.state.maneuvers[0] == [CHARGE] and table.state.swerved[0] == []
    out = table.when(0, a.DeployUnit(card=KNIGHTS, slot=1))
    assert out == [e.UnitDeployed(seat=0, card=KNIGHTS, slot=1)]
    assert table.state.units[0] == [[], [KNIGHTS]]


def test_passing_ends_the_deploy_phase_early() -> None:
    table = start(first=0)
    out = table.when(0, a.PASS)
    assert out == [e.DeployPassed(seat=0)]
    assert table.state.active == 1 and table.state.turn == 2
    assert len(table.state.hands[0]) == 6


def test_regroup_is_offered_only_with_a_swerved_maneuver_and_counts_as_a_deploy_action() -> None:
    table = start(first=0, decks={0: [CHARGE, MARCH, KNIGHTS, RELAY, SCRAMBLE],
                                  1: [KNIGHTS, PIKEMEN, CHARGE_2, CHARGE_3, RIDE]})
    assert a.REGROUP not in table.legal(0)
    play(table, deploy(0, CHARGE), deploy(0, MARCH))
    play(table, deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0), swerve(0, CHARGE), (0, a.YIELD), stash(0, MARCH))
    assert a.REGROUP in table.legal(0)
    table.when(0, a.REGROUP)
    assert table.state.swerved[0] == [] and table.state.deploys_left == 1
    assert a.REGROUP not in table.legal(0)


def test_a_seat_with_nothing_to_deploy_or_regroup_is_not_asked() -> None:
    table = start(first=0, decks={0: [CHARGE, MARCH, RIDE, SCRAMBLE, RELAY, CHARGE_2, MARCH_2,
                                      CHARGE_3, SCRAMBLE_2]})
    while True:  # seat 0 stashes and deploys all it can; its hand shrinks by one a turn
        if table.state.phase != "deploy":
            table.when(0, table.legal(0)[0])  # assault mission 0 ...
            table.when(0, table.legal(0)[0])  # ... and stash the first maneuver
        if len(table.state.hands[0]) == 1:
            break
        table.when(0, table.legal(0)[0])
        table.when(0, table.legal(0)[0])
        pass_turn(table)
    assert table.state.deploys_left == 2
    top = table.state.decks[0][0]
    out = table.when(0, table.legal(0)[0])
    # One deploy action is left, but with an empty hand and nothing swerved nothing is asked:
    # seat 0 draws (its only card now) and the turn passes.
    assert isinstance(out[0], e.ManeuverDeployed) and table.state.swerved[0] == []
    assert table.state.hands[0] == [top]
    assert table.state.active == 1 and table.state.turn == 10
    assert e.DeployPassed(seat=0) not in table.events


def test_the_draw_takes_the_top_card_and_an_empty_deck_is_rebuilt_from_the_discard_pile() -> None:
    table = start(first=0, decks={0: [KNIGHTS, PIKEMEN, CHARGE, MARCH, RELAY],
                                  1: [PIKEMEN, TUNNELLERS, CHARGE, MARCH, RELAY, RIDE]})
    play(table, deploy(0, KNIGHTS, slot=0), deploy(0, PIKEMEN, slot=0))
    play(table, (1, a.SKIP), deploy(1, PIKEMEN, slot=0), deploy(1, TUNNELLERS, slot=0))
    assert table.state.hands[1][-1] == RIDE  # the top card of the deck was drawn
    # Seat 0 has no maneuver but may fight: 5 against 2 + 1, and seat 1 cannot swerve.
    play(table, assault(0, 0), pass_(0))
    assert table.state.discards[1] == [PIKEMEN, TUNNELLERS]
    while table.state.decks[1] or table.state.active == 0:
        pass_turn(table)
    pass_turn(table)  # seat 1's deck is empty: the draw needs its discard pile shuffled
    need = table.need()
    assert (need.kind, need.count, need.purpose) == ("shuffle", 2, "reshuffle_1")
    table.shuffle([1, 0])  # indexes into the discard pile in card order: Tunnellers on top
    assert table.state.discards[1] == [] and table.state.decks[1] == [PIKEMEN]
    assert table.state.hands[1][-1] == TUNNELLERS


def test_with_no_deck_and_no_discard_pile_the_draw_is_skipped() -> None:
    table = start(first=0)
    while table.state.decks[0] or table.state.active == 1:
        pass_turn(table)
    hand = len(table.state.hands[0])
    pass_turn(table)
    assert ENGINE.pending(table.state).chance is None
    assert len(table.state.hands[0]) == hand and table.state.active == 1
