"""What one seat may know: everything on the table, minus the deck order and sealed choices.

Hidden: the Armory deck's order (only its size shows) and, while a battle's cannonball counts
are being chosen, the other battler's count (only whether it has chosen). Views are built from
copies, so a view never changes when the state moves on.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.games.castle_dash.seating import OPPONENTS
from siege.games.castle_dash.state import Outcome, State

HIDDEN = -1


_PER_SEAT = "One entry per seat, in seat order: "
_PER_OPPONENT = (" Each entry lists seat numbers in the order left, right, across (the order of "
                 "`opponents` in the reference data).")


class BattleView(msgspec.Struct, frozen=True, kw_only=True):
    """The contested battle being resolved (soldiers on both sides). Lists of two are in
    `sides` order: index 0 the active battler, 1 its opponent. While the cannonball counts are
    being chosen (step `cannon_wait`) each count shows only to its own chooser."""

    sides: Annotated[list[int], msgspec.Meta(description=(
        "The two seats: [active battler, opponent]."))]
    step: Annotated[str, msgspec.Meta(description=(
        "Where the battle stands: one of `cannon_open`, `cannon_wait`, `cannon_fire`, "
        "`cannon_roll`, `cards`, `dice`, `dice_roll` (explained in `battle_steps` of the "
        "reference data)."))]
    chosen: Annotated[list[bool], msgspec.Meta(description=(
        "Per side: whether its cannonball count is in. A side that was not asked (no "
        "cannonballs, or a Smoke Screen on this battle) counts as chosen with 0."))]
    shots: Annotated[list[int], msgspec.Meta(description=(
        "Per side: cannonballs it fires in this battle; -1 while not chosen yet, or while "
        "sealed from this seat (the other battler's count during `cannon_wait`)."))]
    knocked: Annotated[list[int], msgspec.Meta(description=(
        "Per side: its soldiers knocked out by cannonballs in this battle, less those a Rally "
        "brought back."))]
    played: Annotated[list[list[int]], msgspec.Meta(description=(
        "Per side: the battle cards it played in this battle, in play order (card ids, "
        "indexes into `cards` of the reference data)."))]
    card_side: Annotated[int, msgspec.Meta(description=(
        "Step C: the side (0 or 1, index into `sides`) whose turn it is to play battle cards; "
        "2 once both sides are done. 0 before step C."))]


class CastleDashView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat sees: the whole table, open to everyone, except the Armory deck's order
    (only `deck_size` shows) and, during `cannon_wait`, the other battler's sealed cannonball
    count (`battle.shots` shows -1 for it). Seats are numbers 0 to players - 1, clockwise;
    card ids index `cards` of the game's reference data."""

    seat: Annotated[int, msgspec.Meta(description=(
        "The seat this view is for; -1 for a spectator (no seat: every sealed count hidden)."))]
    players: Annotated[int, msgspec.Meta(description="Number of seats in the match, 3 to 6.")]
    phase: Annotated[str, msgspec.Meta(description=(
        "Step of the round: one of `setup`, `reveal`, `place`, `claim`, `battle`, `loot`, "
        "`over` (explained in `phases` of the reference data)."))]
    decision: Annotated[int, msgspec.Meta(description=(
        "The current decision number: it grows by one each time a decision point or chance "
        "request opens. Both battlers choosing cannonball counts share one number."))]
    waiting: Annotated[list[int], msgspec.Meta(description=(
        "Seats that must act now: both battlers while cannonball counts are chosen, otherwise "
        "at most one. Empty while a chance is awaited or the game is over."))]
    chance: Annotated[str, msgspec.Meta(description=(
        "The purpose of the chance being waited for (`armory_shuffle`, `first_player`, "
        "`armory_reshuffle`, `cannonballs` or `battle`; see `chance_purposes` of the "
        "reference data); empty string when none."))]
    round: Annotated[int, msgspec.Meta(description=(
        "The round number, from 1; 0 until the first player has been rolled."))]
    first_player: Annotated[int, msgspec.Meta(description=(
        "Seat holding the first-player marker this round (it passes left, to seat + 1, each "
        "round); -1 before the first-player roll."))]
    turn: Annotated[int, msgspec.Meta(description=(
        "In `place`, the seat whose placement turn it is; in `battle`, the active battler; in "
        "`loot`, the last looter asked; in other phases it keeps its last value. -1 before "
        "anyone has had a turn."))]
    deck_size: Annotated[int, msgspec.Meta(description=(
        "Cards left in the Armory deck; their order is hidden."))]
    discard: Annotated[list[int], msgspec.Meta(description=(
        "Card ids in the discard pile, in the order discarded (each round's face-up cards, in "
        "reveal order). Emptied when it is shuffled into a new deck."))]
    face_up: Annotated[list[int], msgspec.Meta(description=(
        "Card ids turned face up this round (2 per player), in reveal order. Claimed cards "
        "stay in the list; `holder` says who has them."))]
    holder: Annotated[list[int], msgspec.Meta(description=(
        "One entry per card id (18, indexed by card id): the seat holding that card this "
        "round, -1 for nobody."))]
    spent: Annotated[list[int], msgspec.Meta(description=(
        "Card ids of the battle cards played this round, in play order; each is played at "
        "most once a round."))]
    supply: Annotated[list[int], msgspec.Meta(description=(
        _PER_SEAT + "soldiers in hand, free to place."))]
    cannonballs: Annotated[list[int], msgspec.Meta(description=(
        _PER_SEAT + "cannonballs held (set back to 2 each round). A chosen count is taken off "
        "only once both battlers have chosen."))]
    coins: Annotated[list[int], msgspec.Meta(description=(
        _PER_SEAT + "coins still in its own castle (5 at the start)."))]
    stolen: Annotated[list[int], msgspec.Meta(description=(
        _PER_SEAT + "coins it has stolen from other castles. Reaching 3 "
        "(`constants.coins_to_win`) ends the game after that round's loot step."))]
    rescued: Annotated[list[int], msgspec.Meta(description=(
        _PER_SEAT + "its captives it has rescued so far (each is back in its hand)."))]
    hostages: Annotated[list[list[int]], msgspec.Meta(description=(
        "`hostages[s]`: the seats whose captive soldier seat `s` still holds, in ascending "
        "seat order (at the start, every opponent of `s`)."))]
    walls: Annotated[list[list[int]], msgspec.Meta(description=(
        "`walls[castle][attacker]`: soldiers of seat `attacker` on the wall of seat "
        "`castle`'s castle. The diagonal is always 0. Walls stay from round to round until "
        "looted at 3 or more (`constants.loot_threshold`)."))]
    troops: Annotated[list[list[int]], msgspec.Meta(description=(
        "`troops[p][o]`: soldiers of seat `p` still standing in its battle against seat `o` "
        "this round; 0 where `o` is not an opponent of `p`."))]
    placed: Annotated[list[tuple[int, ...]], msgspec.Meta(description=(
        _PER_SEAT + "the opponents whose battle it has placed soldiers in this round." +
        _PER_OPPONENT))]
    resolved: Annotated[list[tuple[int, ...]], msgspec.Meta(description=(
        _PER_SEAT + "the opponents whose battle with it is over this round." + _PER_OPPONENT))]
    smoke: Annotated[list[tuple[int, ...]], msgspec.Meta(description=(
        _PER_SEAT + "the opponents with which no cannonballs are fired this round (Smoke "
        "Screen; shown on both seats)." + _PER_OPPONENT))]
    current: Annotated[list[int], msgspec.Meta(description=(
        "What awaits a choice: [holder seat, flag card id] in `claim`, [castle seat, looter "
        "seat] in `loot`, empty otherwise."))]
    battle: Annotated[BattleView | None, msgspec.Meta(description=(
        "The contested battle being resolved; null when none is under way."))]
    outcome: Annotated[Outcome | None, msgspec.Meta(description=(
        "How the last battle with soldiers in it ended this round; null before the first "
        "one of the round."))]


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
