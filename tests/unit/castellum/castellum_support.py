"""Helpers for the Castellum tests: scripted chance answers, a table to drive the engine through
events (given / when / then), and replay through the event codec."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from siege.contracts.envelope import EventCodec
from siege.contracts.events import Event, MatchCreated
from siege.games.castellum.actions import (
    DECLINE,
    PASS,
    DiscardAngel,
    PlaceEnemy,
    PlaceWorker,
)
from siege.games.castellum.board import OUDE_BRUG
from siege.games.castellum.cards import NOBODY, WOOD
from siege.games.castellum.engine import Castellum
from siege.games.castellum.rules.flow import SETUP_SHUFFLES
from siege.games.castellum.state import State
from siege.testing import scenario
from siege.testing.scenario import Scenario

ENGINE = Castellum()
CODEC = EventCodec(Castellum.event_types)


def created(players: int) -> MatchCreated:
    return MatchCreated(game="castellum", players=players,
                        seat_names=[f"seat{p}" for p in range(players)])


def replay(events: Iterable[Event]) -> State:
    return scenario.replay(ENGINE, events)


def order_with_top(cards: Sequence[int], top: Sequence[int]) -> list[int]:
    """A shuffle answer for ``cards`` (in id order) putting ``top`` on top, the rest by id."""
    ids = sorted(cards)
    rest = [card for card in ids if card not in top]
    return [ids.index(card) for card in [*top, *rest]]


class Table(Scenario):
    """A live Castellum game for given/when/then tests (see ``siege.testing.scenario``)."""

    def __init__(self, players: int) -> None:
        super().__init__(ENGINE, created(players))

    @property
    def asked(self) -> int:
        (seat,) = self.waiting
        return seat


def start(players: int, first: int = 0, *, angels: Sequence[int] = (),
          forts: Sequence[int] = (), troops: Sequence[int] = (),
          enemies: dict[int, Sequence[int]] | None = None) -> Table:
    """A game at its first Building decision: ``first`` is the first player and each deck has
    the given cards on top (the rest in id order). ``enemies`` maps a year index to its top."""
    table = Table(players)
    table.roll(first + 1)
    tops: dict[str, Sequence[int]] = {"angel_shuffle": angels, "fort_shuffle": forts,
                                      "troop_shuffle": troops}
    for year, top in (enemies or {}).items():
        tops[SETUP_SHUFFLES[3 + year][0]] = top
    for purpose, cards in SETUP_SHUFFLES:
        assert table.need().purpose == purpose
        table.shuffle(order_with_top(cards, tops.get(purpose, ())))
    return table


def play(table: Table, *moves: tuple[int, Any]) -> None:
    """Plays ``(seat, action)`` moves in order, asserting each seat is the one asked."""
    for seat, action in moves:
        assert seat in table.waiting, f"seat {seat} is not asked; waiting {set(table.waiting)}"
        table.when(seat, action)


WOOD_FROM_BRIDGE = PlaceWorker(space=OUDE_BRUG, gain=(WOOD,))


def quiet(table: Table, seat: int) -> Any:
    """A move that changes as little as possible: a wood from the Oude Brug, the first enemy
    card into the first free column, passing, declining, discarding the newest card, side 0."""
    legal = table.legal(seat)
    asking = table.state.asking
    if asking == "worker":
        return WOOD_FROM_BRIDGE
    if asking == "angel":
        return PASS
    if asking == "respond":
        return DECLINE
    if asking == "discard":
        return DiscardAngel(card=table.state.hands[seat][-1])
    return legal[0]


def run_until(table: Table, stop: Callable[[State], bool],
              choose: Callable[[Table, int], Any] = quiet, shuffles: bool = True) -> None:
    """Answers every decision with ``choose`` (and every shuffle in id order) until ``stop``."""
    for _ in range(5_000):
        if stop(table.state) or ENGINE.is_terminal(table.state):
            return
        if ENGINE.pending(table.state).chance is not None:
            assert shuffles, "unexpected chance node"
            table.shuffle()
            continue
        seat = table.asked
        table.when(seat, choose(table, seat))
    raise AssertionError("run_until did not stop")


def at(phase: str, asking: str | None = None) -> Callable[[State], bool]:
    """Stops at the first decision of ``phase`` (and of ``asking``, if given)."""
    return lambda state: (state.phase == phase and bool(state.waiting)
                          and (asking is None or state.asking == asking))


def place_enemies(table: Table, plan: dict[int, list[tuple[int, int, int]]]) -> None:
    """Plays the Siege phase: each seat's planned (card, owner, column) placements in order,
    then the first legal placement for seats without a plan."""
    todo = {seat: list(moves) for seat, moves in plan.items()}
    while table.state.phase == "siege" and table.state.asking == "enemy":
        seat = table.asked
        moves = todo.get(seat)
        if moves:
            card, owner, col = moves.pop(0)
            table.when(seat, PlaceEnemy(card=card, owner=owner, column=col))
        else:
            table.when(seat, table.legal(seat)[0])
    left = {seat: moves for seat, moves in todo.items() if moves}
    assert not left, f"planned placements never played: {left}"


# --- givens that the scripted flow cannot reach cheaply --------------------------------------
# Tests use these only to set up a precondition; every "when" goes through apply and evolve.


def set_resources(table: Table, seat: int, wood: int, stone: int, gold: int) -> None:
    table.state.resources[seat] = [wood, stone, gold]


def build(table: Table, seat: int, column: int, fort: int = NOBODY,
          troops: Sequence[int] = ()) -> None:
    """Puts Line cards in a column as if bought earlier (the fortification replaces any)."""
    col = table.state.lines[seat][column]
    col.fort = fort
    col.troops = list(troops)


def deal_angels(table: Table, seat: int, cards: Sequence[int]) -> None:
    """Moves ``cards`` from the angel deck into the seat's hand."""
    for card in cards:
        table.state.angel_deck.remove(card)
        table.state.hands[seat].append(card)


def angel(effect: str, k: int = 0) -> int:
    """The id of the ``k``-th angel card with ``effect`` (by id)."""
    from siege.games.castellum.angels import ANGEL_CARDS

    return [card.id for card in ANGEL_CARDS if card.effect == effect][k]


def to_angels(table: Table, plan: dict[int, list[tuple[int, int, int]]] | None = None) -> None:
    """Plays quietly to this year's Siege, places enemies (``plan`` first, see
    :func:`place_enemies`) and stops at the first Angel-phase decision, which needs a seat
    holding an angel card."""
    year = table.state.year
    run_until(table, lambda s: s.phase == "siege" and bool(s.waiting) and s.year == year)
    place_enemies(table, plan or {})
    assert table.state.phase == "angels" and table.state.asking == "angel", table.state.phase
