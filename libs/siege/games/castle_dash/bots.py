"""Castle Dash bots. They see only a seat's view and its legal actions, like any outside client.

:class:`GreedyBot` plays one move deep with a few rules of thumb:
- Placing: first take battles the opponent can no longer contest (an unanswered battle puts all
  its soldiers on the wall), then answer battles the opponent has already committed to, then
  claim a useful Armory card while others commit, and only then open a battle itself.
- Cannonballs are spread over the battles still to come; battle cards are played when they can
  change the result; looting always steals a coin, because coins win the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from siege.bots.protocol import RandomBot, Rng
from siege.games.castle_dash import cards as c
from siege.games.castle_dash.actions import (
    ChooseBattle,
    ChooseCannonballs,
    ClaimArmory,
    EndArmoryPlay,
    Loot,
    PlaceSoldiers,
    PlayArmoryCard,
    ResolveFlagCard,
)
from siege.games.castle_dash.seating import LOOT_THRESHOLD, MAX_PER_PLACEMENT
from siege.games.castle_dash.views import CastleDashView

T = TypeVar("T")

# How much the greedy bot wants each card (higher first); below CLAIM_AT it keeps its soldier.
CARD_VALUE: dict[int, int] = {
    c.SAPPERS: 9,
    c.WAR_BANNER: 8,
    c.BATTERING_RAM: 8,
    c.AMBUSH: 7,
    c.POWDER_CACHE: 7,
    c.VETERAN_CAPTAINS: 6,
    c.MASTER_GUNNER: 6,
    c.LUCKY_CHARM: 6,
    c.CALTROPS: 6,
    c.PALISADE: 5,
    c.BRIBE: 5,
    c.STOUT_GATE: 5,
    c.IRON_HELMETS: 4,
    c.SABOTAGE: 4,
    c.LOOKOUT: 4,
    c.TRUCE: 3,
    c.SMOKE_SCREEN: 3,
    c.RALLY: 2,
}
CLAIM_AT = 5


class GreedyBot:
    name = "greedy"

    def choose(self, view: CastleDashView, legal: Sequence[T], rng: Rng) -> T:
        first = legal[0]
        if isinstance(first, PlaceSoldiers | ClaimArmory):
            pick: Any = _place(view, legal)
        elif isinstance(first, ChooseCannonballs):
            pick = _cannonballs(view, legal)
        elif isinstance(first, PlayArmoryCard | EndArmoryPlay):
            pick = _battle_card(view, legal)
        elif isinstance(first, ChooseBattle):
            pick = _battle(view, legal)
        elif isinstance(first, ResolveFlagCard):
            pick = _flag(view, legal)
        elif isinstance(first, Loot):
            pick = next((x for x in legal if isinstance(x, Loot) and x.choice == "coin"), None)
        else:
            pick = None
        return pick if pick is not None else RandomBot().choose(view, legal, rng)


def _place(view: CastleDashView, legal: Sequence[Any]) -> Any:
    me = view.seat
    supply = view.supply[me]
    places: dict[int, dict[int, PlaceSoldiers]] = {}
    claims: list[ClaimArmory] = []
    for action in legal:
        if isinstance(action, PlaceSoldiers):
            places.setdefault(action.opponent, {})[action.count] = action
        else:
            claims.append(action)

    def count_for(opponent: int, wanted: int) -> PlaceSoldiers:
        options = places[opponent]
        return options[max(1, min(wanted, supply, MAX_PER_PLACEMENT))]

    # 1. Free wins: the opponent cannot put anyone in this battle any more.
    free = [o for o in places if _settled(view, o) and not view.troops[o][me]]
    if free:
        target = max(free, key=lambda o: (view.coins[o] > 0, view.walls[o][me]))
        short = LOOT_THRESHOLD - view.walls[target][me]
        return count_for(target, max(short, 1))
    # 2. Answer battles the opponent already committed to: biggest threat first.
    threats = [o for o in places if view.troops[o][me]]
    if threats:
        target = max(threats, key=lambda o: view.troops[o][me])
        return count_for(target, view.troops[target][me] + 3)
    # 3. Claim a good card while the others commit first.
    if claims:
        best = max(claims, key=lambda a: CARD_VALUE[a.card])
        if CARD_VALUE[best.card] >= CLAIM_AT or not places:
            return best
    # 4. Open the battle against the richest castle we are closest to looting, in force.
    if places:
        target = max(places, key=lambda o: (view.walls[o][me], view.coins[o] > 0))
        return count_for(target, MAX_PER_PLACEMENT)
    return claims[0] if claims else None


def _settled(view: CastleDashView, opponent: int) -> bool:
    """True when ``opponent`` can no longer place soldiers in its battle with us."""
    return view.seat in view.placed[opponent] or view.supply[opponent] == 0


def _cannonballs(view: CastleDashView, legal: Sequence[Any]) -> Any:
    fight = view.battle
    if fight is None:
        return None
    me = view.seat
    other = fight.sides[1 - fight.sides.index(me)]
    theirs = view.troops[other][me]
    most = max(a.count for a in legal)
    # Battles still to fight after this one share what is left.
    later = sum(
        1 for o in _opponents_with_troops(view) if o != other and o not in view.resolved[me]
    )
    wanted = most if later == 0 else (most + 1) // 2
    if theirs <= 1:
        wanted = min(wanted, 1)
    return next(a for a in legal if a.count == wanted)


def _opponents_with_troops(view: CastleDashView) -> list[int]:
    me = view.seat
    return [o for o in range(view.players)
            if o != me and view.troops[me][o] and view.troops[o][me]]


def _battle_card(view: CastleDashView, legal: Sequence[Any]) -> Any:
    fight = view.battle
    if fight is None:
        return None
    me = view.seat
    other = fight.sides[1 - fight.sides.index(me)]
    mine, theirs = view.troops[me][other], view.troops[other][me]
    losing = mine + 1 < theirs
    for action in legal:
        if not isinstance(action, PlayArmoryCard):
            continue
        card = action.card
        if card in (c.TRUCE, c.STOUT_GATE) and not losing:
            continue
        return action
    return next(a for a in legal if isinstance(a, EndArmoryPlay))


def _battle(view: CastleDashView, legal: Sequence[Any]) -> Any:
    me = view.seat
    # Fight where the opponent is strongest first, while the cannonballs are all there.
    return max(legal, key=lambda a: view.troops[a.opponent][me])


def _flag(view: CastleDashView, legal: Sequence[Any]) -> Any:
    me = view.seat
    card = legal[0].card

    def score(action: ResolveFlagCard) -> tuple[int, ...]:
        t = action.target
        if card == c.LOOKOUT:
            return (CARD_VALUE[t],)
        if card == c.BRIBE:
            return (view.walls[me][t],)
        if card == c.SAPPERS:
            # Aim where one more soldier reaches the loot threshold, at a castle with coins.
            near = view.walls[t][me] + 1 >= LOOT_THRESHOLD
            return (view.coins[t] > 0, near, view.walls[t][me])
        # Sabotage and Smoke Screen: blunt the strongest opposing battle line.
        return (view.troops[t][me], view.cannonballs[t])

    return max(legal, key=score)
