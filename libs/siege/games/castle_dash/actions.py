"""Castle Dash actions: what a seat asks to do, in the imperative.

Actions are frozen msgspec structs, so the host can test ``action in legal_actions(...)``.
The engine hands out shared instances from the tables below instead of building new ones on
every call: the legal-action lists are the hottest allocation in a playout.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.engine.protocol import Action
from siege.games.castle_dash.cards import DECK_SIZE
from siege.games.castle_dash.events import CARD, LOOT, OPPONENT, LootChoice
from siege.games.castle_dash.seating import MAX_PER_PLACEMENT, MAX_PLAYERS


class PlaceSoldiers(Action, frozen=True, tag="cd.place_soldiers", kw_only=True):
    """Put soldiers from your hand into one of your battles that you have not placed in yet
    this round (a placement turn, step 2)."""

    opponent: Annotated[int, msgspec.Meta(description=(
        "The battle between you and this seat. " + OPPONENT + " Not one already in your "
        "`placed` entry of the view."))]
    count: Annotated[int, msgspec.Meta(description=(
        "Soldiers to place, 1 to min(6, your soldiers in hand); `constants.max_per_placement` "
        "of the reference data is the 6."))]


class ClaimArmory(Action, frozen=True, tag="cd.claim_armory", kw_only=True):
    """Claim one unclaimed face-up Armory card with one soldier from your hand (a placement
    turn, step 2)."""

    card: Annotated[int, msgspec.Meta(description=(
        CARD + " It must be in the view's `face_up` with `holder` -1."))]


class ResolveFlagCard(Action, frozen=True, tag="cd.resolve_flag_card", kw_only=True):
    """Pick the target of a blue-flag card you hold (step 3); asked only when it has two or
    more possible targets."""

    card: Annotated[int, msgspec.Meta(description=(
        CARD + " The flag being resolved: the second entry of the view's `current`."))]
    target: Annotated[int, msgspec.Meta(description=(
        "For Lookout, the card id (index into `cards`) of an unclaimed face-up card without a "
        "blue flag. Otherwise a seat number: an opponent you battle (Sabotage, Sappers, Smoke "
        "Screen) or an attacker with soldiers on your wall (Bribe)."))]


class ChooseBattle(Action, frozen=True, tag="cd.choose_battle", kw_only=True):
    """Choose which of your contested battles to resolve next (battle step A); asked only when
    you have two or more, as the active battler."""

    opponent: Annotated[int, msgspec.Meta(description=(
        OPPONENT + " The battle must be unresolved with soldiers of both sides in it."))]


class ChooseCannonballs(Action, frozen=True, tag="cd.choose_cannonballs", kw_only=True):
    """Choose, sealed, how many of your cannonballs to fire in the current battle (battle
    step B)."""

    count: Annotated[int, msgspec.Meta(description=(
        "Cannonballs to fire, 0 to your `cannonballs` in the view; each is one d6 roll."))]


class PlayArmoryCard(Action, frozen=True, tag="cd.play_armory_card", kw_only=True):
    """Play one of your battle cards in the current battle (battle step C)."""

    card: Annotated[int, msgspec.Meta(description=(
        CARD + " A battle card (`kind` `battle`) you hold and have not spent this round; "
        "Rally only once a soldier of yours was knocked out in this battle, Ambush only while "
        "an opposing soldier remains."))]


class EndArmoryPlay(Action, frozen=True, tag="cd.end_armory_play", kw_only=True):
    """Stop playing battle cards in the current battle (battle step C)."""


class Loot(Action, frozen=True, tag="cd.loot", kw_only=True):
    """Choose what to take from the castle you break into (step 5); asked only when both a
    rescue and a coin are possible."""

    choice: Annotated[LootChoice, msgspec.Meta(description=LOOT)]


ACTION_TYPES: tuple[type[Action], ...] = (
    PlaceSoldiers,
    ClaimArmory,
    ResolveFlagCard,
    ChooseBattle,
    ChooseCannonballs,
    PlayArmoryCard,
    EndArmoryPlay,
    Loot,
)

PLACE = tuple(
    tuple(PlaceSoldiers(opponent=o, count=c) for c in range(MAX_PER_PLACEMENT + 1))
    for o in range(MAX_PLAYERS)
)
"""``PLACE[opponent][count]`` (count 0 is never legal; it only keeps the index natural)."""
CLAIM = tuple(ClaimArmory(card=c) for c in range(DECK_SIZE))
CHOOSE_BATTLE = tuple(ChooseBattle(opponent=o) for o in range(MAX_PLAYERS))
PLAY_CARD = tuple(PlayArmoryCard(card=c) for c in range(DECK_SIZE))
END_PLAY = EndArmoryPlay()
LOOT_OPTIONS = (Loot(choice="rescue"), Loot(choice="coin"))


def choose_cannonballs(count: int) -> ChooseCannonballs:
    return _CANNONBALLS[count] if count < len(_CANNONBALLS) else ChooseCannonballs(count=count)


_CANNONBALLS = tuple(ChooseCannonballs(count=c) for c in range(8))
