"""Storm the Castle!'s web board: the map laid out like the board (castle at the centre, a
battlefield outside each side, walls between, locations in the corners), every place and
structure labelled as the actions name it, units on their places in their owners' colours,
hidden hands as backs, and actions aimed at the place they move to, deploy on or strike."""

from __future__ import annotations

from collections import Counter

from storm_support import ENGINE, Table, act_table, created, defender, put, start, to_buy

from siege.engine.protocol import SPECTATOR
from siege.engine.scene import Piece, Scene, pieces
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import SPACES, STRUCTURES, battlefield_space, rampart
from siege.games.storm_castle.presentation import PRESENTATION
from siege.games.storm_castle.presentation_names import space_name, structure_name
from siege.games.storm_castle.presentation_scene import (
    group,
    place_id,
    scene,
    structure_id,
    target,
)
from siege.games.storm_castle.views import StormView

NAMES = ["Red", "Blue", "Green", "Gold"]
WALL_1 = next(s.id for s in STRUCTURES if s.name == "north wall 1")


def view_of(table: Table, seat: int) -> StormView:
    return ENGINE.view(table.state, seat)


def board_of(view: StormView, told: int | None) -> Scene:
    return scene(view, NAMES[:view.players], told)


def by_id(drawn: Scene) -> dict[str, Piece]:
    return {piece.id: piece for piece in pieces(drawn) if piece.id}


def position(drawn: Scene, label: str) -> tuple[int, int]:
    grid = drawn.zones[0]
    index = next(i for i, piece in enumerate(grid.pieces) if piece.label == label)
    return divmod(index, grid.columns)


def test_every_place_and_structure_an_action_can_name_is_a_piece_labelled_as_it_is_named() -> None:
    table = start(2)
    drawn = board_of(view_of(table, 0), 0)
    found = by_id(drawn)
    for space in SPACES:
        piece = found[place_id(space.id)]
        assert piece.label.lower() in space_name(space.id).lower(), (piece.label, space.name)
        assert piece.kind == "place"
    for structure in STRUCTURES:
        piece = found[structure_id(structure.id)]
        assert piece.label.lower() in structure_name(structure.id).lower()
    labels = [piece.label for piece in pieces(drawn) if piece.id.startswith(("space", "struct"))]
    assert len(labels) == len(set(labels)) == len(SPACES) + len(STRUCTURES)
    for name in ("north rampart 1", "east castle ground 2", "keep", "north-west tower",
                 "+2 Gold", "west battlefield start 0", "north wall 1", "south keep wall",
                 "north-east castle building", "east battlefield"):
        assert name in labels, name


def test_the_map_has_the_castle_at_its_centre_and_the_sides_around_it() -> None:
    drawn = board_of(view_of(start(2), 0), 0)
    grid = drawn.zones[0]
    assert grid.layout == "grid" and grid.columns == 17 and len(grid.pieces) == 17 * 17
    assert position(drawn, "keep") == (8, 8)
    assert position(drawn, "north keep ground") == (7, 8)
    assert position(drawn, "north rampart 1") == (5, 8)
    assert position(drawn, "north wall 1") == (4, 8)  # between the rampart and the front row
    assert position(drawn, "north battlefield front 1") == (3, 8)
    assert position(drawn, "north battlefield start 1") == (1, 8)
    assert position(drawn, "north battlefield") == (0, 8)
    assert position(drawn, "east rampart 1") == (8, 11)
    assert position(drawn, "south rampart 1") == (11, 8)
    assert position(drawn, "west rampart 1") == (8, 5)
    assert position(drawn, "north-west tower") == (6, 6)
    assert {position(drawn, f"+2 {x}") for x in ("Draw", "Gold", "Magic", "Hand")} == {
        (0, 0), (0, 16), (16, 16), (16, 0)}
    # columns run clockwise: column 0 of the north battlefield lies west of column 2
    assert position(drawn, "north battlefield start 0")[1] < position(
        drawn, "north battlefield start 2")[1]
    assert position(drawn, "east battlefield start 0")[0] < position(
        drawn, "east battlefield start 2")[0]
    assert all(piece.kind == "gap" and not piece.id for piece in grid.pieces
               if piece.label == "wilds")


