"""The full card pool: four warbands of 33/34/34/34 cards, 21 neutral commands, 22 Environment
cards, four heroes; legal stock decks; every keyword on a card; every card's figures in words."""

from __future__ import annotations

from collections import Counter

import pytest

from siege.games.castle_assault.cards import (
    BY_NAME,
    CARDS,
    RULEBOOK_NAMES,
    STOCK_NEUTRALS,
    WARBAND_CARDS,
    WARBAND_NAMES,
    stock_deck,
)
from siege.games.castle_assault.heroes import HEROES

WARBAND_SIZES = {"dragons": 33, "dwarves": 34, "fae": 34, "war-engine": 34}


def test_four_warbands_of_the_printed_sizes() -> None:
    assert set(WARBAND_CARDS) == set(STOCK_NEUTRALS) == set(WARBAND_NAMES) == set(HEROES)
    assert {w: sum(n for _, n in WARBAND_CARDS[w]) for w in WARBAND_CARDS} == WARBAND_SIZES
    for warband, cards in WARBAND_CARDS.items():
        assert all(BY_NAME[name].warband == warband for name, _ in cards)
    listed = {name for cards in WARBAND_CARDS.values() for name, _ in cards}
    own = {c.name for c in CARDS if c.warband in WARBAND_CARDS and c.kind != "hero"}
    assert listed == own  # every warband card is in its stock deck


def test_twenty_one_neutral_commands_twenty_two_environments_four_heroes() -> None:
    kinds = Counter((c.kind, c.warband) for c in CARDS)
    assert kinds[("command", "neutral")] == 21
    assert sum(n for (kind, _), n in kinds.items() if kind == "environment") == 22
    assert sum(n for (kind, _), n in kinds.items() if kind == "hero") == 4
    for warband, hero in HEROES.items():
        card = BY_NAME[hero.name]
        assert card.kind == "hero" and card.warband == warband and card.health > 0
        assert hero.captain_text.startswith("Captain") and hero.curse_text.startswith("Curse")
    in_decks = {BY_NAME[name].id for cards in STOCK_NEUTRALS.values() for name, _ in cards}
    assert in_decks == {c.id for c in CARDS if c.kind == "command" and c.warband == "neutral"}


@pytest.mark.parametrize("warband", sorted(WARBAND_SIZES))
def test_each_stock_deck_is_legal(warband: str) -> None:
    deck = stock_deck(warband)
    counts = Counter(deck)
    assert 30 <= len(deck) <= 40
    assert max(counts.values()) <= 2
    assert all(counts[c] == 1 for c in counts if CARDS[c].epic)
    assert {CARDS[c].warband for c in deck} <= {warband, "neutral"}
    assert all(CARDS[c].kind in ("unit", "command") for c in deck)
    assert sum(n for c, n in counts.items() if CARDS[c].warband == warband) == (
        WARBAND_SIZES[warband])


def test_every_keyword_is_on_some_card() -> None:
    def some(test: object) -> bool:
        return any(test(c) for c in CARDS)  # type: ignore[operator]

    keywords = {
        "0 Movement": lambda c: c.kind == "unit" and c.movement == 0,
        "Aura": lambda c: c.aura is not None and not c.aura.foes,
        "Hex Aura": lambda c: c.aura is not None and c.aura.foes,
        "Battering": lambda c: c.ranged is not None and c.ranged.battering,
        "Blast": lambda c: c.ranged is not None and c.ranged.blast,
        "Blunt Damage": lambda c: c.ranged is not None and c.ranged.blunt,
        "Ranged Linear": lambda c: c.ranged is not None and not c.ranged.spread,
        "Ranged Adjacent": lambda c: c.ranged is not None and c.ranged.spread,
        "Build": lambda c: c.build > 0,
        "Requires Build": lambda c: c.needs_build > 0,
        "Cannot Charge": lambda c: c.cannot_charge,
        "Cannot Stack": lambda c: c.cannot_stack,
        "Card backs different": lambda c: c.marked_back,
        "Consume": lambda c: c.consume,
        "Defense": lambda c: c.defense,
        "Epic": lambda c: c.epic,
        "Gigantic": lambda c: c.gigantic,
        "Haste": lambda c: c.haste,
        "Lateral Move": lambda c: c.effect in ("lateral", "blink", "shove"),
        "Lord": lambda c: c.lord,
        "Loses 1 Health": lambda c: c.burns,
        "Momentum Max": lambda c: c.max_attack > 0 or c.max_armor > 0,
        "Phase": lambda c: c.phase,
        "Quick": lambda c: c.quick,
        "Ram": lambda c: c.ram,
        "Resurrection": lambda c: c.resurrection,
        "Instant": lambda c: c.timing == "instant",
        "Attachment": lambda c: c.timing == "attachment",
        "Gloat": lambda c: c.gloat > 0,
        "Blooded": lambda c: c.blooded > 0,
        "Stalwart": lambda c: c.stalwart > 0,
        "Wallbreaker": lambda c: c.wallbreaker > 0,
    }
    missing = [name for name, test in keywords.items() if not some(test)]
    assert missing == []


def test_every_command_and_environment_does_something_of_its_own() -> None:
    commands = [c for c in CARDS if c.kind == "command"]
    effects = Counter((c.effect, c.timing, c.amount, c.grant) for c in commands)
    assert max(effects.values()) == 1
    new = [c for c in commands if c.id > BY_NAME["Flight"].id]
    assert len({c.effect for c in new}) == len(new) == 28  # each added command: its own effect


def test_every_card_with_a_rule_says_it_in_words() -> None:
    for card in CARDS:
        plain_unit = card.kind == "unit" and card.text == "" and not (
            card.aura or card.ranged or card.quick or card.gigantic or card.build
            or card.needs_build or card.haste or card.defense or card.resurrection)
        assert card.text or plain_unit, card.name
        if card.kind in ("command", "environment", "hero"):
            assert card.text, card.name


def test_the_rulebooks_names_and_figures_are_kept() -> None:
    assert set(BY_NAME) >= RULEBOOK_NAMES
    assert all(not BY_NAME[name].ours for name in RULEBOOK_NAMES)
    figures = {
        "Dracomancer": (1, 1, 2, 0, 1), "Soot": (4, 4, 4, 0, None),
        "Drake": (2, 4, 1, 0, None), "Bronzebeard Bulwark": (2, 1, 1, 0, 4),
        "Goldguard Garrison": (None, None, 3, 2, None), "Nether Cannon": (None, None, None, 0, 1),
        "Brood Wurm": (2, None, None, None, None), "Bitterbrew Batterers": (2, None, None, None,
                                                                            None),
        "Ironborne Dwarf": (None, 1, None, None, None),
        "Dwarf Lord Grim'gor": (None, None, None, None, None),
    }
    for name, wanted in figures.items():
        card = BY_NAME[name]
        got = (card.cost, card.movement, card.attack, card.armor, card.health)
        assert all(w is None or w == g for w, g in zip(wanted, got, strict=True)), name
    assert BY_NAME["Dwarf Lord Grim'gor"].lord and BY_NAME["Dwarf Lord Grim'gor"].max_attack == 2
    assert BY_NAME["Shift"].cost == 1 and BY_NAME["Flight"].cannot_stack
    assert BY_NAME["Forge Master"].aura is not None and BY_NAME["Forge Master"].aura.size == 2
