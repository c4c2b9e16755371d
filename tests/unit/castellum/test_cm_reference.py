"""The reference data (``reference.py``): plain JSON built from the data modules, covering every
card, space and code a view can show."""

from __future__ import annotations

from typing import Any, get_args

from castellum_support import ENGINE, created

from siege.contracts.events import Event, MatchCreated
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.castellum import events as e
from siege.games.castellum.angels import ANGEL_CARDS, ANGEL_DECK, EFFECTS, HAND_LIMIT
from siege.games.castellum.board import SPACES
from siege.games.castellum.cards import (
    FORT_DECK,
    LINE_CARDS,
    RESOURCE_NAMES,
    START_FORTS,
    TROOP_DECK,
    TYPE_NAMES,
)
from siege.games.castellum.enemies import ENEMY_CARDS, ENEMY_DECKS, YEARS
from siege.games.castellum.reference import reference
from siege.games.castellum.rewards import REWARD_CARDS, SEAT_OFFSETS, side_for
from siege.games.castellum.rules.effects import TARGETS_NEEDED
from siege.games.castellum.rules.flow import SETUP_SHUFFLES
from siege.games.castellum.state import MAX_COLUMNS, Asking, Phase
from siege.games.castellum.views import CastellumView
from siege.testing.playout import FairChance

REF = reference()


def codes(key: str) -> list[Any]:
    return [entry["code"] for entry in REF[key]]



def test_every_line_card_appears_once_by_id_with_a_name_and_a_text() -> None:
    cards = REF["line_cards"]
    assert [card["id"] for card in cards] == list(range(len(LINE_CARDS)))
    dealt = [*START_FORTS, *FORT_DECK, *TROOP_DECK]
    assert sorted(dealt) == [card["id"] for card in cards]
    for card in cards:
        assert card["name"] and card["text"]
    decks = REF["decks"]
    assert [decks["start_forts"], decks["fort_deck"], decks["troop_deck"]] == [
        list(START_FORTS), list(FORT_DECK), list(TROOP_DECK)]


def test_line_card_numbers_match_the_data_module() -> None:
    for card, entry in zip(LINE_CARDS, REF["line_cards"], strict=True):
        assert entry == {**entry, "id": card.id, "name": card.name, "kind": card.kind,
                         "strength": card.strength, "cost": list(card.cost),
                         "troop_type": card.troop_type, "income": list(card.income),
                         "boost": card.boost, "star": card.star}
        assert f"strength {card.strength}" in entry["text"]
        kind = "fortification" if card.kind == "fort" else f"{TYPE_NAMES[card.troop_type]} troop"
        assert kind in entry["text"].lower()
    assert {entry["deck"] for entry in REF["line_cards"][:4]} == {"start"}


def test_every_enemy_card_appears_once_with_the_numbers_of_the_data_module() -> None:
    cards = REF["enemy_cards"]
    assert [card["id"] for card in cards] == list(range(len(ENEMY_CARDS)))
    assert sorted(card for deck in ENEMY_DECKS for card in deck) == list(range(len(cards)))
    assert REF["decks"]["enemy_decks"] == [list(deck) for deck in ENEMY_DECKS]
    for card, entry in zip(ENEMY_CARDS, cards, strict=True):
        assert entry["name"] == card.name and entry["text"]
        assert (entry["year"], entry["type"], entry["strength"], entry["points"]) == (
            card.year, card.type, card.strength, card.points)
        assert (entry["boost_type"], entry["boost"], entry["penalty"]) == (
            card.boost_type, card.boost, card.penalty)
        assert str(YEARS[card.year]) in entry["text"]
        assert f"strength {card.strength}" in entry["text"]


def test_every_angel_card_appears_once_with_its_strength_and_effect() -> None:
    cards = REF["angel_cards"]
    assert [card["id"] for card in cards] == sorted(ANGEL_DECK) == list(range(len(ANGEL_CARDS)))
    assert REF["decks"]["angel_deck"] == list(ANGEL_DECK)
    for card, entry in zip(ANGEL_CARDS, cards, strict=True):
        assert (entry["strength"], entry["effect"]) == (card.strength, card.effect)
        assert entry["name"] and f"+{card.strength} strength" in entry["text"]


def test_effects_list_every_effect_with_its_target_layout() -> None:
    assert [effect["name"] for effect in REF["effects"]] == list(EFFECTS)
    for effect in REF["effects"]:
        assert len(effect["targets"]) == TARGETS_NEEDED[effect["name"]]
        assert effect["text"]