def test_units_stand_on_their_places_in_their_owners_colour_with_their_strength() -> None:
    table = act_table(2)
    goblin = put(table, 0, "Goblin", battlefield_space(0, 2, 1), damage=1)
    knight = defender(table, "Knight", rampart(0, 1))
    found = by_id(board_of(view_of(table, 1), 1))
    start_piece = found[place_id(battlefield_space(0, 2, 1))]
    assert start_piece.seat == 0
    assert start_piece.lines[0] == f"Red's Goblin #{goblin}"
    assert "damage 1 of 2" in start_piece.lines[1]
    walls = found[place_id(rampart(0, 1))]
    assert walls.seat == -1 and walls.lines[0] == f"Knight #{knight}"
    assert found[place_id(battlefield_space(0, 2, 0))].lines == ()
    mine = by_id(board_of(view_of(table, 0), 0))[place_id(battlefield_space(0, 2, 1))]
    assert mine.lines[0] == f"your Goblin #{goblin}"


def test_the_own_hand_is_face_up_and_the_others_are_backs_with_a_count() -> None:
    table = start(2)
    view = view_of(table, 0)
    drawn = board_of(view, 0)
    own, other = (next(z for z in drawn.zones if z.seat == s and z.title.startswith(NAMES[s]))
                  for s in (0, 1))
    assert own.title.startswith("Red (you)") and "(you)" not in other.title
    assert sorted(p.id for p in own.pieces if p.kind == "card") == sorted(
        f"card-0-{c}" for c in view.hand)
    assert not [p for p in other.pieces if p.kind == "card"]
    backs = [p for p in other.pieces if p.label == "power card backs"]
    assert backs and backs[0].kind == "back"
    assert backs[0].lines == (f"{view.hand_sizes[1]} cards in hand",)
    spectator = board_of(view_of(table, SPECTATOR), None)
    assert not [p for p in pieces(spectator) if p.kind == "card" and "in hand" in p.lines]
    words = [*spectator.status, *(z.title for z in spectator.zones),
             *(line for p in spectator.zones[0].pieces for line in p.lines)]
    assert not [w for w in words if "you" in w.lower().split()], words


def test_moves_and_attacks_aim_at_the_place_or_wall_and_are_grouped_by_unit() -> None:
    table = act_table(2)
    goblin = put(table, 0, "Goblin", battlefield_space(0, 0, 1))
    put(table, 0, "Troll", battlefield_space(0, 2, 0))
    view = view_of(table, 0)
    legal = table.legal(0)
    found = by_id(board_of(view, 0))
    said = {x: PRESENTATION.action(x, view, NAMES[:2]) for x in legal}
    moves = [x for x in legal if isinstance(x, a.MoveUnit)]
    assert moves
    for move in moves:
        assert target(move, view) == place_id(move.to)
        assert found[place_id(move.to)].label in said[move]
    attack = a.AttackTarget(unit=goblin, structure=WALL_1)
    assert attack in legal
    assert target(attack, view) == structure_id(WALL_1)
    assert "north wall 1" in said[attack]
    heading = f"Your Goblin #{goblin} on north battlefield front 1"
    assert {group(x, view, NAMES[:2]) for x in legal
            if getattr(x, "unit", None) == goblin} == {heading}
    aimed = Counter(target(x, view) for x in legal if target(x, view))
    assert max(aimed.values()) < len(legal) / 3  # a click narrows the list


def test_deploying_aims_at_the_start_space_and_groups_by_kind() -> None:
    table = start(2)
    to_buy(table, token=1)
    seat = table.asked
    view = view_of(table, seat)
    buys = [x for x in table.legal(seat) if isinstance(x, a.BuyUnit)]
    assert len(buys) >= 12
    aimed = Counter(target(x, view) for x in buys)
    starts = {place_id(battlefield_space(b, 2, c)) for b in range(4) for c in range(3)}
    assert set(aimed) == starts
    assert max(aimed.values()) <= 3  # one per kind the army buys
    assert all(group(x, view, NAMES[:2]).startswith("Buy ") for x in buys)


def test_a_card_is_played_from_its_piece_in_hand() -> None:
    table = act_table(2, hands=[(2, 17, 13)])
    view = view_of(table, 0)
    found = by_id(board_of(view, 0))
    plays = [x for x in table.legal(0) if isinstance(x, (a.PlayCard, a.PlayPowerCard))]
    assert plays
    for play in plays:
        piece = found[target(play, view)]
        assert piece.kind == "card" and piece.label in PRESENTATION.action(play, view, NAMES)
        assert piece.id in {p.id for z in board_of(view, 0).zones if z.seat == 0
                            for p in z.pieces}


def test_the_bound_presentation_of_a_match_draws_the_same_board() -> None:
    bound = PRESENTATION.bound(created(2))
    assert bound.scene is scene and bound.target is target and bound.group is group
    assert bound.events is not PRESENTATION.events
