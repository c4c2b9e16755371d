"""Helpers for the Sally Forth tests: a table driven through given events and legal actions,
scripted deals, and replay through the event codec.

Card numbers used in the tests (positions in ``DECKLIST``): 0-1 Scramble (1), 2-4 Forced March
(2), 5-7 Charge (3), 8 Breakneck Ride (4), 9-10 Outriders (2), 11-12 Relay (1), 13-14 Pikemen (2),
15 Knights (3), 16 Drill Sergeant, 17 Tunnellers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from siege.contracts.envelope import EventCodec
from siege.contracts.events import Event, MatchCreated
from siege.games.mission import actions as a
from siege.games.mission.cards import DECK_SIZE
from siege.games.mission.engine import MissionGame
from siege.games.mission.missions import MISSION_COUNT
from siege.games.mission.state import State
from siege.testing import scenario
from siege.testing.scenario import Scenario

ENGINE = MissionGame()
CODEC = EventCodec(MissionGame.event_types)

SCRAMBLE, SCRAMBLE_2 = 0, 1
MARCH, MARCH_2, MARCH_3 = 2, 3, 4
CHARGE, CHARGE_2, CHARGE_3 = 5, 6, 7
RIDE = 8
OUTRIDERS, OUTRIDERS_2 = 9, 10
RELAY, RELAY_2 = 11, 12
PIKEMEN, PIKEMEN_2 = 13, 14
KNIGHTS = 15
SERGEANT = 16
TUNNELLERS = 17

# Missions in id order: 0-1 difficulty 4 (2 points), 2-3 difficulty 5 (3), 4 difficulty 6 (3),
# 5 difficulty 6 (4), 6 difficulty 7 (4), 7 difficulty 8 (5).


def created() -> MatchCreated:
    return MatchCreated(game="mission", players=2, seat_names=["north", "south"])


def order_with(top: Sequence[int], size: int) -> list[int]:
    """A shuffle answer putting ``top`` first, then every other card in id order."""
    return list(top) + [card for card in range(size) if card not in top]


class Table(Scenario):
    """A live Sally Forth game for given/when/then tests (see ``siege.testing.scenario``)."""

    def __init__(self) -> None:
        super().__init__(ENGINE, created())


def start(first: int = 0, decks: dict[int, Sequence[int]] | None = None,
          missions: Sequence[int] = ()) -> Table:
    """A game at the first turn: ``decks[seat]`` are that seat's top cards (its opening hand of
    5, then its draws in order); ``missions`` the missions dealt to slots 0, 1, then the deck."""
    decks = decks or {}
    table = Table()
    table.shuffle(order_with(missions, MISSION_COUNT))
    table.shuffle(order_with(decks.get(0, ()), DECK_SIZE))
    table.shuffle(order_with(decks.get(1, ()), DECK_SIZE))
    table.roll(first + 1)
    return table


def play(table: Table, *moves: tuple[int, Any]) -> None:
    """Plays ``(seat, action)`` moves in order, asserting each seat is the one asked."""
    for seat, action in moves:
        assert seat in table.waiting, (
            f"seat {seat} is not asked ({table.state.phase}); waiting {set(table.waiting)}")
        table.when(seat, action)


def deploy(seat: int, card: int, slot: int = -1, move: int = -1) -> tuple[int, Any]:
    """A deploy move: a unit when ``slot`` is given, else a maneuver (a Relay may ``move``)."""
    if slot >= 0:
        return seat, a.DeployUnit(card=card, slot=slot)
    return seat, a.DeployManeuver(card=card, move=move)


def assault(seat: int, slot: int) -> tuple[int, Any]:
    return seat, a.AssaultMission(slot=slot)


def stash(seat: int, card: int) -> tuple[int, Any]:
    return seat, a.StashManeuver(card=card)


def swerve(seat: int, card: int) -> tuple[int, Any]:
    return seat, a.SwerveManeuver(card=card)


def yield_(seat: int) -> tuple[int, Any]:
    return seat, a.YIELD


def pass_(seat: int) -> tuple[int, Any]:
    return seat, a.PASS


def replay(events: Iterable[Event]) -> State:
    return scenario.replay(ENGINE, events)


def pass_turn(table: Table) -> None:
    """The active seat does as little as it may: skips an optional assault, deploys nothing."""
    seat = table.state.active
    turn = table.state.turn
    if a.SKIP in table.legal(seat):
        table.when(seat, a.SKIP)
    if seat in table.waiting and a.PASS in table.legal(seat):
        table.when(seat, a.PASS)
    moved_on = (table.state.turn == turn + 1 or ENGINE.is_terminal(table.state)
                or ENGINE.pending(table.state).chance is not None)
    assert moved_on, f"seat {seat} could not pass its turn: {table.legal(seat)!r}"


