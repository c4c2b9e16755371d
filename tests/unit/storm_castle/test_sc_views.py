"""Views: what a seat may know. Other seats' cards, deck orders, the face-down events and the
sealed Boss bids stay hidden."""

from __future__ import annotations

from typing import get_type_hints

import msgspec
from storm_support import ENGINE, created, replay, start

from siege.contracts.events import Event
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import HERO_KINDS
from siege.games.storm_castle.engine import StormTheCastle
from siege.games.storm_castle.state import State
from siege.games.storm_castle.views import StormView
from siege.testing.playout import FairChance
from siege.testing.privacy import views_unchanged


def copy(state: State) -> State:
    return msgspec.convert(msgspec.to_builtins(state), State)


def with_other_secrets(state: State, seat: int) -> State:
    """The same table, but ``seat`` holds other cards, its sealed bid differs, and every
    deck (the defenders' magic deck too), the defender pool (below any drawn token), the heroes
    not summoned and the face-down events are reordered."""
    other = copy(state)
    hand, deck = other.hands[seat], other.decks[seat]
    swap = min(len(hand), len(deck))
    hand[:swap], deck[:swap] = deck[:swap], hand[:swap]
    boss_hand = other.boss_hands[seat]
    swap = min(len(boss_hand), len(other.boss_deck))
    boss_hand[:swap], other.boss_deck[:swap] = other.boss_deck[:swap], boss_hand[:swap]
    if other.bids[seat] > 0:
        other.bids[seat] -= 1
    elif other.bids[seat] == 0 and other.gold[seat] > 0:
        other.bids[seat] = 1
    for cards in (*other.decks, other.boss_deck, other.event_deck, other.magic_deck,
                  other.hero_pool):
        cards.reverse()
    if len(other.hero_pool) == 1:  # the hero not summoned is secret too
        other.hero_pool = [k for k in HERO_KINDS if k not in other.hero_pool]
    drawn = len(other.to_place)
    other.defender_pool[drawn:] = other.defender_pool[drawn:][::-1]
    upcoming = other.event_row[len(other.revealed):]
    other.event_row[len(other.revealed):] = upcoming[::-1]
    return other


def random_game(players: int, seed: str) -> list[Event]:
    rng = BotRng(seed.encode(), "choices")
    _, events = play_local(ENGINE, created(players),
                           lambda s, seat, legal: legal[rng.randrange(len(legal))],
                           FairChance(seed.encode(), seed))
    return events


def test_a_seat_never_sees_another_seats_secrets() -> None:
    checked = 0
    for players in (2, 3, 4):
        events = random_game(players, f"views{players}")
        for cut in range(15, len(events), 23):
            checked += views_unchanged(ENGINE, replay(events[:cut]), players,
                                       with_other_secrets)
    assert checked > 200


def test_bids_are_sealed_until_every_seat_has_bid() -> None:
    table = start(3)
    table.when(0, a.BidGold(gold=3))
    for seat in range(3):
        view = ENGINE.view(table.state, seat)
        assert view.bids_in == [True, False, False] and view.gold == [5, 5, 5]
    sealed = copy(table.state)
    sealed.bids[0] = 1
    assert (msgspec.msgpack.encode(ENGINE.view(sealed, 1))
            == msgspec.msgpack.encode(ENGINE.view(table.state, 1)))
    table.when(1, a.BidGold(gold=0))
    table.when(2, a.BidGold(gold=1))
    assert ENGINE.view(table.state, 1).last_bids == [3, 0, 1]


def test_a_seat_sees_its_own_cards_and_only_the_sizes_of_the_others() -> None:
    table = start(2, hands=((5, 6, 7), (8, 9, 10)))
    mine, theirs = ENGINE.view(table.state, 0), ENGINE.view(table.state, 1)
    assert mine.hand == [5, 6, 7] and theirs.hand == [8, 9, 10]
    assert mine.hand_sizes == [3, 3] and mine.deck_sizes == [19, 19]
    other = with_other_secrets(table.state, 0)
    assert ENGINE.view(other, 0).hand != mine.hand  # the check above can fail


def test_the_view_type_is_annotated_and_decodes() -> None:
    assert get_type_hints(StormTheCastle.view)["return"] is StormView
    view = ENGINE.view(start(3).state, 2)
    assert msgspec.msgpack.Decoder(StormView).decode(msgspec.msgpack.encode(view)) == view


def test_a_view_is_a_copy_that_does_not_follow_the_state() -> None:
    table = start(2)
    view = ENGINE.view(table.state, 0)
    before = msgspec.msgpack.encode(view)
    table.state.gold[0] = 9
    table.state.hands[0].append(11)
    assert msgspec.msgpack.encode(view) == before
