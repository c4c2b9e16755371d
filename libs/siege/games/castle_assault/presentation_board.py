"""The Castle Assault board for people at a terminal, and the words it shares with the action
and event lines of :mod:`.presentation`.

The battlefield is drawn as seen from above with absolute rows: seat 1's castle area (row 9) on
top, seat 0's (row 0) at the bottom, lanes left to right as seat 0 sees them, like the view and
the README. Only the view is drawn, so the other seat's hand and face-down resources show as
counts (with how many cards with a different back they hold, which everyone can tell), and
every deck as a size.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.text import Text

from siege.engine.presentation import Names, seat_name
from siege.games.castle_assault.board import CASTLE_ROW, LANE_NAMES, LANES, ROWS
from siege.games.castle_assault.cards import CARDS, WARBAND_NAMES, Card
from siege.games.castle_assault.heroes import HEROES, Hero
from siege.games.castle_assault.reference import reference
from siege.games.castle_assault.state import HERO_INSTANCE, UID_BASE, Clash
from siege.games.castle_assault.views import CastleAssaultView, UnitView

CONST: dict[str, int] = reference()["constants"]
CASTLE_HEALTH = CONST["castle_health"]
HAND_LIMIT = CONST["hand_limit"]
MOMENTUM_MAX = CONST["momentum_max"]
SMASH_AREA = CONST["smash_area"]
TURN_LIMIT = CONST["turn_limit"]
NAME_WIDTH = 12  # seat names are cut to this on the board
MAX_LINES = 40
CELL = 25  # one lane's square: 3 of them and the row label make 80 columns
ARROWS = ("^", "v")  # seat 0's units move up the drawing, seat 1's down

PHASES = {
    "setup": "setting up",
    "mulligan": "mulligans",
    "rolloff": "the roll-off",
    "first": "choosing who starts",
    "final": "the final roll-off",
    "over": "game over",
}
STEPS = {
    "": "no turn yet",
    "opening": "the opening Environment card",
    "env": "the Environment Meter moves",
    "reveal": "an Environment card is revealed",
    "begin": "Start of Turn Phase",
    "captain": "Start of Turn Phase",
    "curse": "Start of Turn Phase",
    "move": "Move Units",
    "queue": "Move Units",
    "resolve": "movement and combat",
    "open": "Open Phase",
    "charge": "Open Phase, a Charge",
    "end": "End of Turn Phase",
    "burn": "End of Turn Phase",
    "discard": "End of Turn Phase",
}
ASKING = {
    "mulligan": "keep or mulligan",
    "first": "name who starts",
    "captain": "assign a Captain",
    "curse": "place the Curse token",
    "open": "Open Phase",
    "discard": f"discard down to {HAND_LIMIT}",
}
WINDOWS = {"movement": "before Move Units", "combat": "before a combat"}
CHANCES = {
    "deck_0": "a deck shuffle",
    "deck_1": "a deck shuffle",
    "environment": "the Environment shuffle",
    "rolloff": "the roll-off dice",
    "momentum": "the momentum die",
    "charge": "the Charge die",
    "environment_reshuffle": "the Environment reshuffle",
    "final_rolloff": "the final roll-off",
}
ENDS = {
    "castle": "a castle fell",
    "hero": "a hero was destroyed",
    "castles": "both sides fell at once",
    "cards": "both sides ran out of cards",
    "turn_limit": f"turn {TURN_LIMIT} ended",
}


# --- words shared with the action and event lines --------------------------------------------


def card(number: int) -> Card | None:
    return CARDS[number] if 0 <= number < len(CARDS) else None


def card_name(number: int) -> str:
    found = card(number)
    return found.name if found is not None else "a card"


def clause(text: str) -> str:
    """A card's text as a clause: "deal 2 damage to an opposing unit"."""
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]




def hero_of(view: CastleAssaultView, seat: int) -> Hero | None:
    """The hero a seat plays (its skills), from the card id of its battlefield side."""
    if not 0 <= seat < len(view.heroes_played):
        return None
    found = card(view.heroes_played[seat])
    return next((h for h in HEROES.values() if found and h.name == found.name), None)


def warband(key: str) -> str:
    """A warband's short name: "Burning Brood Dragons" is "Dragons"."""
    return WARBAND_NAMES.get(key, key).split()[-1]


def unit_of(view: CastleAssaultView, uid: int) -> UnitView | None:
    return next((u for u in view.units if u.uid == uid), None)


def where(unit: UnitView) -> str:
    return f"{LANE_NAMES[unit.lane]} lane, row {unit.row}"


