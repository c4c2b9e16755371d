"""Helpers for the Castle Assault tests: a table driven through given events and legal actions,
scripted deck orders by card name, and units put straight onto the battlefield."""

from __future__ import annotations

from collections.abc import Sequence

from siege.contracts.events import Event, MatchCreated
from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME, CARDS, ENVIRONMENT_CARDS, stock_deck
from siege.games.castle_assault.engine import CastleAssault
from siege.games.castle_assault.rules.combat import castle_health
from siege.games.castle_assault.state import State, Unit, find_unit, uid_of
from siege.testing import scenario
from siege.testing.scenario import Scenario

ENGINE = CastleAssault()
YOU, PETE = 0, 1  # the walkthrough's seats: Dragons and Dwarves


def created(warbands: str = "dragons,dwarves") -> MatchCreated:
    return MatchCreated(game="castle-assault", players=2, seat_names=["you", "pete"],
                        options={"warbands": warbands})


def deck_order(warband: str, top: Sequence[str]) -> list[int]:
    """A shuffle answer for the warband's stock deck putting the named cards on top in order
    (each name takes the next unused copy), then every other instance in list order."""
    deck = stock_deck(warband)
    chosen: list[int] = []
    for name in top:
        chosen.append(next(i for i, c in enumerate(deck)
                           if CARDS[c].name == name and i not in chosen))
    return chosen + [i for i in range(len(deck)) if i not in chosen]


def env_order(top: Sequence[str]) -> list[int]:
    picked = [ENVIRONMENT_CARDS.index(BY_NAME[name].id) for name in top]
    return picked + [i for i in range(len(ENVIRONMENT_CARDS)) if i not in picked]


class Table(Scenario):
    """With ``auto_pass`` every response window is passed by both seats as soon as it opens
    (tests of the windows themselves turn it off)."""

    def __init__(self, warbands: str = "dragons,dwarves", auto_pass: bool = True) -> None:
        super().__init__(ENGINE, created(warbands))
        self.auto_pass = auto_pass

    def fold(self, *events: Event) -> None:
        super().fold(*events)
        while self.auto_pass and self.state.asking == "respond":
            seat = self.state.waiting[0]
            super().fold(*self.engine.apply(self.state, seat, a.PASS_RESPONSE))

    @property
    def s(self) -> State:
        return self.state

    def instance(self, seat: int, name: str, where: str = "hands") -> int:
        """The first instance of the named card in the seat's hand (or deck, resources...)."""
        pile = getattr(self.state, where)[seat]
        return next(i for i in pile if CARDS[self.state.cards[seat][i]].name == name)

    def hand_names(self, seat: int) -> list[str]:
        return sorted(CARDS[self.state.cards[seat][i]].name for i in self.state.hands[seat])

    def unit(self, seat: int, name: str) -> Unit:
        return next(u for u in self.state.units
                    if u.seat == seat and CARDS[u.card].name == name)

    def castle(self, seat: int) -> int:
        return castle_health(self.state, seat)

    def play(self, seat: int, name: str, lane: int) -> None:
        self.when(seat, a.PlayUnit(card=self.instance(seat, name), lane=lane))

    def resource(self, seat: int, name: str) -> None:
        self.when(seat, a.PlaceResource(card=self.instance(seat, name)))

    def charge(self, seat: int, name: str, roll: int) -> None:
        self.when(seat, a.Charge(unit=self.unit(seat, name).uid))
        self.roll(roll, purpose="charge")

    def end_turn(self, seat: int) -> None:
        self.when(seat, a.END_TURN)

    def start_turn(self, roll: int, captain: int | None = None, curse: int | None = None
                   ) -> None:
        """Answers the momentum die and the Start of Turn choices (skipped unless given)."""
        self.roll(roll, purpose="momentum")
        seat = self.state.active
        if self.state.asking == "captain":
            self.when(seat, a.SKIP_CAPTAIN if captain is None else a.AssignCaptain(unit=captain))
        if self.state.asking == "curse":
            self.when(seat, a.SKIP_CURSE if curse is None else a.CurseUnit(unit=curse))


def start(top0: Sequence[str] = (), top1: Sequence[str] = (), env: Sequence[str] = (),
          first: int = YOU, warbands: str = "dragons,dwarves", auto_pass: bool = True) -> Table:
    """A game at the first seat's first turn (momentum die pending), both hands kept."""
    names = warbands.split(",")
    table = Table(warbands, auto_pass)
    table.shuffle(deck_order(names[0], top0))
    table.shuffle(deck_order(names[1], top1))
    table.shuffle(env_order(env))
    table.when(YOU, a.KEEP_HAND)
    table.when(PETE, a.KEEP_HAND)
    table.roll(2, 5, purpose="rolloff")  # Pete wins the roll-off
    table.when(PETE, a.ChooseFirst(first=first))
    return table


def put(table: Table, seat: int, name: str, lane: int, row: int, entered: int = 0) -> Unit:
    """Puts a copy of the named card from the seat's deck or hand straight onto the
    battlefield (a given, as if it had arrived earlier)."""
    s = table.state
    for pile in (s.decks[seat], s.hands[seat]):
        for i in pile:
            if CARDS[s.cards[seat][i]].name == name:
                pile.remove(i)
                unit = Unit(uid=uid_of(seat, i), seat=seat, card=s.cards[seat][i], lane=lane,
                            row=row, entered=entered)
                s.units.append(unit)
                return unit
    raise LookupError(f"no {name} left for seat {seat}")


def replay(events: list) -> State:
    return scenario.replay(ENGINE, events)


__all__ = ["find_unit"]
