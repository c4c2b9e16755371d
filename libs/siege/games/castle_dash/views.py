"""What one seat may know: everything on the table, minus the deck order and sealed choices.

Hidden: the Armory deck's order (only its size shows) and, while a battle's cannonball counts
are being chosen, the other battler's count (only whether it has chosen). Views are built from
copies, so a view never changes when the state moves on.
"""

from __future__ import annotations

import msgspec

from siege.games.castle_dash.seating import OPPONENTS
from siege.games.castle_dash.state import Outcome, State

HIDDEN = -1


class BattleView(msgspec.Struct, frozen=True, kw_only=True):
    sides: list[int]  # [active, opponent]
    step: str
    chosen: list[bool]  # whether each side's cannonball count is in
    shots: list[int]  # each side's cannonballs; -1 while not chosen or sealed from this seat
    knocked: list[int]
    played: list[list[int]]
    card_side: int


class CastleDashView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    players: int
    phase: str
    decision: int
    waiting: list[int]
    chance: str  # the purpose of the chance being waited for, "" when none
    round: int
    first_player: int
    turn: int
    deck_size: int
    discard: list[int]
    face_up: list[int]
    holder: list[int]  # per card id: who holds it this round, -1 for nobody
    spent: list[int]
    supply: list[int]
    cannonballs: list[int]
    coins: list[int]
    stolen: list[int]
    rescued: list[int]
    hostages: list[list[int]]
    walls: list[list[int]]  # walls[castle][attacker]
    troops: list[list[int]]  # troops[p][o]
    placed: list[tuple[int, ...]]  # opponents each seat has placed soldiers against this round
    resolved: list[tuple[int, ...]]  # opponents each seat's battle with is over this round
    smoke: list[tuple[int, ...]]  # opponents each seat may not fire cannonballs at this round
    current: list[int]  # the flag [seat, card] or loot [castle, attacker] awaiting a choice
    battle: BattleView | None
    outcome: Outcome | None


# _SEATS[players][seat][mask]: the opponents of ``seat`` whose bit is set in ``mask``, as a
# shared tuple. Views are built for every bot move; decoding bitmasks there was the slow part.
_SEATS: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {
    n: tuple(
        tuple(tuple(o for o in OPPONENTS[n][seat] if mask >> o & 1) for mask in range(1 << n))
        for seat in range(n)
    )
    for n in OPPONENTS
}


def _bits(masks: list[int], players: int) -> list[tuple[int, ...]]:
    # map() over C callables: views are built on every bot move, so no Python-level loops.
    return list(map(tuple.__getitem__, _SEATS[players], masks))


def _rows(table: list[list[int]]) -> list[list[int]]:
    return list(map(list, table))


def _battle_view(state: State, seat: int) -> BattleView | None:
    fight = state.battle
    if fight is None:
        return None
    a, b = fight.sides
    shot_a, shot_b = fight.shots
    if fight.step == "cannon_wait":  # sealed: each count shows to its own chooser only
        shown = [shot_a if seat == a else HIDDEN, shot_b if seat == b else HIDDEN]
    else:
        shown = [shot_a, shot_b]
    return BattleView(
        sides=[a, b],
        step=fight.step,
        chosen=[shot_a >= 0, shot_b >= 0],
        shots=shown,
        knocked=list(fight.knocked),
        played=_rows(fight.played),
        card_side=fight.card_side,
    )


def view_for(state: State, seat: int) -> CastleDashView:
    n = state.players
    outcome = state.outcome
    return CastleDashView(
        seat=seat,
        players=n,
        phase=state.phase,
        decision=state.decision,
        waiting=list(state.waiting),
        chance=state.chance.purpose if state.chance is not None else "",
        round=state.round,
        first_player=state.first,
        turn=state.turn,
        deck_size=len(state.deck),
        discard=list(state.discard),
        face_up=list(state.face_up),
        holder=list(state.holder),
        spent=list(state.spent),
        supply=list(state.supply),
        cannonballs=list(state.cannonballs),
        coins=list(state.coins),
        stolen=list(state.stolen),
        rescued=list(state.rescued),
        hostages=_rows(state.hostages),
        walls=_rows(state.walls),
        troops=_rows(state.troops),
        placed=_bits(state.placed, n),
        resolved=_bits(state.resolved, n),
        smoke=_bits(state.smoke, n),
        current=list(state.current),
        battle=_battle_view(state, seat),
        outcome=None if outcome is None else Outcome(
            sides=list(outcome.sides),
            totals=None if outcome.totals is None else list(outcome.totals),
            winner=outcome.winner,
            placed=outcome.placed,
        ),
    )
