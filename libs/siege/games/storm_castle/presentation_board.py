"""Storm the Castle! drawn for a terminal: the board as a map with the table around it, from
one seat's view (the names it uses are :mod:`.presentation_names`').

The map keeps the board's own coordinates (north up): the castle's 7 x 7 diamonds in the
middle, a battlefield of 3 x 3 arrows on each side, the twelve castle walls in the rows and
columns between them, and the four battlefield locations (which lie off its corners) in the
corners. A unit is its seat's number (``d`` for the defenders, the peasants and the hero) and
one letter of its kind, spelled out in its seat's line below the map. A side panel holds the
legend, the keep walls and the battlefield upgrades (which lie off the map's edges). Only the
view is drawn, so other seats' cards and every deck show as counts.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from siege.engine.presentation import Names
from siege.games.storm_castle.presentation_names import (
    ASKING,
    CONST,
    DEFENDER_SIDE,
    LADDER,
    LAST_TURN,
    LETTERS,
    NAME_WIDTH,
    PHASES,
    REF,
    SIDE_NAMES,
    SPACES,
    STRUCTURES,
    SUMMONING,
    army_name,
    boss_name,
    event_name,
    kind_name,
    plural,
    power_name,
    seat_name,
    short,
    space_name,
    spell_name,
    structure_name,
    unit_mark,
    unit_words,
)
from siege.games.storm_castle.views import StormUnitView, StormView

_STRIKES = {"attack": "attack roll", "critical": "critical dice", "defense": "defense roll"}

# --- the map ------------------------------------------------------------------------------------

_COLUMNS = [-3, -2, -1, -0.5, 0, 1, 2, 3, 4, 5, 6, 6.5, 7, 8, 9]
_TERRAIN = {"battlefield": " . ", "rampart": " r ", "tower": "[T]", "ground": " g ",
            "keep_ground": " k ", "keep": "[K]"}


def label(view: StormView, names: Names, seat: int) -> str:
    name = short(seat_name(names, seat))
    return f"{name} (you)" if seat >= 0 and seat == view.seat else name


def _health_left(view: StormView, structure: int) -> int:
    info = view.structures[structure]
    return max(0, info.health - info.damage)


def _cells(view: StormView) -> dict[tuple[float, float], tuple[str, str]]:
    """(x, y) on the map -> (3 characters, style)."""
    here: dict[int, list[StormUnitView]] = defaultdict(list)
    for unit in view.units:
        here[unit.space].append(unit)
    ladders = {ladder.wall for ladder in view.ladders}
    cells: dict[tuple[float, float], tuple[str, str]] = {}
    for space in SPACES:
        if space["kind"] == "location":
            continue
        units = here.get(space["id"], [])
        if units:
            first = units[0]
            status = "+" if len(units) > 1 else str(min(first.damage, 9)) if first.damage else " "
            mine = first.owner >= 0 and first.owner == view.seat
            cells[(space["x"], space["y"])] = (unit_mark(first) + status,
                                               "bold" if mine else "")
        elif space["kind"] == "battlefield" and space["row"] == 2:
            cells[(space["x"], space["y"])] = (" s ", "dim")
        else:
            cells[(space["x"], space["y"])] = (_TERRAIN[space["kind"]], "dim")
    for info in STRUCTURES:
        kind, sid = info["kind"], info["id"]
        if kind not in ("wall", "building"):
            continue
        standing = view.structures[sid].standing
        left = _health_left(view, sid)
        if kind == "building":
            text = f"B{left} " if standing else "b- "
        elif info["x"] in (-0.5, 6.5):  # an east or west wall, in a narrow column
            text = ("H" if sid in ladders else "|") + str(left) if standing else " x"
        else:
            text = ("H" if sid in ladders else "=") + f"{left}=" if standing else " x "
        cells[(info["x"], info["y"])] = (text, "")
    return cells


def _corners(view: StormView) -> dict[tuple[float, float], str]:
    """The four battlefield locations, drawn in the map's empty corners nearest them: (first
    column, row) -> the text across that corner's three columns."""
    spans: dict[tuple[float, float], str] = {}
    for place in REF["locations"]:
        info = SPACES[place["space"]]
        x = -3 if info["x"] < 0 else 7
        y = -3 if info["y"] < 0 else 7
        marks = [unit_mark(u) + (str(min(u.damage, 9)) if u.damage else "")
                 for u in view.units if u.space == place["space"]]
        rows = [place["name"], " ".join(marks[:3]) or "-", " ".join(marks[3:6])]
        for k, row in enumerate(rows):
            spans[(x, y + k)] = row
    return spans


