"""Castle Dash events: what happened, in the past tense, with every value decided at the time.

Automatic steps (a skipped seat, a one-sided battle, a loot with a single option) are not
events: they follow from earlier events, and ``evolve`` re-derives them on every fold.
"""

from __future__ import annotations

from typing import Literal

from siege.contracts.events import GameEvent

LootChoice = Literal["rescue", "coin"]


class SoldiersPlaced(GameEvent, frozen=True, tag="cd.soldiers_placed", kw_only=True):
    seat: int
    opponent: int  # the battle is the one between ``seat`` and ``opponent``
    count: int


class ArmoryClaimed(GameEvent, frozen=True, tag="cd.armory_claimed", kw_only=True):
    seat: int
    card: int


class FlagCardResolved(GameEvent, frozen=True, tag="cd.flag_card_resolved", kw_only=True):
    """A blue-flag card whose effect needed a choice; ``target`` is a seat, or a card for
    Lookout."""

    seat: int
    card: int
    target: int


class BattleChosen(GameEvent, frozen=True, tag="cd.battle_chosen", kw_only=True):
    seat: int
    opponent: int


class CannonballsChosen(GameEvent, frozen=True, tag="cd.cannonballs_chosen", kw_only=True):
    """Sealed: views hide ``count`` from other seats until both battlers have chosen."""

    seat: int
    opponent: int
    count: int


class ArmoryCardPlayed(GameEvent, frozen=True, tag="cd.armory_card_played", kw_only=True):
    seat: int
    opponent: int
    card: int


class ArmoryPlayEnded(GameEvent, frozen=True, tag="cd.armory_play_ended", kw_only=True):
    seat: int
    opponent: int


class LootTaken(GameEvent, frozen=True, tag="cd.loot_taken", kw_only=True):
    seat: int  # the looter
    castle: int  # the looted castle's owner
    choice: LootChoice


EVENT_TYPES: tuple[type[GameEvent], ...] = (
    SoldiersPlaced,
    ArmoryClaimed,
    FlagCardResolved,
    BattleChosen,
    CannonballsChosen,
    ArmoryCardPlayed,
    ArmoryPlayEnded,
    LootTaken,
)
