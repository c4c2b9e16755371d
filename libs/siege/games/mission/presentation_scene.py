"""Sally Forth (``mission``) as a page draws it: the table from one seat's view.

Across the table: the other seat's area at the top, the two missions in the middle (each with
both seats' units and stashed maneuvers on its own side of the card, the mission deck beside
them), and the seat's own area at the bottom: points, completed missions, maneuvers in play,
hand, deck and discard pile. A card keeps its id (``card-<owner>-<number>``) from the hand to
play, to a mission's stash or units, to the discard pile; a mission slot keeps its id
(``slot-<n>``) as the mission card in it is replaced. Only the view is drawn: the other seat's
hand and every deck are backs with counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from siege.engine.presentation import Names, seat_name, sentence, who, whose
from siege.engine.scene import Piece, Scene, Zone
from siege.games.mission import actions as a
from siege.games.mission.reference import reference
from siege.games.mission.views import MissionSlotView, MissionView

_REF = reference()
_CARDS: list[dict[str, Any]] = _REF["cards"]
_MISSIONS: list[dict[str, Any]] = _REF["missions"]
_TURN_LIMIT: int = _REF["constants"]["turn_limit"]
_WIN_POINTS: int = _REF["constants"]["win_points"]

PHASES = {
    "setup": "setting up",
    "start": "a turn begins",
    "assault": "Assault phase",
    "combat": "close combat",
    "stash": "stash",
    "deploy": "Deploy phase",
    "draw": "drawing",
    "over": "game over",
}
ENDS = {
    "points": f"a seat reached {_WIN_POINTS} points",
    "missions": "the mission deck ran out",
    "turns": f"all {_TURN_LIMIT} turns were played",
}


def card_id(seat: int, card: int) -> str:
    """The id of one seat's card: the same wherever the card lies."""
    return f"card-{seat}-{card}"


def slot_id(slot: int) -> str:
    return f"slot-{slot}"


def _name(card: int) -> str:
    return str(_CARDS[card]["name"]) if 0 <= card < len(_CARDS) else "a card"


def _mission_name(mission: int) -> str:
    return str(_MISSIONS[mission]["name"]) if 0 <= mission < len(_MISSIONS) else "no mission"


def _points(points: int) -> str:
    return "1 point" if points == 1 else f"{points} points"


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _printed(card: int) -> str:
    spec = _CARDS[card]
    if spec["kind"] == "maneuver":
        return f"speed {spec['speed']}"
    return f"unit, strength {spec['strength']}"


def _card(seat: int, card: int, *lines: str, standing: bool = False) -> Piece:
    """A card face up; a unit standing at a mission is drawn as a unit."""
    return Piece(label=_name(card), id=card_id(seat, card), lines=lines, seat=seat,
                 kind="unit" if standing else "card", note=str(_CARDS[card]["text"]))


# --- the missions -----------------------------------------------------------------------------


def _mission_card(view: MissionView, there: MissionSlotView) -> Piece:
    if there.mission < 0:
        return Piece(label="empty slot", id=slot_id(there.slot), lines=(f"slot {there.slot}",))
    lines = [f"slot {there.slot}", f"needs {there.difficulty}, worth {_points(there.points)}"]
    if view.target == there.slot:
        lines.append("being assaulted")
    return Piece(label=_mission_name(there.mission), id=slot_id(there.slot), lines=tuple(lines),
                 kind="card", note=str(_MISSIONS[there.mission]["text"]))


def _side(view: MissionView, there: MissionSlotView, seat: int, names: Names,
          told: int | None) -> Zone:
    """One seat's units and stashed maneuvers at one mission, on its side of the card."""
    units = [_card(seat, card, f"strength {now}", standing=True)
             for card, now in zip(there.units[seat], there.unit_strength[seat], strict=False)]
    stashed = [_card(seat, card, f"stashed, speed {_CARDS[card]['speed']}")
               for card in there.stashed[seat]]
    need = f" of {there.difficulty}" if there.mission >= 0 else ""
    tally = Piece(label=f"stashed speed {there.stashed_speed[seat]}{need}", seat=seat,
                  lines=(f"units strength {there.strength[seat]}",), kind="info")
    return Zone(title=sentence(f"{whose(names, seat, told)} side of slot {there.slot}"), seat=seat,
                pieces=(tally, *units, *stashed))


def _missions(view: MissionView, names: Names, told: int | None, order: Sequence[int]) -> Zone:
    slots = tuple(
        Zone(title=f"Slot {there.slot}", layout="column", zones=(
            _side(view, there, order[0], names, told),
            Zone(pieces=(_mission_card(view, there),)),
            _side(view, there, order[1], names, told)))
        for there in view.missions)
    deck = Piece(label="mission deck", lines=(_cards(view.mission_deck_size),), kind="back")
    return Zone(title="Missions", pieces=(deck,), zones=slots)


