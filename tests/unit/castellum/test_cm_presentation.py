"""Castellum: Maastricht for people: every action and event has a line, every board fits a
terminal, and no line or board tells a seat what its view hides (another seat's angel cards
and dealt enemy cards, the card discarded face down over the hand limit)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import msgspec
import pytest
from castellum_support import (
    ENGINE,
    Table,
    angel,
    build,
    deal_angels,
    start,
    to_angels,
)

from siege.contracts.events import Event, GameEvent
from siege.engine.protocol import SPECTATOR
from siege.games.castellum import actions as a
from siege.games.castellum import events as e
from siege.games.castellum.cards import GOLD, STONE
from siege.games.castellum.presentation import PRESENTATION
from siege.games.castellum.reference import reference
from siege.games.castellum.state import State
from siege.games.castellum.views import CastellumView
from siege.testing.playout import seeded_playout
from siege.testing.presenting import assert_line
from siege.testing.presenting import render as render_board

COLOURS = ["Red", "Blue", "Green", "Yellow"]
SEEDS = (0, 1, 2)
COUNTS = (ENGINE.min_players, ENGINE.max_players)
CASES = [(players, seed) for players in COUNTS for seed in SEEDS]
REF = reference()
ANGEL_NAMES = [card["name"] for card in REF["angel_cards"]]
ENEMY_NAMES = [card["name"] for card in REF["enemy_cards"]]
SPACE = {space["name"]: space["id"] for space in REF["spaces"]}
SERVAAS, VROUWE, OUDE_BRUG = SPACE["Sint-Servaas"], SPACE["Onze Lieve Vrouwe"], SPACE["Oude Brug"]
PIKEMEN, MUSKETEERS = 20, 24
# 1579, two players: seat 0 faces Walloon Horse (3) and Lancers (4), seat 1 Siege Culverin (5)
# and Miners (6).
ENEMIES = {0: [3, 4, 5, 6]}
PLAN = {0: [(3, 0, 0), (4, 0, 1)], 1: [(5, 1, 0), (6, 1, 1)]}

Decision = tuple[int, list[Any], list[CastellumView]]


def names(players: int) -> list[str]:
    return COLOURS[:players]


def render(view: CastellumView, seat_names: list[str]) -> str:
    return render_board(PRESENTATION, view, seat_names)


def views_of(state: State) -> list[CastellumView]:
    """Every seat's view, then the spectator's."""
    return [ENGINE.view(state, seat) for seat in (*range(state.players), SPECTATOR)]


@cache
def playout(players: int, seed: int) -> tuple[list[Decision], list[Event]]:
    """(seat asked, its legal actions, every view) at every decision and after the end, and
    the log."""
    decisions: list[Decision] = []

    def on_action(state: State, seat: int, action: Any) -> None:
        decisions.append((seat, ENGINE.legal_actions(state, seat), views_of(state)))

    bots = ["greedy"] + ["random"] * (players - 1)
    state, events = seeded_playout(ENGINE, bots, seed, on_action=on_action)
    decisions.append((-1, [], views_of(state)))
    return decisions, events


# --- scripted tables for what the bots seldom or never play -----------------------------------


def _driven(table: Table, moves: list[tuple[int, Any]]) -> tuple[list[Decision], list[Event]]:
    decisions: list[Decision] = []
    events: list[Event] = []
    for seat, action in moves:
        assert seat in table.waiting, (seat, table.waiting, action)
        decisions.append((seat, table.legal(seat), views_of(table.state)))
        events += table.when(seat, action)
    decisions.append((-1, [], views_of(table.state)))
    return decisions, events


@cache
def take_and_cancel() -> tuple[list[Decision], list[Event]]:
    """Seat 0 takes seat 1's Musketeers; seat 1 cancels, seat 0 lets the cancel stand."""
    table = start(2, first=0, enemies=ENEMIES)
    build(table, 1, 1, troops=[MUSKETEERS])
    deal_angels(table, 0, [angel("take"), angel("boost")])
    deal_angels(table, 1, [angel("cancel")])
    to_angels(table, PLAN)
    return _driven(table, [
        (0, a.UseAngel(card=angel("take"))),
        (0, a.TargetTroop(owner=1, card=MUSKETEERS)),
        (0, a.TargetColumn(column=1)),
        (1, a.CancelEffect(card=angel("cancel"))),
        (0, a.DECLINE),
    ])


