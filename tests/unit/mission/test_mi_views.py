"""Views: hands and deck orders are secret, everything on the table is open."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mission_support import (
    CHARGE,
    ENGINE,
    KNIGHTS,
    MARCH,
    PIKEMEN,
    PIKEMEN_2,
    SCRAMBLE,
    SCRAMBLE_2,
    SERGEANT,
    TUNNELLERS,
    assault,
    deploy,
    play,
    replay,
    start,
)

from siege.games.mission import actions as a
from siege.games.mission.state import State
from siege.games.mission.views import MissionView
from siege.testing.playout import seeded_playout

HAND_0 = [CHARGE, MARCH, KNIGHTS, SCRAMBLE, SCRAMBLE_2]
HAND_1 = [PIKEMEN, PIKEMEN_2, KNIGHTS, SERGEANT, TUNNELLERS]


def encoded(state: State, seat: int) -> bytes:
    return msgspec.msgpack.encode(ENGINE.view(state, seat))


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_other_hand() -> None:
    table = start(first=0, decks={0: HAND_0, 1: HAND_1})
    mine = ENGINE.view(table.state, 0)
    theirs = ENGINE.view(table.state, 1)
    assert mine.hand == HAND_0 and theirs.hand == HAND_1
    assert [s.hand_size for s in mine.seats] == [5, 5]
    assert [s.deck_size for s in mine.seats] == [13, 13]
    assert mine.mission_deck_size == 6


def test_everything_in_play_is_open_to_both_seats() -> None:
    table = start(first=0, decks={0: HAND_0})
    play(table, deploy(0, CHARGE), deploy(0, KNIGHTS, slot=1), (1, a.SKIP))
    for viewer in (0, 1):
        view = ENGINE.view(table.state, viewer)
        assert view.seats[0].maneuvers == [CHARGE]
        assert view.missions[1].units == [[KNIGHTS], []]
        assert view.missions[1].strength == [3, 0]


def test_a_view_decodes_as_the_annotated_view_type() -> None:
    table = start(first=0, decks={0: HAND_0})
    play(table, deploy(0, CHARGE), deploy(0, MARCH), (1, a.PASS), assault(0, 0))
    view = ENGINE.view(table.state, 1)
    again = msgspec.msgpack.decode(msgspec.msgpack.encode(view), type=MissionView)
    assert again == view


def copy_of(state: State) -> State:
    return msgspec.convert(msgspec.to_builtins(state), State)


def secret_twin(state: State, seat: int, pick: int) -> State:
    """The same state with only ``seat``'s secrets changed: one hand card traded with a deck
    card, and the deck's order reversed."""
    twin = copy_of(state)
    hand, deck = twin.hands[seat], twin.decks[seat]
    if hand and deck:
        i, j = pick % len(hand), pick % len(deck)
        hand[i], deck[j] = deck[j], hand[i]
    deck.reverse()
    return twin


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), cut=st.floats(0.05, 0.95), seat=st.integers(0, 1),
       pick=st.integers(0, 50))
def test_states_differing_only_in_one_seats_hidden_cards_give_the_other_equal_views(
        seed: int, cut: float, seat: int, pick: int) -> None:
    _, events = seeded_playout(ENGINE, ["random", "random"], seed)
    state = replay(events[: max(6, int(len(events) * cut))])
    twin = secret_twin(state, seat, pick)
    other = 1 - seat
    assert encoded(twin, other) == encoded(state, other)
    if twin.hands[seat] != state.hands[seat]:
        assert encoded(twin, seat) != encoded(state, seat)  # the owner does see its hand
    # The mission deck's order is secret from both seats.
    shuffled = copy_of(state)
    shuffled.mission_deck.reverse()
    assert all(encoded(shuffled, s) == encoded(state, s) for s in (0, 1))
