"""Views: what a seat may know. Other seats' hands and every deck's order stay hidden."""

from __future__ import annotations

from typing import get_type_hints

import msgspec
from castellum_support import ENGINE, angel, created, deal_angels, replay, start

from siege.contracts.events import Event
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.castellum.engine import Castellum
from siege.games.castellum.state import State
from siege.games.castellum.views import CastellumView
from siege.testing.playout import FairChance
from siege.testing.privacy import views_unchanged


def copy(state: State) -> State:
    return msgspec.convert(msgspec.to_builtins(state), State)


def with_other_secrets(state: State, seat: int) -> State:
    """The same table, but ``seat`` holds other hidden cards and every deck is reordered."""
    other = copy(state)
    hand = other.hands[seat]
    swap = min(len(hand), len(other.angel_deck))
    hand[:swap], other.angel_deck[:swap] = other.angel_deck[:swap], hand[:swap]
    dealt = other.enemy_hands[seat]
    deck = other.enemy_decks[other.year]
    swap = min(len(dealt), len(deck))
    dealt[:swap], deck[:swap] = deck[:swap], dealt[:swap]
    for cards in (other.angel_deck, other.fort_deck, other.troop_deck, other.angel_discard,
                  *other.enemy_decks):
        cards.reverse()
    return other


def random_game(players: int, seed: str) -> list[Event]:
    rng = BotRng(seed.encode(), "choices")
    _, events = play_local(ENGINE, created(players),
                           lambda s, seat, legal: legal[rng.randrange(len(legal))],
                           FairChance(seed.encode(), seed))
    return events


def test_a_seat_never_sees_another_seats_hands_or_any_deck_order() -> None:
    checked = 0
    for players in (2, 3, 4):
        events = random_game(players, f"views{players}")
        for cut in range(20, len(events), 7):
            checked += views_unchanged(ENGINE, replay(events[:cut]), players,
                                       with_other_secrets)
    assert checked > 200


def test_a_seat_sees_its_own_hands_and_only_the_sizes_of_the_others() -> None:
    table = start(2)
    deal_angels(table, 0, [angel("cancel"), angel("take")])
    mine, theirs = ENGINE.view(table.state, 0), ENGINE.view(table.state, 1)
    assert mine.hand == [angel("cancel"), angel("take")]
    assert theirs.hand == [] and theirs.hand_sizes == [2, 0]
    # Changing seat 0's secret cards changes its own view (the check above can fail).
    other = with_other_secrets(table.state, 0)
    assert ENGINE.view(other, 0).hand != mine.hand


def test_the_view_type_is_annotated_and_decodes() -> None:
    assert get_type_hints(Castellum.view)["return"] is CastellumView
    view = ENGINE.view(start(3).state, 2)
    data = msgspec.msgpack.encode(view)
    assert msgspec.msgpack.Decoder(CastellumView).decode(data) == view


def test_a_view_is_a_copy_that_does_not_follow_the_state() -> None:
    table = start(2)
    view = ENGINE.view(table.state, 0)
    before = msgspec.msgpack.encode(view)
    table.state.resources[0][0] = 99
    table.state.lines[0][0].troops.append(20)
    assert msgspec.msgpack.encode(view) == before
