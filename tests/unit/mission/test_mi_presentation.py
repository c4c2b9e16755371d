"""Sally Forth for people: every action and event has a line, every board fits a terminal, and
no line or board shows what the listener's view hides."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from mission_support import (
    CHARGE,
    ENGINE,
    KNIGHTS,
    MARCH,
    PIKEMEN,
    RIDE,
    SCRAMBLE,
    SERGEANT,
    TUNNELLERS,
    deploy,
    play,
    start,
)

from siege.contracts.events import Event, GameEvent
from siege.games.mission import actions as a
from siege.games.mission import events as e
from siege.games.mission.presentation import PRESENTATION
from siege.games.mission.reference import reference
from siege.games.mission.views import MissionView
from siege.testing.playout import seeded_playout
from siege.testing.presenting import assert_line
from siege.testing.presenting import render as render_board

NAMES = ["North", "South"]
SEEDS = (0, 1, 2, 3)
LINEUPS = (("greedy", "random"), ("random", "greedy"), ("random", "random"))
CARD_NAMES = [card["name"] for card in reference()["cards"]]


def render(view: MissionView, names: list[str] = NAMES) -> str:
    return render_board(PRESENTATION, view, names)


@cache
def playout(lineup: tuple[str, str], seed: int) -> tuple[list[tuple[Any, int, list[Any],
                                                                     list[MissionView]]],
                                                          list[Event]]:
    """(views of both seats, seat asked, its legal actions) at every decision, and the log."""
    decisions: list[tuple[Any, int, list[Any], list[MissionView]]] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        views = [ENGINE.view(state, s) for s in range(2)]
        decisions.append((action, seat, ENGINE.legal_actions(state, seat), views))

    _, events = seeded_playout(ENGINE, list(lineup), seed, on_action=on_action)
    return decisions, events


CASES = [(lineup, seed) for lineup in LINEUPS for seed in SEEDS]


def test_every_action_and_event_type_has_a_line() -> None:
    assert set(PRESENTATION.actions) == set(ENGINE.action_types)
    assert set(PRESENTATION.events) == set(ENGINE.event_types)
    assert PRESENTATION.title == "Sally Forth"
    lines = PRESENTATION.rules_summary.splitlines()
    assert 6 <= len(lines) <= 15
    assert all(0 < len(line) <= 80 for line in lines)


@pytest.mark.parametrize(("lineup", "seed"), CASES)
def test_every_event_of_a_playout_reads_as_a_line_for_every_listener(
        lineup: tuple[str, str], seed: int) -> None:
    _, events = playout(lineup, seed)
    game_events = [ev for ev in events if type(ev) in PRESENTATION.events]
    assert {type(ev) for ev in game_events} >= {
        e.MissionAssaulted, e.ManeuverStashed, e.ManeuverDeployed, e.UnitDeployed}
    for event in game_events:
        for seat in (0, 1, None):
            assert_line(PRESENTATION.event(event, NAMES, seat))


@pytest.mark.parametrize(("lineup", "seed"), CASES)
def test_every_legal_action_at_every_decision_reads_as_a_line(
        lineup: tuple[str, str], seed: int) -> None:
    decisions, _ = playout(lineup, seed)
    assert decisions
    for _, seat, legal, views in decisions:
        assert legal
        for action in legal:
            assert_line(PRESENTATION.action(action, views[seat], NAMES))


@pytest.mark.parametrize(("lineup", "seed"), CASES)
def test_every_board_of_every_seat_fits_80_columns_and_40_lines(
        lineup: tuple[str, str], seed: int) -> None:
    decisions, _ = playout(lineup, seed)
    for _, _, _, views in decisions:
        for view in views:
            text = render(view)
            lines = text.splitlines()
            assert 0 < len(lines) <= 40, text
            assert all(len(line) <= 80 for line in lines), text
            assert f"{NAMES[view.seat]} (you)" in text
            assert "(you)" not in text.replace(f"{NAMES[view.seat]} (you)", "")


def test_the_board_fits_with_long_seat_names() -> None:
    decisions, _ = playout(("greedy", "greedy"), 5)
    names = ["A" * 40, "Brunhilde of the Long Name"]
    for _, _, _, views in decisions:
        for view in views:
            lines = render(view, names).splitlines()
            assert len(lines) <= 40
            assert all(len(line) <= 80 for line in lines)


def test_the_board_shows_the_missions_points_and_own_hand() -> None:
    table = start(first=0, decks={0: [CHARGE, MARCH, KNIGHTS, SCRAMBLE, RIDE],
                                  1: [PIKEMEN, SERGEANT, TUNNELLERS, MARCH, CHARGE]},
                  missions=[0, 7])
    play(table, deploy(0, KNIGHTS, slot=1), deploy(0, CHARGE))
    text = render(ENGINE.view(table.state, 0))
    for words in ("Fire the Granary", "Breach the Keep", "needs 8", "Knights 3",
                  "ready Charge 3", "Your hand (4)", "Breakneck Ride", "North (you)",
                  "hand 5", "deck"):
        assert words in text, words


# --- hidden information -----------------------------------------------------------------------


def test_another_seats_hand_stays_hidden_in_boards_and_event_lines() -> None:
    # North holds Breakneck Ride and Scramble; South holds neither. North deploys a Charge: the
    # line told to South and to spectators names the Charge, now in play, and nothing else of
    # North's hand; South's board shows only the size of North's hand.
    table = start(first=0, decks={0: [CHARGE, MARCH, KNIGHTS, SCRAMBLE, RIDE],
                                  1: [PIKEMEN, SERGEANT, TUNNELLERS, MARCH, CHARGE]},
                  missions=[0, 7])
    events = table.when(0, a.DeployManeuver(card=CHARGE))
    [event] = [ev for ev in events if isinstance(ev, GameEvent)]
    for seat in (1, None):
        line = PRESENTATION.event(event, NAMES, seat)
        assert "Charge" in line and "North" in line
        for hidden in ("Breakneck Ride", "Scramble", "Knights", "Forced March"):
            assert hidden not in line
    assert PRESENTATION.event(event, NAMES, 0).startswith("You deployed Charge")

    south = render(ENGINE.view(table.state, 1))
    north = render(ENGINE.view(table.state, 0))
    assert "Breakneck Ride" in north and "Scramble" in north
    assert "Breakneck Ride" not in south and "Scramble" not in south
    assert "Your hand (5): Pikemen" in south
    assert "North: 0 points | hand 4" in south


def _shown_cards(view: MissionView, owner: int) -> set[str]:
    """Names of the cards of ``owner`` that ``view`` shows (its hand only to its owner)."""
    shown = set(view.seats[owner].maneuvers) | set(view.seats[owner].discard)
    for slot in view.missions:
        shown |= set(slot.stashed[owner]) | set(slot.units[owner])
    if view.seat == owner:
        shown |= set(view.hand)
    return {CARD_NAMES[card] for card in shown}


@pytest.mark.parametrize(("lineup", "seed"), CASES[:6])
def test_an_event_line_names_only_cards_the_listeners_view_shows(
        lineup: tuple[str, str], seed: int) -> None:
    # Sally Forth's events only ever carry open cards (a deployed card lands face up); this pins
    # it: every card named to a listener is one its view shows once the event is folded in.
    _, events = playout(lineup, seed)
    state = ENGINE.initial_state(events[0])
    for event in events[1:]:
        state = ENGINE.evolve(state, event)
        if type(event) not in PRESENTATION.events:
            continue
        for seat in (0, 1, None):
            # A spectator knows no more of the acting seat's cards than its opponent does.
            view = ENGINE.view(state, 1 - event.seat if seat is None else seat)
            line = PRESENTATION.event(event, NAMES, seat)
            named = {name for name in CARD_NAMES if name in line}
            assert named <= _shown_cards(view, event.seat), (line, seat)
