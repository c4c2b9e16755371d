"""The Castle Assault board as a web page draws it (:mod:`siege.engine.scene`), from one seat's
view.

Laid out like the table, seen from above with absolute rows, as the terminal board and the
README draw it: Blue's side (seat 1: castle, hero, hand, resources, deck, discard) on top, the
3 x 10 battlefield below it (rows 9 down to 0, lanes left to right as seat 0 sees them; rows 9
and 0 are the castle areas), seat 0's side at the bottom, then the Momentum Meter and the
Environment. Every square is a piece labelled as the actions name it ("left lane, row 3"),
drawn in the colour of the unit standing there. The seat's own hand is face up, card by card;
the other hand is one card back with a count, and face-down resources are only counted.

Clicking a square offers what its unit may do (Charge, Attack, a blast), what a card may do to
it (Captain, Curse, a shot); clicking a card in hand offers placing, playing or discarding it;
the hero card offers its summoning; a castle offers shots at it; a step of the Momentum Meter
offers moving the meter there.
"""

from __future__ import annotations

from siege.engine.presentation import Names, seat_name, who, whose
from siege.engine.scene import Piece, Scene, Zone
from siege.games.castle_assault import actions as a
from siege.games.castle_assault.board import CASTLE_ROW, LANES, ROWS
from siege.games.castle_assault.presentation_board import (
    ASKING,
    CASTLE_HEALTH,
    CHANCES,
    CONST,
    ENDS,
    MOMENTUM_MAX,
    PHASES,
    STEPS,
    TURN_LIMIT,
    WINDOWS,
    card,
    card_name,
    counted,
    hero_of,
    lane_name,
    momentum_words,
    unit_of,
    warband,
    where,
)
from siege.games.castle_assault.state import HERO_INSTANCE, UID_BASE
from siege.games.castle_assault.views import CastleAssaultView, UnitView

SEATS = (0, 1)


# --- ids ------------------------------------------------------------------------------------


def square_id(lane: int, row: int) -> str:
    return f"square-{lane}-{row}"


def card_id(instance: int) -> str:
    return f"card-{instance}"


def castle_id(seat: int) -> str:
    return f"castle-{seat}"


def hero_id(seat: int) -> str:
    return f"hero-{seat}"


def momentum_id(value: int) -> str:
    return f"momentum-{value}"


# --- pieces ---------------------------------------------------------------------------------


def _count(count: int, what: str) -> str:
    return f"{count} {what}" if count == 1 else f"{count} {what}s"


def _unit_lines(unit: UnitView, names: Names, told: int | None) -> tuple[str, ...]:
    lines = [f"{whose(names, unit.seat, told)} {card_name(unit.card)}",
             f"Attack {unit.attack}, Armor {unit.armor}, Health {unit.health}"]
    if unit.captain:
        lines.append("Captain")
    if unit.cursed:
        lines.append("Cursed")
    if unit.attachments:
        lines.append("with " + ", ".join(counted(unit.attachments)))
    if unit.engaged:
        lines.append("engaged")
    if unit.can_act:
        lines.append("may act")
    return tuple(lines)


def _square(view: CastleAssaultView, names: Names, told: int | None, lane: int, row: int,
            at: dict[tuple[int, int], UnitView], rubble: set[tuple[int, int]]) -> Piece:
    label = f"{lane_name(lane)} lane, row {row}"
    unit = at.get((lane, row))
    if unit is not None:
        found = card(unit.card)
        return Piece(label=label, id=square_id(lane, row), kind="unit", seat=unit.seat,
                     lines=_unit_lines(unit, names, told),
                     note=found.text if found is not None and found.text else "")
    if (lane, row) in rubble:
        return Piece(label=label, id=square_id(lane, row), lines=("rubble",))
    if row in CASTLE_ROW:
        seat = CASTLE_ROW.index(row)
        return Piece(label=label, id=square_id(lane, row), seat=seat,
                     lines=(f"{whose(names, seat, told)} castle area",))
    return Piece(label=label, id=square_id(lane, row))


def battlefield(view: CastleAssaultView, names: Names, told: int | None) -> Zone:
    """The 3 x 10 grid, seat 1's castle area (row 9) on top, every square a piece."""
    at = {(u.lane, u.row): u for u in view.units}
    rubble = {(lane, row) for lane, row in view.rubble}
    squares = tuple(_square(view, names, told, lane, row, at, rubble)
                    for row in range(ROWS - 1, -1, -1) for lane in range(LANES))
    return Zone(title="Battlefield", layout="grid", columns=LANES, pieces=squares)


