"""Castle Dash for people: every action and event has a line, every board fits a terminal, and
no line tells a seat a sealed cannonball count its view hides."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import msgspec
import pytest

from siege.contracts.events import Event
from siege.games.castle_dash import events as e
from siege.games.castle_dash.engine import CastleDash
from siege.games.castle_dash.presentation import PRESENTATION
from siege.games.castle_dash.reference import reference
from siege.games.castle_dash.views import HIDDEN, CastleDashView
from siege.testing.playout import seeded_playout
from siege.testing.presenting import assert_line
from siege.testing.presenting import render as render_board

ENGINE = CastleDash()
COLOURS = ["Red", "Blue", "Green", "Yellow", "Purple", "Orange"]
SEEDS = (0, 1, 2)
COUNTS = (ENGINE.min_players, ENGINE.max_players)
CASES = [(players, seed) for players in COUNTS for seed in SEEDS]
CARD_NAMES = [card["name"] for card in reference()["cards"]]
NUMBER_WORDS = re.compile(r"\d|\bno cannonballs?\b|\bone\b|\btwo\b|\bthree\b")

Decision = tuple[int, list[Any], list[CastleDashView]]


def names(players: int) -> list[str]:
    return COLOURS[:players]


def render(view: CastleDashView, seat_names: list[str]) -> str:
    return render_board(PRESENTATION, view, seat_names)


@cache
def playout(players: int, seed: int) -> tuple[list[Decision], list[Event]]:
    """(seat asked, its legal actions, views of every seat) at every decision, and the log."""
    decisions: list[Decision] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        views = [ENGINE.view(state, s) for s in range(players)]
        decisions.append((seat, ENGINE.legal_actions(state, seat), views))

    bots = ["greedy"] + ["random"] * (players - 1)
    _, events = seeded_playout(ENGINE, bots, seed, on_action=on_action)
    return decisions, events


def test_every_action_and_event_type_has_a_line() -> None:
    assert set(PRESENTATION.actions) == set(ENGINE.action_types)
    assert set(PRESENTATION.events) == set(ENGINE.event_types)
    assert PRESENTATION.title == "Castle Dash"
    lines = PRESENTATION.rules_summary.splitlines()
    assert 6 <= len(lines) <= 15
    assert all(0 < len(line) <= 80 for line in lines)


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_event_of_a_playout_reads_as_a_line_for_every_listener(
        players: int, seed: int) -> None:
    _, events = playout(players, seed)
    game_events = [ev for ev in events if type(ev) in PRESENTATION.events]
    assert {type(ev) for ev in game_events} >= {
        e.SoldiersPlaced, e.ArmoryClaimed, e.CannonballsChosen, e.ArmoryPlayEnded}
    for event in game_events:
        for seat in (*range(players), None):
            assert_line(PRESENTATION.event(event, names(players), seat))


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_legal_action_at_every_decision_reads_as_a_line(players: int, seed: int) -> None:
    decisions, _ = playout(players, seed)
    assert decisions
    for seat, legal, views in decisions:
        assert legal
        for action in legal:
            assert_line(PRESENTATION.action(action, views[seat], names(players)))


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_board_of_every_seat_fits_80_columns_and_40_lines(players: int, seed: int) -> None:
    decisions, _ = playout(players, seed)
    for _, _, views in decisions:
        for view in views:
            text = render(view, names(players))
            lines = text.splitlines()
            assert 0 < len(lines) <= 40, text
            assert all(len(line) <= 80 for line in lines), text
            assert f"{COLOURS[view.seat]} (you)" in text
            for other in range(players):
                if other != view.seat:
                    assert f"{COLOURS[other]} (you)" not in text


def test_the_board_fits_with_long_seat_names() -> None:
    long_names = ["Brunhilde of the Long Name", "A" * 40, "[bold]x[/bold]", "Kunigunde",
                  "Sir Reginald Longbottom", "Z"]
    for seed in SEEDS:
        decisions, _ = playout(ENGINE.max_players, seed)
        for _, _, views in decisions[::3]:
            for view in views:
                lines = render(view, long_names).splitlines()
                assert len(lines) <= 40, "\n".join(lines)
                assert all(len(line) <= 80 for line in lines), "\n".join(lines)


def test_the_board_shows_seats_battles_and_the_armory_by_name() -> None:
    decisions, _ = playout(4, 0)
    seat, _, views = next(d for d in decisions if d[2][0].phase == "battle")
    view = views[seat]
    text = render(view, names(4))
    assert "Castle Dash" in text and f"round {view.round}" in text
    assert f"deck: {view.deck_size} cards (order hidden)" in text
    for card in view.face_up:
        assert CARD_NAMES[card] in text
    for s in range(4):
        assert f"{COLOURS[s]}" in text
        assert f"cannonballs {view.cannonballs[s]}, coins {view.coins[s]}" in text
    assert "Battles" in text and " v " in text


# --- hidden information -----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_a_sealed_cannonball_count_is_told_only_to_its_chooser(players: int, seed: int) -> None:
    _, events = playout(players, seed)
    chosen = [ev for ev in events if isinstance(ev, e.CannonballsChosen)]
    assert chosen
    seat_names = names(players)
    for event in chosen:
        mine = PRESENTATION.event(event, seat_names, event.seat)
        assert mine.startswith("You chose to fire")
        assert (str(event.count) in mine) == (event.count > 0)
        for listener in (*(s for s in range(players) if s != event.seat), None):
            line = PRESENTATION.event(event, seat_names, listener)
            assert "sealed" in line
            assert not NUMBER_WORDS.search(line), line
            # The line is the same whatever the count: it cannot give the count away.
            for count in range(8):
                other = msgspec.structs.replace(event, count=count)
                assert PRESENTATION.event(other, seat_names, listener) == line


def test_the_board_shows_a_sealed_count_as_sealed_to_everyone_but_its_chooser() -> None:
    found = 0
    for players, seed in CASES:
        decisions, _ = playout(players, seed)
        for _, _, views in decisions:
            for view in views:
                fight = view.battle
                if fight is None or fight.step != "cannon_wait":
                    continue
                for side, battler in enumerate(fight.sides):
                    if not fight.chosen[side]:
                        continue
                    text = render(view, names(players))
                    if view.seat == battler:
                        assert fight.shots[side] != HIDDEN
                        assert f"{COLOURS[battler]} {fight.shots[side]}" in text
                    else:
                        assert fight.shots[side] == HIDDEN
                        assert f"{COLOURS[battler]} chosen (sealed)" in text
                        found += 1
    assert found
