"""The reference data (``reference.py``): plain JSON built from the data modules, covering every
card, mission and code a view can show."""

from __future__ import annotations

from typing import Any, get_args

from mission_support import ENGINE

from siege.contracts.events import Event, MatchCreated
from siege.games.mission import cards as c
from siege.games.mission.missions import DIFFICULTY, MISSION_COUNT, MISSIONS, POINTS
from siege.games.mission.reference import reference
from siege.games.mission.rules import flow
from siege.games.mission.state import EndReason, Phase
from siege.games.mission.tuning import (
    DEPLOYS_PER_TURN,
    NOBODY,
    OPENING_HAND,
    PLAYERS,
    SLOTS,
    TURN_LIMIT,
    WIN_POINTS,
)
from siege.games.mission.views import MissionView
from siege.testing.playout import seeded_playout

REF = reference()


def codes(key: str) -> list[Any]:
    return [entry["code"] for entry in REF[key]]



def test_every_card_number_of_a_deck_appears_once_with_a_name_and_a_text() -> None:
    cards = REF["cards"]
    # A deck shuffle is of DECK_SIZE cards: every number 0..17 is dealt to each seat.
    assert [card["number"] for card in cards] == list(range(c.DECK_SIZE)) == list(range(18))
    for card in cards:
        assert card["name"].strip() and card["text"].strip()


def test_card_numbers_match_the_data_module() -> None:
    for number, entry in enumerate(REF["cards"]):
        spec = c.CARD_TYPES[c.DECKLIST[number]]
        assert (entry["type"], entry["name"], entry["kind"]) == (
            c.TYPE[number], spec.name, c.KIND[number])
        assert (entry["speed"], entry["strength"]) == (c.SPEED[number], c.STRENGTH[number])
        assert spec.text in entry["text"]
        if entry["kind"] == "maneuver":
            assert f"speed {c.SPEED[number]}" in entry["text"]
        else:
            assert f"strength {c.STRENGTH[number]}" in entry["text"]
    # The numbers the rules and tests use (see mission_support): renumbering would break these.
    names = [card["name"] for card in REF["cards"]]
    assert names[0] == names[1] == "Scramble" and names[8] == "Breakneck Ride"
    assert names[11] == names[12] == "Relay" and names[16] == "Drill Sergeant"
    assert names[17] == "Tunnellers"
    maneuvers = {card["number"] for card in REF["cards"] if card["kind"] == "maneuver"}
    assert maneuvers == c.MANEUVERS and len(maneuvers) == 13


def test_card_types_list_every_copy() -> None:
    types = REF["card_types"]
    assert [t["id"] for t in types] == list(range(len(c.CARD_TYPES)))
    assert sorted(n for t in types for n in t["numbers"]) == list(range(c.DECK_SIZE))
    for spec, entry in zip(c.CARD_TYPES, types, strict=True):
        assert (entry["name"], entry["kind"], entry["speed"], entry["strength"]) == (
            spec.name, spec.kind, spec.speed, spec.strength)
        assert all(REF["cards"][n]["type"] == spec.id for n in entry["numbers"])


def test_every_mission_appears_once_with_the_numbers_of_the_data_module() -> None:
    missions = REF["missions"]
    assert [m["id"] for m in missions] == list(range(MISSION_COUNT)) == list(range(8))
    for spec, entry in zip(MISSIONS, missions, strict=True):
        assert (entry["name"], entry["difficulty"], entry["points"]) == (
            spec.name, DIFFICULTY[spec.id], POINTS[spec.id])
        assert entry["name"] and str(spec.difficulty) in entry["text"]


def test_codes_and_constants_match_the_code() -> None:
    assert codes("phases") == list(get_args(Phase))
    assert codes("end_reasons") == list(get_args(EndReason))
    assert codes("card_kinds") == list(get_args(c.CardKind))
    assert codes("chance_purposes") == [
        flow.MISSIONS_PURPOSE, *(flow.deck_purpose(s) for s in range(PLAYERS)),
        flow.FIRST_PLAYER_PURPOSE, *(flow.reshuffle_purpose(s) for s in range(PLAYERS))]
    for key in ("phases", "end_reasons", "card_kinds", "chance_purposes"):
        assert all(entry["text"] for entry in REF[key]), key
    constants = REF["constants"]
    assert (constants["players"], constants["slots"], constants["opening_hand"]) == (
        PLAYERS, SLOTS, OPENING_HAND)
    assert (constants["deploys_per_turn"], constants["win_points"],
            constants["turn_limit"], constants["nobody"]) == (
        DEPLOYS_PER_TURN, WIN_POINTS, TURN_LIMIT, NOBODY)


def views_of(events: list[Event]) -> list[MissionView]:
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
        "phase", "ended", "chance", "card", "mission", "slot")}
    for seed, lineup in ((1, ["random", "random"]), (2, ["greedy", "random"]),
                         (3, ["greedy", "greedy"])):
        _, events = seeded_playout(ENGINE, lineup, seed)
        for view in views_of(events):
            seen["phase"].add(view.phase)
            seen["ended"].add(view.ended)
            seen["chance"].add(view.chance)
            seen["card"].update(view.hand)
            seen["slot"].add(view.target)
            assert [slot.slot for slot in view.missions] == list(range(len(view.missions)))
            for slot in view.missions:
                seen["mission"].add(slot.mission)
                if slot.mission != NOBODY:
                    entry = REF["missions"][slot.mission]
                    assert (slot.difficulty, slot.points) == (
                        entry["difficulty"], entry["points"])
                for seat in range(PLAYERS):
                    seen["card"].update([*slot.stashed[seat], *slot.units[seat]])
                    assert all(REF["cards"][n]["kind"] == "maneuver" for n in slot.stashed[seat])
                    assert all(REF["cards"][n]["kind"] == "unit" for n in slot.units[seat])
                    assert slot.stashed_speed[seat] == sum(
                        REF["cards"][n]["speed"] for n in slot.stashed[seat])
            for seat in view.seats:
                seen["card"].update([*seat.discard, *seat.maneuvers, *seat.swerved])
                seen["mission"].update(seat.completed)
            if view.combat is not None:
                seen["slot"].add(view.combat.slot)
                for swerved in view.combat.swerved:
                    seen["card"].update(swerved)
    assert seen["phase"] <= set(codes("phases"))
    assert seen["ended"] <= set(codes("end_reasons"))
    assert seen["chance"] - {""} <= set(codes("chance_purposes"))
    assert seen["card"] <= {card["number"] for card in REF["cards"]}
    assert seen["mission"] - {NOBODY} <= {m["id"] for m in REF["missions"]}
    assert seen["slot"] - {NOBODY} <= set(range(REF["constants"]["slots"]))
    # The playouts reached most of the game: the checks above are not vacuous.
    assert {"assault", "combat", "stash", "deploy", "over"} <= seen["phase"]
    assert len(seen["card"]) == c.DECK_SIZE and len(seen["mission"] - {NOBODY}) >= 5