def tag(uid: int) -> str:
    """The short name of a unit that events use and the board prints beside it: "#12", or
    "hero" (events carry deck instances, which only the match's deck lists turn into cards)."""
    return "hero" if uid % UID_BASE == HERO_INSTANCE else f"#{uid % UID_BASE}"


def unit_label(number: int, uid: int, width: int = 40) -> str:
    """A unit by its card and its number: "Drake #3", "Oren Iron-Veins (hero)"."""
    mark = tag(uid)
    return f"{_fit(card_name(number), width)} " + (f"({mark})" if mark == "hero" else mark)


def lane_name(lane: int) -> str:
    return LANE_NAMES[lane] if 0 <= lane < LANES else f"lane {lane}"


def counted(numbers: Sequence[int], costs: bool = False) -> list[str]:
    """Card names with counts, in first-seen order: ["Soot x2", "Drake"]; with ``costs``,
    each with its cost: "Soot (4) x2"."""
    counts: dict[str, int] = {}
    for number in numbers:
        found = card(number)
        name = card_name(number) + (f" ({found.cost})" if costs and found else "")
        counts[name] = counts.get(name, 0) + 1
    return [name if n == 1 else f"{name} x{n}" for name, n in counts.items()]


def grouped(numbers: Sequence[int]) -> str:
    return ", ".join(counted(numbers))


def cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def hero_short(name: str) -> str:
    """A hero's name without its title: "Vyrax, the Ashen Tyrant" is "Vyrax"."""
    return name.split(",")[0].split(" of ")[0]


def wrapped(parts: Sequence[str], sep: str = " | ", indent: str = "", start: int = 0,
            width: int = 80) -> str:
    """Parts joined by ``sep``, breaking the line between two parts (never inside one) before
    it would pass ``width``; ``start`` is how much of the first line is already taken."""
    out, used = "", start
    for k, part in enumerate(parts):
        piece = part if k == 0 else sep + part
        if k and used + len(piece) > width:
            out += sep.rstrip() + "\n" + indent
            piece, used = part, len(indent)
        elif k == 0:
            out, used = indent, used + len(indent)
        out += piece
        used += len(piece)
    return out


def momentum_words(value: int, names: Names) -> str:
    """Where the Momentum Meter stands: "START", "2 toward Red", "Max for Red"."""
    if value == 0:
        return "START"
    seat = 0 if value > 0 else 1
    if abs(value) >= MOMENTUM_MAX:
        return f"Max for {seat_name(names, seat)}"
    return f"{abs(value)} toward {seat_name(names, seat)}"


# --- the board --------------------------------------------------------------------------------


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


def short(name: str) -> str:
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "~"


def _owner(view: CastleAssaultView, names: Names, seat: int) -> str:
    return "your" if seat == view.seat else f"{short(seat_name(names, seat))}'s"


def label(view: CastleAssaultView, names: Names, seat: int) -> str:
    name = short(seat_name(names, seat))
    return f"{name} (you)" if seat == view.seat else name


def _header(view: CastleAssaultView, names: Names) -> Text:
    parts = ["Castle Assault"]
    if view.turn:
        parts.append(f"turn {view.turn} of {TURN_LIMIT}")
    if view.phase == "turn":
        parts.append(STEPS.get(view.step, view.step))
        if view.active >= 0:
            parts.append(f"turn of {label(view, names, view.active)}")
    else:
        parts.append(PHASES.get(view.phase, view.phase))
    parts.append(f"decision {view.decision}")
    now: list[str] = []
    if view.phase == "over" or view.ended:
        won = ""
        if view.ranks.count(1) == 1:
            won = f"; {label(view, names, view.ranks.index(1))} won"
        elif view.phase != "over":
            won = "; the final roll-off decides"
        now.append(f"Game over: {ENDS.get(view.ended, view.ended)}{won}")
    elif view.waiting:
        asked = ", ".join(label(view, names, s) for s in view.waiting)
        if view.asking == "respond":
            now.append(f"to act: {asked}, response window {WINDOWS.get(view.window, '')}")
            fighter = unit_of(view, view.fighting)
            if fighter is not None:
                now.append(f"{_owner(view, names, fighter.seat)} "
                           f"{unit_label(fighter.card, fighter.uid)} attacks")
        else:
            now.append(f"to act: {asked}, {ASKING.get(view.asking, view.asking)}")
    elif view.chance:
        now.append(f"waiting for {CHANCES.get(view.chance, 'chance')}")
    if view.phase == "turn" and view.step in ("open", "charge"):
        now.append(f"resources placed this turn: {view.placed}")
    text = Text(wrapped(parts), style="bold")
    if now:
        text.append("\n" + wrapped(now))
    return text


