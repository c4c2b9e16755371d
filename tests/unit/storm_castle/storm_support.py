"""Helpers for the Storm the Castle! tests: a table driven through chance answers and legal
actions (given / when / then), with shortcuts to a chosen phase and to arrange units.

``put`` places a unit directly on the board (it stands for units that arrived in earlier
turns); everything after that goes through the engine's own actions, events and dice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from siege.contracts.events import Event, MatchCreated
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import ARMY_KINDS, KIND_BY_NAME
from siege.games.storm_castle.engine import StormTheCastle
from siege.games.storm_castle.state import DEFENDER_SIDE, State, Unit
from siege.testing import scenario
from siege.testing.scenario import Scenario

ENGINE = StormTheCastle()
KIND = KIND_BY_NAME
BLANK = 3  # a d6 value that is a blank on both dice
HIT = 2  # a hit on either die (a plain hit on the Burst die)
CRIT = 1  # the Burst die's critical (a hit on a Battle die)


def created(players: int, intro: bool = False) -> MatchCreated:
    return MatchCreated(game="storm-the-castle", players=players,
                        seat_names=[f"seat{p}" for p in range(players)],
                        options={"intro": "1"} if intro else {})


def replay(events: Iterable[Event]) -> State:
    return scenario.replay(ENGINE, events)


def order_with_top(size: int, top: Sequence[int]) -> list[int]:
    return list(top) + [i for i in range(size) if i not in top]


class Table(Scenario):
    """A live game for given/when/then tests (see ``siege.testing.scenario``)."""

    def __init__(self, players: int, intro: bool = False) -> None:
        super().__init__(ENGINE, created(players, intro))

    @property
    def asked(self) -> int:
        (seat,) = self.waiting
        return seat

    def play(self, *moves: tuple[int, Any]) -> None:
        for seat, action in moves:
            assert seat in self.waiting, (seat, self.state.asking, set(self.waiting))
            self.when(seat, action)


def start(players: int = 2, intro: bool = False, armies: Sequence[int] = (2, 1, 3, 0),
          fields: Sequence[int] = (0, 1, 2, 3), hands: Sequence[Sequence[int]] = (),
          pool: Sequence[int] = (), events: Sequence[int] = ()) -> Table:
    """A game right after set-up (at the first Boss vote). Seat s gets set-up token s + 1,
    army ``armies[s]``, battlefield ``fields[s]``, the power cards ``hands[s]`` on top (else
    placeholders 2, 3, 4), and the first initial defenders go to the towers."""
    table = Table(players, intro)
    if players > 1:
        table.shuffle(list(range(players)))
    for seat in range(players):
        table.when(seat, a.ChooseArmy(army=armies[seat]))
    for seat in range(players):
        table.when(seat, a.ChooseBattlefield(battlefield=fields[seat]))
    for seat in range(players):
        top = hands[seat] if seat < len(hands) else (2, 3, 4)
        table.shuffle(order_with_top(22, top))
    size = table.need().count
    table.shuffle(order_with_top(size, pool))
    table.shuffle(order_with_top(54, events))
    table.shuffle()
    table.shuffle()
    placed = 0
    while table.state.phase == "setup" and table.waiting:
        seat = table.asked
        legal = table.legal(seat)
        table.when(seat, legal[0] if placed % 2 == 0 else legal[-1])
        placed += 1
    return table


def to_buy(table: Table, bids: Sequence[int] | None = None, token: int | None = None) -> None:
    """Runs the vote (``bids``, default 0 each), keeps the Boss's first card and the lowest
    token (or ``token``), with the other tokens dealt in order."""
    n = table.state.players
    if n > 1:
        for seat in range(n):
            table.when(seat, a.BidGold(gold=bids[seat] if bids else 0))
    while table.state.phase in ("boss", "order") and (table.waiting or table.state.chance):
        if table.state.chance is not None:
            table.shuffle()
            continue
        seat = table.asked
        legal = table.legal(seat)
        if table.state.asking == "token" and token is not None:
            table.when(seat, a.ChooseToken(token=token))
        else:
            table.when(seat, legal[0])


def end_buying(table: Table) -> None:
    while table.state.phase == "buy":
        table.when(table.asked, a.END_BUYING)


def to_turns(table: Table) -> None:
    """From the buy phase: nobody buys; reinforcements go to the first space offered; events
    are drawn; stops at the first player's act step or an Onward March decision."""
    end_buying(table)
    while table.state.phase in ("reinforce", "events") or (
            table.state.phase == "turns" and table.state.asking not in ("act", "order")):
        if table.state.chance is not None:
            table.shuffle()
            continue
        if not table.waiting:
            break
        table.when(table.asked, table.legal(table.asked)[0])


def put(table: Table, owner: int, kind: str, space: int, damage: int = 0) -> int:
    """Places a unit directly (see the module docstring); returns its id."""
    state = table.state
    uid = state.next_uid
    state.next_uid += 1
    state.units[uid] = Unit(uid=uid, kind=KIND[kind], owner=owner, space=space, damage=damage)
    if owner >= 0:
        state.bought[owner][KIND[kind]] += 1
    return uid


def clear_board(table: Table) -> None:
    table.state.units = {}


def defender(table: Table, kind: str, space: int, damage: int = 0) -> int:
    return put(table, DEFENDER_SIDE, kind, space, damage)


def army_kind(army: int, index: int) -> int:
    return ARMY_KINDS[army][index]


def act_table(players: int = 2, hero: bool = False, **kwargs: Any) -> Table:
    """A game at the first player's act step (seat 0 first) with an empty board. Unless
    ``hero``, the hero counts as summoned already (so the keep triggers do not pause)."""
    table = start(players, **kwargs)
    to_buy(table, token=1)
    to_turns(table)
    while table.state.asking == "order":
        table.when(table.asked, table.legal(table.asked)[-1])
        while table.state.chance is not None:
            table.roll(*([BLANK] * table.need().count))
    assert table.state.asking == "act", table.state.asking
    clear_board(table)
    table.state.hero_summoned = not hero
    return table


def blank_out(table: Table) -> None:
    """Answers every roll waiting with blanks (and shuffles in order) until a seat must act."""
    while table.state.chance is not None:
        if table.need().kind == "dice":
            table.roll(*([BLANK] * table.need().count))
        else:
            table.shuffle()


def play_on(table: Table, until: Any, limit: int = 400) -> None:
    """Plays on passively (no buys, turns ended at once, the last legal choice otherwise, blank
    dice, shuffles in order) until ``until(state)`` holds."""
    for _ in range(limit):
        if until(table.state):
            return
        if table.state.chance is not None:
            blank_out(table)
            continue
        seat = min(table.waiting)
        legal = table.legal(seat)
        passive = [x for x in legal if x in (a.END_TURN, a.END_BUYING)]
        table.when(seat, passive[0] if passive else legal[-1])
    raise AssertionError(f"never reached: {table.state.phase} {table.state.asking}")
