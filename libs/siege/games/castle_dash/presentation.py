"""Castle Dash (``castle-dash``) for people at a terminal: the table drawn from one seat's view,
the actions and events in words, and a short summary of the rules.

Only one game event carries a hidden value: :class:`~.events.CannonballsChosen`, whose count is
sealed from every other seat until both battlers have chosen. Its line names the count only to
the seat that chose it; everybody else (spectators too) hears that a count was chosen. The
board draws only the view, so the deck shows as a size and a sealed count as "sealed".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from siege.engine.presentation import Names, Presentation
from siege.engine.presentation import seat_name as _seat
from siege.engine.presentation import sentence as _line
from siege.engine.presentation import who as _who
from siege.engine.presentation import whose as _whose
from siege.games.castle_dash import actions as a
from siege.games.castle_dash import events as e
from siege.games.castle_dash.presentation_scene import (
    CHANCES,
    PHASES,
    STEPS,
    group,
    scene,
    target,
)
from siege.games.castle_dash.reference import reference
from siege.games.castle_dash.seating import OPPONENTS
from siege.games.castle_dash.views import HIDDEN, CastleDashView

_REF = reference()
_CARDS: list[dict[str, Any]] = _REF["cards"]
_CONST: dict[str, int] = _REF["constants"]
_NAME_WIDTH = 8  # seat names are cut to this on the board

_LOOKOUT = next(card["id"] for card in _CARDS if card["name"] == "Lookout")
_SABOTAGE = next(card["id"] for card in _CARDS if card["name"] == "Sabotage")
_SAPPERS = next(card["id"] for card in _CARDS if card["name"] == "Sappers")
_BRIBE = next(card["id"] for card in _CARDS if card["name"] == "Bribe")
_SMOKE = next(card["id"] for card in _CARDS if card["name"] == "Smoke Screen")

_KINDS = {"flag": "flag", "battle": "battle", "round": "round"}


# --- words ------------------------------------------------------------------------------------


def _card(card: int) -> str:
    return str(_CARDS[card]["name"]) if 0 <= card < len(_CARDS) else "an Armory card"


def _effect(card: int) -> str:
    """A card's text as a clause: "gain 2 cannonballs for this round"."""
    if not 0 <= card < len(_CARDS):
        return ""
    text = str(_CARDS[card]["text"]).rstrip(".")
    return text[:1].lower() + text[1:]










def _soldiers(count: int) -> str:
    return "1 soldier" if count == 1 else f"{count} soldiers"


def _cannonballs(count: int) -> str:
    if count == 0:
        return "no cannonballs"
    return "1 cannonball" if count == 1 else f"{count} cannonballs"


# --- the board --------------------------------------------------------------------------------


def _short(name: str) -> str:
    return name if len(name) <= _NAME_WIDTH else name[: _NAME_WIDTH - 1] + "~"


def _name(names: Names, seat: int) -> str:
    return _short(_seat(names, seat))


def _label(view: CastleDashView, names: Names, seat: int) -> str:
    name = _name(names, seat)
    return f"{name} (you)" if seat == view.seat else name


def _header(view: CastleDashView, names: Names) -> Text:
    head = Text("Castle Dash", style="bold")
    head.append(f" | round {view.round}" if view.round else " | before round 1")
    head.append(f" | {PHASES.get(view.phase, view.phase)} | decision {view.decision}")
    if view.first_player >= 0:
        head.append(f"\nfirst player: {_label(view, names, view.first_player)}")
    else:
        head.append("\nfirst player: not rolled yet")
    if view.phase == "over":
        head.append(" | the game is over", style="bold")
    elif view.waiting:
        head.append(" | to act: " + ", ".join(_label(view, names, s) for s in view.waiting))
    elif view.chance:
        head.append(f" | waiting for {CHANCES.get(view.chance, 'chance')}")
    return head


def _seats(view: CastleDashView, names: Names) -> Text:
    text = Text()
    for seat in range(view.players):
        if seat:
            text.append("\n")
        label = _label(view, names, seat)
        if seat == view.first_player:
            label += " [1st]"
        text.append(label, style="bold" if seat == view.seat else "")
        text.append(f": hand {view.supply[seat]}, cannonballs {view.cannonballs[seat]}, "
                    f"coins {view.coins[seat]}, stolen {view.stolen[seat]}, "
                    f"rescued {view.rescued[seat]}")
        held = ", ".join(_name(names, s) for s in view.hostages[seat]) or "none"
        wall = [f"{_name(names, s)} {n}" for s, n in enumerate(view.walls[seat]) if n]
        text.append(f"\n  holds {held} | wall {', '.join(wall) or 'empty'}")
    return text


