"""Phase 1, Building: income first, then workers in turn order from the first player.

Every seat places one worker per turn until all have placed this year's workers (2-5). A
single-worker space takes one worker a year; unlimited spaces take any number. On its turn a
seat may also use the resources effect of an angel card without spending the turn.
"""

from __future__ import annotations

from siege.engine.protocol import Action
from siege.games.castellum.actions import PLACE_WORKER, BuyCard
from siege.games.castellum.board import SPACES, VRIJTHOF
from siege.games.castellum.cards import IS_FORT, LINE_CARDS, NOBODY
from siege.games.castellum.events import CardBought, WorkerPlaced
from siege.games.castellum.rules import hand
from siege.games.castellum.rules.angels import usable
from siege.games.castellum.rules.effects import TROOPS_PER_COLUMN, affordable
from siege.games.castellum.rules.nodes import close_decision, open_decision
from siege.games.castellum.state import State, clockwise, columns_open


def income(state: State) -> None:
    """Each Line card's income, seat by seat from the first player (angel cards in that order)."""
    for seat in clockwise(state.players, state.first):
        have = state.resources[seat]
        angels = 0
        for column in state.lines[seat]:
            for card in (column.fort, *column.troops):
                if card == NOBODY:
                    continue
                wood, stone, gold, angel = LINE_CARDS[card].income
                have[0] += wood
                have[1] += stone
                have[2] += gold
                angels += angel
        if angels:
            hand.draw(state, seat, angels)


def begin(state: State) -> None:
    state.phase = "building"
    state.turn = state.first


def settle(state: State) -> bool:
    """Asks the next seat with a worker left; False when every worker is placed."""
    workers = state.workers
    for seat in clockwise(state.players, state.turn):
        if workers[seat] > 0:
            state.turn = seat
            open_decision(state, seat, "worker")
            return True
    return False


def room(state: State, seat: int, card: int) -> list[int]:
    """Available columns of ``seat`` that can hold ``card`` (one fortification, two troops)."""
    line = state.lines[seat]
    if IS_FORT[card]:
        return [col for col in range(columns_open(state)) if line[col].fort == NOBODY]
    return [col for col in range(columns_open(state))
            if len(line[col].troops) < TROOPS_PER_COLUMN]


def legal(state: State, seat: int) -> list[Action]:
    found: list[Action] = []
    for space in SPACES:
        full = space.capacity and len(state.spaces[space.id]) >= space.capacity
        if space.id == VRIJTHOF or full:
            continue
        found.extend(PLACE_WORKER[space.id])
    for card in state.offer:
        if affordable(state, seat, card):
            found.extend(BuyCard(card=card, column=col) for col in room(state, seat, card))
    found.extend(usable(state, seat))
    return found


def _spend_worker(state: State, seat: int, space: int) -> None:
    close_decision(state)
    state.spaces[space].append(seat)
    state.workers[seat] -= 1
    state.turn = (seat + 1) % state.players


def on_worker_placed(state: State, event: WorkerPlaced) -> None:
    seat = event.seat
    _spend_worker(state, seat, event.space)
    space = SPACES[event.space]
    have = state.resources[seat]
    if space.kind == "resources":
        for r, amount in enumerate(space.resources):
            have[r] += amount
    elif space.kind == "choice":
        for r in event.gain:
            have[r] += 1
    elif space.kind == "dinghuis":
        state.dinghuis[seat] += 1
    elif space.kind == "angel":
        hand.draw(state, seat, 1)


def on_card_bought(state: State, event: CardBought) -> None:
    seat, card = event.seat, event.card
    _spend_worker(state, seat, VRIJTHOF)
    have = state.resources[seat]
    for r, amount in enumerate(LINE_CARDS[card].cost):
        have[r] -= amount
    state.offer.remove(card)
    column = state.lines[seat][event.column]
    if IS_FORT[card]:
        column.fort = card
    else:
        column.troops.append(card)
