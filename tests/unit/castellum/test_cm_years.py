"""The end of a year and the angel deck from year to year."""

from __future__ import annotations

from castellum_support import (
    ENGINE,
    WOOD_FROM_BRIDGE,
    angel,
    deal_angels,
    play,
    run_until,
    start,
    to_angels,
)

from siege.engine.protocol import ranks_from_keys
from siege.games.castellum.actions import PASS, PLACE_WORKER, BuyCard, PlaceAngel
from siege.games.castellum.board import DINGHUIS
from siege.games.castellum.cards import FORT_DECK, TROOP_DECK
from siege.games.castellum.rules.scoring import score

SERVAAS = 7


def test_the_end_of_a_year_clears_the_table_but_keeps_lines_hands_and_supplies() -> None:
    strength_card, kept = angel("boost", 4), angel("cancel")
    table = start(2, first=0, troops=[20])
    deal_angels(table, 0, [strength_card, kept])
    first_offer = list(table.state.offer)
    play(table, (0, BuyCard(card=20, column=1)), (1, PLACE_WORKER[DINGHUIS][0]),
         (0, WOOD_FROM_BRIDGE), (1, WOOD_FROM_BRIDGE))
    to_angels(table)
    play(table, (0, PlaceAngel(card=strength_card, column=0)), (0, PASS))
    run_until(table, lambda s: s.year == 1)
    state = table.state
    assert all(col.enemy == -1 and col.angels == [] for line in state.lines for col in line)
    assert state.lines[0][1].troops == [20] and state.lines[0][0].fort == 0
    assert state.hands[0] == [kept]
    assert state.dinghuis == [0, 0] and set(state.enemy_boost) == {0}
    assert state.workers == [3, 3] and all(on == [] for on in state.spaces)
    # Four new fortifications and eight new troops; the unbought offer went to the box.
    assert state.offer == list(FORT_DECK[4:8]) + list(TROOP_DECK[8:16])
    boxed = [card for card in first_offer if card != 20]
    everywhere = state.offer + state.fort_deck + state.troop_deck
    assert not set(boxed) & set(everywhere)
    assert state.first == 1
    # The angel card used below a column is shuffled back under the deck before income.
    assert table.need().purpose == "angel_reshuffle" and table.need().count == 1
    deck_before = list(state.angel_deck)
    table.shuffle([0])
    assert table.state.angel_deck == deck_before + [strength_card]
    assert table.state.angel_discard == []


def test_an_empty_angel_deck_gives_nothing() -> None:
    table = start(2, first=0)
    table.state.angel_deck = []
    table.when(0, PLACE_WORKER[SERVAAS][0])
    assert table.state.hands[0] == []
    assert table.state.asking == "worker" and table.asked == 1


def test_after_1794_the_game_is_over_with_no_fifth_year_and_final_scoring_decides() -> None:
    # Given the 1794 Angel phase, seat 0 holding two angel cards
    table = start(2, first=1)
    run_until(table, lambda s: s.year == 3 and s.phase == "building")
    first = table.state.first
    below, kept = angel("boost", 4), angel("cancel")
    deal_angels(table, 0, [below, kept])
    to_angels(table)
    # When it places one below a column, passes, and the year is played out
    play(table, (0, PlaceAngel(card=below, column=0)), (0, PASS))
    run_until(table, lambda s: False)
    state = table.state
    # Then the year is cleared as any other (enemies boxed, the placed card discarded) ...
    assert all(col.enemy == -1 and col.angels == [] for line in state.lines for col in line)
    assert below in state.angel_discard
    # ... but nothing follows: no reshuffle, no fifth year, no income, workers or offer
    assert ENGINE.is_terminal(state) and state.phase == "over" and state.year == 3
    assert ENGINE.pending(state).chance is None and ENGINE.pending(state).seats == frozenset()
    assert all(ENGINE.legal_actions(state, seat) == [] for seat in range(2))
    assert state.workers == [0, 0] and state.first == first
    assert state.fort_deck == [] and state.troop_deck == []
    # and the final scoring ranks the seats; a card left in hand scores nothing
    assert state.hands[0] == [kept]
    totals = [score(state, seat).total for seat in range(2)]
    assert ENGINE.ranks(state) == ranks_from_keys(totals)
    state.hands[0] = []
    assert [score(state, seat).total for seat in range(2)] == totals
