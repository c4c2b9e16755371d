"""Sally Forth (``mission``) for people at a terminal: the table drawn from one seat's view, the
actions and events in words, and a short summary of the rules.

Every game event of Sally Forth is a choice of an open card (one deployed from the hand, or
already in play or stashed), so an event line never needs to hide anything; the board draws
only the view, so another seat's hand and every deck show as sizes alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from siege.engine.presentation import Names, Presentation
from siege.engine.presentation import seat_name as _seat
from siege.engine.presentation import who as _who
from siege.games.mission import actions as a
from siege.games.mission import events as e
from siege.games.mission.presentation_scene import ENDS, PHASES, group, scene, target
from siege.games.mission.reference import reference
from siege.games.mission.views import MissionView

_REF = reference()
_CARDS: list[dict[str, Any]] = _REF["cards"]
_MISSIONS: list[dict[str, Any]] = _REF["missions"]
_TURN_LIMIT: int = _REF["constants"]["turn_limit"]
_NAME_WIDTH = 12  # seat names are cut to this on the board



# --- words ------------------------------------------------------------------------------------


def _card(number: int) -> str:
    return str(_CARDS[number]["name"]) if 0 <= number < len(_CARDS) else "a card"


def _speed(number: int) -> int:
    return int(_CARDS[number]["speed"])


def _kind(number: int) -> str:
    """A card's printed number in words: its speed, or its strength for a unit."""
    if _CARDS[number]["kind"] == "maneuver":
        return f"speed {_speed(number)}"
    return f"unit, strength {_CARDS[number]['strength']}"


def _mission(mission: int) -> str:
    return str(_MISSIONS[mission]["name"]) if 0 <= mission < len(_MISSIONS) else "no mission"






def _line(text: str) -> str:
    """Capitalises a line that opens with "you" (names are kept as given)."""
    return "You" + text[3:] if text.startswith("you ") else text


def _list(words: Sequence[str]) -> str:
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def _grouped(cards: Sequence[int]) -> str:
    """Card names with counts, in first-seen order: "Charge x2, Relay"."""
    counts = Counter(_card(c) for c in cards)
    return ", ".join(name if n == 1 else f"{name} x{n}" for name, n in counts.items()) or "-"


def _points(points: int) -> str:
    return "1 point" if points == 1 else f"{points} points"


def _slot_name(view: MissionView, slot: int) -> str:
    return f"{_mission(view.missions[slot].mission)} (slot {slot})"


# --- the board --------------------------------------------------------------------------------


def _short(name: str) -> str:
    return name if len(name) <= _NAME_WIDTH else name[: _NAME_WIDTH - 1] + "~"


def _label(view: MissionView, names: Names, seat: int) -> str:
    name = _short(_seat(names, seat))
    return f"{name} (you)" if seat == view.seat else name


def _header(view: MissionView, names: Names) -> Text:
    head = Text("Sally Forth", style="bold")
    turn = f"turn {view.turn} of {_TURN_LIMIT}" if view.turn else "before the first turn"
    head.append(f" | {turn} | {PHASES.get(view.phase, view.phase)}")
    head.append(f" | mission deck: {view.mission_deck_size} cards\n")
    if view.active >= 0:
        head.append(f"turn of {_label(view, names, view.active)}")
    else:
        head.append("no turn yet")
    if view.ended:
        head.append(f"\nGame over: {ENDS.get(view.ended, view.ended)}.", style="bold")
    elif view.waiting:
        asked = ", ".join(_label(view, names, s) for s in view.waiting)
        head.append(f" | to choose: {asked}")
    elif view.chance:
        head.append(" | waiting for the dice or a shuffle")
    return head


def _missions(view: MissionView, names: Names) -> Table:
    table = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False,
                  padding=(0, 1))
    table.add_column("", no_wrap=True, width=_NAME_WIDTH + 12)
    for slot_view in view.missions:
        title = f"Slot {slot_view.slot}: {_mission(slot_view.mission)}"
        if slot_view.mission >= 0:
            title += f"\nneeds {slot_view.difficulty}, worth {_points(slot_view.points)}"
        if view.target == slot_view.slot:
            title += " [assaulted]"
        table.add_column(title, ratio=1)
    seats = range(len(view.seats))
    for seat in seats:
        label = _label(view, names, seat)
        stashes = []
        for slot_view in view.missions:
            cards = slot_view.stashed[seat]
            if cards:
                speed = slot_view.stashed_speed[seat]
                need = f"/{slot_view.difficulty}" if slot_view.mission >= 0 else ""
                stashes.append(f"{_grouped(cards)} (speed {speed}{need})")
            else:
                stashes.append("-")
        table.add_row(f"{label} stash", *stashes)
        units = []
        for slot_view in view.missions:
            cards = slot_view.units[seat]
            if cards:
                each = ", ".join(f"{_card(c)} {s}"
                                 for c, s in zip(cards, slot_view.unit_strength[seat],
                                                 strict=False))
                units.append(f"{each} (total {slot_view.strength[seat]})")
            else:
                units.append("-")
        table.add_row(f"{label} units", *units, end_section=seat != len(view.seats) - 1)
    return table


