"""Helpers for the Castle Dash tests: a deterministic chance stream, scripted chance answers,
seeded playouts, and a way to drive the engine through given events."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from siege.contracts.envelope import EventCodec
from siege.contracts.events import (
    DeckShuffled,
    DiceRolled,
    Event,
    MatchCreated,
)
from siege.engine.local import play_local
from siege.engine.protocol import ChanceNeeded
from siege.games.castle_dash import cards as cd
from siege.games.castle_dash.actions import (
    ChooseCannonballs,
    ClaimArmory,
    EndArmoryPlay,
    Loot,
    PlaceSoldiers,
    ResolveFlagCard,
)
from siege.games.castle_dash.engine import CastleDash
from siege.games.castle_dash.state import State
from siege.testing import scenario
from siege.testing.scenario import Scenario

ENGINE = CastleDash()
CODEC = EventCodec(CastleDash.event_types)


class HashStream:
    """Uniform integers from sha256(seed:label:counter), rejection-sampled (no modulo bias)."""

    def __init__(self, seed: bytes, label: str = "") -> None:
        self._prefix = seed + b":" + label.encode() + b":"
        self._counter = 0

    def randrange(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            block = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            value = int.from_bytes(block[:8], "big")
            if value < limit:
                return value % n


def bot_rng(seed: bytes, label: str) -> Any:
    """The project's ``BotRng`` when it is importable, else the local stand-in."""
    try:
        from siege.dice.fair import BotRng
    except ImportError:  # the dice library is written concurrently
        return HashStream(seed, "bot:" + label)
    return BotRng(seed, label)


class ChanceAnswers:
    """Answers chance requests from a hash stream, as the dice service would."""

    def __init__(self, seed: bytes) -> None:
        self.stream = HashStream(seed, "chance")
        self.index = 0

    def __call__(self, need: ChanceNeeded, request: int) -> Event:
        first = self.index
        if need.kind == "shuffle":
            order = list(range(need.count))
            for i in range(need.count - 1, 0, -1):  # Fisher-Yates
                j = self.stream.randrange(i + 1)
                order[i], order[j] = order[j], order[i]
            self.index += max(0, need.count - 1)
            return DeckShuffled(request=request, first_index=first, order=order)
        values = [1 + self.stream.randrange(need.sides) for _ in range(need.count)]
        self.index += need.count
        return DiceRolled(request=request, first_index=first, values=values)


def created(players: int) -> MatchCreated:
    return MatchCreated(game="castle-dash", players=players,
                        seat_names=[f"seat{p}" for p in range(players)])


Chooser = Callable[[State, int, list[Any]], Any]


def random_chooser(seed: bytes) -> Chooser:
    stream = HashStream(seed, "choices")

    def choose(state: State, seat: int, legal: list[Any]) -> Any:
        assert legal, f"seat {seat} is asked to act with no legal action"
        return legal[stream.randrange(len(legal))]

    return choose


def bot_chooser(bots: Sequence[Any], seed: bytes) -> Chooser:
    """Lets each seat's bot choose from its view only, with its own rng."""
    rngs = [bot_rng(seed, f"seat{seat}") for seat in range(len(bots))]

    def choose(state: State, seat: int, legal: list[Any]) -> Any:
        return bots[seat].choose(ENGINE.view(state, seat), legal, rngs[seat])

    return choose


def checked(choose: Chooser) -> Chooser:
    """Wraps a chooser so every chosen action is verified legal, the way the host checks."""

    def wrapped(state: State, seat: int, legal: list[Any]) -> Any:
        action = choose(state, seat, legal)
        assert action in ENGINE.legal_actions(state, seat)
        assert seat in ENGINE.pending(state).seats
        return action

    return wrapped


def playout(players: int, seed: bytes, choose: Chooser | None = None) -> tuple[State, list[Event]]:
    return play_local(ENGINE, created(players), choose or random_chooser(seed),
                      ChanceAnswers(seed))


def replay(events: Iterable[Event]) -> State:
    return scenario.replay(ENGINE, events)


def as_builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


# --- driving a game through given events ---------------------------------------------------------


class Table(Scenario):
    """A live Castle Dash game for given/when/then tests (see ``siege.testing.scenario``)."""

    def __init__(self, players: int) -> None:
        super().__init__(ENGINE, created(players))


# --- scripted games ------------------------------------------------------------------------


def deck_order(top: Sequence[int] = ()) -> list[int]:
    """A shuffle answer putting ``top`` on top of the deck, then the other cards by id."""
    rest = [card for card in range(18) if card not in top]
    return list(top) + rest


def start(players: int, first: int = 0, top: Sequence[int] = ()) -> Table:
    """A game at its first placement: deck with ``top`` first, ``first`` the first player."""
    table = Table(players)
    table.shuffle(deck_order(top))
    table.roll(first + 1, purpose="first_player")
    return table


def play(table: Table, *moves: tuple[int, Any]) -> None:
    """Plays ``(seat, action)`` moves in order, asserting each seat is the one asked."""
    for seat, action in moves:
        assert seat in table.waiting, f"seat {seat} is not asked; waiting {set(table.waiting)}"
        table.when(seat, action)


def P(opponent: int, count: int) -> PlaceSoldiers:  # noqa: N802 - reads like the move
    return PlaceSoldiers(opponent=opponent, count=count)


