"""Setup: the first player, the decks, the start of every Line, and the four years."""

from __future__ import annotations

import msgspec
import pytest
from castellum_support import ENGINE, Table, at, created, deal_angels, run_until, start

from siege.contracts.events import (
    ChanceRequested,
    DeckShuffled,
    DiceRolled,
    MatchCreated,
    MatchEnded,
    PlayerSeedAdded,
    SeatTimedOut,
    SeedCommitted,
    SeedRevealed,
)
from siege.engine.protocol import ChanceMismatchError
from siege.engine.registry import get_engine, register
from siege.games.castellum.board import SPACES
from siege.games.castellum.cards import FORT_DECK, START_FORTS, TROOP_DECK
from siege.games.castellum.engine import Castellum
from siege.games.castellum.state import columns_open


def test_the_engine_registers_under_its_name() -> None:
    register(Castellum())
    engine = get_engine("castellum")
    assert engine.name == "castellum"
    assert (engine.min_players, engine.max_players) == (2, 4)


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_outside_two_to_four_are_refused(players: int) -> None:
    with pytest.raises(ValueError):
        ENGINE.initial_state(created(players))


def test_setup_rolls_for_the_first_player_then_shuffles_the_seven_decks_in_order() -> None:
    table = Table(3)
    first = ENGINE.pending(table.state)
    assert first.chance is not None and first.seats == frozenset()
    assert (first.chance.kind, first.chance.count, first.chance.sides) == ("dice", 1, 3)
    table.roll(2)
    assert table.state.first == 1  # face f names seat f - 1
    seen = []
    decision = first.decision
    while table.state.phase == "setup":
        need = table.need()
        assert ENGINE.pending(table.state).decision > decision
        decision = ENGINE.pending(table.state).decision
        seen.append((need.kind, need.purpose, need.count))
        table.shuffle(list(reversed(range(need.count))))
    assert seen == [
        ("shuffle", "angel_shuffle", 28),
        ("shuffle", "fort_shuffle", 16),
        ("shuffle", "troop_shuffle", 32),
        ("shuffle", "enemy_shuffle_1579", 8),
        ("shuffle", "enemy_shuffle_1632", 12),
        ("shuffle", "enemy_shuffle_1673", 16),
        ("shuffle", "enemy_shuffle_1794", 20),
    ]
    # The reversed order puts the highest ids on top; the offer is drawn from the tops.
    assert table.state.offer == [19, 18, 17, 16] + list(range(51, 43, -1))
    assert table.state.angel_deck[0] == 27


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_starts_with_its_fortification_resources_and_two_free_workers(
        players: int) -> None:
    table = start(players, first=players - 1)
    state = table.state
    for seat in range(players):
        assert state.lines[seat][0].fort == START_FORTS[seat]
        assert all(col.fort == -1 and not col.troops for col in state.lines[seat][1:])
        assert state.resources[seat] == [3, 3, 3]
        assert state.workers[seat] == 2  # three more wait on the city wall
        assert state.hands[seat] == [] and state.defeated[seat] == []
    assert columns_open(state) == 2
    # Four fortifications and eight troops face up, from the tops of their decks.
    assert state.offer == list(FORT_DECK[:4]) + list(TROOP_DECK[:8])
    assert len(state.fort_deck) == 12 and len(state.troop_deck) == 24
    assert [len(deck) for deck in state.enemy_decks] == [8, 12, 16, 20]
    assert state.phase == "building" and state.asking == "worker"
    assert table.waiting == frozenset({players - 1})  # the first player places first


@pytest.mark.parametrize("players", [2, 4])
def test_the_four_years_bring_two_three_four_and_five_workers_columns_and_enemies(
        players: int) -> None:
    table = start(players)
    deal_angels(table, 0, [0])  # a card to pass with, so that every Angel phase asks seat 0
    seen = []
    for year in range(4):
        run_until(table, lambda s, y=year: s.year == y and s.phase == "building")
        workers = list(table.state.workers)
        run_until(table, at("siege"))
        dealt = [len(hand) for hand in table.state.enemy_hands]
        seen.append((table.state.year, workers, columns_open(table.state), dealt))
        run_until(table, at("angels"))
        # Every available column holds exactly one enemy card, the others none.
        for line in table.state.lines:
            held = [col.enemy != -1 for col in line]
            assert held == [True] * (year + 2) + [False] * (3 - year)
    assert seen == [(y, [y + 2] * players, y + 2, [y + 2] * players) for y in range(4)]


def test_the_first_player_card_passes_clockwise_every_year() -> None:
    table = start(3, first=2)
    firsts = []
    for year in range(4):
        run_until(table, lambda s, y=year: s.year == y and s.phase == "building")
        firsts.append(table.state.first)
    assert firsts == [2, 0, 1, 2]


def test_a_game_ends_after_1794_and_nobody_is_asked_any_more() -> None:
    table = start(2)
    run_until(table, lambda s: False)
    assert ENGINE.is_terminal(table.state)
    assert table.state.phase == "over" and table.state.year == 3
    assert ENGINE.pending(table.state).seats == frozenset()
    assert ENGINE.pending(table.state).chance is None
    assert ENGINE.legal_actions(table.state, 0) == []


def test_evolve_ignores_core_events_the_game_does_not_need() -> None:
    table = start(2)
    before = msgspec.to_builtins(table.state)
    for event in (MatchCreated(game="castellum", players=2, seat_names=["a", "b"]),
                  SeedCommitted(commitment="00"), PlayerSeedAdded(seat=0, seed="01"),
                  ChanceRequested(kind="dice", sides=6, count=1, purpose="x"),
                  SeatTimedOut(seat=0, decision=3), MatchEnded(ranks=[1, 2]),
                  SeedRevealed(seed="00")):
        table.fold(event)
    assert msgspec.to_builtins(table.state) == before


def test_a_chance_answer_that_does_not_fit_the_request_is_refused() -> None:
    table = Table(2)
    with pytest.raises(ChanceMismatchError):
        table.fold(DiceRolled(request=1, first_index=0, values=[1, 2]))
    with pytest.raises(ChanceMismatchError):  # a shuffle where a die is due
        table.fold(DeckShuffled(request=1, first_index=0, order=[0]))
    assert table.need().purpose == "first_player"  # nothing changed


def test_the_board_names_the_rulebook_spaces() -> None:
    names = {space.name: space for space in SPACES}
    assert names["Oude Brug"].choices == 1 and names["Markt"].choices == 2
    assert names["Dinghuis"].capacity == 1