def _pairs(view: CastleDashView) -> list[tuple[int, int]]:
    """Every battle once, as (lower seat, higher seat), in seat order."""
    opponents = OPPONENTS.get(view.players, ())
    return [(seat, other) for seat in range(len(opponents))
            for other in sorted(opponents[seat]) if seat < other]


def _side(view: CastleDashView, names: Names, seat: int, other: int) -> str:
    placed = other in view.placed[seat]
    count = str(view.troops[seat][other]) if placed or view.troops[seat][other] else "-"
    return f"{_name(names, seat)} {count}"


def _battle_table(view: CastleDashView, names: Names) -> Table:
    table = Table.grid(expand=True, padding=(0, 2))
    table.add_column(ratio=1)
    table.add_column(ratio=1)
    cells = []
    for seat, other in _pairs(view):
        cell = Text(f"{_side(view, names, seat, other)} v {_side(view, names, other, seat)}")
        tags = []
        if other in view.resolved[seat]:
            tags.append("over")
        if other in view.smoke[seat]:
            tags.append("smoke")
        if tags:
            cell.append(f" ({', '.join(tags)})")
        cells.append(cell)
    for k in range(0, len(cells), 2):
        table.add_row(*cells[k:k + 2], *([Text()] * (2 - len(cells[k:k + 2]))))
    return table


def _face_up(view: CastleDashView, names: Names, card: int) -> Text:
    """One face-up card: its kind (or "played", for a spent battle card) and who holds it."""
    seat = view.holder[card] if 0 <= card < len(view.holder) else -1
    holder = "unclaimed" if seat < 0 else "you" if seat == view.seat else _name(names, seat)
    kind = "played" if card in view.spent else _KINDS.get(_CARDS[card]["kind"], "?")
    return Text(f"{_card(card)} ({kind}): {holder}")


def _armory(view: CastleDashView, names: Names) -> list[Any]:
    head = Text("Armory", style="bold underline")
    head.append(f"  deck: {view.deck_size} cards (order hidden) | "
                f"discard: {len(view.discard)} cards")
    parts: list[Any] = [head]
    if view.face_up:
        table = Table.grid(expand=True, padding=(0, 2))
        table.add_column(ratio=1)
        table.add_column(ratio=1)
        cells = [_face_up(view, names, c) for c in view.face_up]
        for k in range(0, len(cells), 2):
            table.add_row(*cells[k:k + 2], *([Text()] * (2 - len(cells[k:k + 2]))))
        parts.append(table)
    else:
        parts.append(Text("no cards face up"))
    if view.discard:
        parts.append(Text("discarded: " + ", ".join(_card(c) for c in view.discard)))
    return parts


def _shots(view: CastleDashView, names: Names, side: int) -> str:
    fight = view.battle
    assert fight is not None
    name = _name(names, fight.sides[side])
    shots = fight.shots[side]
    if shots != HIDDEN:
        return f"{name} {shots}"
    if fight.chosen[side]:
        return f"{name} chosen (sealed)"
    return f"{name} choosing" if fight.step == "cannon_wait" else f"{name} -"


def _fight(view: CastleDashView, names: Names) -> Text | None:
    text = Text()
    fight = view.battle
    if fight is not None:
        me, them = fight.sides
        text.append("Battle now: ", style="bold")
        text.append(f"{_label(view, names, me)} {view.troops[me][them]} v "
                    f"{_label(view, names, them)} {view.troops[them][me]} soldiers, "
                    f"{STEPS.get(fight.step, fight.step)}")
        text.append(f"\n  cannonballs: {_shots(view, names, 0)}, {_shots(view, names, 1)}")
        text.append(f"\n  knocked out: {_name(names, me)} {fight.knocked[0]}, "
                    f"{_name(names, them)} {fight.knocked[1]}")
        if fight.step == "cards" and fight.card_side in (0, 1):
            text.append(f" | to play cards: {_name(names, fight.sides[fight.card_side])}")
        played = [f"{_name(names, s)} {', '.join(_card(c) for c in fight.played[k]) or 'none'}"
                  for k, s in enumerate(fight.sides)]
        text.append("\n  cards played: " + "; ".join(played))
    result = view.outcome
    if result is not None:
        if text.plain:
            text.append("\n")
        text.append("Last battle ", style="bold")
        first, second = result.sides
        text.append(f"{_name(names, first)} v {_name(names, second)}: ")
        if result.totals is not None:
            text.append(f"{result.totals[0]}-{result.totals[1]}, ")
        else:
            text.append("no dice, ")
        if result.winner < 0:
            text.append("nobody won")
        else:
            loser = second if result.winner == first else first
            text.append(f"{_name(names, result.winner)} won, {result.placed} onto "
                        f"{_name(names, loser)}'s wall")
    return text if text.plain else None