def C(card: int) -> ClaimArmory:  # noqa: N802
    return ClaimArmory(card=card)


def filler(table: Table, seat: int) -> Any:
    """The most soldiers into the first battle not yet placed in, else the first claim."""
    legal = table.legal(seat)
    places = [a for a in legal if isinstance(a, PlaceSoldiers)]
    if places:
        target = places[0].opponent
        return max((a for a in places if a.opponent == target), key=lambda a: a.count)
    return legal[0]


def place_all(table: Table, plans: dict[int, list[Any]] | None = None) -> None:
    """Plays the placement step: each seat's planned moves first, then :func:`filler`."""
    todo = {seat: list(moves) for seat, moves in (plans or {}).items()}
    while table.state.phase == "place":
        (seat,) = table.waiting
        moves = todo.get(seat)
        table.when(seat, moves.pop(0) if moves else filler(table, seat))
    left = {seat: moves for seat, moves in todo.items() if moves}
    assert not left, f"planned moves never played: {left}"


def default_answer(table: Table, seat: int) -> Any:
    """No cannonballs, no cards, the first battle or flag target, a coin when looting."""
    legal = table.legal(seat)
    for action in legal:
        if isinstance(action, ChooseCannonballs) and action.count == 0:
            return action
        if isinstance(action, EndArmoryPlay):
            return action
        if isinstance(action, Loot) and action.choice == "coin":
            return action
    return legal[0]


def run_until(table: Table, stop: Callable[[State], bool], battle_dice: Sequence[int] = (4, 1),
              cannon_die: int = 6) -> None:
    """Answers every decision with :func:`default_answer` and every roll with the given faces
    (battle dice repeat ``battle_dice``; cannonballs roll ``cannon_die``) until ``stop``."""
    for _ in range(10_000):
        if stop(table.state) or ENGINE.is_terminal(table.state):
            return
        pending = ENGINE.pending(table.state)
        need = pending.chance
        if need is None:
            for seat in sorted(pending.seats):
                if seat in table.waiting:
                    table.when(seat, default_answer(table, seat))
        elif need.kind == "shuffle":
            table.shuffle()
        elif need.purpose == "battle":
            table.roll(*[battle_dice[i % len(battle_dice)] for i in range(need.count)])
        elif need.purpose == "cannonballs":
            table.roll(*[cannon_die] * need.count)
        else:
            table.roll(*[1] * need.count)
    raise AssertionError("run_until did not stop")


def phase_is(phase: str) -> Callable[[State], bool]:
    return lambda state: state.phase == phase


# Cards that change nothing in battle (0, 1) of :func:`duel` when seat 2 holds them.
QUIET_CARDS = (cd.RALLY, cd.IRON_HELMETS, cd.MASTER_GUNNER, cd.LUCKY_CHARM, cd.CALTROPS, cd.TRUCE)


def duel(mine: int, theirs: int, claims: dict[int, list[int]] | None = None,
         extra: Sequence[int] = ()) -> Table:
    """A 3-player game, first player 0, placed so that seat 0 fights seat 1 with ``mine``
    against ``theirs`` soldiers (each 2..6 with the claims), seat 0's other battle is won
    outright against seat 2 (who never places against 0), and seat 2 fights seat 1 with 6.

    ``claims[seat]`` are cards that seat claims first (seat 2 claims two cards in all, topped up
    with quiet cards); ``extra`` cards are revealed too but nobody claims them. Returns the
    table when placement is over: at the claim step's first choice, or at battle (0, 1) when no
    flag needs a choice.
    """
    claims = {seat: list(cards) for seat, cards in (claims or {}).items()}
    taken = sum(claims.values(), []) + list(extra)
    spare2 = [card for card in QUIET_CARDS if card not in taken]
    claims2 = (claims.get(2, []) + spare2)[:2]
    top = claims.get(0, []) + claims.get(1, []) + claims2 + list(extra)
    top += [card for card in QUIET_CARDS if card not in top]
    table = start(3, first=0, top=top[:6])
    rest0 = 8 - mine - len(claims.get(0, []))
    rest1 = 8 - theirs - len(claims.get(1, []))
    assert 1 <= rest0 <= 6 and 0 <= rest1 <= 6, "choose counts that leave 1-6 soldiers"
    plans = {
        0: [C(card) for card in claims.get(0, [])] + [P(1, mine), P(2, rest0)],
        1: [C(card) for card in claims.get(1, [])] + [P(0, theirs)]
        + ([P(2, rest1)] if rest1 else []),
        2: [P(1, 6)] + [C(card) for card in claims2],
    }
    place_all(table, plans)
    return table


def sappers_and_bribe(first: int) -> Table:
    """4 players: seat 1 claims Sappers and aims it at seat 0; seat 0 claims Bribe."""
    table = start(4, first=first, top=[cd.BRIBE, cd.SAPPERS])
    place_all(table, {
        1: [C(cd.SAPPERS), P(2, 6), P(0, 1)],
        2: [P(3, 6), P(1, 2)],
        3: [P(0, 6), P(2, 2)],
        0: [C(cd.BRIBE), P(1, 6), P(3, 1)],
    })
    assert table.state.phase == "claim"
    assert table.waiting == frozenset({1})  # only Sappers needs a choice
    table.when(1, ResolveFlagCard(card=cd.SAPPERS, target=0))
    return table
