"""Every registered game draws a board a page can show (siege.engine.scene), and every game added
later must too: built from each seat's view and a spectator's all through seeded playouts, its
words are lines of words, its piece ids unique, its seats real; and where a legal action picks a
place or a card, the piece it names is on that seat's board, labelled as the action words it, so
a person can click it."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

from siege.contracts.events import MatchCreated
from siege.engine.presentation import Presentation
from siege.engine.protocol import SPECTATOR
from siege.engine.registry import game_names, get_engine, presentation
from siege.engine.scene import Scene, Zone, pieces
from siege.testing.playout import seeded_playout
from siege.testing.presenting import assert_line

GAMES = game_names()
NAMES = ["Red", "Blue", "Green", "Gold", "Purple", "Orange", "Grey", "White"]
SAMPLES = 80  # decisions looked at per playout, spread over it


def counts(game: str) -> list[int]:
    engine = get_engine(game)
    return sorted({engine.min_players, engine.max_players})


CASES = [(game, players) for game in GAMES for players in counts(game)]


@dataclass
class Decision:
    seat: int
    legal: list[Any]
    views: list[Any]  # every seat's, then the spectator's


@dataclass
class Played:
    shown: Presentation
    decisions: list[Decision] = field(default_factory=list)


@cache
def played(game: str, players: int) -> Played:
    engine = get_engine(game)
    decisions: list[Decision] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        decisions.append(Decision(seat, engine.legal_actions(state, seat),
                                  [engine.view(state, s) for s in (*range(players), SPECTATOR)]))

    _, events = seeded_playout(engine, ["random"] * players, 11, on_action=on_action)
    assert isinstance(events[0], MatchCreated)
    return Played(presentation(game).bound(events[0]), decisions)


def sampled(decisions: list[Decision]) -> list[Decision]:
    stride = max(1, len(decisions) // SAMPLES)
    return decisions[::stride] + decisions[-1:]


def words(scene: Scene) -> list[str]:
    found = list(scene.status)

    def zone(z: Zone) -> None:
        if z.title:
            found.append(z.title)
        for inner in z.zones:
            zone(inner)
    for z in scene.zones:
        zone(z)
    for piece in pieces(scene):
        found += [piece.label, *piece.lines] + ([piece.note] if piece.note else [])
    return found


def seats_of(scene: Scene) -> set[int]:
    found = {piece.seat for piece in pieces(scene)}

    def zone(z: Zone) -> None:
        found.add(z.seat)
        for inner in z.zones:
            zone(inner)
    for z in scene.zones:
        zone(z)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_game_draws_a_scene(game: str) -> None:
    assert presentation(game).scene is not None, f"{game} has no board for the pages"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_scene_is_words_with_unique_ids_for_every_seat_and_a_spectator(
        game: str, players: int) -> None:
    run = played(game, players)
    assert run.shown.scene is not None
    for decision in sampled(run.decisions):
        for told, view in zip((*range(players), None), decision.views, strict=True):
            scene = run.shown.scene(view, NAMES[:players], told)
            assert isinstance(scene, Scene) and scene.zones
            for line in words(scene):
                assert_line(line)
            ids = [piece.id for piece in pieces(scene) if piece.id]
            assert len(ids) == len(set(ids)), f"repeated piece ids in {game}: {sorted(ids)}"
            assert seats_of(scene) <= {-1, *range(players)}


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_target_is_a_piece_on_the_choosers_board_named_as_the_action_says(
        game: str, players: int) -> None:
    run = played(game, players)
    assert run.shown.scene is not None
    names = NAMES[:players]
    targeted = 0
    for decision in run.decisions:
        view = decision.views[decision.seat]
        scene = run.shown.scene(view, names, decision.seat)
        labels = {piece.id: piece.label for piece in pieces(scene) if piece.id}
        for action in decision.legal:
            target = run.shown.target(action, view)
            assert isinstance(run.shown.group(action, view, names), str)
            if not target:
                continue
            targeted += 1
            said = run.shown.action(action, view, names)
            assert target in labels, f"{game}: {said!r} targets {target!r}, not on the board"
            assert labels[target].lower() in said.lower(), (
                f"{game}: {said!r} picks the piece labelled {labels[target]!r}")
    # A person can pick on the board wherever a place or card is the choice: every game has some.
    assert targeted >= len(run.decisions) // 10, f"{game}: only {targeted} actions on the board"
