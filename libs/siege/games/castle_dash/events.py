"""Castle Dash events: what happened, in the past tense, with every value decided at the time.

Automatic steps (a skipped seat, a one-sided battle, a loot with a single option) are not
events: they follow from earlier events, and ``evolve`` re-derives them on every fold.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from siege.contracts.events import GameEvent

LootChoice = Literal["rescue", "coin"]

# Shared wording: seats, cards and battles are described the same way in events, actions and
# views (siege.games.castle_dash.actions and .views import these).
SEAT = ("Seat number, 0 to players - 1, numbered clockwise (a seat's left neighbour is "
        "seat + 1, mod players).")
CARD = ("Armory card id, 0-17: index into `cards` of the game's reference data.")
OPPONENT = ("Seat number of the opponent in that battle: one of the seats listed for this "
            "seat in `opponents` of the reference data (left, right, and across with 4 or 6 "
            "players).")
LOOT = ("`rescue` (free your own captive held by that castle's owner: the soldier rejoins your "
        "hand) or `coin` (steal one of the castle's coins); see `loot_choices` of the "
        "reference data.")


class SoldiersPlaced(GameEvent, frozen=True, tag="cd.soldiers_placed", kw_only=True):
    """A seat put soldiers from its hand into one of its battles (a placement turn, step 2)."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The seat that placed.")]
    opponent: Annotated[int, msgspec.Meta(description=(
        "The battle is the one between `seat` and this opponent. " + OPPONENT))]
    count: Annotated[int, msgspec.Meta(description=(
        "Soldiers placed, 1 to min(6, soldiers the seat had in hand)."))]


class ArmoryClaimed(GameEvent, frozen=True, tag="cd.armory_claimed", kw_only=True):
    """A seat claimed an unclaimed face-up Armory card with one soldier from its hand."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The seat that claimed the card.")]
    card: Annotated[int, msgspec.Meta(description=(
        CARD + " It was face up and unclaimed this round; the seat holds it until round end."))]


class FlagCardResolved(GameEvent, frozen=True, tag="cd.flag_card_resolved", kw_only=True):
    """A blue-flag card whose effect needed a choice was resolved on the target its holder
    picked (step 3). Flags with one possible target, or none, resolve without an event."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The card's holder, who chose.")]
    card: Annotated[int, msgspec.Meta(description=(
        CARD + " A blue flag (`kind` `flag`) that takes a target: Sabotage, Sappers, Bribe, "
        "Lookout or Smoke Screen."))]
    target: Annotated[int, msgspec.Meta(description=(
        "For Lookout, the card id (index into `cards`) of the unclaimed face-up non-flag card "
        "taken. For every other flag a seat number: an opponent the holder battles (Sabotage, "
        "Sappers, Smoke Screen) or an attacker with soldiers on the holder's wall (Bribe)."))]


class BattleChosen(GameEvent, frozen=True, tag="cd.battle_chosen", kw_only=True):
    """The active battler picked which of its two or more contested battles to resolve next."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The active battler, who chose.")]
    opponent: Annotated[int, msgspec.Meta(description=(
        OPPONENT + " Both sides have soldiers in that battle."))]


class CannonballsChosen(GameEvent, frozen=True, tag="cd.cannonballs_chosen", kw_only=True):
    """A battler chose, sealed, how many cannonballs to fire in the current battle. Sealed:
    views hide ``count`` from other seats until both battlers have chosen."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The battler that chose.")]
    opponent: Annotated[int, msgspec.Meta(description=(
        "Seat number of the other battler in the current battle."))]
    count: Annotated[int, msgspec.Meta(description=(
        "Cannonballs to fire, 0 to all the seat holds; one d6 is rolled per cannonball."))]


class ArmoryCardPlayed(GameEvent, frozen=True, tag="cd.armory_card_played", kw_only=True):
    """A battler played one of its battle cards in the current battle (battle step C)."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The battler that played the card.")]
    opponent: Annotated[int, msgspec.Meta(description=(
        "Seat number of the other battler in the current battle."))]
    card: Annotated[int, msgspec.Meta(description=(
        CARD + " A battle card (`kind` `battle`) held by `seat` and not yet spent this "
        "round."))]


class ArmoryPlayEnded(GameEvent, frozen=True, tag="cd.armory_play_ended", kw_only=True):
    """A battler stopped playing battle cards in the current battle; the turn to play cards
    passed to the other side, or the battle went on to the dice."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The battler that stopped.")]
    opponent: Annotated[int, msgspec.Meta(description=(
        "Seat number of the other battler in the current battle."))]


class LootTaken(GameEvent, frozen=True, tag="cd.loot_taken", kw_only=True):
    """A looter with 3 or more soldiers on a castle's wall chose what to take, when both a
    rescue and a coin were possible (step 5). Its soldiers on that wall then went home."""

    seat: Annotated[int, msgspec.Meta(description=SEAT + " The looter.")]
    castle: Annotated[int, msgspec.Meta(description=(
        "Seat number of the looted castle's owner."))]
    choice: Annotated[LootChoice, msgspec.Meta(description="What the looter took: " + LOOT)]


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