def _seat_lines(view: MissionView, names: Names, seat: int) -> Text:
    info = view.seats[seat]
    text = Text(_label(view, names, seat), style="bold")
    text.append(f": {_points(info.points)} | hand {info.hand_size} | deck {info.deck_size} | "
                f"discard {len(info.discard)}")
    if info.completed:
        done = ", ".join(_mission(m) for m in info.completed)
        text.append(f"\n  completed: {done}")
    if info.maneuvers:
        ready = [c for c in info.maneuvers if c not in info.swerved]
        parts = []
        if ready:
            parts.append("ready " + ", ".join(f"{_card(c)} {_speed(c)}" for c in ready))
        if info.swerved:
            parts.append("swerved " + ", ".join(f"{_card(c)} {_speed(c)}"
                                                for c in info.swerved))
        text.append("\n  maneuvers in play: " + "; ".join(parts))
    else:
        text.append("\n  maneuvers in play: none")
    if info.discard:
        text.append(f"\n  discard pile: {_grouped(info.discard)}")
    return text


def _hand(view: MissionView) -> Text:
    text = Text(f"Your hand ({len(view.hand)}): ", style="bold")
    if view.hand:
        text.append(", ".join(f"{_card(c)} ({_kind(c)})" for c in view.hand))
    else:
        text.append("empty")
    return text


def _combat(view: MissionView, names: Names) -> Text | None:
    text = Text()
    fight = view.combat
    if fight is not None:
        attacker, defender = fight.sides
        text.append(f"Close combat at slot {fight.slot}: ", style="bold")
        text.append(f"{_label(view, names, attacker)} attacks with {fight.totals[0]}, "
                    f"{_label(view, names, defender)} defends with {fight.totals[1]} "
                    "(the defender holds ties)")
        for side, seat in enumerate(fight.sides):
            if fight.swerved[side]:
                text.append(f"\n  {_label(view, names, seat)} swerved: "
                            f"{', '.join(_card(c) for c in fight.swerved[side])}")
    result = view.result
    if result is not None:
        if fight is not None:
            text.append("\n")
        loser = result.sides[0] if result.winner == result.sides[1] else result.sides[1]
        text.append(f"Last combat at slot {result.slot}: ", style="bold")
        text.append(f"{_label(view, names, result.winner)} won "
                    f"{max(result.totals)} to {min(result.totals)}")
        if result.destroyed:
            text.append(f"; {_label(view, names, loser)} lost "
                        f"{_list([_card(c) for c in result.destroyed])}")
    return text if text.plain else None


def draw(view: MissionView, names: Names) -> Group:
    """The table as ``view.seat`` sees it, in 80 columns."""
    parts: list[Any] = [_header(view, names), _missions(view, names)]
    fight = _combat(view, names)
    if fight is not None:
        parts.append(fight)
    parts += [_seat_lines(view, names, seat) for seat in range(len(view.seats))]
    parts.append(_hand(view))
    return Group(*parts)


# --- actions ----------------------------------------------------------------------------------


def _assault(action: a.AssaultMission, view: MissionView, names: Names) -> str:
    other = 1 - view.seat
    guards = view.missions[action.slot].units[other]
    text = f"assault {_slot_name(view, action.slot)}"
    if guards:
        return text + f" and fight {_seat(names, other)}'s units there"
    return text


def _skip(action: a.SkipAssault, view: MissionView, names: Names) -> str:
    return "skip your assault this turn"


def _swerve(action: a.SwerveManeuver, view: MissionView, names: Names) -> str:
    return f"swerve {_card(action.card)} to add {_speed(action.card)} speed in the combat"


def _yield(action: a.YieldCombat, view: MissionView, names: Names) -> str:
    fight = view.combat
    if fight is None:
        return "yield the close combat"
    side = fight.sides.index(view.seat) if view.seat in fight.sides else 0
    winner = fight.sides[1 - side]
    return (f"yield the close combat: {_seat(names, winner)} wins it "
            f"{fight.totals[1 - side]} to {fight.totals[side]}")


def _stash(action: a.StashManeuver, view: MissionView, names: Names) -> str:
    speed = _speed(action.card)
    slot = view.target
    if not 0 <= slot < len(view.missions):
        return f"stash {_card(action.card)} (speed {speed})"
    there = view.missions[slot]
    total = there.stashed_speed[view.seat] + speed
    text = f"stash {_card(action.card)} (speed {speed}) at {_slot_name(view, slot)}"
    if there.mission >= 0 and total >= there.difficulty:
        return text + f", completing it for {_points(there.points)}"
    return text + f", reaching {total} of {there.difficulty}"