def _hero(view: CastleAssaultView, names: Names, seat: int) -> Piece:
    hero = hero_of(view, seat)
    number = view.heroes_played[seat] if seat < len(view.heroes_played) else -1
    if view.heroes[seat]:
        state = "on the battlefield" if any(u.seat == seat and u.uid % UID_BASE == HERO_INSTANCE
                                            for u in view.units) else "destroyed"
    else:
        state = "not yet summoned"
    lines = [f"hero of the {warband(view.warbands[seat])}", state]
    if view.curse_holder == seat:
        lines.append("may place the Curse token")
    note = f"{hero.captain_text} {hero.curse_text}" if hero is not None else ""
    return Piece(label=card_name(number), id=hero_id(seat), kind="card", seat=seat,
                 lines=tuple(lines), note=note)


def _hand(view: CastleAssaultView, names: Names, told: int | None, seat: int) -> Zone:
    title = f"{whose(names, seat, told)} hand"
    title = title[:1].upper() + title[1:]
    if seat == view.seat:
        cards = []
        for instance, number in zip(view.hand, view.hand_cards, strict=False):
            found = card(number)
            lines = (f"{found.kind.capitalize()}, cost {found.cost}",) if found is not None else ()
            if found is not None and found.kind == "unit":
                lines += (f"Attack {found.attack}, Armor {found.armor}, Health {found.health}",
                          f"Movement {found.movement}")
            cards.append(Piece(label=card_name(number), id=card_id(instance), kind="card",
                               seat=seat, lines=lines,
                               note=found.text if found is not None and found.text else ""))
        if not cards:
            cards.append(Piece(label="no cards", kind="info"))
        return Zone(title=title, seat=seat, pieces=tuple(cards))
    held = view.hand_sizes[seat]
    lines = (_count(held, "card"),)
    if view.marked_hand[seat]:
        lines += (f"{view.marked_hand[seat]} with a different back",)
    return Zone(title=title, seat=seat, pieces=(
        Piece(label="card back", kind="back", seat=seat, lines=lines),))


def _resources(view: CastleAssaultView, seat: int) -> Piece:
    lines = [f"{view.resource_counts[seat]} placed, {view.ready[seat]} ready"]
    if seat == view.seat and view.resources:
        lines.append(", ".join(counted(view.resources)))
    elif view.marked_resources[seat]:
        lines.append(f"{view.marked_resources[seat]} with a different back")
    return Piece(label="resources", kind="back", seat=seat, lines=tuple(lines))


def side(view: CastleAssaultView, names: Names, told: int | None, seat: int) -> Zone:
    """A seat's end of the table: its castle, hero, resources, deck, discard pile and hand."""
    castle = Piece(label=f"{whose(names, seat, told)} castle", id=castle_id(seat), seat=seat,
                   lines=(f"Health {view.castles[seat]} of {CASTLE_HEALTH}",))
    deck = (f"{_count(view.deck_sizes[seat], 'card')}",)
    if view.marked_top[seat]:
        deck += ("top card: a different back",)
    pile = view.discards[seat]
    discard = (_count(len(pile), "card"),) + ((f"top: {card_name(pile[-1])}",) if pile else ())
    pieces = (castle, _hero(view, names, seat), _resources(view, seat),
              Piece(label="deck", kind="back", seat=seat, lines=deck),
              Piece(label="discard pile", kind="info", seat=seat, lines=discard))
    title = f"{who(names, seat, told)}: {warband(view.warbands[seat])}"
    return Zone(title=title[:1].upper() + title[1:], seat=seat, pieces=pieces,
                zones=(_hand(view, names, told, seat),))


def meters(view: CastleAssaultView, names: Names) -> Zone:
    """The Momentum Meter (seat 1's Max on the left, as the terminal board draws it) and the
    Environment Meter, with the Environment cards in effect."""
    steps = tuple(Piece(label=momentum_words(value, names), id=momentum_id(value),
                        kind="here" if value == view.momentum else "step",
                        seat=(0 if value > 0 else 1) if value else -1)
                  for value in range(-MOMENTUM_MAX, MOMENTUM_MAX + 1))
    momentum = Zone(title="Momentum Meter", layout="track", pieces=steps)
    env_steps = tuple(Piece(label="START" if value == 0 else f"T{value}",
                            kind="here" if value == view.env_meter else "step")
                      for value in range(CONST["environment_meter_spaces"]))
    env = [Piece(label="Environment deck", kind="back",
                 lines=(_count(view.env_deck_size, "card"),
                        f"discard pile: {_count(len(view.env_discard), 'card')}"))]
    for what, number in (("Ongoing", view.ongoing), ("on the battlefield", view.field),
                         ("last revealed", view.revealed)):
        found = card(number)
        if found is not None:
            env.append(Piece(label=found.name, kind="card", lines=(what,), note=found.text))
    environment = Zone(title="Environment Meter", layout="track", pieces=env_steps)
    return Zone(title="Meters", zones=(momentum, environment,
                                       Zone(title="Environment", pieces=tuple(env))))


