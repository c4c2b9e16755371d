"""The board graph (our own design): spaces, adjacency, walls, paths, distances, drawing data."""

from __future__ import annotations

import msgspec

from siege.games.storm_castle import board as b


def kinds(kind: str) -> list[b.Space]:
    return [s for s in b.SPACES if s.kind == kind]


def neighbours(space: int) -> set[int]:
    return {e.to for e in b.EDGES[space] if e.cost == 1}


def test_the_board_has_the_spaces_the_rulebook_names() -> None:
    assert len(kinds("battlefield")) == 4 * 9
    assert len(kinds("rampart")) == 12 and len(kinds("tower")) == 4
    assert len(kinds("keep_ground")) == 4 and len(kinds("keep")) == 1
    assert len(kinds("location")) == 4
    assert [s.name for s in kinds("location")] == ["+2 Draw", "+2 Gold", "+2 Magic", "+2 Hand"]
    assert all(len(starts) == 3 for starts in b.START_SPACES)
    walls = [s for s in b.STRUCTURES if s.kind == "wall"]
    assert len(walls) == 12 and len(b.KEEP_WALLS) == 4 and len(b.BUILDINGS) == 4
    for side in range(4):
        assert sum(1 for w in walls if w.side == side) == 3


def test_battlefield_spaces_have_no_diagonals_castle_spaces_do() -> None:
    middle = b.battlefield_space(0, 1, 1)
    assert neighbours(middle) == {b.battlefield_space(0, r, c)
                                  for r, c in ((0, 1), (2, 1), (1, 0), (1, 2))}
    ground = b.ground(0, 1)
    diagonal = [n for n in neighbours(ground)
                if abs(b.SPACES[n].x - b.SPACES[ground].x) == 1
                and abs(b.SPACES[n].y - b.SPACES[ground].y) == 1]
    assert set(diagonal) == {b.rampart(0, 0), b.rampart(0, 2)}  # buildings are no spaces


def test_each_castle_wall_stands_between_a_front_space_and_its_rampart() -> None:
    for side in range(4):
        for col in range(3):
            front, inner = b.battlefield_space(side, 0, col), b.rampart(side, col)
            edge = next(e for e in b.EDGES[front] if e.to == inner)
            assert b.STRUCTURES[edge.wall].kind == "wall"
            assert b.STRUCTURES[edge.wall].front == (front,)


def test_a_keep_wall_closes_its_keep_ground_from_the_three_castle_grounds_in_front() -> None:
    for side in range(4):
        kg = b.keep_ground(side)
        walled = {e.to for e in b.EDGES[kg] if e.wall != b.NOBODY}
        assert walled == {b.ground(side, c) for c in range(3)}
        assert b.KEEP in {e.to for e in b.EDGES[kg] if e.wall == b.NOBODY}
    assert {e.to for e in b.EDGES[b.KEEP]} == {b.keep_ground(s) for s in range(4)}


def test_left_and_right_paths_join_neighbouring_battlefields_for_two_moves() -> None:
    for side in range(4):
        for row in range(3):
            right = b.battlefield_space(side, row, 2)
            left = b.battlefield_space((side + 1) % 4, row, 0)
            edge = next(e for e in b.EDGES[right] if e.to == left)
            assert edge.cost == 2 and edge.wall == b.NOBODY


def test_within_three_of_the_keep_is_exactly_the_castle() -> None:
    near = {s.id for s in b.SPACES if b.near_keep(s.id)}
    assert near == set(b.CASTLE)
    assert b.distance(b.battlefield_space(2, 0, 1), b.KEEP) == 4
    assert all(b.distance(r, b.KEEP) == 3 for r in b.RAMPARTS)


def test_the_board_is_drawable_data() -> None:
    coords = [(s.x, s.y) for s in b.SPACES]
    assert len(set(coords)) == len(coords)
    data = msgspec.json.decode(msgspec.json.encode(b.BOARD))
    assert len(data["spaces"]) == b.SPACE_COUNT and len(data["structures"]) == 24
    for space, edges in enumerate(b.EDGES):  # every move can be made back the same way
        for edge in edges:
            back = next(e for e in b.EDGES[edge.to] if e.to == space)
            assert (back.cost, back.wall) == (edge.cost, edge.wall)