def _map(view: StormView) -> Text:
    cells = _cells(view)
    spans = _corners(view)
    text = Text()
    for row, y in enumerate(_COLUMNS):
        if row:
            text.append("\n")
        skip = 0
        for col, x in enumerate(_COLUMNS):
            if skip:
                skip -= 1
                continue
            if col:
                text.append(" ")
            if (x, y) in spans:
                text.append(spans[(x, y)].ljust(11)[:11])
                skip = 2
                continue
            width = 2 if isinstance(x, float) else 3
            cell, style = cells.get((x, y), ("", ""))
            text.append(cell.ljust(width)[:width], style=style)
    return text


def _side_marks(view: StormView, kind: str, built: bool = False) -> str:
    ladders = {ladder.wall for ladder in view.ladders}
    marks = []
    for info in STRUCTURES:
        if info["kind"] != kind:
            continue
        side = SIDE_NAMES[info["side"]][0].upper()
        state = view.structures[info["id"]]
        if not state.standing:
            marks.append(f"{side}-" if built else f"{side}x")
        else:
            ladder = "H" if info["id"] in ladders else ""
            marks.append(f"{side}{_health_left(view, info['id'])}{ladder}")
    return " ".join(marks)


_LEGEND = (
    "north is up",
    "1-4 seat, d defender,",
    "then a kind's letter",
    "(small: flipped), its",
    "damage, + more units",
    "[K]eep, k keep ground",
    "g ground, r rampart",
    "[T]ower, s start",
    "B3 building, b- gone",
    "=3= |3 wall, H ladder",
    "(health left)",
)


def _panel(view: StormView) -> Text:
    keep = _side_marks(view, "keep_wall")
    lines = [*_LEGEND, ("Keep walls " if len(keep) <= 11 else "Keep ") + keep,
             "Upgrades " + _side_marks(view, "upgrade", built=True),
             f"Boss deck {view.boss_deck_size}, disc {view.boss_discard_size}",
             f"Event deck {view.event_deck_size}, disc {len(view.event_discard)}"]
    return Text("\n".join(lines))


# --- the table ---------------------------------------------------------------------------------


def _header(view: StormView, names: Names) -> Text:
    head = Text("Storm the Castle!" + (" (introductory game)" if view.intro else ""),
                style="bold")
    turn = f"turn {view.turn} of {LAST_TURN}" if view.turn else "before turn 1"
    phase = PHASES.get(view.phase, view.phase)
    if view.phase == "turns" and view.step:
        phase += f", {view.step}"
    head.append(f" | {turn} | {phase} | decision {view.decision}\n")
    if view.players > 1:
        boss = label(view, names, view.boss) if view.boss >= 0 else "none yet"
        holder = label(view, names, view.ref_holder) if view.ref_holder >= 0 else "the rules"
        head.append(f"Boss: {boss} | defenders' controller: {holder}")
    else:
        head.append("Solo game: the player is always the Boss; the rules run the defenders")
    if view.phase == "over":
        if view.winner >= 0:
            head.append(f"\nGame over: {label(view, names, view.winner)} entered the keep!",
                        style="bold")
        else:
            best = max((v.total for v in view.vilest), default=0)
            top = [label(view, names, s) for s, v in enumerate(view.vilest) if v.total == best]
            head.append(f"\nGame over: the castle held; the vilest: {', '.join(top)} "
                        f"({best})", style="bold")
        return head
    if view.waiting:
        asked = ", ".join(label(view, names, s) for s in view.waiting)
        head.append(f"\nTo act: {asked}, {ASKING.get(view.asking, view.asking)}")
    elif view.chance:
        head.append("\nWaiting for " + ("the dice" if ":" in view.chance else "a shuffle"))
    else:
        head.append("\nNobody to act")
    during = view.phase in ("buy", "turns") and 0 <= view.current < len(view.order)
    playing = view.order[view.current] if during else -1
    if playing >= 0 and playing not in view.waiting:  # someone acts in another's turn
        head.append(f" | {'buying' if view.phase == 'buy' else 'turn'}: "
                    f"{label(view, names, playing)}")
    if view.phase == "turns" and view.step == "act":  # the moves are lost at the turn's end
        head.append(f" | army moves left {view.army_moves}")
    return head


_COLUMN_HEADS = ("gold", "magic", "hand", "deck", "disc", "Boss", "votes", "walls", "slain",
                 "bldgs", "vilest")
_LABEL_WIDTH = NAME_WIDTH + 8  # "4 " + a name + " (you)"


