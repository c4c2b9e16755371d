"""Storm the Castle! for people: every action and event has a line, every board fits a
terminal, and no line or board tells a listener a sealed bid, a Boss card or another seat's
hand that its view hides."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import msgspec
import pytest
from storm_support import start

from siege.contracts.events import Event
from siege.engine.protocol import SPECTATOR
from siege.games.storm_castle import actions as a
from siege.games.storm_castle import events as e
from siege.games.storm_castle.engine import StormTheCastle
from siege.games.storm_castle.presentation import PRESENTATION
from siege.games.storm_castle.reference import reference
from siege.games.storm_castle.views import StormView
from siege.hosting.narration import Narrator
from siege.testing.playout import seeded_playout
from siege.testing.presenting import assert_line
from siege.testing.presenting import render as render_board

ENGINE = StormTheCastle()
COLOURS = ["Red", "Blue", "Green", "Yellow"]
SEEDS = (0, 1, 2)
COUNTS = (ENGINE.min_players, ENGINE.max_players)
CASES = [(players, seed) for players in COUNTS for seed in SEEDS]
SAMPLES = 45  # boards drawn per playout, evenly spread over its decisions (drawing is slow)
REF = reference()
POWER_NAMES = [{card["id"]: card["name"] for card in cards} for cards in REF["power_cards"]]
BOSS_NAMES = [card["name"] for card in REF["boss_cards"]]
KIND_NAMES = [kind["name"] for kind in REF["unit_kinds"]]
DIGITS = re.compile(r"\d")

Decision = tuple[int, list[Any], list[StormView]]


def names(players: int) -> list[str]:
    return COLOURS[:players]


def render(view: StormView, seat_names: list[str]) -> str:
    return render_board(PRESENTATION, view, seat_names)


@cache
def playout(players: int, seed: int) -> tuple[list[Decision], list[Event], list[int]]:
    """(seat asked, its legal actions, views of every seat and then the spectator's) at every
    decision, the log, and the armies the seats played."""
    decisions: list[Decision] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        views = [ENGINE.view(state, s) for s in (*range(players), SPECTATOR)]
        decisions.append((seat, ENGINE.legal_actions(state, seat), views))

    bots = ["greedy"] + ["random"] * (players - 1)
    state, events = seeded_playout(ENGINE, bots, seed, on_action=on_action)
    return decisions, events, list(state.armies)


def sampled(decisions: list[Decision], count: int = SAMPLES) -> list[Decision]:
    return decisions[:: max(1, len(decisions) // count)]


def check_fits(text: str) -> None:
    lines = text.splitlines()
    assert 0 < len(lines) <= 40, f"{len(lines)} lines:\n{text}"
    assert all(len(line) <= 80 for line in lines), text


def test_every_action_and_event_type_has_a_line() -> None:
    assert set(PRESENTATION.actions) == set(ENGINE.action_types)
    assert set(PRESENTATION.events) == set(ENGINE.event_types)
    assert PRESENTATION.title == "Storm the Castle!"
    lines = PRESENTATION.rules_summary.splitlines()
    assert 6 <= len(lines) <= 15
    assert all(0 < len(line) <= 80 for line in lines)


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_event_of_a_playout_reads_as_a_line_for_every_listener(
        players: int, seed: int) -> None:
    _, events, _ = playout(players, seed)
    game_events = [ev for ev in events if type(ev) in PRESENTATION.events]
    assert {type(ev) for ev in game_events} >= {
        e.ArmyChosen, e.BattlefieldChosen, e.BossCardKept, e.UnitBought, e.UnitMoved,
        e.TargetAttacked, e.PlayerTurnEnded, e.PowerCardPlayed}
    for event in game_events:
        for seat in (*range(players), None):
            assert_line(PRESENTATION.event(event, names(players), seat))


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_legal_action_at_every_decision_reads_as_a_line(players: int, seed: int) -> None:
    decisions, _, _ = playout(players, seed)
    assert decisions
    for seat, legal, views in decisions:
        assert legal
        for action in legal:
            assert_line(PRESENTATION.action(action, views[seat], names(players)))


def test_every_action_type_reads_as_a_line_even_off_its_moment() -> None:
    # Some actions are rare in playouts (a Boss card discarded at wrap-up): each type is read
    # against views where it was not offered too, with ids that may point at nothing.
    decisions, _, _ = playout(ENGINE.max_players, 0)
    examples = [a.ChooseArmy(army=1), a.ChooseBattlefield(battlefield=2),
                a.PlaceDefender(space=10), a.PlaceDefender(space=10, keep=True),
                a.BidGold(gold=3), a.BreakTie(seat=1), a.KeepBossCard(card=2),
                a.TakeBossLoot(kind="magic"), a.ChooseToken(token=2),
                a.BuyUnit(kind=0, space=40), a.BuyChampion(space=40), a.BUY_UPGRADE,
                a.BUY_POWER_CARD, a.GiveGold(seat=2), a.END_BUYING, a.MoveUnit(unit=3, to=20),
                a.AttackTarget(unit=3, target=4), a.AttackTarget(unit=3, structure=1),
                a.END_TURN, a.MARCH, a.HOLD, a.OrderDefender(unit=5, to=6, target=7, spell=0),
                a.OrderDefender(unit=5, to=6, knock=2), a.DrawSpells(unit=5),
                a.CastSpell(card=18, unit=3, target=4), a.CastSpell(card=18, unit=3, target=-1,
                                                                    structure=2),
                a.CounterWithSpell(card=-1), a.CounterWithSpell(card=19),
                a.BuyEquipment(card=14, unit=3), a.BuyLadder(unit=3),
                a.DropEquipment(unit=3, card=100), a.DropEquipment(unit=3, card=16),
                a.PlaceLadder(unit=3, wall=1), a.PickUpLadder(unit=3, wall=1),
                a.PushUnit(unit=3, to=21), a.PlayCard(card=17), a.PlaceHero(space=12),
                a.PlayPowerCard(card=5), a.PlayBossCard(card=4),
                a.DiscardPowerCard(card=6), a.DiscardBossCard(card=7)]
    assert {type(x) for x in examples} == set(ENGINE.action_types)
    for _, _, views in (decisions[0], decisions[len(decisions) // 2], decisions[-1]):
        for view in views:
            for action in examples:
                assert_line(PRESENTATION.action(action, view, names(ENGINE.max_players)))


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_every_board_of_every_seat_fits_80_columns_and_40_lines(players: int, seed: int) -> None:
    decisions, _, _ = playout(players, seed)
    for _, _, views in sampled(decisions):
        for view in views:
            text = render(view, names(players))
            check_fits(text)
            if view.seat == SPECTATOR:
                assert "(you)" not in text
                continue
            assert f"{COLOURS[view.seat]} (you)" in text
            assert "(you)" not in text.replace(f"{COLOURS[view.seat]} (you)", "")


def test_the_board_fits_with_long_seat_names() -> None:
    long_names = ["Brunhilde of the Long Name", "A" * 40, "[bold]x[/bold]", "Z"]
    for seed in SEEDS:
        decisions, _, _ = playout(ENGINE.max_players, seed)
        for _, _, views in sampled(decisions, 10):
            for view in views:
                text = render(view, long_names)
                check_fits(text)
                assert "[bold]x[" in text  # markup in a name prints as it is


def test_the_board_shows_the_own_hand_by_name_and_the_other_hands_as_counts() -> None:
    # At the first Boss vote: Red plays the Green Tide holding Spy Network, Waaagh! and Troll
    # Regeneration; Blue the Dark Elves holding Ambush, Slave Raid and Veil of Night.
    table = start(2, hands=((5, 6, 7), (8, 9, 10)))
    red = render(ENGINE.view(table.state, 0), names(2))
    for words in ("Storm the Castle! | turn 1 of 8 | Who's the Boss? (the vote)",
                  "To act: Red (you), Blue, bidding gold (sealed)",
                  "Your hand (3): Spy Network, Waaagh!, Troll Regeneration",
                  "The Green Tide, north, set-up token 1", "Dark Elves, east, set-up token 2",
                  "[K]", "Keep walls N3 E3 S3 W3", "+2 Gold"):
        assert words in red, words
    for hidden in ("Ambush", "Slave Raid", "Veil of Night"):
        assert hidden not in red
    # Seats' counts: gold, magic, hand, deck, discard, Boss cards, votes ...
    rows = {line.split()[1]: line.split()[2:] for line in red.splitlines()
            if re.match(r"[12] (Red|Blue)\b", line) and line.split()[-1].isdigit()}
    assert rows["Red"][1:8] == ["5", "0", "3", "19", "0", "0", "1"]
    assert rows["Blue"][:7] == ["5", "0", "3", "19", "0", "0", "1"]
    spectator = render(ENGINE.view(table.state, SPECTATOR), names(2))
    assert "Your hand" not in spectator and "Spy Network" not in spectator


# --- hidden information -----------------------------------------------------------------------


def test_another_seats_hand_changes_nothing_on_a_board_but_its_owners() -> None:
    ours = start(2, hands=((5, 6, 7), (8, 9, 10)))
    theirs = start(2, hands=((11, 12, 18), (8, 9, 10)))
    for seat in (1, SPECTATOR):
        assert (render(ENGINE.view(ours.state, seat), names(2))
                == render(ENGINE.view(theirs.state, seat), names(2)))
    assert (render(ENGINE.view(ours.state, 0), names(2))
            != render(ENGINE.view(theirs.state, 0), names(2)))


def test_a_sealed_bid_is_told_only_to_its_bidder() -> None:
    found = 0
    for seed in SEEDS:
        _, events, _ = playout(ENGINE.max_players, seed)
        seat_names = names(ENGINE.max_players)
        for shown in (PRESENTATION, PRESENTATION.bound(events[0])):  # alone, and a match's
            for event in (ev for ev in events if isinstance(ev, e.GoldBid)):
                mine = shown.event(event, seat_names, event.seat)
                assert mine.startswith("You bid")
                assert (str(event.gold) in mine) == (event.gold > 0)
                for listener in (*(s for s in range(ENGINE.max_players) if s != event.seat),
                                 None):
                    line = shown.event(event, seat_names, listener)
                    assert "sealed" in line and not DIGITS.search(line), line
                    # The same line whatever the bid: it cannot give the amount away.
                    for gold in range(11):
                        other = msgspec.structs.replace(event, gold=gold)
                        assert shown.event(other, seat_names, listener) == line
                    found += 1
    assert found


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_a_boss_card_kept_is_named_to_nobody(players: int, seed: int) -> None:
    # The card is one only the Boss was offered, or a blind position in the ousted Boss's
    # hand: every listener, the Boss included, hears the same line whatever it is.
    _, events, _ = playout(players, seed)
    kept = [ev for ev in events if isinstance(ev, e.BossCardKept)]
    assert kept
    for shown in (PRESENTATION, PRESENTATION.bound(events[0])):
        for event in kept:
            for listener in (*range(players), None):
                line = shown.event(event, names(players), listener)
                assert not any(name in line for name in BOSS_NAMES), line
                for card in range(len(BOSS_NAMES)):
                    other = msgspec.structs.replace(event, card=card)
                    assert shown.event(other, names(players), listener) == line


def test_a_boss_card_discarded_is_named_only_to_its_owner() -> None:
    seat_names = names(4)
    for seat in range(4):
        event = e.BossCardDiscarded(seat=seat, card=6)
        assert PRESENTATION.event(event, seat_names, seat) == (
            "You discarded the Boss card Reign of Fear")
        for listener in (*(s for s in range(4) if s != seat), None):
            line = PRESENTATION.event(event, seat_names, listener)
            assert line == f"{COLOURS[seat]} discarded a Boss card"
            for card in range(len(BOSS_NAMES)):
                other = msgspec.structs.replace(event, card=card)
                assert PRESENTATION.event(other, seat_names, listener) == line


def test_the_boss_offer_shows_on_the_bosss_board_only() -> None:
    found = 0
    for seed in SEEDS:
        decisions, _, _ = playout(ENGINE.max_players, seed)
        for _, _, views in decisions:
            boss = next((v for v in views if v.boss_offer), None)
            if boss is None:
                continue
            offer = f"on offer: {', '.join(BOSS_NAMES[c] for c in boss.boss_offer)}"
            assert offer in " ".join(render(boss, names(4)).split())
            for view in views:
                if view.seat != boss.seat:
                    assert "on offer" not in render(view, names(4))
            found += 1
            break
    assert found


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_a_played_power_card_is_named_only_when_the_event_pins_it(
        players: int, seed: int) -> None:
    # Events give a power card's id, which means another card in each army, and not the army:
    # a line may name the card only where that name is the card played.
    _, events, armies = playout(players, seed)
    played = [ev for ev in events if isinstance(ev, e.PowerCardPlayed | e.PowerCardDiscarded
                                                    | e.CardPlayed | e.EquipmentBought)]
    assert played
    for event in played:
        actual = POWER_NAMES[armies[event.seat]][event.card]
        line = PRESENTATION.event(event, names(players), None)
        named = {POWER_NAMES[army][event.card] for army in range(4)
                 if POWER_NAMES[army][event.card] in line}
        assert named <= {actual} or (" or " in line and actual in named and len(named) == 2), (
            line, actual)


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_a_matchs_story_names_every_power_card_by_its_army_and_every_unit_by_its_kind(
        players: int, seed: int) -> None:
    """Told in order, as a narrator tells a match (armies chosen, units bought and placed
    first), the lines name the card each army's id means, and a unit by owner and kind."""
    _, events, armies = playout(players, seed)
    narrator = Narrator(PRESENTATION, names(players))
    kinds: dict[int, str] = {}
    cards = units = 0
    for seq, event in enumerate(events, start=1):
        line = narrator.line(seq, event)
        if isinstance(event, e.UnitBought):
            kinds[event.uid] = KIND_NAMES[event.kind]
        if isinstance(event, e.PowerCardPlayed | e.PowerCardDiscarded | e.CardPlayed
                      | e.EquipmentBought):
            assert line is not None and POWER_NAMES[armies[event.seat]][event.card] in line
            cards += 1
        if isinstance(event, e.UnitMoved) and event.unit in kinds:
            assert line is not None and f"{kinds[event.unit]} #{event.unit}" in line, line
            units += 1
    assert units and (cards or players == 1)
