"""Castle Dash (``castle-dash``) as a page draws it: the table from one seat's view.

Round the table, one area per seat in its colour, clockwise from the seat told (so a player's
own area comes first): its castle (coins at home, coins stolen, captives rescued), its wall with
the attackers' soldiers on it, the captives it holds, its hand (soldiers, cannonballs and the
Armory cards it claimed, face up as on the real table) and its soldiers in each battle, one
piece per castle it fights. In the middle: the Armory deck (a back with its size), the discard
pile, the round, the first-player marker, the unclaimed face-up cards and the battle under way.

Ids are stable: ``castle-<seat>``, ``wall-<seat>``, ``captive-<holder>-<owner>`` and
``card-<card id>`` (a card keeps its id from the middle of the table to its holder's hand).
Placing soldiers, choosing a battle, Sabotage and Smoke Screen pick an opponent's castle;
Sappers and Bribe pick a wall; claiming, Lookout and playing pick a card; looting picks the
castle (a coin) or the looter's captive there (a rescue). Cannonball counts pick nothing.
"""

from __future__ import annotations

from typing import Any

from siege.engine.presentation import Names, seat_name, who, whose
from siege.engine.scene import Piece, Scene, Zone
from siege.games.castle_dash import actions as a
from siege.games.castle_dash.cards import BRIBE, CARDS, LOOKOUT, SABOTAGE, SAPPERS, SMOKE_SCREEN
from siege.games.castle_dash.seating import OPPONENTS
from siege.games.castle_dash.views import HIDDEN, CastleDashView

PHASES = {
    "setup": "setting up",
    "reveal": "step 1, reveal",
    "place": "step 2, place soldiers",
    "claim": "step 3, claim cards",
    "battle": "step 4, battles",
    "loot": "step 5, loot",
    "over": "game over",
}
STEPS = {
    "cannon_open": "cannonballs next",
    "cannon_wait": "choosing cannonballs",
    "cannon_fire": "cannonballs chosen",
    "cannon_roll": "cannonballs flying",
    "cards": "battle cards",
    "dice": "battle dice next",
    "dice_roll": "rolling battle dice",
}
CHANCES = {
    "armory_shuffle": "the Armory shuffle",
    "first_player": "the first-player roll",
    "armory_reshuffle": "the discard pile's reshuffle",
    "cannonballs": "the cannonball dice",
    "battle": "the battle dice",
}
_KINDS = {"flag": "blue flag", "battle": "battle card", "round": "round card"}


def castle_id(seat: int) -> str:
    return f"castle-{seat}"


def wall_id(seat: int) -> str:
    return f"wall-{seat}"


def captive_id(holder: int, owner: int) -> str:
    return f"captive-{holder}-{owner}"


def card_id(card: int) -> str:
    return f"card-{card}"


def _card_name(card: int) -> str:
    return CARDS[card].name if 0 <= card < len(CARDS) else "an Armory card"


def _count(count: int, thing: str) -> str:
    return f"1 {thing}" if count == 1 else f"{count} {thing}s"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- the scene --------------------------------------------------------------------------------


def scene(view: CastleDashView, names: Names, told: int | None) -> Scene:
    n = view.players
    first = told if told is not None and 0 <= told < n else 0
    order = [(first + k) % n for k in range(n)]
    return Scene(status=_status(view, names, told),
                 zones=(_middle(view, names, told),
                        *(_seat_zone(view, names, told, seat) for seat in order)))


def _status(view: CastleDashView, names: Names, told: int | None) -> tuple[str, ...]:
    phase = PHASES.get(view.phase, view.phase)
    head = f"Round {view.round}, {phase}" if view.round else f"Before round 1, {phase}"
    if view.phase == "over":
        return head, "The game is over"
    if view.waiting:
        return head, "To act: " + ", ".join(who(names, s, told) for s in view.waiting)
    if view.chance:
        return head, f"Waiting for {CHANCES.get(view.chance, 'chance')}"
    return (head,)