@cache
def take_from_the_offer() -> tuple[list[Decision], list[Event]]:
    """Seat 0 takes an unbought Pikemen from the offer, paying the bank."""
    table = start(2, first=0, enemies=ENEMIES, troops=[PIKEMEN])
    deal_angels(table, 0, [angel("take")])
    to_angels(table, PLAN)
    return _driven(table, [
        (0, a.UseAngel(card=angel("take"))),
        (0, a.TargetTroop(owner=-1, card=PIKEMEN)),
        (0, a.TargetColumn(column=0)),
    ])


@cache
def cancel_of_a_cancel_then_a_discard() -> tuple[list[Decision], list[Event]]:
    """In the Building phase seat 0 uses a resources effect, seat 1 cancels it and seat 0
    cancels the cancel; then seat 0 draws two angel cards, one over the limit, and discards."""
    table = start(2, first=0)
    deal_angels(table, 0, [angel("resources"), angel("cancel"), angel("switch"), angel("boost")])
    deal_angels(table, 1, [angel("cancel", 1)])
    return _driven(table, [
        (0, a.UseAngel(card=angel("resources"))),
        (0, a.TargetResources(resources=(STONE, GOLD))),
        (1, a.CancelEffect(card=angel("cancel", 1))),
        (0, a.CancelEffect(card=angel("cancel"))),
        (0, a.PLACE_WORKER[SERVAAS][0]),
        (1, a.PLACE_WORKER[OUDE_BRUG][0]),
        (0, a.PLACE_WORKER[VROUWE][0]),
        (0, a.DiscardAngel(card=angel("switch"))),
    ])


SCRIPTS: list[Callable[[], tuple[list[Decision], list[Event]]]] = [
    take_and_cancel, take_from_the_offer, cancel_of_a_cancel_then_a_discard]


# --- every line, every board ------------------------------------------------------------------


def test_every_action_and_event_type_has_a_line() -> None:
    assert set(PRESENTATION.actions) == set(ENGINE.action_types)
    assert set(PRESENTATION.events) == set(ENGINE.event_types)
    assert PRESENTATION.title == "Castellum: Maastricht"
    lines = PRESENTATION.rules_summary.splitlines()
    assert 6 <= len(lines) <= 15
    assert all(0 < len(line) <= 80 for line in lines)


def test_the_scripts_and_playouts_reach_every_action_and_event_type() -> None:
    actions: set[type] = set()
    events: set[type] = set()
    for decisions, log in [playout(*case) for case in CASES] + [run() for run in SCRIPTS]:
        actions |= {type(action) for _, legal, _ in decisions for action in legal}
        events |= {type(event) for event in log}
    assert actions == set(ENGINE.action_types)
    assert events >= set(ENGINE.event_types)


def _event_lines(players: int, log: list[Event]) -> None:
    game_events = [ev for ev in log if type(ev) in PRESENTATION.events]
    assert game_events
    for event in game_events:
        for seat in (*range(players), None):
            assert_line(PRESENTATION.event(event, names(players), seat))


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_event_of_a_playout_reads_as_a_line_for_every_listener(
        players: int, seed: int) -> None:
    _, log = playout(players, seed)
    assert {type(ev) for ev in log} >= {e.WorkerPlaced, e.CardBought, e.EnemyPlaced}
    _event_lines(players, log)


@pytest.mark.parametrize("run", SCRIPTS)
def test_every_event_of_a_scripted_table_reads_as_a_line_for_every_listener(
        run: Callable[[], tuple[list[Decision], list[Event]]]) -> None:
    _, log = run()
    _event_lines(2, log)


def _action_lines(players: int, decisions: list[Decision]) -> None:
    assert decisions
    for seat, legal, views in decisions[:-1]:
        assert legal
        for action in legal:
            assert_line(PRESENTATION.action(action, views[seat], names(players)))


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_legal_action_at_every_decision_reads_as_a_line(players: int, seed: int) -> None:
    decisions, _ = playout(players, seed)
    _action_lines(players, decisions)


@pytest.mark.parametrize("run", SCRIPTS)
def test_every_legal_action_of_a_scripted_table_reads_as_a_line(
        run: Callable[[], tuple[list[Decision], list[Event]]]) -> None:
    decisions, _ = run()
    _action_lines(2, decisions)


def _fits(text: str) -> None:
    lines = text.splitlines()
    assert 0 < len(lines) <= 40, text
    assert all(len(line) <= 80 for line in lines), text


