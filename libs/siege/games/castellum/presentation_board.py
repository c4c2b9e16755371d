"""Castellum: Maastricht's table drawn from one seat's view, and the names of things that both
the board and the lines in words (:mod:`.presentation`) use.

Everything is read from the view and the reference data, never from the state: another seat's
angel cards and dealt enemy cards show as counts, the decks and the discard pile as sizes. At
four players in 1794 the table holds twenty columns, so a column is one row and
the offer and the spaces are shown only in the phases that use them; a long card name is cut
rather than wrapped, so the drawing stays within 80 columns and 40 lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.text import Text

from siege.engine.presentation import Names, seat_name
from siege.games.castellum.reference import reference
from siege.games.castellum.views import CastellumView, EffectView

REF = reference()
LINE_CARDS: list[dict[str, Any]] = REF["line_cards"]
ENEMY_CARDS: list[dict[str, Any]] = REF["enemy_cards"]
ANGEL_CARDS: list[dict[str, Any]] = REF["angel_cards"]
SPACES: list[dict[str, Any]] = REF["spaces"]
REWARD_CARDS: list[dict[str, Any]] = REF["reward_cards"]
YEARS: list[int] = REF["years"]
RESOURCES: list[str] = REF["resources"]
TYPES: list[str] = REF["unit_types"]
CONST: dict[str, Any] = REF["constants"]
NOBODY: int = CONST["nobody"]
HAND_LIMIT: int = CONST["hand_limit"]
DEFEATED, HELD_OUT = 1, 0  # `combat_results` codes of the reference data
_NAME_WIDTH = 12  # seat names are cut to this on the board
_TYPE_SHORT = {name: name[:3] for name in TYPES}  # "inf", "cav", "art", "sap"

PHASES = {
    "setup": "setting up",
    "year_start": "a year begins",
    "building": "phase 1, Building",
    "siege": "phase 2, Siege",
    "angels": "phase 3, Angels",
    "reward": "Bonus Reward",
    "over": "game over",
}
ASKING = {
    "worker": "Building turn",
    "enemy": "Siege turn",
    "angel": "Angel turn",
    "target": "choosing a target",
    "respond": "may cancel",
    "discard": "discarding",
    "reward": "orienting the reward",
}
_CHANCES = {
    "first_player": "the die for the first player",
    "angel_reshuffle": "the angel discard pile's shuffle",
}


# --- names ------------------------------------------------------------------------------------




def line_card(card: int) -> str:
    return str(LINE_CARDS[card]["name"]) if 0 <= card < len(LINE_CARDS) else "a Line card"


def enemy_card(card: int) -> str:
    return str(ENEMY_CARDS[card]["name"]) if 0 <= card < len(ENEMY_CARDS) else "an enemy card"


def angel_card(card: int) -> str:
    return str(ANGEL_CARDS[card]["name"]) if 0 <= card < len(ANGEL_CARDS) else "an angel card"


def year_name(year: int) -> str:
    return str(YEARS[year]) if 0 <= year < len(YEARS) else "?"


def amounts(values: Sequence[int], extra: str = "") -> str:
    """[wood, stone, gold] (and, with ``extra``, a fourth kind) in words: "1 wood, 2 gold"."""
    kinds = [*RESOURCES, extra] if extra else RESOURCES
    parts = [f"{n} {kind}" + ("s" if kind == "angel card" and n != 1 else "")
             for n, kind in zip(values, kinds, strict=False) if n]
    return ", ".join(parts) or "nothing"


def resources_chosen(resources: Sequence[int]) -> str:
    """Resources of choice, as indexes: "1 wood and 1 gold", "2 stone"."""
    counts = Counter(RESOURCES[r] if 0 <= r < len(RESOURCES) else "?" for r in resources)
    return " and ".join(f"{n} {kind}" for kind, n in counts.items()) or "nothing"


def enemy_facts(card: int) -> str:
    """An enemy card's printed numbers: "cavalry 4, 2 points, penalty 1 gold"."""
    if not 0 <= card < len(ENEMY_CARDS):
        return ""
    spec = ENEMY_CARDS[card]
    text = f"{TYPES[spec['type']]} {spec['strength']}, {spec['points']} point"
    text += "" if spec["points"] == 1 else "s"
    if spec["boost_type"] != NOBODY:
        text += f", +{spec['boost']} to {TYPES[spec['boost_type']]} in its Line"
    if spec["penalty"] != NOBODY:
        text += f", penalty 1 {RESOURCES[spec['penalty']]}"
    return text