def _middle(view: CastleDashView, names: Names, told: int | None) -> Zone:
    pieces = [
        Piece(label="Armory deck", id="deck", kind="back",
              lines=(_count(view.deck_size, "card"), "order hidden")),
        Piece(label="discard pile", id="discard", kind="info",
              lines=(_count(len(view.discard), "card"),),
              note=", ".join(_card_name(c) for c in view.discard)),
        Piece(label=f"round {view.round}" if view.round else "before round 1", id="round",
              kind="info", lines=(PHASES.get(view.phase, view.phase),)),
    ]
    if view.first_player >= 0:
        pieces.append(Piece(label="first-player marker", id="first", kind="token",
                            seat=view.first_player,
                            lines=(seat_name(names, view.first_player),)))
    current = _current(view, names, told)
    if current:
        pieces.append(Piece(label=current, id="current", kind="info"))
    unclaimed = [c for c in view.face_up if view.holder[c] < 0]
    cards = Zone(title="Face-up Armory cards", pieces=tuple(
        _card(view, c) for c in unclaimed) or (Piece(label="none unclaimed", kind="info"),))
    zones = [cards]
    battle = _battle(view, names, told)
    if battle is not None:
        zones.append(battle)
    return Zone(title="Middle of the table", pieces=tuple(pieces), zones=tuple(zones))


def _current(view: CastleDashView, names: Names, told: int | None) -> str:
    if len(view.current) != 2:
        return ""
    if view.phase == "claim":
        holder, card = view.current
        return f"resolving {whose(names, holder, told)} {_card_name(card)}"
    if view.phase == "loot":
        castle, looter = view.current
        return f"{who(names, looter, told)} looting {whose(names, castle, told)} castle"
    return ""


def _battle(view: CastleDashView, names: Names, told: int | None) -> Zone | None:
    pieces: list[Piece] = []
    title = "Battles"
    fight = view.battle
    if fight is not None:
        me, them = fight.sides
        title = (f"Battle now: {who(names, me, told)} against {who(names, them, told)}, "
                 f"{STEPS.get(fight.step, fight.step)}")
        for side, seat in enumerate(fight.sides):
            other = fight.sides[1 - side]
            lines = [f"{_count(view.troops[seat][other], 'soldier')} standing",
                     f"cannonballs: {_shots(fight, side)}",
                     f"knocked out: {fight.knocked[side]}",
                     "cards played: " + (", ".join(_card_name(c) for c in fight.played[side])
                                         or "none")]
            if fight.step == "cards" and fight.card_side == side:
                lines.append("playing battle cards")
            pieces.append(Piece(label=_sentence(who(names, seat, told)), id=f"side-{side}",
                                kind="info", seat=seat, lines=tuple(lines)))
    result = view.outcome
    if result is not None:
        first, second = result.sides
        lines = [f"{result.totals[0]} to {result.totals[1]}" if result.totals is not None
                 else "no dice"]
        if result.winner < 0:
            lines.append("nobody won")
        else:
            loser = second if result.winner == first else first
            lines.append(f"{who(names, result.winner, told)} won, "
                         f"{result.placed} onto {whose(names, loser, told)} wall")
        pieces.append(Piece(label=f"last battle: {who(names, first, told)} against "
                                  f"{who(names, second, told)}", id="last-battle",
                            kind="info", lines=tuple(lines)))
    return Zone(title=title, pieces=tuple(pieces)) if pieces else None


def _shots(fight: Any, side: int) -> str:
    shots = fight.shots[side]
    if shots != HIDDEN:
        return str(shots)
    if fight.chosen[side]:
        return "chosen, sealed"
    return "choosing" if fight.step == "cannon_wait" else "not chosen yet"


def _card(view: CastleDashView, card: int) -> Piece:
    spec = CARDS[card]
    lines = [_KINDS.get(spec.kind, spec.kind)]
    if card in view.spent:
        lines.append("played this round")
    holder = view.holder[card]
    return Piece(label=spec.name, id=card_id(card), kind="card", seat=holder,
                 lines=tuple(lines), note=spec.text)