def _marked(text: str, view: CastellumView) -> None:
    """Only the viewing seat is marked "(you)"; a spectator nobody."""
    if view.seat == SPECTATOR:
        assert "(you)" not in text and "Your " not in text, text
        return
    mine = f"{COLOURS[view.seat]} (you)"
    assert mine in text
    assert "(you)" not in text.replace(mine, ""), text


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_board_of_every_seat_fits_80_columns_and_40_lines(players: int, seed: int) -> None:
    decisions, _ = playout(players, seed)
    for _, _, views in decisions:
        for view in views:
            text = render(view, names(players))
            _fits(text)
            _marked(text, view)


@pytest.mark.parametrize("run", SCRIPTS)
def test_every_board_of_a_scripted_table_fits_and_marks_only_its_seat(
        run: Callable[[], tuple[list[Decision], list[Event]]]) -> None:
    decisions, _ = run()
    for _, _, views in decisions:
        for view in views:
            text = render(view, names(2))
            _fits(text)
            _marked(text, view)


@pytest.mark.parametrize("players", COUNTS)
def test_the_boards_while_chance_is_awaited_fit_too(players: int) -> None:
    # The setup and every year's start wait for dice or shuffles, with nobody to act.
    _, log = playout(players, 0)
    state = ENGINE.initial_state(log[0])
    seen = set()
    for event in [None, *log[1:]]:
        if event is not None:
            state = ENGINE.evolve(state, event)
        if ENGINE.pending(state).chance is None:
            continue
        seen.add(state.phase)
        for view in views_of(state):
            text = render(view, names(players))
            _fits(text)
            _marked(text, view)
            assert "waiting for the" in text and "to act" not in text
    assert seen == {"setup", "year_start"}


def test_the_board_fits_with_long_seat_names_and_prints_markup_literally() -> None:
    long_names = ["Brunhilde of the Long Name", "A" * 40, "[bold]x[/bold]",
                  "Sir Reginald Longbottom"]
    for seed in SEEDS:
        decisions, _ = playout(ENGINE.max_players, seed)
        for _, _, views in decisions[::4]:
            for view in views:
                text = render(view, long_names)
                _fits(text)
                assert "[bold]x[/bo" in text  # shown as typed, not read as markup


def test_the_board_shows_the_lines_numbers_and_own_hand_by_name() -> None:
    # Seat 0 holds two angel cards and faces Walloon Horse and Lancers with Musketeers bought.
    table = start(2, first=0, enemies=ENEMIES)
    build(table, 0, 1, troops=[MUSKETEERS])
    deal_angels(table, 0, [angel("boost"), angel("cancel")])
    deal_angels(table, 1, [angel("take")])
    to_angels(table, PLAN)
    view = ENGINE.view(table.state, 0)
    wood, stone, gold = view.resources[0]
    text = render(view, names(2))
    for words in ("Castellum: Maastricht | 1579, year 1 of 4 | phase 3, Angels",
                  "to act: Red (you), Angel turn",
                  f"Red (you): wood {wood} stone {stone} gold {gold}, angels 2",
                  "Blue: wood", "angels 1", "1 City Gate", "Walloon Horse cav 1p",
                  "2 Musketeers", "Lancers cav 2p", "Siege Culverin", "Miners sap 1p -stone",
                  f"{view.lines[0][1].strength} v {view.lines[0][1].enemy_strength}",
                  "Reward 1579: needs 2 defeats together",
                  "Your angel cards (2 of 3): Boost angel (1), Cancel angel (1)",
                  f"Decks: angels {view.angel_deck_size}"):
        assert words in text, (words, text)
    assert "Take angel" not in text  # Blue's card shows as a count only


def test_lines_use_card_and_seat_names() -> None:
    decisions, log = take_and_cancel()
    seat_names = names(2)
    said = {type(ev): PRESENTATION.event(ev, seat_names, None) for ev in log
            if isinstance(ev, GameEvent)}
    assert said[e.TroopTargeted] == "Red chose to take Musketeers from Blue's Line, paying Blue " \
                                    "1 wood, 2 gold"
    assert said[e.CancelPlayed].startswith("Blue played Cancel angel (1) to cancel")
    seat, legal, views = decisions[1]
    assert "take Musketeers (infantry troop 2) from Blue's Line, paying Blue 1 wood, 2 gold" in [
        PRESENTATION.action(action, views[seat], seat_names) for action in legal]
    seat, legal, views = decisions[3]
    lines = [PRESENTATION.action(action, views[seat], seat_names) for action in legal]
    assert "cancel Red's take of Musketeers from your Line into Red's column 2 with Cancel " \
           "angel (1)" in lines
    assert "let Red's take of Musketeers from your Line into Red's column 2 stand" in lines


