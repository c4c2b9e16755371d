"""The board as a graph (our own design: the rulebook's diagrams are missing).

Every space has an id, a kind and drawing coordinates (``x`` right, ``y`` down, one unit per
space), so a front end can draw the board from this data alone. The castle is a 7 x 7 grid
around the keep at (3, 3); its spaces are "diamonds" (diagonal neighbours are adjacent). Each
battlefield is a 3 x 3 block of "arrow" spaces outside one castle side (no diagonals). Sides go
clockwise: 0 north, 1 east, 2 south, 3 west, and a side's three walls, ramparts, castle grounds
and battlefield columns are numbered clockwise too, so column 2 of battlefield ``b`` meets
column 0 of battlefield ``b + 1`` by the right/left paths.

Structures (walls, keep walls, castle buildings, battlefield upgrades) are not spaces; each has
an id in :data:`STRUCTURES` and the spaces from which it may be attacked in melee (its front).
"""

from __future__ import annotations

from collections import deque
from typing import Literal

import msgspec

SpaceKind = Literal["battlefield", "rampart", "tower", "ground", "keep_ground", "keep",
                    "location"]
StructureKind = Literal["wall", "keep_wall", "building", "upgrade"]
NOBODY = -1
SIDES = 4
SIDE_NAMES = ("north", "east", "south", "west")
LOCATION_NAMES = ("+2 Draw", "+2 Gold", "+2 Magic", "+2 Hand")
DRAW_LOCATION, GOLD_LOCATION, MAGIC_LOCATION, HAND_LOCATION = range(4)
LOCATION_MOVE_COST = 2
PATH_MOVE_COST = 2