def reward_gift(year: int, side: int) -> str:
    """What a side of a year's reward card gives: "1 gold and 1 angel card"."""
    if not (0 <= year < len(REWARD_CARDS) and 0 <= side < len(REWARD_CARDS[year]["sides"])):
        return "nothing"
    spec = REWARD_CARDS[year]["sides"][side]
    parts = [amounts(spec["resources"])] if any(spec["resources"]) else []
    if spec["angels"]:
        parts.append(f"{spec['angels']} angel card" + ("s" if spec["angels"] != 1 else ""))
    if spec["strength"]:
        parts.append(f"+{spec['strength']} strength on every column next year")
    if spec["pair_type"] != NOBODY:
        parts.append(f"1 point per pair of defeated {TYPES[spec['pair_type']]}")
    return " and ".join(parts) or "nothing"


def column_of(owner: int, column: int, names: Names, told: int | None) -> str:
    """A column as told to ``told``: "your column 2", "Blue's column 2"."""
    whose = "your" if told is not None and told == owner else f"{seat_name(names, owner)}'s"
    return f"{whose} column {column + 1}"


_JOINS = {"boost": "on", "destroy": "on", "switch": "of", "take": "of", "resources": "for"}


def effect_targets(effect: EffectView, names: Names, told: int | None) -> str:
    """The targets of an effect in play as far as they are chosen, with the word that joins
    them to the effect: "on Blue's column 2", "of Pikemen from the offer into your column 1"."""
    t = effect.targets
    if effect.effect in ("boost", "destroy") and len(t) >= 2:
        text = column_of(t[0], t[1], names, told)
    elif effect.effect == "switch" and len(t) >= 2:
        text = column_of(t[0], t[1], names, told)
        text += f" and {column_of(t[2], t[3], names, told)}" if len(t) >= 4 else ""
    elif effect.effect == "take" and len(t) >= 2:
        if t[0] == NOBODY:
            where = "the offer"
        else:
            where = "your Line" if told == t[0] else f"{seat_name(names, t[0])}'s Line"
        text = f"{line_card(t[1])} from {where}"
        text += f" into {column_of(effect.seat, t[2], names, told)}" if len(t) >= 3 else ""
    elif effect.effect == "resources" and len(t) >= 2:
        text = resources_chosen(t)
    else:
        return ""
    return f"{_JOINS[effect.effect]} {text}"


# --- the board --------------------------------------------------------------------------------
# Every line is laid out here and printed unwrapped (cut with "…" should it ever run past 80
# columns), so the height is known: 2 lines of header, 1 + columns per seat, and a fixed most
# for each section below. The tallest board is a Building turn at four players in 1794:
# 2 + 24, then offer 5, spaces 4, decks 1, an effect in play 2 and the hand 2, 40 in all.

_WIDTH = 80
_INDENT = "  "


def _short(name: str) -> str:
    return name if len(name) <= _NAME_WIDTH else name[: _NAME_WIDTH - 1] + "~"


def _label(view: CastellumView, names: Names, seat: int) -> str:
    name = _short(seat_name(names, seat))
    return f"{name} (you)" if seat == view.seat else name


def _text(line: str = "", style: str = "") -> Text:
    return Text(line, style=style, no_wrap=True, overflow="ellipsis")


def _pack(title: str, items: Sequence[str], most: int, sep: str = ", ") -> list[Text]:
    """``title`` then ``items`` in order, on at most ``most`` lines of 80 columns; the items
    that find no room are counted at the end ("(+2 more)")."""
    rows: list[list[str]] = [[]]
    for item in items:
        lead = title if len(rows) == 1 else _INDENT
        if rows[-1] and len(lead) + len(sep.join([*rows[-1], item])) > _WIDTH:
            rows.append([])
        rows[-1].append(item)
    tail = ""
    if len(rows) > most:
        hidden = sum(len(row) for row in rows[most:])
        rows = rows[:most]
        last, lead = rows[-1], title if most == 1 else _INDENT
        while len(last) > 1 and len(lead) + len(sep.join(last)) + 12 > _WIDTH:
            last.pop()
            hidden += 1
        tail = f" (+{hidden} more)"
    lines = []
    for k, row in enumerate(rows):
        line = _text(title, style="bold") if k == 0 else _text(_INDENT)
        line.append(sep.join(row) + (tail if k == len(rows) - 1 else ""))
        lines.append(line)
    return lines


def _header(view: CastellumView, names: Names) -> list[Text]:
    first = _text("Castellum: Maastricht", style="bold")
    if view.phase != "setup":
        first.append(f" | {year_name(view.year)}, year {view.year + 1} of {len(YEARS)}")
    first.append(f" | {PHASES.get(view.phase, view.phase)} | decision {view.decision}")
    second = _text()
    if view.first_player >= 0:
        second.append(f"first player: {_label(view, names, view.first_player)}")
    else:
        second.append("first player: not chosen yet")
    if view.phase == "over":
        best = max(score.total for score in view.scores)
        winners = [_label(view, names, s) for s, sc in enumerate(view.scores) if sc.total == best]
        second.append(f" | won by {', '.join(winners)} with {best} points", style="bold")
    elif view.waiting:
        asked = view.waiting[0]
        second.append(f" | to act: {_label(view, names, asked)}, "
                      f"{ASKING.get(view.asking, view.asking)}")
    elif view.chance:
        shuffle = view.chance.replace("_shuffle_", " shuffle ").replace("_", " ")
        second.append(f" | waiting for {_CHANCES.get(view.chance, 'the ' + shuffle)}")
    return [first, second]


