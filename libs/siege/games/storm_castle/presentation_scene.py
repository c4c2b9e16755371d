"""Storm the Castle! as a page draws it (:mod:`siege.engine.scene`), from one seat's view.

The map is one grid in the board's own coordinates, north up: the castle's 7 x 7 spaces in the
middle with the keep at its centre, a battlefield of 3 x 3 spaces outside each side (its start
row outermost) and beyond it the battlefield itself (its owner and upgrade), a row or column of
castle walls between the ramparts and the battlefields' front rows, and the four battlefield
locations in the corners. Every space and structure is a piece labelled as the actions name it
("north rampart 1", "north wall 1", "keep", "+2 Gold"), in the colour of whose unit stands
there, with the units in its lines. The keep walls (which lie between spaces) follow the map,
then each seat's area (:mod:`.presentation_scene_table`), the Boss, the defenders and events.

An action that moves, deploys, orders or attacks aims at the place it ends on or strikes, so
clicking a place offers only those; card actions aim at the card, and actions are grouped under
the unit (or card) they use.
"""

from __future__ import annotations

from typing import Any

from siege.engine.presentation import Names, sentence, whose
from siege.engine.scene import Piece, Scene, Zone
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.presentation_names import (
    ARMIES,
    SIDE_NAMES,
    SPACES,
    STRUCTURES,
    kind_name,
    power_name,
    space_name,
    structure_name,
)
from siege.games.storm_castle.presentation_scene_table import status, table_zones
from siege.games.storm_castle.presentation_words import unit_named, unit_of, where_is
from siege.games.storm_castle.views import StormUnitView, StormView

AXIS: tuple[float, ...] = (-4, -3, -2, -1, -0.5, 0, 1, 2, 3, 4, 5, 6, 6.5, 7, 8, 9, 10)
"""The map's columns (and rows) in board coordinates: the battlefields beyond the start rows,
the battlefields, the walls' line, the castle, and the same on the other side."""
OFF_MAP = "wilds"  # a cell of the grid that is no space (outside the walls, between fields)
UPGRADE_SITE = {s["side"]: s["id"] for s in STRUCTURES if s["kind"] == "upgrade"}


def place_id(space: int) -> str:
    return f"space-{space}"


def structure_id(structure: int) -> str:
    return f"structure-{structure}"


def card_id(seat: int, card: int) -> str:
    return f"card-{seat}-{card}"


def place_label(space: int) -> str:
    """A space as the actions name it, without its article: "north rampart 1", "keep",
    "north-west tower", "+2 Gold"."""
    name = space_name(space)
    name = name.removeprefix("the ")
    return name.removesuffix(" location")


def structure_label(structure: int) -> str:
    """A structure as the actions name it: "north wall 1", "north keep wall", "north-east
    castle building"; an upgrade site stands for its whole battlefield: "north battlefield"."""
    info = STRUCTURES[structure]
    if info["kind"] == "upgrade":
        return f"{SIDE_NAMES[info['side']]} battlefield"
    return structure_name(structure).removeprefix("the ")


# --- the map -------------------------------------------------------------------------------------


def unit_lines(view: StormView, unit: StormUnitView, names: Names,
               told: int | None) -> list[str]:
    """Who stands there and how strong: "Red's Troll #12", "attack 3, armor 0, damage 1 of 4"."""
    owner = f"{whose(names, unit.owner, told)} " if unit.owner >= 0 else ""
    facts = [f"attack {unit.attack}", f"armor {unit.armor}",
             f"damage {unit.damage} of {unit.health}"]
    if unit.range:
        facts.append(f"range {unit.range}")
    if unit.flipped:
        facts.append("flipped")
    lines = [f"{owner}{unit.name} #{unit.uid}", ", ".join(facts)]
    if unit.gear:
        army = view.armies[unit.owner] if 0 <= unit.owner < view.players else -1
        lines.append("carries " + ", ".join(power_name(army, g) for g in unit.gear))
    return lines


def _space_piece(view: StormView, names: Names, told: int | None, space: int) -> Piece:
    units = [u for u in view.units if u.space == space]
    lines: list[str] = []
    for unit in units:
        lines += unit_lines(view, unit, names, told)
    owners = [u.owner for u in units if u.owner >= 0]
    return Piece(label=place_label(space), id=place_id(space), lines=tuple(lines),
                 seat=owners[0] if owners else -1)


def _structure_piece(view: StormView, names: Names, told: int | None, sid: int) -> Piece:
    info = STRUCTURES[sid]
    state = view.structures[sid]
    left = f"{max(0, state.health - state.damage)} of {state.health} health left"
    if info["kind"] == "upgrade":
        side = info["side"]
        owner = next((s for s, f in enumerate(view.battlefields) if f == side), -1)
        lines = [f"{whose(names, owner, told)} start" if owner >= 0 else "nobody's start"]
        if owner >= 0 and state.standing and 0 <= view.armies[owner] < len(ARMIES):
            lines.append(f"{ARMIES[view.armies[owner]]['upgrade']['name']}, {left}")
        return Piece(label=structure_label(sid), id=structure_id(sid), lines=tuple(lines),
                     seat=owner)
    if not state.standing:
        return Piece(label=structure_label(sid), id=structure_id(sid), lines=("broken",))
    lines = [left]
    ladder = next((x for x in view.ladders if x.wall == sid), None)
    if ladder is not None:
        lines.append(f"{whose(names, ladder.owner, told)} ladder against it")
    return Piece(label=structure_label(sid), id=structure_id(sid), lines=tuple(lines),
                 seat=ladder.owner if ladder is not None else -1)


