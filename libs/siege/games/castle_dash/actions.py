"""Castle Dash actions: what a seat asks to do, in the imperative.

Actions are frozen msgspec structs, so the host can test ``action in legal_actions(...)``.
The engine hands out shared instances from the tables below instead of building new ones on
every call: the legal-action lists are the hottest allocation in a playout.
"""

from __future__ import annotations

from siege.engine.protocol import Action
from siege.games.castle_dash.cards import DECK_SIZE
from siege.games.castle_dash.events import LootChoice
from siege.games.castle_dash.seating import MAX_PER_PLACEMENT, MAX_PLAYERS


class PlaceSoldiers(Action, frozen=True, tag="cd.place_soldiers", kw_only=True):
    opponent: int
    count: int


class ClaimArmory(Action, frozen=True, tag="cd.claim_armory", kw_only=True):
    card: int


class ResolveFlagCard(Action, frozen=True, tag="cd.resolve_flag_card", kw_only=True):
    card: int
    target: int


class ChooseBattle(Action, frozen=True, tag="cd.choose_battle", kw_only=True):
    opponent: int


class ChooseCannonballs(Action, frozen=True, tag="cd.choose_cannonballs", kw_only=True):
    count: int


class PlayArmoryCard(Action, frozen=True, tag="cd.play_armory_card", kw_only=True):
    card: int


class EndArmoryPlay(Action, frozen=True, tag="cd.end_armory_play", kw_only=True):
    pass


class Loot(Action, frozen=True, tag="cd.loot", kw_only=True):
    choice: LootChoice


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
