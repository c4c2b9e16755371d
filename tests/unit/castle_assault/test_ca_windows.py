"""Response windows: Instants during the opponent's movement and combat, an Instant answering
an Instant, a window closing once both pass, and a window that never reveals a hand."""

from __future__ import annotations

from ca_support import ENGINE, PETE, YOU, Table, put, start

from siege.contracts.events import MatchEnded, SeedCommitted
from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME
from siege.hosting.clocks import timed_out
from siege.hosting.match_state import MatchState, fold
from siege.hosting.rules import expected_follow_up


def _ready(t: Table, seat: int, count: int) -> None:
    t.s.resources[seat] = [t.s.decks[seat].pop() for _ in range(count)]


def _hand(t: Table, seat: int, name: str) -> int:
    """Moves the first copy of the named card from the seat's deck into its hand."""
    i = next(i for i in t.s.decks[seat] if t.s.cards[seat][i] == _id(name))
    t.s.decks[seat].remove(i)
    t.s.hands[seat].append(i)
    return i


def _id(name: str) -> int:
    return BY_NAME[name].id


def test_an_instant_during_the_opponents_movement_and_the_window_order() -> None:
    t = start(auto_pass=False)
    raider = put(t, YOU, "Ash Raider", 1, 3)
    _ready(t, PETE, 1)
    _ready(t, YOU, 1)
    hold = _hand(t, PETE, "Hold the Line")
    t.start_turn(1)
    # Before your Move Units step, Pete (whose turn it is not) is asked first.
    assert t.s.asking == "respond" and t.waiting == {PETE} and t.s.window.kind == "movement"
    assert a.PlayCommand(card=hold, unit=-1) not in t.legal(PETE)
    t.when(PETE, a.PASS_RESPONSE)
    assert t.waiting == {YOU}  # then you
    t.when(YOU, a.PASS_RESPONSE)
    assert t.s.window is None and raider.row == 6


def test_an_instant_in_combat_changes_the_fight_and_an_instant_answers_an_instant() -> None:
    t = start(auto_pass=False)
    raider = put(t, YOU, "Ash Raider", 1, 4)  # Attack 2 (+1 Smash)
    bulwark = put(t, PETE, "Bronzebeard Bulwark", 1, 6)  # Health 4
    _ready(t, PETE, 2)
    hold = _hand(t, PETE, "Hold the Line")
    t.s.resources[YOU] = [t.s.decks[YOU].pop() for _ in range(3)]
    breath = _hand(t, YOU, "Searing Breath")
    t.start_turn(1)
    t.when(PETE, a.PASS_RESPONSE)  # the movement window
    t.when(YOU, a.PASS_RESPONSE)
    # The Raider moves 1 and touches the Bulwark: the combat waits for its window.
    assert raider.row == 5 and t.s.fight is not None and t.s.window.kind == "combat"
    assert t.waiting == {PETE}
    t.when(PETE, a.PlayCommand(card=hold, unit=bulwark.uid))  # +2 Armor
    assert t.waiting == {YOU}  # you may answer the Instant
    t.when(YOU, a.PlayCommand(card=breath, unit=bulwark.uid))  # 2 damage, Armor ignored
    assert bulwark.damage == 2 and t.waiting == {PETE}
    t.when(PETE, a.PASS_RESPONSE)
    t.when(YOU, a.PASS_RESPONSE)  # both passed since the last Instant: the window closes
    clash = t.s.clashes[-1]
    assert (clash.target, clash.damage) == (bulwark.uid, 3 - 2)  # Armor 0 + 2 from Hold
    assert t.s.window is None and t.s.asking == "open"


def test_a_window_that_both_pass_closes_and_a_seat_without_cards_or_resources_is_skipped(
) -> None:
    t = start(auto_pass=False)
    put(t, YOU, "Ash Raider", 1, 4)
    put(t, PETE, "Bronzebeard Bulwark", 1, 6)
    _ready(t, YOU, 1)
    t.start_turn(1)
    # Pete has no Ready resource: only you are asked, once per window.
    assert t.waiting == {YOU} and t.s.window.kind == "movement"
    t.when(YOU, a.PASS_RESPONSE)
    assert t.waiting == {YOU} and t.s.window.kind == "combat"
    t.when(YOU, a.PASS_RESPONSE)
    assert t.s.window is None and t.s.asking == "open" and t.s.clashes


def test_a_window_asks_on_public_facts_only() -> None:
    """Pete is asked whether or not he holds an Instant: a card in hand and a Ready resource
    are all it takes, so the window says nothing about his hand."""
    asked = []
    for instant in (True, False):
        t = start(auto_pass=False)
        _ready(t, PETE, 1)
        if instant:
            _hand(t, PETE, "Hold the Line")
        t.roll(1, purpose="momentum")
        asked.append(t.waiting)
    assert asked == [{PETE}, {PETE}]


def test_a_seat_that_times_out_in_a_window_forfeits_and_the_match_ends() -> None:
    """A window is a decision like any other: the host's clock covers it, and a timeout there
    ends the match (the host's rule for every timeout) instead of stalling it."""
    t = start(auto_pass=False)
    put(t, YOU, "Ash Raider", 1, 3)
    _ready(t, PETE, 1)
    _hand(t, PETE, "Hold the Line")
    t.start_turn(1)
    assert t.s.asking == "respond" and t.waiting == {PETE}
    ms = MatchState("window-timeout")
    events = [t.events[0], SeedCommitted(commitment="00"), *t.events[1:]]
    for seq, event in enumerate(events, 1):
        fold(ms, seq, b"", event)
    ms.game = t.state  # the table as given (units and cards put there directly)
    timeout = timed_out(ms, PETE, ENGINE.pending(ms.game).decision)
    assert timeout is not None
    fold(ms, len(events) + 1, b"", timeout[0])
    end = expected_follow_up(ms)
    assert isinstance(end, MatchEnded) and end.reason == "forfeit" and end.ranks == [1, 2]
