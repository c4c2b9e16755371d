"""Views: the other seat's hand and resources and every deck's order stay hidden."""

from __future__ import annotations

from typing import get_type_hints

import msgspec
from ca_support import ENGINE, PETE, YOU, replay, start

from siege.games.castle_assault.engine import CastleAssault
from siege.games.castle_assault.state import State
from siege.games.castle_assault.views import CastleAssaultView
from siege.testing.playout import seeded_playout
from siege.testing.privacy import views_unchanged


def copy(state: State) -> State:
    return msgspec.convert(msgspec.to_builtins(state), State)


def with_other_secrets(state: State, seat: int) -> State:
    """The same table, but ``seat`` holds other cards in hand and as resources, and every
    deck is reordered."""
    other = copy(state)
    hand, deck, res = other.hands[seat], other.decks[seat], other.resources[seat]
    swap = min(len(hand), len(deck))
    hand[:swap], deck[:swap] = deck[:swap], hand[:swap]
    swap = min(len(res), len(deck) - swap)
    res[:swap], deck[-swap or len(deck):] = deck[-swap or len(deck):][:swap], res[:swap]
    for d in other.decks + [other.env_deck]:
        d.reverse()
    return other


def test_a_seat_never_sees_the_other_hand_its_resources_or_any_deck_order() -> None:
    checked = 0
    for seed in range(6):
        _, events = seeded_playout(ENGINE, ["greedy", "random"], seed=seed)
        for cut in range(12, len(events), 9):
            checked += views_unchanged(ENGINE, replay(events[:cut]), 2, with_other_secrets)
    assert checked > 100


def test_a_seat_sees_its_own_hand_and_resources_and_only_counts_of_the_others() -> None:
    t = start()
    t.start_turn(1)
    mine, theirs = ENGINE.view(t.state, YOU), ENGINE.view(t.state, PETE)
    assert mine.hand == t.s.hands[YOU] and theirs.hand == t.s.hands[PETE]
    assert theirs.hand_sizes == [6, 5] and mine.hand != theirs.hand
    assert ENGINE.view(with_other_secrets(t.state, YOU), YOU).hand != mine.hand


def test_the_view_type_is_annotated_and_decodes() -> None:
    assert get_type_hints(CastleAssault.view)["return"] is CastleAssaultView
    view = ENGINE.view(start().state, 1)
    assert msgspec.msgpack.Decoder(CastleAssaultView).decode(
        msgspec.msgpack.encode(view)) == view
