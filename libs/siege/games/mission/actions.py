"""Sally Forth actions: what a seat asks to do, in the imperative, with pinned ``mi.*`` tags.

Frozen structs, so the host can test ``action in legal_actions(...)``. Actions without fields
are shared instances.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.engine.protocol import Action
from siege.games.mission.events import CARD, SLOT


class AssaultMission(Action, frozen=True, tag="mi.assault_mission", kw_only=True):
    """Assault one of the two missions in play (Assault phase). With an unswerved maneuver in
    play you must pick one; without, only a mission where the opponent has units is offered."""

    slot: Annotated[int, msgspec.Meta(description=SLOT)]


class SkipAssault(Action, frozen=True, tag="mi.skip_assault", kw_only=True):
    """Skip your Assault phase; offered only when you have no unswerved maneuver in play."""


class SwerveManeuver(Action, frozen=True, tag="mi.swerve_maneuver", kw_only=True):
    """Swerve one of your unswerved maneuvers in play, adding its speed to your total in the
    close combat (asked while your side is not ahead)."""

    card: Annotated[int, msgspec.Meta(description=(
        CARD + " One of your maneuvers in play and not swerved (in your `maneuvers`, not in "
        "your `swerved`)."))]


class YieldCombat(Action, frozen=True, tag="mi.yield_combat", kw_only=True):
    """Stop swerving: the close combat is decided and the side ahead wins."""


class StashManeuver(Action, frozen=True, tag="mi.stash_maneuver", kw_only=True):
    """Stash one of your unswerved maneuvers at the mission you assault (compulsory after the
    assault and any combat, while you have one)."""

    card: Annotated[int, msgspec.Meta(description=(
        CARD + " One of your maneuvers in play and not swerved."))]


class DeployManeuver(Action, frozen=True, tag="mi.deploy_maneuver", kw_only=True):
    """Deploy a maneuver from your hand into play, unswerved (Deploy phase); a Relay may also
    move one of your stashed maneuvers to the other mission."""

    card: Annotated[int, msgspec.Meta(description=CARD + " A maneuver in your `hand`.")]
    move: Annotated[int, msgspec.Meta(description=(
        "Relay only: card number of one of your own stashed maneuvers (at either mission) to "
        "move to the other mission; -1 to move nothing (always -1 for other maneuvers)."))] = -1


class DeployUnit(Action, frozen=True, tag="mi.deploy_unit", kw_only=True):
    """Deploy a unit from your hand at one of the two missions (Deploy phase)."""

    card: Annotated[int, msgspec.Meta(description=CARD + " A unit in your `hand`.")]
    slot: Annotated[int, msgspec.Meta(description=SLOT + " Where the unit will stand.")]


class Regroup(Action, frozen=True, tag="mi.regroup", kw_only=True):
    """Make every swerved maneuver of yours unswerved (Deploy phase; offered when you have
    one). It uses one of your deploy actions."""


class PassDeploy(Action, frozen=True, tag="mi.pass_deploy", kw_only=True):
    """Stop deploying: your Deploy phase ends and you draw."""


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
