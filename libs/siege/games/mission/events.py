"""Sally Forth events: what a seat chose, in the past tense, with pinned ``mi.*`` tags.

Only choices are events. What follows from them (who wins a close combat, a completed mission,
its replacement, a draw, the end of the game) is re-derived by ``evolve`` on every fold, so a
replay redoes exactly what the live game did.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.contracts.events import GameEvent

# Shared wording: events, actions and views describe seats, cards and slots the same way
# (siege.games.mission.actions and .views import these).
SEAT = "Seat number, 0 or 1."
CARD = ("Card number 0-17 of the seat's own deck: index into `cards` of the game's reference "
        "data (both seats have the same 18 numbered cards; the owner tells them apart).")
SLOT = ("Mission slot, 0 or 1: which of the two missions in play (the view's `missions` "
        "entry with that `slot`).")
MISSION = "Mission card id, 0-7: index into `missions` of the game's reference data."


class MissionAssaulted(GameEvent, frozen=True, tag="mi.mission_assaulted", kw_only=True):
    """The active seat assaulted one of the two missions in play (Assault phase). Close
    combat followed at once if the opponent had units there, else the stash."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The assaulting (active) seat.")]
    slot: Annotated[int, msgspec.Meta(description=SLOT)]
    mission: Annotated[int, msgspec.Meta(description=(
        MISSION + " The mission in that slot when it was assaulted, for readers of the "
        "log."))]


class AssaultSkipped(GameEvent, frozen=True, tag="mi.assault_skipped", kw_only=True):
    """The active seat skipped its Assault phase. Only possible without unswerved maneuvers in
    play (the phase is optional then)."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The active seat that skipped.")]


class ManeuverSwerved(GameEvent, frozen=True, tag="mi.maneuver_swerved", kw_only=True):
    """The side not ahead in close combat swerved one of its unswerved maneuvers in play,
    adding its speed to its total."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The seat that swerved (either "
                                                         "side of the combat).")]
    card: Annotated[int, msgspec.Meta(description=CARD + " A maneuver the seat had in play, "
                                                         "unswerved; it stays in play, "
                                                         "swerved.")]
    speed: Annotated[int, msgspec.Meta(description=(
        "What it added to the seat's combat total: the card's printed `speed`."))]


class CombatYielded(GameEvent, frozen=True, tag="mi.combat_yielded", kw_only=True):
    """The seat behind in close combat stopped swerving: the combat was decided, the side
    ahead won."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The seat that yielded (the loser).")]


class ManeuverStashed(GameEvent, frozen=True, tag="mi.maneuver_stashed", kw_only=True):
    """The assaulting seat stashed one of its unswerved maneuvers at the assaulted mission,
    taking it out of play; the completion check followed."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The assaulting seat.")]
    card: Annotated[int, msgspec.Meta(description=(
        CARD + " A maneuver it had in play, unswerved."))]
    slot: Annotated[int, msgspec.Meta(description=SLOT + " The assaulted one.")]


class ManeuverDeployed(GameEvent, frozen=True, tag="mi.maneuver_deployed", kw_only=True):
    """A maneuver from the active seat's hand entered play unswerved (Deploy phase). A Relay
    may have moved one of its owner's stashed maneuvers to the other mission."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The active seat.")]
    card: Annotated[int, msgspec.Meta(description=CARD + " The maneuver deployed.")]
    moved: Annotated[int, msgspec.Meta(description=(
        "Card number of the seat's own stashed maneuver that the Relay moved; -1 for none "
        "(always -1 for other maneuvers)."))] = -1
    moved_to: Annotated[int, msgspec.Meta(description=(
        "Mission slot (0 or 1) the moved maneuver went to, the other one from where it lay; "
        "-1 when nothing moved."))] = -1


class UnitDeployed(GameEvent, frozen=True, tag="mi.unit_deployed", kw_only=True):
    """A unit from the active seat's hand was deployed at one of the missions (Deploy phase).
    It stays at that slot until destroyed in close combat."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The active seat.")]
    card: Annotated[int, msgspec.Meta(description=CARD + " The unit deployed.")]
    slot: Annotated[int, msgspec.Meta(description=SLOT + " Where the unit now stands.")]


class ManeuversRegrouped(GameEvent, frozen=True, tag="mi.maneuvers_regrouped", kw_only=True):
    """The active seat regrouped (Deploy phase): all its swerved maneuvers became
    unswerved."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The active seat.")]
    cards: Annotated[list[int], msgspec.Meta(description=(
        "Card numbers of the swerved maneuvers made unswerved, in the order they had been "
        "swerved."))]


class DeployPassed(GameEvent, frozen=True, tag="mi.deploy_passed", kw_only=True):
    """The active seat stopped deploying, ending its Deploy phase early."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The active seat.")]


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