def _setup(view: CastleAssaultView, names: Names) -> Text | None:
    """Mulligans and the roll-off, shown until the first turn is under way."""
    if view.turn > 1 or view.phase == "over":
        return None
    choices = {-1: "deciding", 0: "kept", 1: "mulliganed"}
    parts = ["Opening hands: " + ", ".join(
        f"{label(view, names, s)} {choices.get(m, '?')}" for s, m in enumerate(view.mulligan))]
    if view.rolls:
        parts.append("roll-off: " + ", ".join(
            f"{label(view, names, s)} {r}" for s, r in enumerate(view.rolls)))
    if view.first >= 0:
        parts.append(f"first: {label(view, names, view.first)}")
    return Text(wrapped(parts))


def _meters(view: CastleAssaultView, names: Names) -> Text:
    spaces = []
    for value in range(-MOMENTUM_MAX, MOMENTUM_MAX + 1):
        if value == view.momentum:
            spaces.append("@")
        elif value == 0:
            spaces.append("S")
        elif abs(value) == MOMENTUM_MAX:
            spaces.append("M")
        else:
            spaces.append(".")
    shorts = [short(seat_name(names, seat)) for seat in (0, 1)]
    where = momentum_words(view.momentum, shorts)
    if abs(view.momentum) > MOMENTUM_MAX - SMASH_AREA:
        where += " (Charging Smash area)"
    momentum = [f"Momentum: {shorts[1]} [{' '.join(spaces)}] {shorts[0]}", where]
    meter = "START" if view.env_meter == 0 else f"T{view.env_meter}"
    environment = [f"Environment: meter {meter}",
                   f"deck {view.env_deck_size}, discard {len(view.env_discard)}"]
    if view.revealed >= 0:
        environment.append(f"last revealed: {card_name(view.revealed)}")
    ongoing, field = card(view.ongoing), card(view.field)
    if ongoing is not None:
        environment.append(f"Ongoing: {ongoing.name} ({clause(ongoing.text)})")
    if field is not None:
        environment.append(f"on the battlefield: {field.name}")
    return Text(wrapped(momentum) + "\n" + wrapped(environment))


def _flags(unit: UnitView) -> str:
    flags = "C" if unit.captain else ""
    flags += "!" if unit.cursed else ""
    flags += "+" * min(2, len(unit.attachments))
    return flags + ("*" if unit.can_act else "")


def _cell(unit: UnitView) -> str:
    tail = f" {tag(unit.uid)} {unit.attack}/{unit.armor}/{unit.health}"
    flags = _flags(unit)
    tail += f" {flags}" if flags else ""
    room = CELL - 1 - len(tail)
    return (ARROWS[unit.seat % 2] + _fit(card_name(unit.card), room) + tail).ljust(CELL)


def _castle_line(view: CastleAssaultView, names: Names, seat: int) -> Text:
    direction = "up" if seat == 0 else "down"
    text = Text(label(view, names, seat), style="bold" if seat == view.seat else "")
    text.append(f": castle Health {view.castles[seat]} of {CASTLE_HEALTH} | its units move "
                f"{direction} ({ARROWS[seat]})")
    return text


def _grid(view: CastleAssaultView, names: Names) -> Text:
    at = {(u.lane, u.row): u for u in view.units}
    rubble = {(lane, row) for lane, row in view.rubble}
    text = Text("   " + " ".join(name.center(CELL) for name in LANE_NAMES), style="dim")
    for row in range(ROWS - 1, -1, -1):
        text.append(f"\n{row:>2} ")
        for lane in range(LANES):
            if lane:
                text.append(" ")
            unit = at.get((lane, row))
            if unit is not None:
                text.append(_cell(unit), style="bold" if unit.seat == view.seat else "")
            elif (lane, row) in rubble:
                text.append("#" * CELL, style="dim")
            elif row in CASTLE_ROW:
                text.append("[ free location ]".center(CELL), style="dim")
            else:
                text.append(".".center(CELL), style="dim")
    return text


def _legend(view: CastleAssaultView) -> Text:
    return Text("a/r/h: Attack/Armor/Health now; C Captain, ! Curse, + attachment, * may act",
                style="dim")


