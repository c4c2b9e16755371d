"""Battles: melee and ranged attacks, counterattacks, first strike, battle rounds, structures,
collapsing walls and the battle march offer.

Dice come from the dice service as d6 values and are read here (our own faces, see the README):
the red Burst die shows a critical on 1 and a hit on 2 (blank on 3-6); a white Battle die shows
a hit on 1 and 2 (blank on 3-6). Each die hits one time in three; the Burst die's critical (one
time in six) counts as a hit and adds three Battle dice.
"""

from __future__ import annotations

from siege.engine.protocol import ChanceMismatchError
from siege.games.storm_castle.armies import PEASANTS, UNIT_KINDS
from siege.games.storm_castle.board import KEEP, NOBODY, STRUCTURES, is_castle
from siege.games.storm_castle.rules import terrain
from siege.games.storm_castle.rules.nodes import roll
from siege.games.storm_castle.state import (
    UNIT_MOVES,
    Battle,
    MarchOffer,
    State,
    Strike,
    Unit,
)

CRITICAL_DICE = 3
COLLAPSE_ATTACK = 1
BURST_CRITICAL = 1
BURST_HIT = 2
BATTLE_HITS = (1, 2)


def burst_face(value: int) -> str:
    return "critical" if value == BURST_CRITICAL else "hit" if value == BURST_HIT else "blank"


def battle_hit(value: int) -> bool:
    return value in BATTLE_HITS


def structure_health(state: State, structure: int) -> int:
    kind = STRUCTURES[structure].kind
    if kind == "wall" and state.intro:
        return 2
    return 3


def unit_health(unit: Unit) -> int:
    return UNIT_KINDS[unit.kind].health


# --- starting battles -----------------------------------------------------------------------


def _stages(attacker: Unit, target: Unit, counter: bool, first_round: bool) -> list[list[int]]:
    a, t = attacker.uid, target.uid
    if not counter:
        return [[a]]
    a_ranged, t_ranged = terrain.is_ranged(attacker), terrain.is_ranged(target)
    if a_ranged != t_ranged:  # the ranged side always deals its damage first
        return [[a], [t]] if a_ranged else [[t], [a]]
    if a_ranged or not first_round:
        return [[a, t]]
    a_first = UNIT_KINDS[attacker.kind].first_strike
    t_first = UNIT_KINDS[target.kind].first_strike
    if a_first and not t_first:
        return [[a], [t]]
    if t_first and not a_first:
        return [[t], [a]]
    return [[a, t]]


def can_counter(state: State, target: Unit, attacker: Unit) -> bool:
    if target.flipped or target.countered:
        return False
    return terrain.can_reach(state, target, attacker.space)


def _credit(unit: Unit, state: State) -> int:
    return unit.owner if unit.owner >= 0 else NOBODY


def start_attack(state: State, attacker: int, target: int = NOBODY, structure: int = NOBODY,
                 context: str = "attack") -> None:
    unit = state.units[attacker]
    battle = Battle(attacker=attacker, target=target, structure=structure, context=context,
                    credit=_credit(unit, state))  # type: ignore[arg-type]
    if structure != NOBODY:
        battle.stages = [[attacker]]
    else:
        victim = state.units[target]
        battle.target_space = victim.space
        counter = can_counter(state, victim, unit)
        battle.stages = _stages(unit, victim, counter, first_round=True)
        if counter:
            victim.countered = True
    battle.queue = list(battle.stages[0])
    state.battle = battle


def start_rounds(state: State, attacker: int, target: int, context: str) -> None:
    """Two units in one space fight rounds until one is left (range 1 for both). A unit that
    cannot strike back is destroyed at once."""
    unit, victim = state.units[attacker], state.units[target]
    battle = Battle(attacker=attacker, target=target, rounds=True, context=context,
                    credit=_credit(unit, state), target_space=victim.space)  # type: ignore[arg-type]
    state.battle = battle
    if victim.flipped or victim.countered:
        battle.pending[target] = unit_health(victim)
        battle.stages = [[]]
        return
    victim.countered = True
    battle.stages = _stages(unit, victim, True, first_round=True)
    battle.queue = list(battle.stages[0])


def start_collapse(state: State, victim: int, credit: int) -> None:
    state.battle = Battle(attacker=NOBODY, target=victim, context="collapse", credit=credit,
                          stages=[[NOBODY]], queue=[NOBODY])


# --- running a battle -------------------------------------------------------------------------


def _opponent(battle: Battle, striker: int) -> int:
    return battle.target if striker == battle.attacker else battle.attacker


def _new_strike(state: State, battle: Battle, striker: int) -> Strike | None:
    if striker == NOBODY:  # a collapsing wall: an Attack 1 on the unit on the rampart
        if battle.target not in state.units:
            return None
        return Strike(striker=NOBODY, victim=battle.target, dice=COLLAPSE_ATTACK)
    if striker not in state.units:
        return None  # destroyed in an earlier stage
    unit = state.units[striker]
    attack = UNIT_KINDS[unit.kind].attack
    if battle.structure != NOBODY and striker == battle.attacker:
        return Strike(striker=striker, structure=battle.structure, dice=attack)
    victim = _opponent(battle, striker)
    if victim not in state.units:
        return None
    bonus = 1 if state.units[victim].flipped else 0
    return Strike(striker=striker, victim=victim, dice=attack + bonus)


def purpose(strike: Strike) -> str:
    return f"{strike.step}:{strike.striker}"