def _numbers(view: StormView, seat: int) -> list[int]:
    return [view.gold[seat], view.magic[seat], view.hand_sizes[seat], view.deck_sizes[seat],
            len(view.discards[seat]), view.boss_hand_sizes[seat], view.base_votes[seat],
            view.walls_taken[seat], view.defenders_slain[seat], view.buildings_taken[seat],
            view.vilest[seat].total]


def _seats(view: StormView, names: Names) -> Text:
    """One row of counts per seat under a heading, and a line of its army and units."""
    text = Text("Seats".ljust(_LABEL_WIDTH), style="bold")
    text.append(" ".join(head.rjust(len(head)) for head in _COLUMN_HEADS))
    for seat in range(view.players):
        tag = f"{seat + 1} {label(view, names, seat)}"
        text.append("\n" + tag.ljust(_LABEL_WIDTH), style="bold" if seat == view.seat else "")
        text.append(" ".join(str(n).rjust(len(head))
                             for n, head in zip(_numbers(view, seat), _COLUMN_HEADS,
                                                strict=True)))
        text.append("\n  " + _army_line(view, seat))
    return text


def _kinds(units: list[StormUnitView]) -> str:
    counts = Counter(u.kind for u in units)
    return ", ".join(f"{LETTERS.get(k, '?')} {kind_name(k)}" + (f" {n}" if n > 1 else "")
                     for k, n in sorted(counts.items()))


def _gear(view: StormView, seat: int, units: list[StormUnitView]) -> str:
    army = view.armies[seat]
    pieces = Counter(power_name(army, g) for u in units for g in u.gear if g != LADDER)
    words = [name + (f" {n}" if n > 1 else "") for name, n in sorted(pieces.items())]
    return ", ".join(words)


def _army_line(view: StormView, seat: int) -> str:
    army = view.armies[seat]
    field = view.battlefields[seat]
    head = army_name(army) + (f", {SIDE_NAMES[field]}" if field >= 0 else "")
    if view.tokens and view.tokens[seat]:
        head += f", token {view.tokens[seat]}"
    elif view.setup_tokens:
        head += f", set-up token {view.setup_tokens[seat]}"
    units = [u for u in view.units if u.owner == seat]
    parts = [f"{head}: " + (_kinds(units) if units else "no units")]
    if view.heroes_slain[seat]:
        parts.append(f"{plural(view.heroes_slain[seat], 'hero', 'heroes')} slain")
    if view.ladders_in_use[seat]:
        parts.append(f"ladders {view.ladders_in_use[seat]}/{CONST['ladders_per_army']}")
    gear = _gear(view, seat, units)
    if gear:
        parts.append(f"gear: {gear}")
    if view.in_play[seat]:
        parts.append("in play: " + ", ".join(power_name(army, c) for c in view.in_play[seat]))
    if view.exhausted[seat]:
        parts.append("exhausted: " + ", ".join(power_name(army, c)
                                               for c in view.exhausted[seat]))
    return " | ".join(parts)


def _defenders(view: StormView, names: Names) -> Text:
    units = [u for u in view.units if u.owner == DEFENDER_SIDE and u.uid != view.hero]
    text = Text("Defenders", style="bold")
    text.append(f" {len(units)}{': ' + _kinds(units) if units else ''} | pool "
                f"{view.defender_pool_size}")
    if view.to_place:
        text.append(f" | to place: {', '.join(kind_name(k) for k in view.to_place)}")
    if view.hero >= 0:
        hero = next((u for u in view.units if u.uid == view.hero), None)
        if hero is not None:
            text.append(f" | hero: {LETTERS.get(hero.kind, '?')} {hero.name} #{hero.uid}")
    elif view.hero_summoned:
        text.append(" | hero slain" if any(view.heroes_slain) else " | hero gone")
    text.append(f" | spells {view.magic_deck_size} (discard {len(view.magic_discard)})")
    if view.summoning:
        text.append(f"\n  Summoning the hero: {SUMMONING.get(view.summoning, view.summoning)}")
    return text


def _slot(view: StormView, names: Names, code: int) -> str:
    index, end = divmod(code, 2)
    if not 0 <= index < len(view.order):
        return "later"
    seat = view.order[index]
    whose = "your" if seat == view.seat else f"{short(seat_name(names, seat))}'s"
    return f"{'end' if end else 'start'} of {whose} turn"


def _events(view: StormView, names: Names) -> Text:
    text = Text("Events", style="bold")
    if view.event_row_size:
        text.append(f" {view.event_row_size} this turn, {len(view.revealed)} turned up")
        if view.revealed:
            counts = Counter(event_name(c) for c in view.revealed)
            text.append(": " + ", ".join(name + (f" x{n}" if n > 1 else "")
                                         for name, n in counts.items()))
        if 0 <= view.event_next < len(view.event_plan) and view.phase == "turns":
            text.append(f" | next: {_slot(view, names, view.event_plan[view.event_next])}")
    else:
        text.append(": none drawn this turn")
    return text