def _seat_zone(view: CastleDashView, names: Names, told: int | None, seat: int) -> Zone:
    mine = told is not None and told == seat
    title = f"{seat_name(names, seat)} (you)" if mine else seat_name(names, seat)
    castle = Piece(label=f"{whose(names, seat, told)} castle", id=castle_id(seat), seat=seat,
                   lines=(_count(view.coins[seat], "coin") + " at home",
                          f"stole {view.stolen[seat]}, rescued {view.rescued[seat]}"))
    on_wall = [f"{count} of {'yours' if told == attacker else whose(names, attacker, told)}"
               for attacker, count in enumerate(view.walls[seat]) if count]
    wall = Piece(label=f"{whose(names, seat, told)} wall", id=wall_id(seat), seat=seat,
                 lines=tuple(on_wall) or ("no soldiers on it",))
    captives = tuple(Piece(label=f"{whose(names, owner, told)} captive",
                           id=captive_id(seat, owner), kind="unit", seat=owner,
                           lines=(f"held by {who(names, seat, told)}",))
                     for owner in view.hostages[seat])
    held = [c for c in view.face_up if view.holder[c] == seat]
    hand = Zone(title="Hand", seat=seat, pieces=(
        Piece(label=f"{_count(view.supply[seat], 'soldier')} in hand", id=f"hand-{seat}",
              kind="unit", seat=seat),
        Piece(label=_count(view.cannonballs[seat], "cannonball"), id=f"balls-{seat}",
              kind="token", seat=seat),
        *(_card(view, c) for c in held)))
    fights = Zone(title="In battle", seat=seat, pieces=tuple(
        _troops(view, names, told, seat, other) for other in OPPONENTS[view.players][seat]))
    return Zone(title=title, seat=seat, pieces=(castle, wall, *captives), zones=(hand, fights))


def _troops(view: CastleDashView, names: Names, told: int | None, seat: int,
            other: int) -> Piece:
    count = view.troops[seat][other]
    placed = other in view.placed[seat]
    lines = [_count(count, "soldier") if placed or count else "none placed yet"]
    if other in view.resolved[seat]:
        lines.append("battle over")
    if other in view.smoke[seat]:
        lines.append("no cannonballs, Smoke Screen")
    return Piece(label=f"against {who(names, other, told)}", id=f"troops-{seat}-{other}",
                 kind="unit", seat=seat, lines=tuple(lines))


# --- what actions pick ------------------------------------------------------------------------


def target(action: Any, view: CastleDashView) -> str:
    if isinstance(action, a.PlaceSoldiers | a.ChooseBattle):
        return castle_id(action.opponent)
    if isinstance(action, a.ClaimArmory | a.PlayArmoryCard):
        return card_id(action.card)
    if isinstance(action, a.ResolveFlagCard):
        if action.card == LOOKOUT:
            return card_id(action.target)
        if action.card in (SABOTAGE, SMOKE_SCREEN):
            return castle_id(action.target)
        if action.card == SAPPERS:
            return wall_id(action.target)
        if action.card == BRIBE:
            return wall_id(view.seat)
        return ""
    if isinstance(action, a.Loot) and len(view.current) == 2:
        castle = view.current[0]
        if action.choice == "rescue":
            return captive_id(castle, view.seat)
        return castle_id(castle)
    return ""


def group(action: Any, view: CastleDashView, names: Names) -> str:
    if isinstance(action, a.PlaceSoldiers):
        return f"{seat_name(names, action.opponent)}'s castle"
    if isinstance(action, a.ClaimArmory):
        return "Armory cards"
    if isinstance(action, a.ResolveFlagCard):
        return _card_name(action.card)
    if isinstance(action, a.ChooseBattle):
        return "Next battle"
    if isinstance(action, a.ChooseCannonballs):
        return "Cannonballs"
    if isinstance(action, a.PlayArmoryCard | a.EndArmoryPlay):
        return "Battle cards"
    if isinstance(action, a.Loot) and len(view.current) == 2:
        return f"{seat_name(names, view.current[0])}'s castle"
    return ""
