"""Castle Assault for people: every action and event has a line, every board fits a terminal,
and no line or board tells a seat the face-down cards its view hides."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import pytest
from ca_support import PETE, YOU, start

from siege.contracts.events import Event
from siege.engine.protocol import SPECTATOR
from siege.games.castle_assault import actions as a
from siege.games.castle_assault import events as e
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.engine import CastleAssault
from siege.games.castle_assault.presentation import PRESENTATION
from siege.games.castle_assault.views import CastleAssaultView
from siege.testing.playout import seeded_playout
from siege.testing.presenting import assert_line
from siege.testing.presenting import render as render_board

ENGINE = CastleAssault()
NAMES = ["Red", "Blue"]
SEEDS = (0, 1, 2)
# Both seat counts are 2; the warbands and bots vary instead, so every card kind gets drawn.
MATCHUPS = (("dragons,dwarves", "greedy,greedy"), ("fae,war-engine", "greedy,random"))
CASES = [(warbands, bots, seed) for warbands, bots in MATCHUPS for seed in SEEDS]
CARD_NAMES = [card.name for card in CARDS]
# The rulebook walkthrough's opening hands (and each seat's first draw).
WALKTHROUGH_YOU = ["Soot", "Soot", "Drake", "Dracomancer", "Ranged Blessing", "Drake"]
WALKTHROUGH_PETE = ["Bronzebeard Bulwark", "Ironborne Dwarf", "Forge Master",
                    "Bitterbrew Batterers", "Dwarf Lord Grim'gor", "Ironborne Dwarf"]

Decision = tuple[int, list[Any], list[CastleAssaultView]]


def render(view: CastleAssaultView, names: list[str] = NAMES) -> str:
    return render_board(PRESENTATION, view, names)


@cache
def playout(warbands: str, bots: str, seed: int
            ) -> tuple[list[Decision], list[Event]]:
    """(seat asked, its legal actions, views of seat 0, seat 1 and a spectator) at every
    decision, and the log."""
    decisions: list[Decision] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        views = [ENGINE.view(state, s) for s in (0, 1, SPECTATOR)]
        decisions.append((seat, ENGINE.legal_actions(state, seat), views))

    _, events = seeded_playout(ENGINE, bots.split(","), seed, options={"warbands": warbands},
                               on_action=on_action)
    return decisions, events


def test_every_action_and_event_type_has_a_line() -> None:
    assert set(PRESENTATION.actions) == set(ENGINE.action_types)
    assert set(PRESENTATION.events) == set(ENGINE.event_types)
    assert PRESENTATION.title == "Castle Assault"
    lines = PRESENTATION.rules_summary.splitlines()
    assert 6 <= len(lines) <= 15
    assert all(0 < len(line) <= 80 for line in lines)


@pytest.mark.parametrize(("warbands", "bots", "seed"), CASES)
def test_every_event_of_a_playout_reads_as_a_line_for_every_listener(
        warbands: str, bots: str, seed: int) -> None:
    _, events = playout(warbands, bots, seed)
    game_events = [ev for ev in events if type(ev) in PRESENTATION.events]
    assert {type(ev) for ev in game_events} >= {
        e.ResourcePlaced, e.UnitPlayed, e.UnitCharged, e.ResponsePassed, e.TurnEnded}
    for event in game_events:
        for seat in (0, 1, None):
            line = PRESENTATION.event(event, NAMES, seat)
            assert_line(line)
            acting = getattr(event, "seat", -1)
            assert line.startswith("You ") == (seat == acting), line


@pytest.mark.parametrize(("warbands", "bots", "seed"), CASES)
def test_every_legal_action_at_every_decision_reads_as_a_line(
        warbands: str, bots: str, seed: int) -> None:
    decisions, _ = playout(warbands, bots, seed)
    assert decisions
    for seat, legal, views in decisions:
        assert legal
        for action in legal:
            line = PRESENTATION.action(action, views[seat], NAMES)
            assert_line(line)
            assert "#" not in line and "seat " not in line, line  # names, not numbers


@pytest.mark.parametrize(("warbands", "bots", "seed"), CASES)
def test_every_board_of_every_seat_fits_80_columns_and_40_lines(
        warbands: str, bots: str, seed: int) -> None:
    decisions, _ = playout(warbands, bots, seed)
    for _, _, views in decisions:
        for view in views:
            text = render(view)
            lines = text.splitlines()
            assert 0 < len(lines) <= 40, text
            assert all(len(line) <= 80 for line in lines), text
            if view.seat == SPECTATOR:
                assert "(you)" not in text and "Your hand" not in text, text
            else:
                assert f"{NAMES[view.seat]} (you)" in text
                assert f"{NAMES[1 - view.seat]} (you)" not in text


def test_the_board_fits_with_long_seat_names() -> None:
    long_names = ["A" * 40, "[bold]x[/bold] the Long-Named Margravine"]
    for warbands, bots, seed in CASES:
        decisions, _ = playout(warbands, bots, seed)
        for _, _, views in decisions[::2]:
            for view in views:
                text = render(view, long_names)
                lines = text.splitlines()
                assert len(lines) <= 40, text
                assert all(len(line) <= 80 for line in lines), text
                assert "[bold]x" in text  # markup in a name prints as it is


def test_the_board_shows_the_hand_the_battlefield_and_the_counts_by_name() -> None:
    # The walkthrough's turn 1: you place a Soot face down and play the Dracomancer.
    table = start(WALKTHROUGH_YOU, WALKTHROUGH_PETE, env=["Local Support"])
    table.start_turn(4)
    table.resource(YOU, "Soot")
    table.play(YOU, "Dracomancer", 1)
    mine = render(ENGINE.view(table.state, YOU))
    for words in ("Castle Assault", "turn 1 of 200", "Open Phase", "Red (you)",
                  "Your hand (4", "Soot (4)", "Drake (2)", "Ranged Blessing (2)",
                  "Your resources (1, 0 ready): Soot", "^Dracomancer #",
                  "hand 5 cards", "resources 1, 0 ready", "castle Health 10 of 10",
                  "Max for Red", "last revealed: Local Support", "Dragons, hero Vyrax",
                  "Dwarves, hero Oren Iron-Veins"):
        assert words in mine, words
    theirs = render(ENGINE.view(table.state, PETE))
    assert "Blue (you)" in theirs and "^Dracomancer #" in theirs
    assert "Red: Dragons" in theirs and "hand 5 cards | deck" in theirs
    # Pete sees how many cards you hold and have face down, never which.
    assert "Soot" not in theirs and "Ranged Blessing" not in theirs
    assert "Soot" not in render(ENGINE.view(table.state, SPECTATOR))


def test_action_lines_name_cards_seats_and_targets() -> None:
    table = start(WALKTHROUGH_YOU, WALKTHROUGH_PETE)
    table.start_turn(4)
    view = ENGINE.view(table.state, YOU)
    lines = {PRESENTATION.action(act, view, NAMES) for act in ENGINE.legal_actions(
        table.state, YOU)}
    assert "place Soot face down as a resource (then 1, 1 ready)" in lines
    table.resource(YOU, "Soot")
    view = ENGINE.view(table.state, YOU)
    lines = {PRESENTATION.action(act, view, NAMES) for act in ENGINE.legal_actions(
        table.state, YOU)}
    assert ("exhaust 1 resource to move the Momentum Meter 2 spaces toward Blue's side (from "
            "Max for Red to 2 toward Red)") in lines
    assert ("play Dracomancer (cost 1) in the left location of your castle area: Movement 1, "
            "Attack 2, Armor 0, Health 1") in lines
    table.play(YOU, "Dracomancer", 1)
    table.end_turn(YOU)
    # Pete's first turn: his hero may curse your Dracomancer.
    table.roll(1, purpose="momentum")
    draco = table.unit(YOU, "Dracomancer").uid
    if table.state.asking == "captain":
        table.when(PETE, a.SKIP_CAPTAIN)
    assert table.state.asking == "curse"
    view = ENGINE.view(table.state, PETE)
    assert PRESENTATION.action(a.CurseUnit(unit=draco), view, NAMES) == (
        "curse Red's Dracomancer (centre lane, row 0): the cursed unit has -1 Movement")
    table.when(PETE, a.CurseUnit(unit=draco))
    told = PRESENTATION.event(e.UnitCursed(seat=PETE, unit=draco), NAMES, YOU)
    assert told == f"Blue cursed your unit #{draco % 100}"
    table.resource(PETE, "Forge Master")
    table.resource(PETE, "Ironborne Dwarf")
    view = ENGINE.view(table.state, PETE)
    assert PRESENTATION.action(
        a.PlayUnit(card=table.instance(PETE, "Bronzebeard Bulwark"), lane=1), view, NAMES) == (
        "play Bronzebeard Bulwark (cost 2) in the centre location of your castle area: "
        "Movement 1, Attack 1, Armor 0, Health 4")


# --- hidden information -----------------------------------------------------------------------


@pytest.mark.parametrize(("warbands", "bots", "seed"), CASES)
def test_a_face_down_resource_is_named_only_to_its_owner_by_any_presentation(
        warbands: str, bots: str, seed: int) -> None:
    # The instance alone gives the card away (the deck lists are public), so the line told to
    # anyone else is the same whatever card was placed.
    _, events = playout(warbands, bots, seed)
    placed = [ev for ev in events if isinstance(ev, e.ResourcePlaced)]
    assert placed
    match = PRESENTATION.bound(events[0])
    decks = ENGINE.initial_state(events[0]).cards
    for shown in (PRESENTATION, match):
        for event in placed:
            mine = shown.event(event, NAMES, event.seat)
            assert mine.startswith("You placed") and f"#{event.card} " in mine
            if shown is match:  # the owner hears which card it was
                assert CARD_NAMES[decks[event.seat][event.card]] in mine
            for listener in (1 - event.seat, None):
                line = shown.event(event, NAMES, listener)
                assert "#" not in line and not any(ch.isdigit() for ch in line), line
                assert not any(name in line for name in CARD_NAMES), line
                for instance in range(40):
                    other = msgspec.structs.replace(event, card=instance)
                    assert shown.event(other, NAMES, listener) == line


def test_a_matchs_presentation_names_the_card_behind_every_number() -> None:
    """Events carry deck positions; the presentation of the match (bound to its create, as
    the narrator binds it) names the card at that position of the seat's deck list: the one
    that then stands on the battlefield under that number."""
    named = 0
    for warbands, bots, seed in CASES:
        _, events = playout(warbands, bots, seed)
        match = PRESENTATION.bound(events[0])
        assert match is not PRESENTATION
        state = ENGINE.initial_state(events[0])
        for event in events[1:]:
            state = ENGINE.evolve(state, event)
            if isinstance(event, e.UnitPlayed | e.CommandPlayed | e.CardDiscarded):
                name = CARD_NAMES[state.cards[event.seat][event.card]]
                for listener in (0, 1, None):
                    line = match.event(event, NAMES, listener)
                    assert f"{name} #{event.card}" in line, line
                    assert f"#{event.card}" in PRESENTATION.event(event, NAMES, listener)
                if isinstance(event, e.UnitPlayed):
                    unit = next(u for u in ENGINE.view(state, SPECTATOR).units
                                if u.uid == event.seat * 100 + event.card)
                    assert CARD_NAMES[unit.card] == name
                named += 1
    assert named


def test_every_other_card_an_event_names_is_face_up_once_it_happened() -> None:
    # Only a ResourcePlaced's card is hidden from the other seat. A unit played stands on the
    # battlefield under the number its lines use; a command played or a card discarded lies in
    # the discard pile (or on its unit, an attachment) in every view; a bought draw carries no
    # card at all.
    assert set(e.DrawBought.__struct_fields__) == {"seat"}
    played = 0
    for warbands, bots, seed in CASES:
        _, events = playout(warbands, bots, seed)
        state = ENGINE.initial_state(events[0])
        for event in events[1:]:
            state = ENGINE.evolve(state, event)
            if isinstance(event, e.UnitPlayed):
                spectator = ENGINE.view(state, SPECTATOR)
                assert any(u.uid == event.seat * 100 + event.card for u in spectator.units)
                assert f"#{event.card} " in render(spectator)
                played += 1
            elif isinstance(event, e.CommandPlayed | e.CardDiscarded):
                other = ENGINE.view(state, 1 - event.seat)
                attached = [c for u in other.units for c in u.attachments]
                assert state.cards[event.seat][event.card] in other.discards[event.seat] + attached
    assert played


def test_a_spectator_board_shows_no_hand_and_no_resources() -> None:
    table = start(WALKTHROUGH_YOU, WALKTHROUGH_PETE)
    table.start_turn(4)
    table.when(YOU, a.PlaceResource(card=table.instance(YOU, "Soot")))
    text = render(ENGINE.view(table.state, SPECTATOR))
    assert "(you)" not in text and "Your hand" not in text and "Your resources" not in text
    assert "Red: Dragons" in text and "hand 5 cards" in text and "resources 1, 1 ready" in text
    for name in ("Soot", "Drake", "Dracomancer", "Ranged Blessing"):
        assert name not in text
