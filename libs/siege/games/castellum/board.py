"""The board's action spaces: our own design.

The rulebook names the Oude Brug (one resource of choice), the Markt (two of choice) and the
Dinghuis (+1 strength on each column this year) and describes four kinds of action, but the
board itself is a picture, so the other spaces, their names and their yields are Siegeworks'
design (see the README). ``capacity`` 1 is a single-worker space; 0 means unlimited.
"""

from __future__ import annotations

from typing import Literal

import msgspec

SpaceKind = Literal["resources", "choice", "dinghuis", "angel", "buy"]
UNLIMITED = 0


class Space(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    kind: SpaceKind
    capacity: int
    resources: tuple[int, int, int] = (0, 0, 0)  # fixed yield: wood, stone, gold
    choices: int = 0  # resources of the worker's choice


SPACES: tuple[Space, ...] = (
    Space(id=0, name="Oude Brug", kind="choice", capacity=UNLIMITED, choices=1),
    Space(id=1, name="Markt", kind="choice", capacity=1, choices=2),
    Space(id=2, name="Timber Harbour", kind="resources", capacity=1, resources=(3, 0, 0)),
    Space(id=3, name="Sint-Pietersberg Quarry", kind="resources", capacity=1,
          resources=(0, 3, 0)),
    Space(id=4, name="Mint", kind="resources", capacity=1, resources=(0, 0, 2)),
    Space(id=5, name="Stokstraat Workshops", kind="resources", capacity=1,
          resources=(1, 1, 1)),
    Space(id=6, name="Dinghuis", kind="dinghuis", capacity=1),
    Space(id=7, name="Sint-Servaas", kind="angel", capacity=1),
    Space(id=8, name="Onze Lieve Vrouwe", kind="angel", capacity=1),
    Space(id=9, name="Vrijthof", kind="buy", capacity=UNLIMITED),
)

OUDE_BRUG, MARKT, DINGHUIS, VRIJTHOF = 0, 1, 6, 9
CHOICE_SPACES = tuple(space.id for space in SPACES if space.kind == "choice")

WORKERS = 5
START_WORKERS_ON_WALL = 3
START_RESOURCES = (3, 3, 3)


def workers_in(year: int) -> int:
    """Workers (and columns) available in year index ``year``: 2, 3, 4, 5. Each player owns
    five workers; three start on the city wall and one more comes down every year."""
    return WORKERS - START_WORKERS_ON_WALL + year


assert [space.id for space in SPACES] == list(range(len(SPACES)))
assert SPACES[OUDE_BRUG].name == "Oude Brug" and SPACES[MARKT].name == "Markt"
assert SPACES[DINGHUIS].name == "Dinghuis" and SPACES[VRIJTHOF].kind == "buy"