class Space(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    kind: SpaceKind
    name: str
    x: int
    y: int
    side: int = NOBODY  # the castle side or battlefield it belongs to (-1: the keep, a tower...)
    row: int = NOBODY  # battlefields: 0 faces the walls, 2 is the start row
    col: int = NOBODY  # clockwise position 0..2 along its side


class Edge(msgspec.Struct, frozen=True, kw_only=True):
    """A move from one space to a neighbour: ``cost`` army moves, blocked while ``wall`` (a
    structure id, or -1 for none) stands."""

    to: int
    cost: int = 1
    wall: int = NOBODY


class Structure(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    kind: StructureKind
    name: str
    side: int  # castle side, or the battlefield of an upgrade
    front: tuple[int, ...]  # spaces a melee unit attacks it from
    inner: tuple[int, ...]  # spaces behind it (a wall's rampart, a keep wall's keep ground)
    x: float
    y: float


def _castle_kind(x: int, y: int) -> SpaceKind | None:
    if (x, y) == (3, 3):
        return "keep"
    if (x, y) in ((3, 2), (4, 3), (3, 4), (2, 3)):
        return "keep_ground"
    if (x, y) in ((1, 1), (5, 1), (5, 5), (1, 5)):
        return "tower"
    if (x, y) in ((2, 2), (4, 2), (4, 4), (2, 4)):
        return None  # castle buildings stand there (structures, not spaces)
    if max(abs(x - 3), abs(y - 3)) == 2:
        return "ground"
    if max(abs(x - 3), abs(y - 3)) == 3 and 2 <= x <= 4 or 2 <= y <= 4 and x in (0, 6):
        return "rampart"
    return None


def _side_of(x: int, y: int) -> int:
    """Which side a castle ring position lies on, with its clockwise column (towers: -1)."""
    dx, dy = x - 3, y - 3
    if dy < 0 and abs(dx) < abs(dy):
        return 0
    if dx > 0 and abs(dy) < abs(dx):
        return 1
    if dy > 0 and abs(dx) < abs(dy):
        return 2
    if dx < 0 and abs(dy) < abs(dx):
        return 3
    return NOBODY


def _col_on_side(side: int, x: int, y: int) -> int:
    return (x - 2, y - 2, 4 - x, 4 - y)[side]


def _battlefield_xy(side: int, row: int, col: int) -> tuple[int, int]:
    if side == 0:
        return 2 + col, -1 - row
    if side == 1:
        return 7 + row, 2 + col
    if side == 2:
        return 4 - col, 7 + row
    return -1 - row, 4 - col


def _build() -> tuple[list[Space], dict[tuple[int, int], int]]:
    spaces: list[Space] = []
    at: dict[tuple[int, int], int] = {}

    def add(kind: SpaceKind, name: str, x: int, y: int, side: int = NOBODY, row: int = NOBODY,
            col: int = NOBODY) -> None:
        at[(x, y)] = len(spaces)
        spaces.append(Space(id=len(spaces), kind=kind, name=name, x=x, y=y, side=side, row=row,
                            col=col))

    for y in range(7):
        for x in range(7):
            kind = _castle_kind(x, y)
            if kind is None:
                continue
            side = _side_of(x, y) if kind in ("rampart", "ground", "keep_ground") else NOBODY
            col = _col_on_side(side, x, y) if kind in ("rampart", "ground") else NOBODY
            label = kind.replace("_", " ")
            name = (f"{SIDE_NAMES[side]} {label}" + (f" {col}" if col >= 0 else "")
                    if side >= 0 else f"{label} ({x},{y})" if kind == "tower" else label)
            add(kind, name, x, y, side=side, col=col)
    for side in range(SIDES):
        for row in range(3):
            for col in range(3):
                x, y = _battlefield_xy(side, row, col)
                what = ("front", "middle", "start")[row]
                add("battlefield", f"{SIDE_NAMES[side]} battlefield {what} {col}", x, y,
                    side=side, row=row, col=col)
    for index, (x, y) in enumerate(((-4, -4), (10, -4), (10, 10), (-4, 10))):
        add("location", LOCATION_NAMES[index], x, y, side=index)
    return spaces, at


SPACES, _AT = _build()
SPACE_COUNT = len(SPACES)
KEEP = _AT[(3, 3)]
TOWERS = tuple(s.id for s in SPACES if s.kind == "tower")
RAMPARTS = tuple(s.id for s in SPACES if s.kind == "rampart")
LOCATIONS = tuple(s.id for s in SPACES if s.kind == "location")
CASTLE_KINDS = frozenset({"rampart", "tower", "ground", "keep_ground", "keep"})
CASTLE = tuple(s.id for s in SPACES if s.kind in CASTLE_KINDS)
KEEP_COMPOUND = frozenset(s.id for s in SPACES if s.kind in ("keep_ground", "keep"))


def battlefield_space(side: int, row: int, col: int) -> int:
    return _AT[_battlefield_xy(side, row, col)]


def rampart(side: int, col: int) -> int:
    return next(s.id for s in SPACES if s.kind == "rampart" and s.side == side and s.col == col)


def ground(side: int, col: int) -> int:
    return next(s.id for s in SPACES if s.kind == "ground" and s.side == side and s.col == col)


def keep_ground(side: int) -> int:
    return next(s.id for s in SPACES if s.kind == "keep_ground" and s.side == side)


START_SPACES = tuple(tuple(battlefield_space(b, 2, c) for c in range(3)) for b in range(SIDES))
BATTLEFIELD = tuple(tuple(battlefield_space(b, r, c) for r in range(3) for c in range(3))
                    for b in range(SIDES))


def _structures() -> list[Structure]:
    found: list[Structure] = []
    for side in range(SIDES):
        for col in range(3):
            front = battlefield_space(side, 0, col)
            inner = rampart(side, col)
            fx, fy = SPACES[front].x, SPACES[front].y
            ix, iy = SPACES[inner].x, SPACES[inner].y
            found.append(Structure(id=len(found), kind="wall", side=side,
                                   name=f"{SIDE_NAMES[side]} wall {col}", front=(front,),
                                   inner=(inner,), x=(fx + ix) / 2, y=(fy + iy) / 2))
    for side in range(SIDES):
        inner = keep_ground(side)
        kx, ky = SPACES[inner].x, SPACES[inner].y
        found.append(Structure(id=len(found), kind="keep_wall", side=side,
                               name=f"{SIDE_NAMES[side]} keep wall",
                               front=tuple(ground(side, c) for c in range(3)), inner=(inner,),
                               x=kx + (3 - kx) * -0.5, y=ky + (3 - ky) * -0.5))
    for side, (x, y) in enumerate(((4, 2), (4, 4), (2, 4), (2, 2))):
        front = tuple(sorted(_AT[(x + dx, y + dy)] for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                             if (x + dx, y + dy) in _AT))
        found.append(Structure(id=len(found), kind="building", side=side,
                               name=f"castle building ({x},{y})", front=front, inner=(),
                               x=x, y=y))
    for side in range(SIDES):
        x, y = _battlefield_xy(side, 3, 1)
        found.append(Structure(id=len(found), kind="upgrade", side=side,
                               name=f"{SIDE_NAMES[side]} battlefield upgrade",
                               front=START_SPACES[side], inner=(), x=x, y=y))
    return found


STRUCTURES = _structures()
WALLS = tuple(s.id for s in STRUCTURES if s.kind == "wall")
KEEP_WALLS = tuple(s.id for s in STRUCTURES if s.kind == "keep_wall")
BUILDINGS = tuple(s.id for s in STRUCTURES if s.kind == "building")
UPGRADE_SITES = tuple(s.id for s in STRUCTURES if s.kind == "upgrade")
WALL_BETWEEN: dict[tuple[int, int], int] = {}
for _s in STRUCTURES:
    if _s.kind in ("wall", "keep_wall"):
        for _f in _s.front:
            for _i in _s.inner:
                WALL_BETWEEN[(_f, _i)] = WALL_BETWEEN[(_i, _f)] = _s.id


def _edges() -> list[tuple[Edge, ...]]:
    out: list[list[Edge]] = [[] for _ in SPACES]
    for space in SPACES:
        if space.kind in CASTLE_KINDS:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    other = _AT.get((space.x + dx, space.y + dy))
                    if (dx or dy) and other is not None and SPACES[other].kind in CASTLE_KINDS:
                        out[space.id].append(Edge(
                            to=other, wall=WALL_BETWEEN.get((space.id, other), NOBODY)))
        elif space.kind == "battlefield":
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                r, c = space.row + dr, space.col + dc
                if 0 <= r < 3 and 0 <= c < 3:
                    out[space.id].append(Edge(to=battlefield_space(space.side, r, c)))
            if space.row == 0:
                inner = rampart(space.side, space.col)
                out[space.id].append(Edge(to=inner, wall=WALL_BETWEEN[(space.id, inner)]))
                out[inner].append(Edge(to=space.id, wall=WALL_BETWEEN[(space.id, inner)]))
            if space.col == 2:  # the right path meets the next battlefield's left path
                other = battlefield_space((space.side + 1) % SIDES, space.row, 0)
                out[space.id].append(Edge(to=other, cost=PATH_MOVE_COST))
                out[other].append(Edge(to=space.id, cost=PATH_MOVE_COST))
    return [tuple(edges) for edges in out]


EDGES = _edges()


def _bfs(start: int) -> list[int]:
    """Steps from ``start`` to every space over every edge (walls ignored, each edge one step,
    locations unreachable): the distance that ranges and "within N spaces" count."""
    far = 10**6
    dist = [far] * SPACE_COUNT
    dist[start] = 0
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for edge in EDGES[here]:
            if dist[edge.to] == far:
                dist[edge.to] = dist[here] + 1
                queue.append(edge.to)
    return dist


DISTANCE: tuple[tuple[int, ...], ...] = tuple(tuple(_bfs(s)) for s in range(SPACE_COUNT))


def distance(a: int, b: int) -> int:
    return DISTANCE[a][b]


def structure_distance(space: int, structure: int) -> int:
    """Steps from ``space`` to a structure: one more than to the nearest of its front spaces."""
    return 1 + min(DISTANCE[space][f] for f in STRUCTURES[structure].front)


def is_castle(space: int) -> bool:
    return SPACES[space].kind in CASTLE_KINDS


def is_battlefield(space: int) -> bool:
    return SPACES[space].kind == "battlefield"


def is_location(space: int) -> bool:
    return SPACES[space].kind == "location"


NEAR_KEEP = 3  # "within 3 spaces of the keep"


def near_keep(space: int) -> bool:
    """Within 3 steps of the keep (walls ignored): on this board, exactly the castle spaces."""
    return not is_location(space) and DISTANCE[space][KEEP] <= NEAR_KEEP


class BoardView(msgspec.Struct, frozen=True, kw_only=True):
    """The whole graph, for drawing: spaces with coordinates, edges, structures."""

    spaces: list[Space]
    edges: list[list[Edge]]
    structures: list[Structure]


BOARD = BoardView(spaces=list(SPACES), edges=[list(e) for e in EDGES],
                  structures=list(STRUCTURES))