def test_spaces_match_the_board() -> None:
    assert [space["id"] for space in REF["spaces"]] == list(range(len(SPACES)))
    for space, entry in zip(SPACES, REF["spaces"], strict=True):
        assert (entry["name"], entry["kind"], entry["capacity"], entry["choices"]) == (
            space.name, space.kind, space.capacity, space.choices)
        assert entry["resources"] == list(space.resources) and entry["text"]


def test_codes_and_orders_match_the_code() -> None:
    assert codes("phases") == list(get_args(Phase))
    assert codes("asking") == list(get_args(Asking))
    assert codes("chance_purposes") == [
        "first_player", *(purpose for purpose, _ in SETUP_SHUFFLES), "angel_reshuffle"]
    assert REF["resources"] == list(RESOURCE_NAMES)
    assert REF["unit_types"] == list(TYPE_NAMES)
    assert REF["years"] == list(YEARS)
    assert REF["constants"]["hand_limit"] == HAND_LIMIT
    assert REF["constants"]["max_columns"] == MAX_COLUMNS


def test_reward_cards_and_seat_offsets_match_the_data_module() -> None:
    for card, entry in zip(REWARD_CARDS, REF["reward_cards"], strict=True):
        assert entry["threshold"] == {str(n): need for n, need in card.threshold.items()}
        for k, (side, got) in enumerate(zip(card.sides, entry["sides"], strict=True)):
            assert got["side"] == k and got["text"]
            assert (got["resources"], got["angels"], got["strength"], got["pair_type"]) == (
                list(side.resources), side.angels, side.strength, side.pair_type)
    offsets = REF["reward_seat_offsets"]
    for players in SEAT_OFFSETS:
        for chooser in range(players):
            for seat in range(players):
                k = (seat - chooser) % players
                assert side_for(players, chooser, 1, seat) == (1 + offsets[str(players)][k]) % 4


def random_game(players: int, seed: str) -> list[Event]:
    rng = BotRng(seed.encode(), "choices")
    _, events = play_local(ENGINE, created(players),
                           lambda s, seat, legal: legal[rng.randrange(len(legal))],
                           FairChance(seed.encode(), seed))
    return events


def views_of(events: list[Event]) -> list[CastellumView]:
    first = events[0]
    assert isinstance(first, MatchCreated)
    state = ENGINE.initial_state(first)
    views = []
    for event in events[1:]:
        state = ENGINE.evolve(state, event)
        views += [ENGINE.view(state, seat) for seat in range(first.players)]
    return views


def test_everything_a_view_shows_has_an_entry() -> None:
    seen: dict[str, set[Any]] = {key: set() for key in (
        "phase", "asking", "chance", "line", "enemy", "angel", "result", "effect")}
    views: list[CastellumView] = []
    for players in (2, 4):
        events = random_game(players, f"reference{players}")
        assert any(isinstance(event, e.WorkerPlaced) for event in events)
        for event in events:
            if isinstance(event, e.WorkerPlaced):
                assert 0 <= event.space < len(REF["spaces"])
        views += views_of(events)
    for view in views:
        assert len(view.spaces) == len(REF["spaces"])
        assert all(len(line) == REF["constants"]["max_columns"] for line in view.lines)
        assert len(view.enemy_deck_sizes) == len(REF["years"])
        seen["phase"].add(view.phase)
        seen["asking"].add(view.asking)
        seen["chance"].add(view.chance)
        seen["line"].update(view.offer)
        seen["enemy"].update(view.enemy_hand)
        seen["angel"].update(view.hand)
        for cards in view.defeated:
            seen["enemy"].update(cards)
        for line in view.lines:
            for column in line:
                seen["line"].update([column.fort, *column.troops])
                seen["enemy"].add(column.enemy)
                seen["angel"].update(column.angels)
        for row in view.results:
            seen["result"].update(row)
        for effect in [*view.stack, *([view.draft] if view.draft else [])]:
            seen["effect"].add(effect.effect)
            seen["angel"].add(effect.card)
    assert seen["phase"] <= set(codes("phases"))
    assert seen["asking"] <= set(codes("asking"))
    assert seen["chance"] - {""} <= set(codes("chance_purposes"))
    assert seen["result"] <= set(codes("combat_results"))
    assert seen["effect"] <= {effect["name"] for effect in REF["effects"]}
    nobody = REF["constants"]["nobody"]
    for key, cards in (("line", "line_cards"), ("enemy", "enemy_cards"),
                       ("angel", "angel_cards")):
        assert seen[key] - {nobody} <= set(range(len(REF[cards]))), key
    # The playouts reached most of the game: the check above is not vacuous.
    assert {"building", "siege", "angels", "over"} <= seen["phase"]
    assert len(seen["line"]) > 20 and len(seen["enemy"]) > 20 and len(seen["angel"]) >= 5
