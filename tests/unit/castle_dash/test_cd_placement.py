"""Step 2: placing soldiers and claiming Armory cards."""

from __future__ import annotations

import pytest
from castle_dash_support import ENGINE, C, P, place_all, play, start

from siege.games.castle_dash import cards
from siege.games.castle_dash.actions import ClaimArmory, PlaceSoldiers
from siege.games.castle_dash.events import ArmoryClaimed, SoldiersPlaced


def test_the_first_player_places_first_and_turns_go_left() -> None:
    table = start(4, first=2)
    asked = []
    for _ in range(5):
        (seat,) = table.waiting
        asked.append(seat)
        table.when(seat, table.legal(seat)[0])
    assert asked == [2, 3, 0, 1, 2]


def test_a_turn_offers_one_claim_per_face_up_card_or_1_to_6_soldiers_per_battle() -> None:
    table = start(4, first=0)
    legal = table.legal(0)
    claims = {a.card for a in legal if isinstance(a, ClaimArmory)}
    places = {(a.opponent, a.count) for a in legal if isinstance(a, PlaceSoldiers)}
    assert claims == set(table.state.face_up)
    assert places == {(o, n) for o in (1, 3, 2) for n in range(1, 7)}
    assert len(legal) == 8 + 18


def test_placing_records_the_soldiers_and_moves_the_turn() -> None:
    table = start(3, first=0)
    out = table.when(0, P(2, 6))
    assert out == [SoldiersPlaced(seat=0, opponent=2, count=6)]
    assert table.state.troops[0][2] == 6
    assert table.state.supply[0] == 2
    assert table.waiting == frozenset({1})


def test_no_more_than_six_soldiers_go_into_a_battle_at_once() -> None:
    table = start(3, first=0)
    assert P(1, 7) not in table.legal(0)
    assert P(1, 6) in table.legal(0)


def test_a_placement_is_limited_by_the_soldiers_in_hand() -> None:
    table = start(3, first=0)
    play(table, (0, P(1, 6)), (1, P(2, 6)), (2, P(0, 6)))
    counts = {a.count for a in table.legal(0) if isinstance(a, PlaceSoldiers)}
    assert counts == {1, 2}


def test_soldiers_cannot_be_added_to_a_battle_already_placed_in() -> None:
    table = start(3, first=0)
    play(table, (0, P(1, 2)), (1, P(0, 1)), (2, P(1, 1)))
    assert not any(isinstance(a, PlaceSoldiers) and a.opponent == 1 for a in table.legal(0))
    assert any(isinstance(a, PlaceSoldiers) and a.opponent == 2 for a in table.legal(0))


def test_claiming_a_card_takes_exactly_one_soldier_and_removes_the_card_from_offer() -> None:
    table = start(3, first=0, top=[cards.WAR_BANNER])
    out = table.when(0, C(cards.WAR_BANNER))
    assert out == [ArmoryClaimed(seat=0, card=cards.WAR_BANNER)]
    assert table.state.supply[0] == 7
    assert table.state.holder[cards.WAR_BANNER] == 0
    assert C(cards.WAR_BANNER) not in table.legal(1)


def test_a_player_may_claim_several_cards_on_several_turns() -> None:
    table = start(3, first=0, top=[cards.WAR_BANNER, cards.AMBUSH])
    play(table, (0, C(cards.WAR_BANNER)), (1, P(0, 1)), (2, P(0, 1)), (0, C(cards.AMBUSH)))
    assert table.state.holder[cards.WAR_BANNER] == table.state.holder[cards.AMBUSH] == 0


def test_no_passing_a_seat_with_a_move_is_always_asked_and_offered_no_pass() -> None:
    table = start(3, first=0)
    while table.state.phase == "place":
        (seat,) = table.waiting
        legal = table.legal(seat)
        # Every option uses at least one soldier: there is no pass.
        assert legal and all(isinstance(a, PlaceSoldiers | ClaimArmory) for a in legal)
        table.when(seat, legal[-1])
    # Placement ended only when nobody had a move: everyone's soldiers are used up, or every
    # battle of theirs was placed in and no card was left unclaimed.
    state = table.state
    for seat in range(3):
        assert state.supply[seat] == 0 or (
            len(table.engine.legal_actions(state, seat)) == 0
            and all(state.holder[card] >= 0 for card in state.face_up))


def test_a_seat_without_a_move_is_skipped_without_a_decision() -> None:
    table = start(3, first=0)
    play(table, (0, P(1, 6)), (1, P(2, 6)), (2, P(1, 6)), (0, P(2, 2)))
    # Seat 0 has no soldiers left: after seats 1 and 2, seat 0 is skipped.
    play(table, (1, P(0, 2)))
    decision = ENGINE.pending(table.state).decision
    play(table, (2, C(table.state.face_up[0])))
    assert table.waiting == frozenset({2})  # 0 and 1 have nothing left to place
    assert ENGINE.pending(table.state).decision == decision + 1


def test_placement_ends_when_nobody_can_move() -> None:
    table = start(4, first=1)
    place_all(table)
    assert table.state.phase != "place"
    assert table.state.supply == [0, 0, 0, 0]


@pytest.mark.parametrize(("players", "seat", "opponents"), [
    (3, 0, {1, 2}),
    (5, 0, {1, 4}),
    (5, 2, {1, 3}),
    (4, 0, {1, 2, 3}),
    (6, 4, {3, 5, 1}),
])
def test_battles_are_left_and_right_plus_across_only_with_an_even_count(
        players: int, seat: int, opponents: set[int]) -> None:
    table = start(players, first=seat)
    offered = {a.opponent for a in table.legal(seat) if isinstance(a, PlaceSoldiers)}
    assert offered == opponents


def test_each_placement_opens_a_new_decision_number() -> None:
    table = start(4, first=0)
    numbers = []
    for _ in range(4):
        numbers.append(ENGINE.pending(table.state).decision)
        (seat,) = table.waiting
        table.when(seat, table.legal(seat)[0])
    assert numbers == list(range(numbers[0], numbers[0] + 4))