def _seat_line(view: CastellumView, names: Names, seat: int) -> Text:
    """A seat's public numbers, the most needed first: should a long name push the line past
    80 columns, only the notes at its end are cut."""
    wood, stone, gold = view.resources[seat]
    line = _text(_label(view, names, seat), style="bold underline")
    line.append(f": wood {wood} stone {stone} gold {gold}, angels {view.hand_sizes[seat]}")
    if view.phase == "building":
        line.append(f", workers {view.workers[seat]}")
    if view.enemy_hand_sizes[seat]:
        line.append(f", enemies {view.enemy_hand_sizes[seat]}")
    if view.phase == "angels" and view.passed[seat]:
        line.append(", passed")
    line.append(f", {view.scores[seat].total} pts, won {len(view.defeated[seat])}")
    help_now = view.dinghuis[seat] + view.reward_strength[seat]
    if help_now:
        line.append(f", help +{help_now}")
    if view.reward_strength_next[seat]:
        line.append(f", +{view.reward_strength_next[seat]} next year")
    if view.pair_type[seat] != NOBODY:
        line.append(f", {TYPES[view.pair_type[seat]]} pairs score")
    return line


def _defence(column: Any) -> str:
    cards = [line_card(c) for c in ([column.fort] if column.fort != NOBODY else [])]
    cards += [line_card(c) for c in column.troops]
    text = ", ".join(cards) or "unmanned"
    if column.angels:
        text += f" +{sum(ANGEL_CARDS[c]['strength'] for c in column.angels)} angels"
    return text


def _enemy(view: CastellumView, seat: int, col: int, column: Any) -> str:
    result = NOBODY
    if view.phase in ("reward", "over") and view.results:
        result = view.results[seat][col]
    if column.enemy == NOBODY:  # gone: defeated, or boxed at the end of the year
        return {DEFEATED: "defeated", HELD_OUT: "enemy held out"}.get(result, "")
    spec = ENEMY_CARDS[column.enemy]
    text = f"{spec['name']} {_TYPE_SHORT[TYPES[spec['type']]]} {spec['points']}p"
    if spec["penalty"] != NOBODY:
        text += f" -{RESOURCES[spec['penalty']]}"
    return text + (" held" if result == HELD_OUT else "")