def _combat(view: MissionView, names: Names, told: int | None) -> Zone | None:
    found: list[Piece] = []
    fight = view.combat
    if fight is not None:
        place = _mission_name(view.missions[fight.slot].mission)
        for side, seat in enumerate(fight.sides):
            role = "attack" if side == 0 else "defend"
            if told != seat:
                role += "s"
            lines = [f"total {fight.totals[side]}"]
            if fight.swerved[side]:
                lines.append("swerved " + ", ".join(_name(c) for c in fight.swerved[side]))
            found.append(Piece(label=sentence(f"{who(names, seat, told)} {role} at {place}"),
                               lines=tuple(lines), seat=seat, kind="info"))
    result = view.result
    if result is not None:
        lines = [f"{max(result.totals)} to {min(result.totals)}"]
        if result.destroyed:
            lines.append("destroyed " + ", ".join(_name(c) for c in result.destroyed))
        found.append(Piece(label=sentence(f"{who(names, result.winner, told)} won the combat"),
                           lines=tuple(lines), seat=result.winner, kind="info"))
    return Zone(title="Close combat", pieces=tuple(found)) if found else None


# --- the seats' areas -------------------------------------------------------------------------


def _grouped(cards: Sequence[int]) -> str:
    counts = Counter(_name(c) for c in cards)
    return ", ".join(name if n == 1 else f"{name} x{n}" for name, n in counts.items())


def _area(view: MissionView, seat: int, names: Names, told: int | None) -> Zone:
    info = view.seats[seat]
    score = Piece(label=f"{_points(info.points)}", seat=seat, kind="token",
                  lines=(f"{len(info.completed)} missions completed",))
    done = tuple(Piece(label=_mission_name(m), seat=seat, kind="card",
                       lines=(f"completed, worth {_points(_MISSIONS[m]['points'])}",))
                 for m in info.completed)
    in_play = tuple(
        _card(seat, card, ("swerved" if card in info.swerved else "ready")
              + f", speed {_CARDS[card]['speed']}")
        for card in info.maneuvers)
    if seat == view.seat:
        hand = tuple(_card(seat, card, _printed(card)) for card in view.hand)
        hand_title = f"Hand, {_cards(len(view.hand))}"
    else:
        hand = (Piece(label="card back", lines=(_cards(info.hand_size),), seat=seat,
                      kind="back"),) if info.hand_size else ()
        hand_title = f"Hand, {_cards(info.hand_size)}"
    deck = Piece(label="deck", lines=(_cards(info.deck_size),), seat=seat, kind="back")
    discard = Piece(label="discard pile", seat=seat, kind="info",
                    lines=(_cards(len(info.discard)),
                           *((_grouped(info.discard),) if info.discard else ())))
    zones = [Zone(title="Maneuvers in play", seat=seat, pieces=in_play)]
    if done:
        zones.append(Zone(title="Completed missions", seat=seat, pieces=done))
    zones += [Zone(title=hand_title, seat=seat, pieces=hand),
              Zone(title="Deck and discard pile", seat=seat, pieces=(deck, discard))]
    title = "Your area" if told is not None and told == seat else f"{seat_name(names, seat)}"
    return Zone(title=title, seat=seat, pieces=(score,), zones=tuple(zones))


def _status(view: MissionView, names: Names, told: int | None) -> tuple[str, ...]:
    turn = f"Turn {view.turn} of {_TURN_LIMIT}" if view.turn else "Before the first turn"
    first = f"{turn}, {PHASES.get(view.phase, view.phase)}"
    if view.ended:
        return first, f"Game over: {ENDS.get(view.ended, view.ended)}"
    if view.waiting:
        asked = ", ".join(who(names, s, told) for s in view.waiting)
        return first, f"To choose: {asked}"
    if view.chance:
        return first, "Waiting for the dice or a shuffle"
    return (first,)


def scene(view: MissionView, names: Names, told: int | None) -> Scene:
    """The table as the seat ``told`` (None: a spectator) sees it through ``view``."""
    near = view.seat if 0 <= view.seat < len(view.seats) else 0
    far = 1 - near
    zones = [_area(view, far, names, told), _missions(view, names, told, (far, near))]
    fight = _combat(view, names, told)
    if fight is not None:
        zones.append(fight)
    zones.append(_area(view, near, names, told))
    return Scene(status=_status(view, names, told), zones=tuple(zones))


# --- clicking ---------------------------------------------------------------------------------


def target(action: Any, view: MissionView) -> str:
    """The piece an action picks: the mission assaulted, or the card swerved, stashed or
    deployed (a unit's card in the hand; where it stands is in the words)."""
    if isinstance(action, a.AssaultMission):
        return slot_id(action.slot)
    if isinstance(action, (a.SwerveManeuver, a.StashManeuver, a.DeployManeuver,
                           a.DeployUnit)):
        return card_id(view.seat, action.card)
    return ""


def group(action: Any, view: MissionView, names: Names) -> str:
    """Deploy choices are listed by the card in the hand; the rest need no heading."""
    if isinstance(action, (a.DeployManeuver, a.DeployUnit)):
        return _name(action.card)
    return ""
