"""Castellum's web board: the table's shape (year track, action spaces, every Line a grid five
columns wide), hidden cards as backs, and clicks that land on the piece an action names."""

from __future__ import annotations

from typing import Any

from castellum_support import (
    ENGINE,
    angel,
    build,
    deal_angels,
    run_until,
    start,
    to_angels,
)

from siege.engine.protocol import SPECTATOR
from siege.engine.scene import Piece, Scene, Zone, pieces
from siege.games.castellum import actions as a
from siege.games.castellum.presentation import PRESENTATION
from siege.games.castellum.reference import reference
from siege.testing.playout import seeded_playout

REF = reference()
SPACE = {space["name"]: space["id"] for space in REF["spaces"]}
NAMES = ["Red", "Blue", "Green", "Gold"]
MUSKETEERS, PIKEMEN = 24, 20
ENEMIES = {0: [3, 4, 5, 6]}
PLAN = {0: [(3, 0, 0), (4, 0, 1)], 1: [(5, 1, 0), (6, 1, 1)]}


def scene_of(view: Any, players: int, told: int | None) -> Scene:
    assert PRESENTATION.scene is not None
    return PRESENTATION.scene(view, NAMES[:players], told)


def zone(scene: Scene, title: str) -> Zone:
    found = [z for z in scene.zones if z.title == title]
    assert found, f"no zone {title!r} in {[z.title for z in scene.zones]}"
    return found[0]


def by_id(scene: Scene) -> dict[str, Piece]:
    return {piece.id: piece for piece in pieces(scene) if piece.id}


def every_word(scene: Scene) -> str:
    """The board's own words (notes are the printed card texts)."""
    return " ".join([*scene.status, *(f"{p.label} {' '.join(p.lines)}" for p in pieces(scene))])


def assert_clickable(seat: int, legal: list[Any], view: Any, players: int) -> int:
    """Every target is on the seat's board and labelled as the action words it."""
    scene = by_id(scene_of(view, players, seat))
    targeted = 0
    for action in legal:
        target = PRESENTATION.target(action, view)
        if not target:
            continue
        said = PRESENTATION.action(action, view, NAMES[:players]).lower()
        assert target in scene, (said, target)
        assert scene[target].label.lower() in said, (said, scene[target].label)
        targeted += 1
    return targeted


def test_the_table_has_the_year_track_the_spaces_and_a_five_column_line_per_seat() -> None:
    table = start(4, first=0)
    view = ENGINE.view(table.state, 0)
    scene = scene_of(view, 4, 0)
    years = zone(scene, "Years")
    assert years.layout == "track"
    assert [p.label for p in years.pieces] == ["1579", "1632", "1673", "1794"]
    assert [p.kind for p in years.pieces] == ["here", "step", "step", "step"]
    spaces = zone(scene, "Action spaces")
    assert [p.label for p in spaces.pieces] == [s["name"] for s in REF["spaces"]]
    areas = [z for z in scene.zones if z.title.endswith("area")]
    assert [z.seat for z in areas] == [0, 1, 2, 3]  # your own first, then clockwise
    assert areas[0].title == "Your area" and areas[1].title == "Blue's area"
    for area in areas:
        (line,) = area.zones
        assert line.layout == "grid" and line.columns == 5 and len(line.pieces) == 25
        assert [p.label for p in line.pieces[5:10]] == [f"column {c}" for c in range(1, 6)]
        assert all(p.seat == area.seat for p in line.pieces[5:10])
        # 1579 opens two columns: the others say when they open
        assert line.pieces[7].lines == ("opens in 1632",)
        assert line.pieces[9].lines == ("opens in 1794",)
        assert line.pieces[0].label == "no enemy" and line.pieces[4].label == "closed"
    # every seat's start fortification stands in its first column
    red_line = areas[0].zones[0]
    assert red_line.pieces[10].label == "City Gate" and red_line.pieces[10].kind == "card"


def test_other_seats_angel_cards_are_backs_and_a_spectator_sees_no_faces() -> None:
    table = start(3, first=0)
    deal_angels(table, 0, [angel("boost"), angel("take")])
    deal_angels(table, 1, [angel("cancel")])
    red = scene_of(ENGINE.view(table.state, 0), 3, 0)
    ids = by_id(red)
    assert f"angel-{angel('boost')}" in ids and f"angel-{angel('take')}" in ids
    assert f"angel-{angel('cancel')}" not in ids
    blue_area = zone(red, "Blue's area")
    backs = [p for p in blue_area.pieces if p.kind == "back"]
    assert [p.label for p in backs] == ["1 angel card"] and backs[0].seat == 1
    spectator = scene_of(ENGINE.view(table.state, SPECTATOR), 3, None)
    assert not [p for p in pieces(spectator) if p.id.startswith("angel-")]
    assert "Cancel angel" not in every_word(spectator)
    words = every_word(spectator).lower().split()
    assert "you" not in words and "your" not in words