def _vote(view: StormView, names: Names) -> Text | None:
    if view.players < 2 or view.phase not in ("boss", "order") or not view.last_bids:
        return None
    votes = [f"{label(view, names, s)} {view.last_votes[s]} (bid {view.last_bids[s]})"
             for s in range(view.players)]
    return Text("Last vote: " + ", ".join(votes))


def _own(view: StormView) -> Text | None:
    seat = view.seat
    if not 0 <= seat < view.players:
        return None
    army = view.armies[seat]
    text = Text(f"Your hand ({len(view.hand)}): ", style="bold")
    text.append(", ".join(power_name(army, c) for c in view.hand) or "empty")
    boss = []
    if view.boss_hand:
        boss.append("Boss cards: " + ", ".join(boss_name(c) for c in view.boss_hand))
    if view.boss_offer:
        boss.append("on offer: " + ", ".join(boss_name(c) for c in view.boss_offer))
    if view.boss_offer_tokens:
        boss.append("tokens drawn: " + ", ".join(str(t) for t in view.boss_offer_tokens))
    if boss:
        text.append(" | " + " | ".join(boss))
    return text


def _under_way(view: StormView, names: Names) -> Text | None:
    """The battle, the last move, the Onward March and the battle march offer of the moment,
    each unit named with the id that the event lines use."""
    text = Text()
    fight = view.battle
    if fight is not None:
        text.append("Battle: ", style="bold")
        who = unit_words(view, names, fight.attacker) if fight.attacker >= 0 else "an Attack"
        what = (unit_words(view, names, fight.target) if fight.target >= 0
                else structure_name(fight.structure))
        text.append(f"{who} v {what}")
        if fight.rounds:
            text.append(f", battle rounds (round {fight.round + 1})")
        if fight.step:
            striker = (unit_words(view, names, fight.striker) if fight.striker >= 0
                       else "the Attack")
            text.append(f" | {striker}: {_STRIKES.get(fight.step, fight.step)}, "
                        f"{plural(fight.hits, 'hit')}")
        spells = []
        if view.battle_spell >= 0:
            attacker = next((u for u in view.units if u.uid == fight.attacker), None)
            if attacker is not None and attacker.owner >= 0:
                spells.append(f"spell {power_name(view.armies[attacker.owner], view.battle_spell)}")
            else:
                spells.append(f"spell {spell_name(view.battle_spell)}")
        if view.counter_spell >= 0:
            target = next((u for u in view.units if u.uid == fight.target), None)
            if target is not None and target.owner >= 0:
                spells.append("striking back with "
                              + power_name(view.armies[target.owner], view.counter_spell))
        if spells:
            text.append(" | " + ", ".join(spells))
    if view.phase == "turns" and view.asking == "act" and view.last_mover >= 0:
        if text.plain:
            text.append("\n")
        text.append(f"Last moved: {unit_words(view, names, view.last_mover)}")
    march = view.march
    if march is not None:
        if text.plain:
            text.append("\n")
        name = event_name(march.card) if march.card >= 0 else "The hero's Onward March 1"
        text.append(f"{name}: ", style="bold")
        text.append(f"{plural(march.left, 'activation')} left")
        if march.activated:
            text.append(" (done: " + ", ".join(unit_words(view, names, u)
                                               for u in march.activated) + ")")
        if march.caster >= 0:
            drawn = ", ".join(spell_name(s) for s in view.drawn_spells) or "no spell"
            text.append(f" | {unit_words(view, names, march.caster)} drew {drawn}")
    offer = view.offer
    if offer is not None:
        if text.plain:
            text.append("\n")
        text.append("Battle march on offer: ", style="bold")
        text.append(f"{unit_words(view, names, offer.unit)} into {space_name(offer.to)}")
    return text if text.plain else None


def draw(view: StormView, names: Names) -> Group:
    """The board as ``view.seat`` sees it (a spectator: seat -1), in 80 columns."""
    board = Table.grid(padding=(0, 1))
    board.add_column(no_wrap=True)
    board.add_column()
    board.add_row(_map(view), _panel(view))
    parts: list[Any] = [_header(view, names), board, _seats(view, names),
                        _defenders(view, names), _events(view, names)]
    for extra in (_vote(view, names), _under_way(view, names), _own(view)):
        if extra is not None:
            parts.append(extra)
    return Group(*parts)