_ROW = _WIDTH - 1 - 7 - 3  # a Line row less its column number, strengths and gaps
_ALIGN = 40  # the widest cards cell that still lines up with the others


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def _row(number: int, cards: str, versus: str, enemy: str, aligned: int) -> Text:
    """One column of a Line: its cards, strength against the enemy's, the enemy card. The
    strengths line up across rows as long as the row has room; only a row too long for 80
    columns is cut, the longer side first."""
    if len(cards) + len(enemy) > _ROW:
        enemy = _cut(enemy, max(_ROW - len(cards), min(len(enemy), _ROW // 2)))
        cards = _cut(cards, _ROW - len(enemy))
    width = max(len(cards), min(aligned, _ROW - len(enemy)))
    return _text(f"{number} {cards:<{width}} {versus:^7} {enemy}".rstrip())


def _lines(view: CastellumView, names: Names) -> list[Text]:
    """Every seat's line of numbers, then its Line: one row per available column."""
    rows = [[(col + 1, _defence(column),
              f"{column.strength} v {column.enemy_strength}" if column.enemy != NOBODY
              else str(column.strength), _enemy(view, seat, col, column))
             for col, column in enumerate(view.lines[seat][: view.columns_open])]
            for seat in range(view.players)]
    aligned = min(_ALIGN, max((len(row[1]) for line in rows for row in line), default=0))
    parts: list[Text] = []
    for seat, line in enumerate(rows):
        parts.append(_seat_line(view, names, seat))
        parts += [_row(*row, aligned) for row in line]
    return parts


def _offer_card(card: int) -> str:
    spec = LINE_CARDS[card]
    kind = "" if spec["kind"] == "fort" else f"{_TYPE_SHORT[TYPES[spec['troop_type']]]} "
    price = " ".join(f"{n}{RESOURCES[r][0]}" for r, n in enumerate(spec["cost"]) if n)
    return f"{spec['name']} {kind}{spec['strength']} ({price})"


def _grouped(cards: Sequence[int]) -> list[str]:
    """Offer cards, equal ones once with their count: "Pikemen inf 1 (1w 1g) x3"."""
    counts = Counter(_offer_card(c) for c in cards)
    return [item if n == 1 else f"{item} x{n}" for item, n in counts.items()]


def _offer(view: CastellumView) -> list[Text]:
    if view.phase == "angels":  # only troops can still change hands, by the take effect
        troops = [c for c in view.offer if LINE_CARDS[c]["kind"] == "troop"]
        return _pack("Troops to take: ", _grouped(troops) or ["none"], 4, " | ")
    return _pack("Offer (w/s/g cost): ", _grouped(view.offer) or ["sold out"], 5, " | ")


def _spaces(view: CastellumView, names: Names) -> list[Text]:
    items = []
    for space, seats in enumerate(view.spaces):
        counts = Counter(seats)
        who = ", ".join(_short(seat_name(names, s)) + (f" x{n}" if n > 1 else "")
                        for s, n in counts.items())
        items.append(f"{SPACES[space]['name']}: {who or 'free'}")
    return _pack("Spaces: ", items, 4, "; ")


def _decks(view: CastellumView, offer_drawn: bool) -> Text:
    enemies = "/".join(str(n) for n in view.enemy_deck_sizes)
    line = _text("Decks: ", style="bold")
    line.append(f"angels {view.angel_deck_size} (discard {view.angel_discard_size}), forts "
                f"{view.fort_deck_size}, troops {view.troop_deck_size}, enemies {enemies}")
    if not offer_drawn:
        line.append(f" | offer {len(view.offer)}")
    return line


def _reward(view: CastellumView, names: Names) -> list[Text]:
    title = f"Reward {year_name(view.year)}: "
    items = [f"needs {view.reward_threshold} defeats together, {sum(view.year_defeats)} so far"]
    items += [f"{_label(view, names, s)} {n}" for s, n in enumerate(view.year_defeats) if n]
    if view.phase == "reward":
        chooser = view.reward_chooser
        if chooser < 0:
            items.append("missed: nobody gets anything")
        elif view.reward_side < 0:
            items.append(f"{_label(view, names, chooser)} orients the card")
        else:
            items.append(f"{_label(view, names, chooser)} took "
                         f"{reward_gift(view.year, view.reward_side)}")
    return _pack(title, items, 2)


def _effects(view: CastellumView, names: Names) -> list[Text]:
    told = view.seat if view.seat >= 0 else None
    parts = []
    for effect in view.stack:
        targets = effect_targets(effect, names, told)
        parts.append(f"{_label(view, names, effect.seat)}'s {effect.effect}"
                     + (f" {targets}" if targets else ""))
    if parts:
        words = ", answered by ".join(parts)
        top = view.stack[-1]
        if view.asking == "respond" and top.responders:
            words += f"; {_label(view, names, top.responders[0])} is asked"
        return _pack("In play: ", words.split(" "), 2, " ")
    draft = view.draft
    if draft is None:
        return []
    targets = effect_targets(draft, names, told)
    words = f"{_label(view, names, draft.seat)}'s {angel_card(draft.card)}"
    words += f" ({draft.effect} {targets})" if targets else ", no target yet"
    return _pack("Being aimed: ", words.split(" "), 2, " ")


def _hands(view: CastellumView) -> list[Text]:
    if not 0 <= view.seat < view.players:
        return []
    lines = _pack(f"Your angel cards ({len(view.hand)} of {HAND_LIMIT}): ",
                  [angel_card(c) for c in view.hand] or ["none"], 2)
    if view.enemy_hand:  # at most five, one a line
        lines.append(_text(f"Your enemy cards to place ({len(view.enemy_hand)}):", "bold"))
        lines += [_text(f"{_INDENT}{enemy_card(c)}: {enemy_facts(c)}") for c in view.enemy_hand]
    return lines


def _final(view: CastellumView, names: Names) -> list[Text]:
    lines = [_text("Final scores", style="bold")]
    for seat, sc in enumerate(view.scores):
        lines.append(_text(f"{_label(view, names, seat)}: {sc.total} = {sc.enemies} from "
                           f"enemies + {sc.resources} resources + {sc.stars} stars + "
                           f"{sc.pairs} pairs"))
    return lines


def draw(view: CastellumView, names: Names) -> Group:
    """The table as ``view.seat`` sees it (-1: a spectator), in 80 columns and 40 lines."""
    parts: list[Any] = _header(view, names)
    parts += _lines(view, names)
    if view.phase == "over":
        parts += _final(view, names)
    else:
        offer_drawn = view.phase in ("year_start", "building", "angels")
        if offer_drawn:
            parts += _offer(view)
        if view.phase == "building":
            parts += _spaces(view, names)
        parts.append(_decks(view, offer_drawn))
        if view.phase in ("siege", "angels", "reward"):
            parts += _reward(view, names)
    parts += _effects(view, names)
    parts += _hands(view)
    return Group(*parts)
