"""Castellum: Maastricht as a page draws it (:mod:`siege.engine.scene`), built from one seat's view.

The table as it lies: the year track, the game board's action spaces (with the workers on
them), this year's reward card and the face-up offer, the decks, any effect in play, then every
seat's area in its colour: its supply, its angel cards (faces for the seat told, backs for the
others), its dealt enemy cards, and its Line as a grid five columns wide, one grid column per
Line column: the enemy card above, the column itself (its strength, angels below it), then its
fortification and two troop slots. Every slot is a piece, empty ones too, so the Line keeps its
shape; columns not open yet say so.

Ids are stable: ``space-<id>``, ``col-<seat>-<column>``, ``line-<card>`` (a Line card in the
offer or a Line), ``enemy-<card>`` (in a hand or a column), ``angel-<card>`` (in a hand or in
play), ``reward-<side>`` and ``year-<index>``. Building or placing on a column targets the
column; choosing a card (use, discard, cancel, take, an enemy to aim at) targets the card.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from siege.engine.presentation import Names, seat_name, who, whose
from siege.engine.scene import Piece, Scene, Zone
from siege.games.castellum import actions as a
from siege.games.castellum.presentation_board import (
    ANGEL_CARDS,
    ASKING,
    CONST,
    ENEMY_CARDS,
    LINE_CARDS,
    NOBODY,
    PHASES,
    REWARD_CARDS,
    SPACES,
    TYPES,
    YEARS,
    amounts,
    angel_card,
    effect_targets,
    enemy_card,
    enemy_facts,
    line_card,
    reward_gift,
    year_name,
)
from siege.games.castellum.views import CastellumView

COLUMNS: int = CONST["max_columns"]
DEFEATED, HELD_OUT = 1, 0  # `combat_results` codes of the reference data


def _told(view: CastellumView, told: int | None) -> int | None:
    return told if told is not None and 0 <= told < view.players else None


def _me(view: CastellumView) -> int | None:
    return view.seat if 0 <= view.seat < view.players else None


# --- ids ----------------------------------------------------------------------------------------


def space_id(space: int) -> str:
    return f"space-{space}"


def column_id(seat: int, column: int) -> str:
    return f"col-{seat}-{column}"


def line_id(card: int) -> str:
    return f"line-{card}"


def enemy_id(card: int) -> str:
    return f"enemy-{card}"


def angel_id(card: int) -> str:
    return f"angel-{card}"


# --- pieces -------------------------------------------------------------------------------------


def _line_card_piece(card: int, seat: int = -1) -> Piece:
    spec = LINE_CARDS[card]
    if spec["kind"] == "fort":
        kind = f"fortification {spec['strength']}"
    else:
        kind = f"{TYPES[spec['troop_type']]} troop {spec['strength']}"
    lines = [kind]
    if any(spec["cost"]):
        lines.append(f"costs {amounts(spec['cost'])}")
    return Piece(label=line_card(card), id=line_id(card), lines=tuple(lines), seat=seat,
                 kind="card", note=str(spec["text"]))


def _angel_piece(card: int, seat: int) -> Piece:
    spec = ANGEL_CARDS[card]
    return Piece(label=angel_card(card), id=angel_id(card), seat=seat, kind="card",
                 lines=(f"strength {spec['strength']}", f"effect {spec['effect']}"),
                 note=str(spec["text"]))


def _enemy_piece(card: int, lines: tuple[str, ...] = ()) -> Piece:
    return Piece(label=enemy_card(card), id=enemy_id(card), kind="card",
                 lines=(enemy_facts(card), *lines), note=str(ENEMY_CARDS[card]["text"]))


def _backs(count: int, what: str, seat: int) -> Piece:
    plural = "" if count == 1 else "s"
    return Piece(label=f"{count} {what}{plural}", kind="back", seat=seat)


def _year_track(view: CastellumView) -> Zone:
    steps = []
    for year, name in enumerate(YEARS):
        here = year == view.year and view.phase != "setup"
        lines = [f"{CONST['workers_per_year'][year]} columns"]
        if here:
            lines.append(PHASES.get(view.phase, view.phase))
        steps.append(Piece(label=str(name), id=f"year-{year}", kind="here" if here else "step",
                           lines=tuple(lines)))
    return Zone(title="Years", layout="track", pieces=tuple(steps))


def _gives(spec: dict[str, Any]) -> str:
    kind = spec["kind"]
    if kind == "choice":
        n = spec["choices"]
        return f"{n} resource{'' if n == 1 else 's'} of choice"
    if kind == "resources":
        return amounts(spec["resources"])
    if kind == "dinghuis":
        return "+1 strength on every column"
    if kind == "angel":
        return "draw an angel card"
    return "buy a face-up card"


def _spaces(view: CastellumView, names: Names, told: int | None) -> Zone:
    found = []
    for space, seats in enumerate(view.spaces):
        spec = SPACES[space]
        counts = Counter(seats)
        there = ", ".join(who(names, s, told) + (f" x{n}" if n > 1 else "")
                          for s, n in counts.items())
        lines = [_gives(spec)]
        lines.append(f"workers: {there}" if there else "free")
        found.append(Piece(label=str(spec["name"]), id=space_id(space), lines=tuple(lines),
                           seat=seats[0] if len(counts) == 1 else -1, note=str(spec["text"])))
    return Zone(title="Action spaces", layout="grid", columns=5, pieces=tuple(found))


def _reward(view: CastellumView, names: Names, told: int | None) -> Zone:
    year = view.year
    facts = [f"needs {view.reward_threshold} defeats together, {sum(view.year_defeats)} so far"]
    if view.phase == "reward":
        chooser = view.reward_chooser
        if chooser < 0:
            facts.append("missed: nobody gets anything")
        elif view.reward_side < 0:
            facts.append(f"{who(names, chooser, told)} orients the card")
    sides = []
    for side in range(len(REWARD_CARDS[year]["sides"]) if 0 <= year < len(REWARD_CARDS) else 0):
        taken = view.phase == "reward" and view.reward_side == side
        sides.append(Piece(label=reward_gift(year, side), id=f"reward-{side}", kind="card",
                           lines=(f"side {side + 1}", *(("taken",) if taken else ())),
                           seat=view.reward_chooser if taken else -1))
    info = Piece(label=f"{year_name(year)} reward card", kind="info", lines=tuple(facts))
    return Zone(title="Bonus reward", pieces=(info, *sides))


def _offer(view: CastellumView) -> Zone:
    cards = tuple(_line_card_piece(card) for card in view.offer)
    if not cards:
        cards = (Piece(label="sold out", kind="info"),)
    return Zone(title="Offer", pieces=cards)


def _decks(view: CastellumView) -> Zone:
    enemies = ", ".join(f"{year_name(y)} {n}" for y, n in enumerate(view.enemy_deck_sizes))
    return Zone(title="Decks", pieces=(
        Piece(label="angel deck", kind="back", lines=(f"{view.angel_deck_size} cards",)),
        Piece(label="angel discard", kind="back", lines=(f"{view.angel_discard_size} cards",)),
        Piece(label="fortification deck", kind="back", lines=(f"{view.fort_deck_size} cards",)),
        Piece(label="troop deck", kind="back", lines=(f"{view.troop_deck_size} cards",)),
        Piece(label="enemy decks", kind="back", lines=(enemies,)),
    ))


def _in_play(view: CastellumView, names: Names, told: int | None) -> Zone | None:
    played = [*([view.draft] if view.draft is not None else []), *view.stack]
    if not played:
        return None
    found = []
    for effect in played:
        targets = effect_targets(effect, names, told)
        lines = [f"{whose(names, effect.seat, told)} {effect.effect}" + (
            f" {targets}" if targets else "")]
        if effect is view.draft:
            lines.append("choosing targets")
        elif effect.responders and view.asking == "respond" and effect is view.stack[-1]:
            lines.append(f"{who(names, effect.responders[0], told)} may cancel")
        found.append(Piece(label=angel_card(effect.card), id=angel_id(effect.card),
                           seat=effect.seat, kind="card", lines=tuple(lines),
                           note=str(ANGEL_CARDS[effect.card]["text"])))
    return Zone(title="In play", pieces=tuple(found))


def _supply(view: CastellumView, seat: int) -> Piece:
    wood, stone, gold = view.resources[seat]
    score = view.scores[seat]
    lines = [f"wood {wood}, stone {stone}, gold {gold}"]
    if view.phase == "building":
        lines.append(f"{view.workers[seat]} workers to place")
    if view.phase == "angels" and view.passed[seat]:
        lines.append("passed")
    lines.append(f"{score.total} points, {len(view.defeated[seat])} enemies won")
    if view.phase == "over":
        lines.append(f"{score.enemies} enemies, {score.resources} resources, {score.stars} "
                     f"stars, {score.pairs} pairs")
    if view.year_defeats[seat]:
        lines.append(f"{view.year_defeats[seat]} defeats this year")
    if view.reward_strength_next[seat]:
        lines.append(f"+{view.reward_strength_next[seat]} next year")
    if view.pair_type[seat] != NOBODY:
        lines.append(f"{TYPES[view.pair_type[seat]]} pairs score")
    if view.first_player == seat:
        lines.append("first player")
    return Piece(label="supply", kind="info", seat=seat, lines=tuple(lines))


def _column_piece(view: CastellumView, seat: int, col: int, column: Any) -> Piece:
    label = f"column {col + 1}"
    if col >= view.columns_open:
        opens = next((year_name(y) for y, n in enumerate(CONST["workers_per_year"])
                      if n > col), "never")
        return Piece(label=label, id=column_id(seat, col), seat=seat,
                     lines=(f"opens in {opens}",))
    lines = [f"strength {column.strength}" + (
        f" against {column.enemy_strength}" if column.enemy != NOBODY else "")]
    if not column.manned:
        lines.append("unmanned")
    help_now = view.dinghuis[seat] + view.reward_strength[seat]
    if help_now:
        lines.append(f"help +{help_now}")
    lines += [f"below: {angel_card(card)}" for card in column.angels]
    return Piece(label=label, id=column_id(seat, col), seat=seat, lines=tuple(lines))


def _enemy_cell(view: CastellumView, seat: int, col: int, column: Any) -> Piece:
    result = NOBODY
    if view.phase in ("reward", "over") and view.results:
        result = view.results[seat][col]
    if column.enemy != NOBODY:
        return _enemy_piece(column.enemy, ("held out",) if result == HELD_OUT else ())
    if col >= view.columns_open:
        return Piece(label="closed", kind="info")
    return Piece(label={DEFEATED: "defeated", HELD_OUT: "enemy held out"}.get(result, "no enemy"),
                 kind="info")


def _line(view: CastellumView, seat: int) -> Zone:
    """The Line as a grid: one grid column per Line column, the enemy above, the column, its
    fortification, then its two troop slots."""
    troops = CONST["troops_per_column"]
    rows: list[list[Piece]] = [[] for _ in range(3 + troops)]
    for col, column in enumerate(view.lines[seat][:COLUMNS]):
        closed = col >= view.columns_open
        rows[0].append(_enemy_cell(view, seat, col, column))
        rows[1].append(_column_piece(view, seat, col, column))
        rows[2].append(_line_card_piece(column.fort, seat) if column.fort != NOBODY
                       else Piece(label="closed" if closed else "no fortification", kind="info"))
        for k in range(troops):
            rows[3 + k].append(_line_card_piece(column.troops[k], seat)
                               if k < len(column.troops)
                               else Piece(label="closed" if closed else "no troop", kind="info"))
    return Zone(title="Line", layout="grid", columns=COLUMNS, seat=seat,
                pieces=tuple(piece for row in rows for piece in row))


def _seat_area(view: CastellumView, names: Names, told: int | None, seat: int) -> Zone:
    pieces = [_supply(view, seat)]
    if told == seat:  # your own cards face up, the others' as backs
        pieces += [_angel_piece(card, seat) for card in view.hand]
        pieces += [_enemy_piece(card, ("dealt to you",)) for card in view.enemy_hand]
    else:
        if view.hand_sizes[seat]:
            pieces.append(_backs(view.hand_sizes[seat], "angel card", seat))
        if view.enemy_hand_sizes[seat]:
            pieces.append(_backs(view.enemy_hand_sizes[seat], "enemy card", seat))
    if not view.hand_sizes[seat]:
        pieces.append(Piece(label="no angel cards", kind="info", seat=seat))
    title = "Your area" if told == seat else f"{seat_name(names, seat)}'s area"
    return Zone(title=title, seat=seat, pieces=tuple(pieces), zones=(_line(view, seat),))


def _status(view: CastellumView, names: Names, told: int | None) -> tuple[str, ...]:
    first = "Castellum: Maastricht"
    if view.phase != "setup":
        first += f", {year_name(view.year)}, year {view.year + 1} of {len(YEARS)}"
    first += f", {PHASES.get(view.phase, view.phase)}"
    if view.phase == "over":
        best = max(score.total for score in view.scores)
        won = [who(names, s, told) for s, sc in enumerate(view.scores) if sc.total == best]
        second = f"won by {' and '.join(won)} with {best} points"
    elif view.waiting:
        second = f"to act: {who(names, view.waiting[0], told)}, " + ASKING.get(
            view.asking, view.asking or "deciding")
    elif view.chance:
        second = "waiting for " + view.chance.replace("_", " ")
    else:
        second = "nobody to act"
    return (first, second)


def scene(view: CastellumView, names: Names, told: int | None) -> Scene:
    """The table as ``told`` sees it (None for a spectator)."""
    told = _told(view, told)
    zones = [_year_track(view), _spaces(view, names, told), _reward(view, names, told),
             _offer(view), _decks(view)]
    in_play = _in_play(view, names, told)
    if in_play is not None:
        zones.append(in_play)
    order = list(range(view.players))
    if told is not None:  # your own area first
        order = order[told:] + order[:told]
    zones += [_seat_area(view, names, told, seat) for seat in order]
    return Scene(status=_status(view, names, told), zones=tuple(zones))


# --- what an action picks, and where it is listed ---------------------------------------------


def _enemy_at(view: CastellumView, owner: int, column: int) -> int:
    if 0 <= owner < len(view.lines) and 0 <= column < len(view.lines[owner]):
        return view.lines[owner][column].enemy
    return NOBODY


def target(action: Any, view: CastellumView) -> str:
    """The piece an action picks: the space a worker goes to, the column a card goes into, the
    card used, discarded or taken, the enemy card an effect aims at, the reward side taken."""
    me = view.seat
    if isinstance(action, a.PlaceWorker):
        return space_id(action.space)
    if isinstance(action, a.BuyCard | a.PlaceAngel | a.TargetColumn):
        return column_id(me, action.column)
    if isinstance(action, a.PlaceEnemy):
        return column_id(action.owner, action.column)
    if isinstance(action, a.UseAngel | a.DiscardAngel | a.CancelEffect):
        return angel_id(action.card)
    if isinstance(action, a.TargetEnemy):
        enemy = _enemy_at(view, action.owner, action.column)
        return enemy_id(enemy) if enemy != NOBODY else column_id(action.owner, action.column)
    if isinstance(action, a.TargetTroop):
        return line_id(action.card)
    if isinstance(action, a.OrientReward):
        return f"reward-{action.side}"
    return ""


def group(action: Any, view: CastellumView, names: Names) -> str:
    """The heading an action is listed under: the space, the card bought or placed, the Line
    an effect aims into."""
    me = _me(view)
    if isinstance(action, a.PlaceWorker):
        return str(SPACES[action.space]["name"]) if 0 <= action.space < len(SPACES) else ""
    if isinstance(action, a.BuyCard):
        return f"Buy {line_card(action.card)}"
    if isinstance(action, a.PlaceEnemy):  # two dealt cards may share a name
        if not 0 <= action.card < len(ENEMY_CARDS):
            return enemy_card(action.card)
        return f"{enemy_card(action.card)}, strength {ENEMY_CARDS[action.card]['strength']}"
    if isinstance(action, a.PlaceAngel | a.UseAngel | a.DiscardAngel | a.CancelEffect):
        return angel_card(action.card)
    if isinstance(action, a.TargetEnemy):
        return "Your Line" if me == action.owner else f"{seat_name(names, action.owner)}'s Line"
    if isinstance(action, a.TargetTroop):
        return "The offer" if action.owner == NOBODY else (
            f"{seat_name(names, action.owner)}'s Line")
    if isinstance(action, a.TargetResources):
        return "Resources"
    return ""