def status(view: CastleAssaultView, names: Names, told: int | None) -> tuple[str, ...]:
    if view.phase == "turn":
        first = f"Turn {view.turn} of {TURN_LIMIT}, {STEPS.get(view.step, view.step)}"
        if view.active >= 0:
            first += f", {whose(names, view.active, told)} turn"
    else:
        first = PHASES.get(view.phase, view.phase).capitalize()
    if view.phase == "over" or view.ended:
        second = f"Game over: {ENDS.get(view.ended, view.ended)}"
        if view.ranks.count(1) == 1:
            second += f", {who(names, view.ranks.index(1), told)} won"
    elif view.waiting:
        asked = ", ".join(who(names, s, told) for s in view.waiting)
        doing = (f"response window {WINDOWS.get(view.window, '')}".strip()
                 if view.asking == "respond" else ASKING.get(view.asking, view.asking))
        second = f"To act: {asked}, {doing}"
    elif view.chance:
        second = f"Waiting for {CHANCES.get(view.chance, 'chance')}"
    else:
        return (first,)
    return first, second


def scene(view: CastleAssaultView, names: Names, told: int | None) -> Scene:
    top, bottom = side(view, names, told, 1), side(view, names, told, 0)
    return Scene(status=status(view, names, told),
                 zones=(top, battlefield(view, names, told), bottom, meters(view, names)))


# --- what an action picks -------------------------------------------------------------------


def _at(view: CastleAssaultView, uid: int) -> str:
    unit = unit_of(view, uid)
    return square_id(unit.lane, unit.row) if unit is not None else ""


def _held(view: CastleAssaultView, instance: int) -> str:
    return card_id(instance) if instance in view.hand else ""


def target(action: object, view: CastleAssaultView) -> str:
    """The square of the unit acting or acted on, the card in hand played, the castle shot at,
    the hero card summoned or the Momentum Meter step moved to."""
    if isinstance(action, (a.AssignCaptain, a.CurseUnit, a.Charge, a.Attack)):
        return _at(view, action.unit)
    if isinstance(action, a.UseAbility):
        if action.target == a.CASTLE_TARGET:
            return castle_id(1 - action.unit // UID_BASE)
        return _at(view, action.target if action.target >= 0 else action.unit)
    if isinstance(action, (a.PlaceResource, a.PlayUnit, a.PlayCommand, a.DiscardCard)):
        return _held(view, action.card)
    if isinstance(action, a.SummonHero) and view.seat in SEATS:
        return hero_id(view.seat)
    if isinstance(action, a.ShiftMomentum):
        step = CONST["shift_momentum_spaces"] * (1 if action.toward == 0 else -1)
        return momentum_id(max(-MOMENTUM_MAX, min(MOMENTUM_MAX, view.momentum + step)))
    return ""


def _named(view: CastleAssaultView, names: Names, uid: int) -> str:
    unit = unit_of(view, uid)
    if unit is None:
        return ""
    owner = "your" if unit.seat == view.seat else f"{seat_name(names, unit.seat)}'s"
    return f"{owner} {card_name(unit.card)} ({where(unit)})"


def group(action: object, view: CastleAssaultView, names: Names) -> str:
    """Actions by the unit that acts ("your Drake (left lane, row 3)"), by the card in hand
    ("Drake"), the Captain or Curse being placed, the hero or the global commands."""
    if isinstance(action, (a.Charge, a.Attack, a.UseAbility)):
        return _named(view, names, action.unit)
    if isinstance(action, (a.PlaceResource, a.PlayUnit, a.PlayCommand, a.DiscardCard)):
        held = dict(zip(view.hand, view.hand_cards, strict=False))
        return card_name(held[action.card]) if action.card in held else ""
    if isinstance(action, (a.AssignCaptain, a.SkipCaptain)):
        return "Captain"
    if isinstance(action, (a.CurseUnit, a.SkipCurse)):
        return "Curse"
    if isinstance(action, a.SummonHero):
        return "your hero"
    if isinstance(action, (a.ShiftMomentum, a.BuyDraw)):
        return "global commands"
    return ""