def _attached(view: CastleAssaultView) -> Text | None:
    attached = [f"{unit_label(u.card, u.uid)}: " + grouped(u.attachments)
                for u in view.units if u.attachments]
    if not attached:
        return None
    return Text("Attached: " + wrapped(attached, sep="; ", start=len("Attached: ")))


def _target(view: CastleAssaultView, names: Names, target: int) -> str:
    if target < 0:
        return f"{_owner(view, names, -1 - target)} castle"
    unit = unit_of(view, target)
    if unit is None:  # destroyed since: only its owner and number are known
        return f"{_owner(view, names, target // UID_BASE)} {tag(target)}"
    return unit_label(unit.card, target, width=14)


def _clash(view: CastleAssaultView, names: Names, clash: Clash) -> str:
    hit = _target(view, names, clash.target)
    if clash.source < 0:
        line = f"{hit} took {clash.damage} from a card"
    else:
        line = f"{_target(view, names, clash.source)} hit {hit} for {clash.damage}"
    if clash.returned:
        line += f" ({clash.returned} back)"
    if clash.smash:
        line += ", Smash" + (", Momentum" if clash.momentum else "")
    if clash.destroyed:
        line += f", {len(clash.destroyed)} destroyed"
    return line


def _clashes(view: CastleAssaultView, names: Names) -> Text | None:
    """This turn's last two combats and shots, a line each (all of them would not fit)."""
    if not view.clashes:
        return None
    count = len(view.clashes)
    lines = [_fit(f"This turn {count - k}/{count}: {_clash(view, names, clash)}", 80)
             for k, clash in enumerate(reversed(view.clashes[-2:]))]
    return Text("\n".join(reversed(lines)))


def _seat_lines(view: CastleAssaultView, names: Names, seat: int) -> Text:
    hero = hero_of(view, seat)
    parts = [f"{label(view, names, seat)}: {warband(view.warbands[seat])}, hero "
             f"{hero_short(hero.name) if hero else '?'}"
             + (" (summoned)" if view.heroes[seat] else ""),
             f"hand {cards(view.hand_sizes[seat])}"
             + (f", {view.marked_hand[seat]} with a different back"
                if view.marked_hand[seat] else ""),
             f"deck {view.deck_sizes[seat]}"
             + (" (top card: a different back)" if view.marked_top[seat] else ""),
             f"resources {view.resource_counts[seat]}, {view.ready[seat]} ready"
             + (f", {view.marked_resources[seat]} with a different back"
                if view.marked_resources[seat] else "")]
    pile = view.discards[seat]
    parts.append(f"discard {len(pile)}" + (f", top {card_name(pile[-1])}" if pile else ""))
    if view.curse_holder == seat:
        parts.append("may place the Curse token")
    return Text(wrapped(parts, indent="  ").lstrip(),
                style="bold" if seat == view.seat else "")


def _own(view: CastleAssaultView) -> Text | None:
    if not 0 <= view.seat < len(view.hand_sizes):
        return None  # a spectator holds nothing
    text = Text(f"Your hand ({len(view.hand_cards)}, costs in brackets): ", style="bold")
    hand = counted(view.hand_cards, costs=True) or ["empty"]
    text.append(wrapped(hand, sep=", ", start=len(text.plain)))
    head = f"Your resources ({len(view.resources)}, {view.ready[view.seat]} ready): "
    text.append("\n" + head, style="bold")
    spent = counted(view.resources) or ["none"]
    text.append(wrapped(spent, sep=", ", start=len(head)))
    return text


def _lines(parts: Sequence[Text]) -> int:
    # Every part breaks its own lines before 80 columns, so its newlines count its lines.
    return sum(part.plain.count("\n") + 1 for part in parts)


def draw(view: CastleAssaultView, names: Names) -> Group:
    """The table as ``view.seat`` sees it (seat -1: a spectator), in 80 columns."""
    parts: list[Text] = [_header(view, names)]
    setup = _setup(view, names)
    if setup is not None:
        parts.append(setup)
    parts += [_meters(view, names), _castle_line(view, names, 1), _grid(view, names),
              _castle_line(view, names, 0), _legend(view)]
    # The attachments and this turn's hits go first when a crowded table would pass 40 lines:
    # the units' figures on the grid already count them in.
    extras = [x for x in (_attached(view), _clashes(view, names)) if x is not None]
    tail = [_seat_lines(view, names, seat) for seat in range(len(view.hand_sizes))]
    own = _own(view)
    if own is not None:
        tail.append(own)
    while extras and _lines(parts + extras + tail) > MAX_LINES:
        extras.pop()
    return Group(*parts, *extras, *tail)
