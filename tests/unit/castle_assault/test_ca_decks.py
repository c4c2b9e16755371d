"""Deck lists: files in text and TOML, every legality rule broken once, stock lists that round
trip, and a match that plays the decks its options record."""

from __future__ import annotations

from pathlib import Path

import pytest
from ca_support import ENGINE

from siege.contracts.events import MatchCreated
from siege.games.castle_assault import decks
from siege.games.castle_assault.cards import BY_NAME, CARDS, WARBAND_CARDS, stock_deck
from siege.games.castle_assault.heroes import HEROES
from siege.games.castle_assault.rules.stats import hero_of


def _legal() -> decks.Deck:
    return decks.stock("dragons")


def _with(deck: decks.Deck, **changes: object) -> decks.Deck:
    fields = {"warband": deck.warband, "hero": deck.hero, "cards": dict(deck.cards)}
    fields.update(changes)
    return decks.Deck(**fields)  # type: ignore[arg-type]


def test_every_stock_deck_is_legal_and_round_trips_through_both_file_formats(
        tmp_path: Path) -> None:
    for warband in WARBAND_CARDS:
        deck = decks.stock(warband)
        assert decks.problems(deck) == [], warband
        text = "\n".join([f"warband: {deck.warband}", f"hero: {deck.hero}"]
                         + [f"{n}x {name}" for name, n in deck.cards.items()])
        (tmp_path / "d.txt").write_text(text)
        assert decks.read(tmp_path / "d.txt") == deck
        toml = [f'warband = "{deck.warband}"', f'hero = "{deck.hero}"', "[cards]"]
        toml += [f'"{name}" = {n}' for name, n in deck.cards.items()]
        (tmp_path / "d.toml").write_text("\n".join(toml))
        assert decks.read(tmp_path / "d.toml") == deck


def test_each_rule_broken_once_is_named() -> None:
    base = _legal()
    few: dict[str, int] = {}
    for name, copies in base.cards.items():  # one card short of the smallest deck
        take = min(copies, decks.MIN_CARDS - 1 - sum(few.values()))
        if take > 0:
            few[name] = take
    cases = {
        "cards; a deck holds 30 to 40": _with(base, cards=few),
        "copies; at most 2": _with(base, cards={**base.cards, "Soot": 3}),
        "is Epic: one copy at most": _with(base, cards={**base.cards,
                                                         "Pyrexia, The Brood Queen": 2}),
        "belongs to the Adamantine Anvil Dwarves": _with(base, cards={**base.cards,
                                                                     "Forge Master": 1}),
        "no card named 'Dragon Tooth'": _with(base, cards={**base.cards, "Dragon Tooth": 1}),
        "no hero named": _with(base, hero=""),
        "unknown hero 'Smaug'": _with(base, hero="Smaug"),
        "unknown warband 'orcs'": _with(base, warband="orcs"),
    }
    for expected, deck in cases.items():
        found = decks.problems(deck)
        assert any(expected in reason for reason in found), (expected, found)
    # Several faults at once are all listed.
    swapped = {**base.cards, "Dracomancer": base.cards["Dracomancer"] - 1, "Dragon Tooth": 1}
    both = _with(base, hero="", cards=swapped)  # same size: exactly two faults
    assert len(decks.problems(both)) == 2


def test_a_plain_text_deck_reads_counts_comments_and_single_cards() -> None:
    deck = decks.parse("# my list\nwarband: dwarves\nhero: Oren Iron-Veins\n2 Forge Master\n"
                       "Forge Master  # a third line for the same card\n3x Ironborne Dwarf\n")
    assert deck.cards == {"Forge Master": 3, "Ironborne Dwarf": 3}
    with pytest.raises(decks.DeckFileError):
        decks.parse("2\n")
    with pytest.raises(decks.DeckFileError):
        decks.parse("warband = [", toml=True)


def test_a_match_plays_the_decks_its_options_record_and_refuses_an_illegal_one() -> None:
    mine = _with(_legal(), cards={**_legal().cards, "Shift": 2, "Flight": 2})
    mine = _with(mine, cards={k: v for k, v in mine.cards.items() if k != "Hoard Frenzy"})
    theirs = decks.stock("dwarves")
    created = MatchCreated(game="castle-assault", players=2, seat_names=["a", "b"],
                           options={"decks": decks.encode([mine, theirs])})
    state = ENGINE.initial_state(created)
    assert sorted(CARDS[c].name for c in state.cards[0]).count("Flight") == 2
    assert BY_NAME["Hoard Frenzy"].id not in state.cards[0]
    assert state.hero_keys == ["dragons", "dwarves"]
    bad = _with(theirs, cards={**theirs.cards, "Soot": 1})
    with pytest.raises(ValueError, match="seat 1's deck: Soot belongs"):
        ENGINE.initial_state(MatchCreated(game="castle-assault", players=2,
                                          seat_names=["a", "b"],
                                          options={"decks": decks.encode([mine, bad])}))


def test_show_lists_every_card_with_cost_and_text() -> None:
    lines = decks.show(decks.stock("dragons"))
    size = len(stock_deck("dragons"))
    assert lines[0].startswith(f"Burning Brood Dragons ({size} cards), hero "
                               + HEROES["dragons"].name)
    assert any(line.startswith("2 x Soot  cost 4  M4 A4 Ar0 H3  Quick.") for line in lines)


def test_a_deck_may_bring_another_warbands_hero() -> None:
    mine = _with(_legal(), hero=HEROES["dwarves"].name)
    created = MatchCreated(game="castle-assault", players=2, seat_names=["a", "b"],
                           options={"decks": decks.encode([mine, decks.stock("fae")])})
    state = ENGINE.initial_state(created)
    assert state.hero_keys == ["dwarves", "fae"]
    view = ENGINE.view(state, 1)
    assert [CARDS[c].name for c in view.heroes_played] == [HEROES["dwarves"].name,
                                                          HEROES["fae"].name]
    assert hero_of(state, 0).armor == HEROES["dwarves"].armor  # Oren's Captain skill
