"""Battles: melee and ranged attacks, attack spells (cast, or struck back with), counterattacks,
first strike, battle rounds, structures, an Attack X outside battle (collapsing walls, pushes,
ladders knocked down), the ninth wall's call for the hero and the battle march offer.

Dice come from the dice service as d6 values and are read here (our own faces, see the README):
the red Burst die shows a critical on 1 and a hit on 2 (blank on 3-6); a white Battle die shows
a hit on 1 and 2 (blank on 3-6). Each die hits one time in three; the Burst die's critical (one
time in six) counts as a hit and adds three Battle dice.
"""

from __future__ import annotations

from siege.engine.protocol import ChanceMismatchError
from siege.games.storm_castle.armies import PEASANTS, UNIT_KINDS
from siege.games.storm_castle.board import KEEP, KEEP_WALLS, NOBODY, STRUCTURES, WALLS, is_castle
from siege.games.storm_castle.cards import DEFENDER_SPELLS, LADDER, Spell, spell_of
from siege.games.storm_castle.rules import magic, terrain
from siege.games.storm_castle.rules.nodes import open_decision, roll
from siege.games.storm_castle.state import (
    UNIT_MOVES,
    Battle,
    MarchOffer,
    State,
    Strike,
    Summon,
    Unit,
)

CRITICAL_DICE = 3
COLLAPSE_ATTACK = 1
HERO_WALLS = 9  # the ninth wall destroyed summons the hero
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


def battle_spell(state: State, battle: Battle, uid: int) -> Spell | None:
    """The attack spell ``uid`` strikes with in this battle, if any."""
    card = battle.spell if uid == battle.attacker else battle.counter_spell
    if card == NOBODY or uid not in state.units:
        return None
    owner = state.units[uid].owner
    return DEFENDER_SPELLS[card] if owner < 0 else spell_of(state.armies[owner], card)


def _ranged(state: State, battle: Battle, unit: Unit) -> bool:
    spell = battle_spell(state, battle, unit.uid)
    return spell.range > 0 if spell is not None else terrain.is_ranged(unit)


def _stages(state: State, battle: Battle, counter: bool, first_round: bool) -> list[list[int]]:
    attacker, target = state.units[battle.attacker], state.units[battle.target]
    a, t = attacker.uid, target.uid
    if not counter:
        return [[a]]
    a_ranged, t_ranged = _ranged(state, battle, attacker), _ranged(state, battle, target)
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
                 context: str = "attack", spell: int = NOBODY) -> None:
    unit = state.units[attacker]
    battle = Battle(attacker=attacker, target=target, structure=structure, context=context,
                    credit=_credit(unit, state), spell=spell)  # type: ignore[arg-type]
    state.battle = battle
    if structure != NOBODY:
        battle.stages = [[attacker]]
        battle.queue = [attacker]
        return
    victim = state.units[target]
    battle.target_space = victim.space
    counter = can_counter(state, victim, unit) or (
        not victim.flipped and not victim.countered
        and bool(magic.counter_spells(state, victim, unit)))
    if counter:
        victim.countered = True
        if magic.counter_spells(state, victim, unit):
            battle.asking = True
            return
    battle.stages = _stages(state, battle, counter, first_round=True)
    battle.queue = list(battle.stages[0])


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
    if magic.counter_spells(state, victim, unit):
        battle.asking = True
        return
    if magic.counter_spells(state, unit, victim):
        battle.starter_asking = True
        return
    battle.stages = _stages(state, battle, True, first_round=True)
    battle.queue = list(battle.stages[0])


def on_counter_chosen(state: State, seat: int, card: int, cost: int) -> None:
    """The target's owner chose its own attack (-1) or an attack spell to strike back with; in
    battle rounds the unit that started them chooses next, the same way."""
    battle = state.battle
    assert battle is not None
    if battle.starter_asking:
        battle.starter_asking = False
        if card != NOBODY:
            magic.pay(state, seat, card, cost)
            battle.spell = card
    else:
        battle.asking = False
        if card != NOBODY:
            magic.pay(state, seat, card, cost)
            battle.counter_spell = card
        starter, victim = state.units[battle.attacker], state.units[battle.target]
        if battle.rounds and magic.counter_spells(state, starter, victim):
            battle.starter_asking = True
            return
    battle.stages = _stages(state, battle, True, first_round=True)
    battle.queue = list(battle.stages[0])