def _current(view: CastleDashView, names: Names) -> Text | None:
    if len(view.current) != 2:
        return None
    if view.phase == "claim":
        holder, card = view.current
        return Text(f"Resolving: {_label(view, names, holder)}'s {_card(card)}")
    if view.phase == "loot":
        castle, looter = view.current
        return Text(f"Looting: {_label(view, names, looter)} at "
                    f"{_label(view, names, castle)}'s castle")
    return None


def draw(view: CastleDashView, names: Names) -> Group:
    """The table as ``view.seat`` sees it, in 80 columns."""
    parts: list[Any] = [_header(view, names), _seats(view, names),
                        Text("Battles (soldiers in each, - not placed yet)",
                             style="bold underline"),
                        _battle_table(view, names)]
    parts += _armory(view, names)
    for extra in (_fight(view, names), _current(view, names)):
        if extra is not None:
            parts.append(extra)
    return Group(*parts)


# --- actions ----------------------------------------------------------------------------------


def _place(action: a.PlaceSoldiers, view: CastleDashView, names: Names) -> str:
    other = _seat(names, action.opponent)
    text = f"place {_soldiers(action.count)} against {other}'s castle"
    if 0 <= action.opponent < view.players and view.seat in view.placed[action.opponent]:
        text += f" ({other} has {view.troops[action.opponent][view.seat]} there)"
    return text


def _claim(action: a.ClaimArmory, view: CastleDashView, names: Names) -> str:
    return f"claim {_card(action.card)} with 1 soldier: {_effect(action.card)}"


def _resolve(action: a.ResolveFlagCard, view: CastleDashView, names: Names) -> str:
    card, target = action.card, action.target
    if card == _LOOKOUT:
        return f"use Lookout to take {_card(target)} as well: {_effect(target)}"
    other = _seat(names, target)
    if card == _SABOTAGE:
        return f"use Sabotage on {other}'s castle: {other} loses 1 cannonball this round"
    if card == _SAPPERS:
        return f"send your Sappers onto {other}'s wall"
    if card == _BRIBE:
        return f"use Bribe: send one of {other}'s soldiers on your wall home"
    if card == _SMOKE:
        return f"use Smoke Screen on your battle against {other}'s castle: no cannonballs there"
    return f"aim {_card(card)} at {other}"


def _choose_battle(action: a.ChooseBattle, view: CastleDashView, names: Names) -> str:
    other = _seat(names, action.opponent)
    text = f"fight your battle against {other}'s castle next"
    if 0 <= view.seat < view.players and 0 <= action.opponent < view.players:
        text += (f" (you {view.troops[view.seat][action.opponent]}, "
                 f"{other} {view.troops[action.opponent][view.seat]})")
    return text


def _choose_cannonballs(action: a.ChooseCannonballs, view: CastleDashView, names: Names) -> str:
    text = f"fire {_cannonballs(action.count)}"
    fight = view.battle
    if fight is not None and view.seat in fight.sides:
        other = fight.sides[1 - fight.sides.index(view.seat)]
        text += f" in your battle with {_seat(names, other)}"
    return text + " (sealed until both have chosen)"


def _play(action: a.PlayArmoryCard, view: CastleDashView, names: Names) -> str:
    return f"play {_card(action.card)}: {_effect(action.card)}"


def _end_play(action: a.EndArmoryPlay, view: CastleDashView, names: Names) -> str:
    return "play no more battle cards in this battle"


def _loot(action: a.Loot, view: CastleDashView, names: Names) -> str:
    castle = _seat(names, view.current[0]) if len(view.current) == 2 else "that"
    if action.choice == "rescue":
        return f"rescue your captive from {castle}'s castle"
    return f"steal a coin from {castle}'s castle"


# --- events -----------------------------------------------------------------------------------


def _placed(event: e.SoldiersPlaced, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} placed {_soldiers(event.count)} in the "
                 f"battle against {_who(names, event.opponent, seat)}")


def _claimed(event: e.ArmoryClaimed, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} claimed {_card(event.card)}")


