"""Every registered game reads to people, and every game added later must too: a presentation
with a line for each of its action and event types, a rules summary, and boards that fit an
80x40 terminal for every seat and for a spectator; a seeded playout of each told in words from
every seat's side and a spectator's, core events included."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from siege.contracts.events import Event
from siege.engine.protocol import SPECTATOR
from siege.engine.registry import game_names, get_engine, presentation
from siege.hosting.narration import Narrator
from siege.testing.playout import seeded_playout
from siege.testing.presenting import assert_line, render

GAMES = game_names()
NAMES = ["Red", "Blue", "Green", "Gold", "Purple", "Orange", "Grey", "White"]
BOARDS = 60  # boards drawn per playout, spread over it


def counts(game: str) -> list[int]:
    engine = get_engine(game)
    return sorted({engine.min_players, engine.max_players})


CASES = [(game, players) for game in GAMES for players in counts(game)]


@cache
def playout(game: str, players: int) -> tuple[list[list[Any]], list[Event]]:
    """Every seat's view and the spectator's at each decision, and the log."""
    engine = get_engine(game)
    views: list[list[Any]] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        views.append([engine.view(state, s) for s in (*range(players), SPECTATOR)])

    _, events = seeded_playout(engine, ["random"] * players, 5, on_action=on_action)
    return views, events


def test_the_registry_holds_the_games_we_host() -> None:
    assert len(GAMES) >= 5


@pytest.mark.parametrize("game", GAMES)
def test_every_action_and_event_type_of_every_game_has_words(game: str) -> None:
    engine, shown = get_engine(game), presentation(game)
    assert set(shown.actions) == set(engine.action_types)
    assert set(shown.events) == set(engine.event_types)
    assert shown.title
    summary = shown.rules_summary.splitlines()
    assert 6 <= len(summary) <= 15 and all(0 < len(line) <= 80 for line in summary)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_event_of_a_playout_is_told_to_every_seat_and_a_spectator(
        game: str, players: int) -> None:
    _, events = playout(game, players)
    shown = presentation(game)
    names = NAMES[:players]
    for listener in (*range(players), None):
        narrator = Narrator(shown, names, listener)
        told = [narrator.line(seq, event) for seq, event in enumerate(events, start=1)]
        for line in told:
            if line is not None:
                assert_line(line)
        # Every move of the game is told (only the bus's own bookkeeping is silent).
        game_events = sum(type(event) in shown.events for event in events)
        assert sum(line is not None for line in told) >= game_events


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_board_fits_and_marks_only_its_own_seat(game: str, players: int) -> None:
    views, _ = playout(game, players)
    shown = presentation(game)
    names = NAMES[:players]
    stride = max(1, len(views) // BOARDS)
    for at_decision in views[::stride] + views[-1:]:
        for seat, view in zip((*range(players), SPECTATOR), at_decision, strict=True):
            text = render(shown, view, names)
            lines = text.splitlines()
            assert 0 < len(lines) <= 40, text
            assert all(len(line) <= 80 for line in lines), text
            for other in range(players):
                assert (f"{names[other]} (you)" in text) == (other == seat), (seat, text)
