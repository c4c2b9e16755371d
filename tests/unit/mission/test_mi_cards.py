"""The player cards (our own design): printed numbers and every card text."""

from __future__ import annotations

from mission_support import (
    CHARGE,
    ENGINE,
    KNIGHTS,
    MARCH,
    MARCH_2,
    OUTRIDERS,
    OUTRIDERS_2,
    PIKEMEN,
    RELAY,
    RIDE,
    SCRAMBLE,
    SCRAMBLE_2,
    SERGEANT,
    TUNNELLERS,
    Table,
    assault,
    deploy,
    pass_,
    play,
    start,
    stash,
)

from siege.games.mission import actions as a
from siege.games.mission import cards


def strengths(table: Table, slot: int, seat: int) -> list[int]:
    return ENGINE.view(table.state, 1 - seat).missions[slot].unit_strength[seat]


def test_the_deck_holds_13_maneuvers_and_5_units_with_the_printed_numbers() -> None:
    assert cards.DECK_SIZE == 18
    assert len(cards.MANEUVERS) == 13 and len(cards.UNITS) == 5
    assert sum(cards.SPEED[c] for c in cards.MANEUVERS) == 27
    assert [cards.SPEED[c] for c in (SCRAMBLE, MARCH, CHARGE, RIDE, OUTRIDERS, RELAY)] == [
        1, 2, 3, 4, 2, 1]
    assert [cards.STRENGTH[c] for c in (PIKEMEN, KNIGHTS, SERGEANT, TUNNELLERS)] == [2, 3, 0, 1]
    assert cards.cards_of(cards.CHARGE) == (5, 6, 7)


def test_a_maneuver_stashes_for_its_printed_speed() -> None:
    table = start(first=0, decks={0: [RIDE, CHARGE, MARCH, RELAY, SCRAMBLE]})
    play(table, deploy(0, MARCH), pass_(0), pass_(1), assault(0, 1), stash(0, MARCH))
    assert ENGINE.view(table.state, 0).missions[1].stashed_speed == [2, 0]


def test_plain_units_fight_with_their_printed_strength() -> None:
    table = start(first=0, decks={0: [PIKEMEN, KNIGHTS, MARCH, RELAY, SCRAMBLE]})
    play(table, deploy(0, PIKEMEN, slot=0), deploy(0, KNIGHTS, slot=0))
    assert strengths(table, 0, 0) == [2, 3]
    assert ENGINE.view(table.state, 1).missions[0].strength == [5, 0]


def test_outriders_give_each_of_your_units_plus_one_and_stack() -> None:
    table = start(first=0, decks={0: [OUTRIDERS, PIKEMEN, OUTRIDERS_2, KNIGHTS, SCRAMBLE]})
    play(table, deploy(0, PIKEMEN, slot=0), deploy(0, OUTRIDERS))
    assert strengths(table, 0, 0) == [3]
    play(table, (1, a.SKIP), pass_(1))
    play(table, assault(0, 1), stash(0, OUTRIDERS))  # the first Outriders leaves play
    play(table, deploy(0, OUTRIDERS_2), deploy(0, KNIGHTS, slot=0))
    assert strengths(table, 0, 0) == [3, 4]
    # The opponent's units get nothing from our Outriders.
    assert ENGINE.view(table.state, 1).missions[0].strength[1] == 0


def test_relay_may_move_one_of_your_stashed_maneuvers_to_the_other_mission() -> None:
    table = start(first=0, decks={0: [CHARGE, RELAY, MARCH, SCRAMBLE, RIDE]})
    play(table, deploy(0, CHARGE), pass_(0), pass_(1), assault(0, 0), stash(0, CHARGE))
    relays = [x for x in table.legal(0) if isinstance(x, a.DeployManeuver) and x.card == RELAY]
    assert relays == [a.DeployManeuver(card=RELAY), a.DeployManeuver(card=RELAY, move=CHARGE)]
    table.when(0, a.DeployManeuver(card=RELAY, move=CHARGE))
    assert table.state.stashes[0][0] == [] and table.state.stashes[1][0] == [CHARGE]
    assert table.state.maneuvers[0] == [RELAY]


def test_relay_need_not_move_anything() -> None:
    table = start(first=0, decks={0: [CHARGE, RELAY, MARCH, SCRAMBLE, RIDE]})
    play(table, deploy(0, CHARGE), pass_(0), pass_(1), assault(0, 0), stash(0, CHARGE))
    table.when(0, a.DeployManeuver(card=RELAY))
    assert table.state.stashes[0][0] == [CHARGE] and table.state.maneuvers[0] == [RELAY]


def test_relay_never_offers_the_opponents_stashed_maneuvers() -> None:
    table = start(first=0, decks={0: [MARCH, RELAY, CHARGE, SCRAMBLE, RIDE],
                                  1: [MARCH_2, KNIGHTS, PIKEMEN, SCRAMBLE_2, SERGEANT]})
    play(table, deploy(0, MARCH), pass_(0), deploy(1, MARCH_2), pass_(1))
    play(table, assault(0, 0), stash(0, MARCH), pass_(0))
    play(table, assault(1, 1), stash(1, MARCH_2), pass_(1))
    moves = {x.move for x in table.legal(0)
             if isinstance(x, a.DeployManeuver) and x.card == RELAY}
    assert table.state.stashes[1][1] == [MARCH_2]
    assert moves == {-1, MARCH}  # seat 0's own March only; seat 1's card 3 is not ours


def test_drill_sergeant_counts_your_maneuvers_in_play_swerved_or_not_but_not_stashed() -> None:
    table = start(first=0, decks={0: [SERGEANT, CHARGE, MARCH, RELAY, SCRAMBLE],
                                  1: [KNIGHTS, PIKEMEN, MARCH_2, SCRAMBLE_2, RIDE]})
    play(table, deploy(0, SERGEANT, slot=1), deploy(0, CHARGE))
    assert strengths(table, 1, 0) == [1]
    play(table, (1, a.SKIP), deploy(1, KNIGHTS, slot=0), pass_(1))
    play(table, assault(0, 0), (0, a.SwerveManeuver(card=CHARGE)))  # loses, nothing stashed
    play(table, deploy(0, MARCH), deploy(0, RELAY))
    assert table.state.swerved[0] == [CHARGE]
    assert strengths(table, 1, 0) == [3]  # swerved Charge, March and Relay
    play(table, (1, a.SKIP), pass_(1), assault(0, 1), stash(0, MARCH))
    assert strengths(table, 1, 0) == [2]  # the stashed March no longer counts


def test_tunnellers_count_your_stashed_maneuvers_at_their_own_mission() -> None:
    table = start(first=0, decks={0: [TUNNELLERS, CHARGE, MARCH, RELAY, SCRAMBLE],
                                  1: [MARCH_2, KNIGHTS, PIKEMEN, SCRAMBLE_2, RIDE]})
    play(table, deploy(0, TUNNELLERS, slot=0), deploy(0, CHARGE))
    assert strengths(table, 0, 0) == [1]
    play(table, (1, a.SKIP), deploy(1, MARCH_2), pass_(1))
    play(table, assault(0, 1), stash(0, CHARGE), deploy(0, MARCH), pass_(0))
    assert strengths(table, 0, 0) == [1]  # a stash at the other mission does not count
    play(table, assault(1, 0), (1, a.YIELD), stash(1, MARCH_2), pass_(1))
    assert strengths(table, 0, 0) == [1]  # nor does the opponent's stash here
    play(table, assault(0, 0), stash(0, MARCH))
    assert strengths(table, 0, 0) == [2]