def _resolved(event: e.FlagCardResolved, names: Names, seat: int | None) -> str:
    who = _who(names, event.seat, seat)
    mine = _whose(names, event.seat, seat)
    card, target = event.card, event.target
    if card == _LOOKOUT:
        return _line(f"{who} used Lookout to take {_card(target)} as well")
    other = _who(names, target, seat)
    if card == _SABOTAGE:
        return _line(f"{who} used Sabotage: {other} lost 1 cannonball for this round")
    if card == _SAPPERS:
        return _line(f"{who} sent Sappers onto {_whose(names, target, seat)} wall")
    if card == _BRIBE:
        return _line(f"{who} used Bribe: one of {_whose(names, target, seat)} soldiers on "
                     f"{mine} wall went home")
    if card == _SMOKE:
        return _line(f"{who} used Smoke Screen: no cannonballs in {mine} battle with {other}")
    return _line(f"{who} aimed {_card(card)} at {other}")


def _battle_chosen(event: e.BattleChosen, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} chose to fight the battle against "
                 f"{_who(names, event.opponent, seat)} next")


def _cannonballs_chosen(event: e.CannonballsChosen, names: Names, seat: int | None) -> str:
    other = _who(names, event.opponent, seat)
    if seat is not None and seat == event.seat:  # only the chooser knows the sealed count
        return f"You chose to fire {_cannonballs(event.count)} against {other}"
    return _line(f"{_seat(names, event.seat)} chose a cannonball count against {other} "
                 "(sealed)")


def _card_played(event: e.ArmoryCardPlayed, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} played {_card(event.card)} against "
                 f"{_who(names, event.opponent, seat)}")


def _play_ended(event: e.ArmoryPlayEnded, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} stopped playing battle cards against "
                 f"{_who(names, event.opponent, seat)}")


def _looted(event: e.LootTaken, names: Names, seat: int | None) -> str:
    who = _who(names, event.seat, seat)
    castle = _whose(names, event.castle, seat)
    if event.choice == "rescue":
        own = "your" if seat is not None and seat == event.seat else "a"
        return _line(f"{who} rescued {own} captive from {castle} castle")
    return _line(f"{who} stole a coin from {castle} castle")


RULES_SUMMARY = "\n".join((
    f"Goal: be the first to steal {_CONST['coins_to_win']} coins from the other castles "
    "(3 to 6 players).",
    "You fight your two neighbours, and the seat across too with 4 or 6 players;",
    "at the start you hold one captive soldier of each player you fight.",
    "A round: 2 Armory cards per player are turned face up, then players take turns.",
    "A turn: claim a card with 1 soldier, or send 1-6 soldiers into a new battle.",
    "Nobody may pass; placing ends when no one has a move left.",
    "Blue-flag cards then act; battle and round cards help in the battles after.",
    "In a battle each side may fire sealed cannonballs (d6s) and play battle cards,",
    "then both roll a d4 plus soldiers: the winner climbs onto the loser's wall.",
    f"{_CONST['loot_threshold']}+ soldiers on a wall loot it: rescue your captive or steal a "
    "coin.",
    "Smaller walls stay for later rounds; cannonballs go back to 2 each round.",
    f"The game ends after a loot step in which someone has {_CONST['coins_to_win']} stolen "
    "coins.",
    "Most coins stolen wins; ties: most captives rescued, then most coins in all.",
))

ACTIONS: dict[type, Callable[[Any, Any, Names], str]] = {
    a.PlaceSoldiers: _place,
    a.ClaimArmory: _claim,
    a.ResolveFlagCard: _resolve,
    a.ChooseBattle: _choose_battle,
    a.ChooseCannonballs: _choose_cannonballs,
    a.PlayArmoryCard: _play,
    a.EndArmoryPlay: _end_play,
    a.Loot: _loot,
}

EVENTS: dict[type, Callable[[Any, Names, int | None], str]] = {
    e.SoldiersPlaced: _placed,
    e.ArmoryClaimed: _claimed,
    e.FlagCardResolved: _resolved,
    e.BattleChosen: _battle_chosen,
    e.CannonballsChosen: _cannonballs_chosen,
    e.ArmoryCardPlayed: _card_played,
    e.ArmoryPlayEnded: _play_ended,
    e.LootTaken: _looted,
}

PRESENTATION = Presentation(title="Castle Dash", rules_summary=RULES_SUMMARY, board=draw,
                            actions=ACTIONS, events=EVENTS, scene=scene, target=target,
                            group=group)