def roll_attack(state: State, victim: int, dice: int, credit: int, context: str) -> None:
    """An "Attack X" outside battle (a collapsing wall, a push, a falling ladder): X dice at the
    victim, who rolls armor only."""
    state.battle = Battle(attacker=NOBODY, target=victim, context=context,  # type: ignore[arg-type]
                          credit=credit, stages=[[NOBODY]], queue=[NOBODY], outside=dice)


def start_collapse(state: State, victim: int, credit: int) -> None:
    roll_attack(state, victim, COLLAPSE_ATTACK, credit, "collapse")


# --- running a battle -------------------------------------------------------------------------


def _opponent(battle: Battle, striker: int) -> int:
    return battle.target if striker == battle.attacker else battle.attacker


def _new_strike(state: State, battle: Battle, striker: int) -> Strike | None:
    if striker == NOBODY:  # an Attack X outside battle (a collapsing wall, a push...)
        if battle.target not in state.units:
            return None
        return Strike(striker=NOBODY, victim=battle.target, dice=battle.outside)
    if striker not in state.units:
        return None  # destroyed in an earlier stage
    unit = state.units[striker]
    spell = battle_spell(state, battle, striker)
    attack = spell.attack if spell is not None else terrain.attack_dice(unit)
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
        if battle.asking or battle.starter_asking:
            chooser = battle.target if battle.asking else battle.attacker
            open_decision(state, [state.units[chooser].owner], "counter")
            return True
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
        striker = state.units.get(strike.striker)
        victim = state.units[strike.victim]
        if striker is None:
            dice = terrain.armor(victim)  # an Attack X outside battle: no cover
        else:
            dice = terrain.defense_dice(state, victim, striker.space,
                                        terrain.on_ladder(state, striker))
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
    state.ladders.pop(sid, None)  # a ladder on a fallen wall goes back to its owner
    _check_ninth_wall(state)
    if kind == "wall":
        rampart = STRUCTURES[sid].inner[0]
        for unit in state.units.values():
            if unit.space == rampart:
                return unit.uid, credit
    return None


def _check_ninth_wall(state: State) -> None:
    """The ninth wall down (castle and keep walls together) pauses the game for the hero."""
    if state.intro or state.hero_summoned or state.summon is not None:
        return
    if sum(1 for w in (*WALLS, *KEEP_WALLS) if not state.standing[w]) >= HERO_WALLS:
        state.summon = Summon(reason="wall")


def destroy_unit(state: State, uid: int, killer: int) -> None:
    unit = state.units.pop(uid)
    if unit.owner >= 0:
        state.bought[unit.owner][unit.kind] -= 1  # the token goes back to its army's pile
        # its equipment cards go to the discard pile, its ladders back to the pile
        state.discards[unit.owner].extend(c for c in unit.gear if c != LADDER)
    elif UNIT_KINDS[unit.kind].army != PEASANTS and killer >= 0:
        state.defenders_slain[killer] += 1
    if uid == state.hero:
        state.hero = NOBODY
        if killer >= 0:
            state.heroes_slain[killer] += 1
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
        battle.stages = _stages(state, battle, True, first_round=False)
        battle.queue = list(battle.stages[0])
        return True
    return False


def _after(state: State, battle: Battle) -> None:
    """Offers the battle march to a melee unit that destroyed an adjacent unit; moves a pushed
    unit that survived its push."""
    if battle.context == "push":
        pushed = state.units.get(battle.target)
        if pushed is not None and not any(u.space == battle.target_space
                                          for u in state.units.values()):
            pushed.space = battle.target_space
            pushed.moved += 1
        return
    if battle.rounds or battle.structure != NOBODY or battle.context not in ("attack", "order"):
        return
    if battle.spell != NOBODY:
        return  # casting ended the caster's movement
    if battle.attacker not in state.units or battle.target in state.units:
        return
    unit = state.units[battle.attacker]
    to = battle.target_space
    if terrain.is_ranged(unit) or any(u.space == to for u in state.units.values()):
        return
    behind = not terrain.adjacent_open(state, unit.space, to)
    if behind and not (terrain.melee_adjacent(state, unit.space, to)
                       and terrain.on_ladder(state, unit) != NOBODY):
        return  # fighting across a wall: only from a ladder
    if unit.moved >= UNIT_MOVES:
        return
    if unit.owner >= 0:
        if state.army_moves < 1:
            return
        state.offer = MarchOffer(unit=unit.uid, to=to, seat=unit.owner)
        return
    if not is_castle(to) or unit.space == KEEP or terrain.keep_reachable(state, unit.uid, to):
        return
    state.offer = MarchOffer(unit=unit.uid, to=to, seat=state.ref_holder)