def settle(state: State) -> bool:
    """Runs the battle until it needs dice or a decision (True), or is over (False)."""
    while state.battle is not None:
        battle = state.battle
        if battle.strike is not None:
            strike = battle.strike
            dice = strike.dice if strike.step != "critical" else CRITICAL_DICE
            roll(state, dice, purpose(strike))
            return True
        if battle.queue:
            battle.strike = _new_strike(state, battle, battle.queue.pop(0))
            continue
        _land_damage(state, battle)
        if state.battle is not battle:  # a collapsing wall took over
            continue
        if _next_stage(state, battle):
            continue
        state.battle = None
        _after(state, battle)
        if state.offer is not None:
            return True
    return False


def on_dice(state: State, values: list[int]) -> None:
    """Reads one roll for the strike being made (checked against the request first)."""
    battle = state.battle
    need = state.chance
    if battle is None or battle.strike is None or need is None:
        raise ChanceMismatchError("dice arrived while no battle waits for them")
    strike = battle.strike
    if need.purpose != purpose(strike) or len(values) != need.count:
        raise ChanceMismatchError(f"dice {values!r} do not answer {need!r}")
    if not all(1 <= v <= 6 for v in values):
        raise ChanceMismatchError(f"battle dice out of range: {values!r}")
    state.chance = None
    if strike.step == "attack":
        face = burst_face(values[0])
        strike.hits = (face != "blank") + sum(battle_hit(v) for v in values[1:])
        if face == "critical":
            strike.step = "critical"
            return
    elif strike.step == "critical":
        strike.hits += sum(battle_hit(v) for v in values)
    else:
        strike.hits = max(0, strike.hits - sum(battle_hit(v) for v in values))
        _finish_strike(battle, strike)
        return
    if strike.victim != NOBODY and strike.hits > 0 and strike.victim in state.units:
        attacker_space = (state.units[strike.striker].space if strike.striker in state.units
                          else NOBODY)
        dice = terrain.defense_dice(state, state.units[strike.victim], attacker_space)
        if strike.striker == NOBODY:
            dice = UNIT_KINDS[state.units[strike.victim].kind].armor  # a falling wall: no cover
        if dice > 0:
            strike.step = "defense"
            strike.dice = dice
            return
    _finish_strike(battle, strike)


def _finish_strike(battle: Battle, strike: Strike) -> None:
    if strike.structure != NOBODY:
        battle.structure_pending += strike.hits
    else:
        battle.pending[strike.victim] = battle.pending.get(strike.victim, 0) + strike.hits
    battle.strike = None


def _land_damage(state: State, battle: Battle) -> None:
    collapse: tuple[int, int] | None = None
    if battle.structure != NOBODY and battle.structure_pending:
        sid = battle.structure
        state.structure_damage[sid] += battle.structure_pending
        battle.structure_pending = 0
        if state.standing[sid] and state.structure_damage[sid] >= structure_health(state, sid):
            collapse = _destroy_structure(state, sid, battle.credit)
    target_credit = (_credit(state.units[battle.target], state)
                     if battle.target in state.units else NOBODY)
    for uid, damage in sorted(battle.pending.items()):
        if uid not in state.units or damage <= 0:
            continue
        unit = state.units[uid]
        unit.damage += damage
        if unit.damage >= unit_health(unit):
            destroy_unit(state, uid, target_credit if uid == battle.attacker else battle.credit)
    battle.pending = {}
    if collapse is not None:
        start_collapse(state, *collapse)


def _destroy_structure(state: State, sid: int, credit: int) -> tuple[int, int] | None:
    state.standing[sid] = False
    kind = STRUCTURES[sid].kind
    if credit >= 0 and kind in ("wall", "keep_wall"):
        state.walls_taken[credit] += 1
    elif credit >= 0 and kind == "building":
        state.buildings_taken[credit] += 1
    if kind == "wall":
        rampart = STRUCTURES[sid].inner[0]
        for unit in state.units.values():
            if unit.space == rampart:
                return unit.uid, credit
    return None


def destroy_unit(state: State, uid: int, killer: int) -> None:
    unit = state.units.pop(uid)
    if unit.owner >= 0:
        state.bought[unit.owner][unit.kind] -= 1  # the token goes back to its army's pile
    elif UNIT_KINDS[unit.kind].army != PEASANTS and killer >= 0:
        state.defenders_slain[killer] += 1
    if state.last_mover == uid:
        state.last_mover = NOBODY


def _next_stage(state: State, battle: Battle) -> bool:
    alive = battle.attacker in state.units and battle.target in state.units
    if battle.stage + 1 < len(battle.stages) and (alive or battle.structure != NOBODY):
        battle.stage += 1
        battle.queue = [s for s in battle.stages[battle.stage] if s in state.units]
        return True
    if battle.rounds and alive:
        battle.round += 1
        battle.stage = 0
        battle.stages = _stages(state.units[battle.attacker], state.units[battle.target], True,
                                first_round=False)
        battle.queue = list(battle.stages[0])
        return True
    return False


def _after(state: State, battle: Battle) -> None:
    """Offers the battle march to a melee unit that destroyed an adjacent unit."""
    if battle.rounds or battle.structure != NOBODY or battle.context not in ("attack", "order"):
        return
    if battle.attacker not in state.units or battle.target in state.units:
        return
    unit = state.units[battle.attacker]
    to = battle.target_space
    if terrain.is_ranged(unit) or any(u.space == to for u in state.units.values()):
        return
    if not terrain.adjacent_open(state, unit.space, to) or unit.moved >= UNIT_MOVES:
        return
    if unit.owner >= 0:
        if state.army_moves < 1:
            return
        state.offer = MarchOffer(unit=unit.uid, to=to, seat=unit.owner)
        return
    if not is_castle(to) or unit.space == KEEP or terrain.keep_reachable(state, unit.uid, to):
        return
    state.offer = MarchOffer(unit=unit.uid, to=to, seat=state.ref_holder)