def test_dealt_enemy_cards_show_only_to_their_holder() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    run_until(table, lambda s: s.phase == "siege" and bool(s.waiting))
    mine = ENGINE.view(table.state, 0).enemy_hand
    assert mine
    red = scene_of(ENGINE.view(table.state, 0), 2, 0)
    blue = scene_of(ENGINE.view(table.state, 1), 2, 1)
    assert all(f"enemy-{card}" in by_id(red) for card in mine)
    assert not any(f"enemy-{card}" in by_id(blue) for card in mine)
    assert any(p.kind == "back" and p.label == f"{len(mine)} enemy cards"
               for p in zone(blue, "Red's area").pieces)


def test_workers_go_to_spaces_and_buys_into_your_columns() -> None:
    table = start(2, first=0)
    view = ENGINE.view(table.state, 0)
    legal = ENGINE.legal_actions(table.state, 0)
    markt = next(x for x in legal if isinstance(x, a.PlaceWorker) and x.space == SPACE["Markt"])
    assert PRESENTATION.target(markt, view) == f"space-{SPACE['Markt']}"
    assert PRESENTATION.group(markt, view, NAMES[:2]) == "Markt"
    buy = next(x for x in legal if isinstance(x, a.BuyCard) and x.column == 1)
    assert PRESENTATION.target(buy, view) == "col-0-1"
    assert PRESENTATION.group(buy, view, NAMES[:2]).startswith("Buy ")
    assert assert_clickable(0, legal, view, 2) == len(legal)
    # the worker then shows on its space, in its seat's colour
    table.when(0, markt)
    after = by_id(scene_of(ENGINE.view(table.state, 1), 2, 1))[f"space-{SPACE['Markt']}"]
    assert "workers: Red" in after.lines and after.seat == 0


def test_enemies_are_placed_on_any_lines_column() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    run_until(table, lambda s: s.phase == "siege" and bool(s.waiting))
    seat = table.asked
    view = ENGINE.view(table.state, seat)
    legal = ENGINE.legal_actions(table.state, seat)
    other = next(x for x in legal if isinstance(x, a.PlaceEnemy) and x.owner != seat)
    assert PRESENTATION.target(other, view) == f"col-{other.owner}-{other.column}"
    assert assert_clickable(seat, legal, view, 2) == len(legal)
    table.when(seat, other)
    placed = by_id(scene_of(ENGINE.view(table.state, seat), 2, seat))[f"enemy-{other.card}"]
    assert placed.label == REF["enemy_cards"][other.card]["name"]


def test_taking_a_troop_clicks_the_troop_then_your_column_and_cancel_clicks_the_card() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    build(table, 1, 1, troops=[MUSKETEERS])
    deal_angels(table, 0, [angel("take"), angel("boost")])
    deal_angels(table, 1, [angel("cancel")])
    to_angels(table, PLAN)
    steps = [
        (0, a.UseAngel(card=angel("take")), f"angel-{angel('take')}"),
        (0, a.TargetTroop(owner=1, card=MUSKETEERS), f"line-{MUSKETEERS}"),
        (0, a.TargetColumn(column=1), "col-0-1"),
        (1, a.CancelEffect(card=angel("cancel")), f"angel-{angel('cancel')}"),
    ]
    for seat, action, expected in steps:
        view = ENGINE.view(table.state, seat)
        legal = ENGINE.legal_actions(table.state, seat)
        assert action in legal
        assert PRESENTATION.target(action, view) == expected
        assert assert_clickable(seat, legal, view, 2) >= 1
        table.when(seat, action)
    # the effect being answered lies in play, face up, in its player's colour
    in_play = zone(scene_of(ENGINE.view(table.state, 0), 2, 0), "In play")
    assert {p.id for p in in_play.pieces} == {f"angel-{angel('take')}",
                                             f"angel-{angel('cancel')}"}
    assert {p.seat for p in in_play.pieces} == {0, 1}


def test_the_reward_card_sides_are_clicked_to_orient_it() -> None:
    asked: list[tuple[int, list[Any], Any]] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        if state.asking == "reward":
            asked.append((seat, ENGINE.legal_actions(state, seat), ENGINE.view(state, seat)))

    seeded_playout(ENGINE, ["greedy", "greedy"], 3, on_action=on_action)
    assert asked, "no reward was oriented"
    seat, legal, view = asked[0]
    assert {PRESENTATION.target(x, view) for x in legal} == {f"reward-{s}" for s in range(4)}
    assert assert_clickable(seat, legal, view, 2) == 4