def _deploy_maneuver(action: a.DeployManeuver, view: MissionView, names: Names) -> str:
    text = f"deploy {_card(action.card)} (speed {_speed(action.card)}) into play"
    if action.move < 0:
        return text
    for slot_view in view.missions:
        if action.move in slot_view.stashed[view.seat]:
            to = 1 - slot_view.slot
            return text + (f" and move your stashed {_card(action.move)} to "
                           f"{_slot_name(view, to)}")
    return text + f" and move your stashed {_card(action.move)} to the other mission"


def _deploy_unit(action: a.DeployUnit, view: MissionView, names: Names) -> str:
    return f"deploy {_card(action.card)} at {_slot_name(view, action.slot)}"


def _regroup(action: a.Regroup, view: MissionView, names: Names) -> str:
    bent = view.seats[view.seat].swerved
    return f"regroup: make {_list([_card(c) for c in bent])} unswerved again"


def _pass(action: a.PassDeploy, view: MissionView, names: Names) -> str:
    return "stop deploying and draw a card"


# --- events -----------------------------------------------------------------------------------


def _assaulted(event: e.MissionAssaulted, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} assaulted {_mission(event.mission)} "
                 f"(slot {event.slot})")


def _skipped(event: e.AssaultSkipped, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} skipped the assault")


def _swerved(event: e.ManeuverSwerved, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} swerved {_card(event.card)}, adding "
                 f"{event.speed} speed in the close combat")


def _yielded(event: e.CombatYielded, names: Names, seat: int | None) -> str:
    winner = _who(names, 1 - event.seat, seat)
    return _line(f"{_who(names, event.seat, seat)} yielded: {winner} won the close combat")


def _stashed(event: e.ManeuverStashed, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} stashed {_card(event.card)} "
                 f"(speed {_speed(event.card)}) at the mission in slot {event.slot}")


def _maneuver_deployed(event: e.ManeuverDeployed, names: Names, seat: int | None) -> str:
    text = f"{_who(names, event.seat, seat)} deployed {_card(event.card)} into play"
    if event.moved >= 0:
        whose = "your" if seat == event.seat else "their"
        text += (f" and moved {whose} stashed {_card(event.moved)} to the mission in slot "
                 f"{event.moved_to}")
    return _line(text)


def _unit_deployed(event: e.UnitDeployed, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} deployed {_card(event.card)} at the "
                 f"mission in slot {event.slot}")


def _regrouped(event: e.ManeuversRegrouped, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} regrouped, making "
                 f"{_list([_card(c) for c in event.cards])} unswerved again")


def _deploy_passed(event: e.DeployPassed, names: Names, seat: int | None) -> str:
    return _line(f"{_who(names, event.seat, seat)} stopped deploying")


RULES_SUMMARY = "\n".join((
    "Two commanders score points by completing missions and winning close combats.",
    "Two missions are always in play: each needs a stashed speed (4 to 8), pays 2-5.",
    "Your turn: assault, then deploy up to two times, then draw a card.",
    "Assault: with a ready (unswerved) maneuver you must pick a mission, else skip.",
    "Enemy units there mean close combat: units' strength plus swerved speed.",
    "The side behind swerves a maneuver for its speed or yields; ties: defender.",
    "The combat winner scores 1 point and destroys the loser's units there.",
    "Then stash one ready maneuver there; a stash that reaches the need completes it.",
    "Deploy: play a maneuver or a unit from your hand, or regroup swerved maneuvers.",
    "Hands and deck orders are secret; everything on the table is open.",
    "The game ends at 12 points, when no mission is left to replace one,",
    "or after 60 turns. Most points wins; ties go to most missions completed.",
))

ACTIONS: dict[type, Callable[[Any, Any, Names], str]] = {
    a.AssaultMission: _assault,
    a.SkipAssault: _skip,
    a.SwerveManeuver: _swerve,
    a.YieldCombat: _yield,
    a.StashManeuver: _stash,
    a.DeployManeuver: _deploy_maneuver,
    a.DeployUnit: _deploy_unit,
    a.Regroup: _regroup,
    a.PassDeploy: _pass,
}

EVENTS: dict[type, Callable[[Any, Names, int | None], str]] = {
    e.MissionAssaulted: _assaulted,
    e.AssaultSkipped: _skipped,
    e.ManeuverSwerved: _swerved,
    e.CombatYielded: _yielded,
    e.ManeuverStashed: _stashed,
    e.ManeuverDeployed: _maneuver_deployed,
    e.UnitDeployed: _unit_deployed,
    e.ManeuversRegrouped: _regrouped,
    e.DeployPassed: _deploy_passed,
}

PRESENTATION = Presentation(title="Sally Forth", rules_summary=RULES_SUMMARY, board=draw,
                            actions=ACTIONS, events=EVENTS, scene=scene, target=target,
                            group=group)
