"""Deck lists: reading a deck file, checking a deck's legality, and carrying it in a match.

A deck file is plain text or TOML. Plain text: ``warband: NAME`` and ``hero: NAME`` lines, then
one card a line, with an optional count (``2 Soot``, ``2x Soot`` or ``Soot``); ``#`` starts a
comment. TOML: ``warband = "..."``, ``hero = "..."`` and a ``[cards]`` table of name = count.

A legal deck has 30-40 cards of one warband plus neutral cards, at most 2 copies of a card, an
Epic card at most once, and a hero. A match carries every seat's deck in the ``decks`` option of
``MatchCreated`` (JSON), so the engine and the audit check it from the log alone.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import msgspec

from siege.games.castle_assault.cards import (
    BY_NAME,
    CARDS,
    WARBAND_CARDS,
    WARBAND_NAMES,
    stock_deck,
)
from siege.games.castle_assault.heroes import HEROES

MIN_CARDS, MAX_CARDS, MAX_COPIES = 30, 40, 2


class Deck(msgspec.Struct, frozen=True, kw_only=True):
    warband: str
    hero: str
    cards: dict[str, int]  # name -> copies


class DeckFileError(ValueError):
    """The file cannot be read as a deck list at all (as opposed to an illegal deck)."""


def stock(warband: str) -> Deck:
    counts = Counter(CARDS[c].name for c in stock_deck(warband))
    return Deck(warband=warband, hero=HEROES[warband].name, cards=dict(counts))


def parse(text: str, toml: bool = False) -> Deck:
    if toml:
        try:
            data = tomllib.loads(text)
            return msgspec.convert(data, Deck)
        except (tomllib.TOMLDecodeError, msgspec.ValidationError) as err:
            raise DeckFileError(f"not a TOML deck list: {err}") from None
    warband = hero = ""
    cards: Counter[str] = Counter()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        if colon and key.strip().lower() in ("warband", "hero"):
            if key.strip().lower() == "warband":
                warband = value.strip()
            else:
                hero = value.strip()
            continue
        count, _, name = line.partition(" ")
        count = count.lower().removesuffix("x")
        if count.isdigit() and name.strip():
            cards[name.strip()] += int(count)
        elif count.isdigit():
            raise DeckFileError(f"line {number}: a count with no card name")
        else:
            cards[line] += 1
    return Deck(warband=warband, hero=hero, cards=dict(cards))


def read(path: Path) -> Deck:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise DeckFileError(f"cannot read {path}: {err}") from None
    return parse(text, toml=path.suffix.lower() == ".toml")


def problems(deck: Deck) -> list[str]:
    """Every reason the deck is illegal, in a readable order; empty when it is legal."""
    found: list[str] = []
    if deck.warband not in WARBAND_CARDS:
        found.append(f"unknown warband {deck.warband!r}; choose from "
                     f"{', '.join(sorted(WARBAND_CARDS))}")
    heroes = {h.name for h in HEROES.values()}
    if not deck.hero:
        found.append("no hero named (a line 'hero: NAME')")
    elif deck.hero not in heroes:
        found.append(f"unknown hero {deck.hero!r}; choose from {', '.join(sorted(heroes))}")
    total = sum(deck.cards.values())
    if not MIN_CARDS <= total <= MAX_CARDS:
        found.append(f"{total} cards; a deck holds {MIN_CARDS} to {MAX_CARDS}")
    for name, copies in sorted(deck.cards.items()):
        card = BY_NAME.get(name)
        if card is None or card.kind not in ("unit", "command"):
            found.append(f"no card named {name!r}")
            continue
        if copies < 1:
            found.append(f"{name}: {copies} copies")
        if card.warband not in ("neutral", deck.warband):
            found.append(f"{name} belongs to the {WARBAND_NAMES.get(card.warband, card.warband)}"
                         f", not this deck's warband")
        if card.epic and copies > 1:
            found.append(f"{name} is Epic: one copy at most, not {copies}")
        elif copies > MAX_COPIES:
            found.append(f"{name}: {copies} copies; at most {MAX_COPIES}")
    return found


def instances(deck: Deck) -> list[int]:
    """The card ids of the deck's instances, in card id order (a seat's deck list)."""
    return [card.id for card in CARDS if card.name in deck.cards
            for _ in range(deck.cards[card.name])]


def encode(decks: list[Deck]) -> str:
    """The ``decks`` match option."""
    return msgspec.json.encode(decks).decode()


def decode(option: str) -> list[Deck]:
    try:
        return msgspec.json.decode(option, type=list[Deck])
    except msgspec.DecodeError as err:
        raise ValueError(f"option decks is not a list of decks: {err}") from None


def show(deck: Deck) -> list[str]:
    """Lines describing every card of the deck: copies, name, cost, figures, text."""
    lines = [f"{WARBAND_NAMES.get(deck.warband, deck.warband)} ({sum(deck.cards.values())} "
             f"cards), hero {deck.hero}"]
    for card in CARDS:
        copies = deck.cards.get(card.name)
        if not copies:
            continue
        figures = (f"  M{card.movement} A{card.attack} Ar{card.armor} H{card.health}"
                   if card.kind == "unit" else f"  {card.timing}")
        lines.append(f"{copies} x {card.name}  cost {card.cost}{figures}  {card.text}".rstrip())
    return lines
