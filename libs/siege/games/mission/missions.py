"""The mission cards: our own design, kept as data (the excerpt names no mission).

One shared deck of eight. A mission needs a player's stashed speed there to reach its
difficulty; completing it scores its points. Harder missions pay more, but less than in
proportion, so the quick ones stay worth racing for.
"""

from __future__ import annotations

import msgspec


class MissionSpec(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    difficulty: int
    points: int


MISSIONS: tuple[MissionSpec, ...] = (
    MissionSpec(id=0, name="Fire the Granary", difficulty=4, points=2),
    MissionSpec(id=1, name="Seize the Gatehouse", difficulty=4, points=2),
    MissionSpec(id=2, name="Cut the Supply Line", difficulty=5, points=3),
    MissionSpec(id=3, name="Open the Sally Port", difficulty=5, points=3),
    MissionSpec(id=4, name="Scale the North Wall", difficulty=6, points=3),
    MissionSpec(id=5, name="Spike the Siege Guns", difficulty=6, points=4),
    MissionSpec(id=6, name="Capture the Banner", difficulty=7, points=4),
    MissionSpec(id=7, name="Breach the Keep", difficulty=8, points=5),
)
MISSION_COUNT = len(MISSIONS)
DIFFICULTY: tuple[int, ...] = tuple(m.difficulty for m in MISSIONS)
POINTS: tuple[int, ...] = tuple(m.points for m in MISSIONS)

assert [m.id for m in MISSIONS] == list(range(MISSION_COUNT)), "ids follow table order"
