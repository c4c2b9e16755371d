"""Sally Forth events: what a seat chose, in the past tense, with pinned ``mi.*`` tags.

Only choices are events. What follows from them (who wins a close combat, a completed mission,
its replacement, a draw, the end of the game) is re-derived by ``evolve`` on every fold, so a
replay redoes exactly what the live game did.
"""

from __future__ import annotations

from siege.contracts.events import GameEvent


class MissionAssaulted(GameEvent, frozen=True, tag="mi.mission_assaulted", kw_only=True):
    seat: int
    slot: int  # 0 or 1: which of the two missions in play
    mission: int  # the mission card there, for readers of the log


class AssaultSkipped(GameEvent, frozen=True, tag="mi.assault_skipped", kw_only=True):
    """Only possible without unswerved maneuvers in play (the phase is optional then)."""

    seat: int


class ManeuverSwerved(GameEvent, frozen=True, tag="mi.maneuver_swerved", kw_only=True):
    seat: int
    card: int
    speed: int  # what it added to the seat's combat total


class CombatYielded(GameEvent, frozen=True, tag="mi.combat_yielded", kw_only=True):
    """The seat behind in close combat stops swerving: the combat is decided."""

    seat: int


class ManeuverStashed(GameEvent, frozen=True, tag="mi.maneuver_stashed", kw_only=True):
    seat: int
    card: int
    slot: int


class ManeuverDeployed(GameEvent, frozen=True, tag="mi.maneuver_deployed", kw_only=True):
    """A maneuver enters play unswerved. A Relay may move a stashed maneuver of its owner."""

    seat: int
    card: int
    moved: int = -1  # the stashed maneuver moved by Relay, -1 for none
    moved_to: int = -1  # the slot it went to


class UnitDeployed(GameEvent, frozen=True, tag="mi.unit_deployed", kw_only=True):
    seat: int
    card: int
    slot: int


class ManeuversRegrouped(GameEvent, frozen=True, tag="mi.maneuvers_regrouped", kw_only=True):
    seat: int
    cards: list[int]  # the swerved maneuvers made unswerved


class DeployPassed(GameEvent, frozen=True, tag="mi.deploy_passed", kw_only=True):
    seat: int


EVENT_TYPES: tuple[type[GameEvent], ...] = (
    MissionAssaulted,
    AssaultSkipped,
    ManeuverSwerved,
    CombatYielded,
    ManeuverStashed,
    ManeuverDeployed,
    UnitDeployed,
    ManeuversRegrouped,
    DeployPassed,
)
