"""Close combat at the assaulted mission (our own design around the excerpt).

The assaulting seat (side 0) fights the defender's units there; the defender holds ties. Each
side starts with its units' strength at that mission. The side that is not ahead may swerve one
of its unswerved maneuvers in play, adding its speed to its total, or yield; this repeats until
the side not ahead yields or has nothing left to swerve. Then the side ahead wins: it scores
``COMBAT_POINTS`` and every unit of the loser at that mission is destroyed (to its discard pile).
"""

from __future__ import annotations

from typing import Any

from siege.games.mission import actions as a
from siege.games.mission import events as e
from siege.games.mission.rules.effects import combat_totals
from siege.games.mission.rules.nodes import close_decision, open_decision
from siege.games.mission.state import Combat, CombatResult, State, opponent, unswerved
from siege.games.mission.tuning import COMBAT_POINTS


def begin(state: State, slot: int) -> None:
    attacker = state.active
    state.combat = Combat(slot=slot, sides=[attacker, opponent(attacker)], swerved=[[], []])
    state.phase = "combat"


def behind(state: State, combat: Combat) -> int:
    """The side that is not ahead (the attacker on a tie: the defender holds ties)."""
    attack, defend = combat_totals(state, combat)
    return 0 if attack <= defend else 1


def settle(state: State) -> bool:
    """Asks the side not ahead to swerve or yield; decides the combat when it cannot swerve.
    True when a decision is open."""
    combat = state.combat
    assert combat is not None
    seat = combat.sides[behind(state, combat)]
    if unswerved(state, seat):
        open_decision(state, seat)
        return True
    finish(state)
    return False


def legal(state: State, seat: int) -> list[Any]:
    return [*(a.SwerveManeuver(card=card) for card in unswerved(state, seat)), a.YIELD]


def finish(state: State) -> None:
    combat = state.combat
    assert combat is not None
    totals = combat_totals(state, combat)
    winner_side = 0 if totals[0] > totals[1] else 1
    winner = combat.sides[winner_side]
    loser = combat.sides[1 - winner_side]
    slot = combat.slot
    destroyed = state.units[loser][slot]
    state.discards[loser].extend(destroyed)
    state.units[loser][slot] = []
    state.points[winner] += COMBAT_POINTS
    state.result = CombatResult(slot=slot, sides=list(combat.sides), totals=totals,
                                winner=winner, destroyed=list(destroyed))
    state.combat = None
    # Whatever the outcome, the assault goes on to the stash step.
    state.phase = "stash"


def on_maneuver_swerved(state: State, event: e.ManeuverSwerved) -> None:
    close_decision(state)
    combat = state.combat
    assert combat is not None
    state.swerved[event.seat].append(event.card)
    combat.swerved[combat.sides.index(event.seat)].append(event.card)


def on_combat_yielded(state: State, event: e.CombatYielded) -> None:
    close_decision(state)
    finish(state)