# --- hidden information -----------------------------------------------------------------------


def _discards() -> list[tuple[int, e.AngelDiscarded]]:
    found = [(players, ev) for players, seed in CASES for ev in playout(players, seed)[1]
             if isinstance(ev, e.AngelDiscarded)]
    found += [(2, ev) for ev in cancel_of_a_cancel_then_a_discard()[1]
              if isinstance(ev, e.AngelDiscarded)]
    return found


def test_a_discarded_angel_card_is_named_only_to_its_owner() -> None:
    discards = _discards()
    assert discards
    for players, event in discards:
        seat_names = names(players)
        mine = PRESENTATION.event(event, seat_names, event.seat)
        assert mine.startswith("You discarded") and ANGEL_NAMES[event.card] in mine
        for listener in (*(s for s in range(players) if s != event.seat), None):
            line = PRESENTATION.event(event, seat_names, listener)
            assert "an angel card" in line
            assert not any(name in line for name in ANGEL_NAMES), line
            # The same line whatever the card: it cannot give the card away.
            for card in range(len(ANGEL_NAMES)):
                other = msgspec.structs.replace(event, card=card)
                assert PRESENTATION.event(other, seat_names, listener) == line


def test_drawing_an_angel_card_names_no_card_to_anyone() -> None:
    event = e.WorkerPlaced(seat=0, space=SERVAAS)
    for listener in (0, 1, None):
        line = PRESENTATION.event(event, names(2), listener)
        assert "for an angel card" in line
        assert not any(name in line for name in ANGEL_NAMES)


def test_letting_an_effect_stand_reads_the_same_whatever_the_seat_holds() -> None:
    # Every seat with cards is asked, so the answer must not tell whether it could cancel.
    line = PRESENTATION.event(e.CancelDeclined(seat=1), names(2), None)
    assert line == "Blue let the effect stand"


def _with_other_secrets(state: State, seat: int) -> State:
    """The same table with ``seat``'s angel and enemy cards swapped for others from the decks
    and every deck reversed: nothing another seat may see has changed."""
    other = msgspec.convert(msgspec.to_builtins(state), State)
    for hand, deck in ((other.hands[seat], other.angel_deck),
                       (other.enemy_hands[seat], other.enemy_decks[other.year])):
        swap = min(len(hand), len(deck))
        hand[:swap], deck[:swap] = deck[:swap], hand[:swap]
    for cards in (other.angel_deck, other.fort_deck, other.troop_deck, other.angel_discard,
                  *other.enemy_decks):
        cards.reverse()
    return other


@pytest.mark.parametrize(("players", "seed"), [(ENGINE.max_players, 0), (ENGINE.min_players, 1)])
def test_another_seats_hands_do_not_change_a_board(players: int, seed: int) -> None:
    _, log = playout(players, seed)
    changed = 0
    state = ENGINE.initial_state(log[0])
    for k, event in enumerate(log[1:]):
        state = ENGINE.evolve(state, event)
        if k % 5 or not (any(state.hands) or any(state.enemy_hands)):
            continue
        for owner in range(players):
            other = _with_other_secrets(state, owner)
            changed += other.hands[owner] != state.hands[owner] or \
                other.enemy_hands[owner] != state.enemy_hands[owner]
            for seat in (*(s for s in range(players) if s != owner), SPECTATOR):
                assert render(ENGINE.view(other, seat), names(players)) == \
                    render(ENGINE.view(state, seat), names(players))
    assert changed  # the swap did change hidden cards, so the check could fail


def test_dealt_enemy_cards_show_by_name_only_to_their_holder() -> None:
    # At the first Siege decision no enemy card is on the table yet: every enemy name a board
    # shows is one of its own seat's dealt cards.
    for players in COUNTS:
        decisions, _ = playout(players, 0)
        _, _, views = next(d for d in decisions if d[2][0].phase == "siege")
        for view in views:
            text = render(view, names(players))
            own = {ENEMY_NAMES[card] for card in view.enemy_hand}
            assert {name for name in ENEMY_NAMES if f"\n  {name}: " in text} == own
            for seat in range(players):
                line = next(line for line in text.splitlines()
                            if line.startswith(f"{COLOURS[seat]}"))
                assert f"enemies {view.enemy_hand_sizes[seat]}" in line
            if view.seat == SPECTATOR:
                assert "Your enemy cards" not in text