def map_zone(view: StormView, names: Names, told: int | None) -> Zone:
    spaces = {(float(s["x"]), float(s["y"])): s["id"] for s in SPACES}
    structures = {(float(s["x"]), float(s["y"])): s["id"] for s in STRUCTURES
                  if s["kind"] != "keep_wall"}
    cells: list[Piece] = []
    for y in AXIS:
        for x in AXIS:
            if (x, y) in spaces:
                cells.append(_space_piece(view, names, told, spaces[(x, y)]))
            elif (x, y) in structures:
                cells.append(_structure_piece(view, names, told, structures[(x, y)]))
            else:
                cells.append(Piece(label=OFF_MAP, kind="gap"))
    return Zone(title="The castle and its battlefields, north up", layout="grid",
                columns=len(AXIS), pieces=tuple(cells))


def keep_walls_zone(view: StormView, names: Names, told: int | None) -> Zone:
    walls = [_structure_piece(view, names, told, s["id"]) for s in STRUCTURES
             if s["kind"] == "keep_wall"]
    return Zone(title="Keep walls, between the keep grounds and the castle grounds",
                pieces=tuple(walls))


def scene(view: StormView, names: Names, told: int | None) -> Scene:
    return Scene(status=status(view, names, told),
                 zones=(map_zone(view, names, told), keep_walls_zone(view, names, told),
                        *table_zones(view, names, told)))


# --- what an action picks -------------------------------------------------------------------------


def _unit_place(view: StormView, uid: int) -> str:
    unit = unit_of(view, uid)
    return place_id(unit.space) if unit is not None else ""


def _aim(view: StormView, target: int, structure: int) -> str:
    return _unit_place(view, target) if target >= 0 else structure_id(structure)


def target(action: Any, view: StormView) -> str:
    """The piece an action picks: the place it moves, deploys or orders to, the place or
    structure it strikes, the card it plays, the seat it names."""
    seat = view.seat
    match action:
        case a.PlaceDefender() | a.PlaceHero() | a.BuyUnit() | a.BuyChampion():
            return place_id(action.space)
        case a.MoveUnit() | a.PushUnit() | a.OrderDefender():
            return place_id(action.to)
        case a.AttackTarget() | a.CastSpell():
            return _aim(view, action.target, action.structure)
        case a.DrawSpells() | a.BuyLadder() | a.DropEquipment():
            return _unit_place(view, action.unit)
        case a.BattleMarch():
            return place_id(view.offer.to) if view.offer is not None else ""
        case a.HoldPosition():
            return _unit_place(view, view.offer.unit) if view.offer is not None else ""
        case a.PlaceLadder() | a.PickUpLadder():
            return structure_id(action.wall)
        case a.BuyEquipment() | a.PlayCard() | a.PlayPowerCard() | a.DiscardPowerCard():
            return card_id(seat, action.card)
        case a.CounterWithSpell():
            return card_id(seat, action.card) if action.card >= 0 else ""
        case a.PlayBossCard() | a.DiscardBossCard():
            return f"boss-{action.card}"
        case a.KeepBossCard():
            return f"offer-{action.card}" if view.asking == "boss_card" else ""
        case a.ChooseToken():
            return f"token-{action.token}"
        case a.ChooseArmy():
            return f"army-{action.army}"
        case a.ChooseBattlefield():
            return structure_id(UPGRADE_SITE.get(action.battlefield, -1))
        case a.BuyUpgrade():
            field = view.battlefields[seat] if 0 <= seat < view.players else -1
            return structure_id(UPGRADE_SITE[field]) if field in UPGRADE_SITE else ""
        case a.GiveGold() | a.BreakTie():
            return f"seat-{action.seat}" if action.seat != seat else ""
    return ""


def _by_unit(view: StormView, names: Names, uid: int) -> str:
    return sentence(unit_named(view, names, uid) + where_is(view, uid))


def group(action: Any, view: StormView, names: Names) -> str:
    """The heading an action is listed under: the unit it uses ("Your Goblin #3 on north
    battlefield start 0"), the kind it buys, the spell it casts."""
    match action:
        case (a.MoveUnit() | a.AttackTarget() | a.PushUnit() | a.OrderDefender()
              | a.DrawSpells() | a.BuyLadder() | a.DropEquipment() | a.PlaceLadder()
              | a.PickUpLadder()):
            return _by_unit(view, names, action.unit)
        case a.BuyUnit():
            return f"Buy {kind_name(action.kind)}"
        case a.BuyChampion():
            return "Your champion"
        case a.CastSpell():
            army = view.armies[view.seat] if 0 <= view.seat < view.players else -1
            return f"{power_name(army, action.card)} through {unit_named(view, names, action.unit)}"
        case a.BuyEquipment():
            army = view.armies[view.seat] if 0 <= view.seat < view.players else -1
            return f"Buy {power_name(army, action.card)}"
        case a.PlaceDefender():
            return "Swap into the keep" if action.keep else "Place the defender"
    return ""

