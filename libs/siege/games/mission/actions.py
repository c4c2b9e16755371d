"""Sally Forth actions: what a seat asks to do, in the imperative, with pinned ``mi.*`` tags.

Frozen structs, so the host can test ``action in legal_actions(...)``. Actions without fields
are shared instances.
"""

from __future__ import annotations

from siege.engine.protocol import Action


class AssaultMission(Action, frozen=True, tag="mi.assault_mission", kw_only=True):
    slot: int


class SkipAssault(Action, frozen=True, tag="mi.skip_assault", kw_only=True):
    pass


class SwerveManeuver(Action, frozen=True, tag="mi.swerve_maneuver", kw_only=True):
    card: int


class YieldCombat(Action, frozen=True, tag="mi.yield_combat", kw_only=True):
    pass


class StashManeuver(Action, frozen=True, tag="mi.stash_maneuver", kw_only=True):
    card: int


class DeployManeuver(Action, frozen=True, tag="mi.deploy_maneuver", kw_only=True):
    card: int
    move: int = -1  # Relay only: one of your stashed maneuvers to move, -1 for none


class DeployUnit(Action, frozen=True, tag="mi.deploy_unit", kw_only=True):
    card: int
    slot: int


class Regroup(Action, frozen=True, tag="mi.regroup", kw_only=True):
    pass


class PassDeploy(Action, frozen=True, tag="mi.pass_deploy", kw_only=True):
    pass


ACTION_TYPES: tuple[type[Action], ...] = (
    AssaultMission,
    SkipAssault,
    SwerveManeuver,
    YieldCombat,
    StashManeuver,
    DeployManeuver,
    DeployUnit,
    Regroup,
    PassDeploy,
)

SKIP = SkipAssault()
YIELD = YieldCombat()
REGROUP = Regroup()
PASS = PassDeploy()
