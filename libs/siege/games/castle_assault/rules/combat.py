"""Engaging, simultaneous damage, destroyed units, and a card for each enemy unit destroyed.

A unit is engaged when the square straight ahead of it holds an opposing unit, or is the
opposing castle area with no unit in that lane's location (an undefended castle, decided per
lane). Engaging is never sideways or backwards.
"""

from __future__ import annotations

from typing import Literal

from siege.games.castle_assault.board import (
    CASTLE_ARMOR,
    CASTLE_HEALTH,
    LANES,
    castle_row,
    forward,
)
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.rules.hand import draw
from siege.games.castle_assault.rules.stats import (
    armor_of,
    attack_of,
    aura_bonus,
    card_of,
    health_left,
    hero_of,
    in_smash_area,
    is_captain,
    movement_of,
    smash_bonus,
)
from siege.games.castle_assault.state import (
    HERO_INSTANCE,
    NOBODY,
    Clash,
    Fight,
    Motion,
    State,
    Unit,
    instance_of,
    opponent,
    unit_at,
)

Front = Literal["free", "block", "unit", "castle"]
GIGANTIC_HEALTH = 2  # Health an engaged Gigantic unit takes off the castle it is engaged with


def castle_code(seat: int) -> int:
    """How a Clash names ``seat``'s castle as its target."""
    return -1 - seat


def ahead_of(state: State, seat: int, lane: int, row: int) -> tuple[Front, Unit | None]:
    """What stands in the square ahead of (lane, row) for a unit of ``seat``."""
    nxt = row + forward(seat)
    if nxt == castle_row(opponent(seat)):
        defender = unit_at(state, lane, nxt)
        return ("unit", defender) if defender is not None else ("castle", None)
    if [lane, nxt] in state.rubble:
        return "block", None
    other = unit_at(state, lane, nxt)
    if other is None:
        return "free", None
    return ("block", None) if other.seat == seat else ("unit", other)


def engaged(state: State, unit: Unit) -> bool:
    return ahead_of(state, unit.seat, unit.lane, unit.row)[0] in ("unit", "castle")


def castle_health(state: State, seat: int) -> int:
    """Health after damage, less what each Gigantic enemy engaged with the castle takes off."""
    wall = castle_row(seat) + forward(seat)  # where an enemy stands to engage this castle
    giants = sum(1 for u in state.units
                 if u.row == wall and u.seat != seat and CARDS[u.card].gigantic
                 and unit_at(state, u.lane, castle_row(seat)) is None)
    return CASTLE_HEALTH - state.castle_damage[seat] - GIGANTIC_HEALTH * giants


def auras_now(state: State, unit: Unit) -> dict[str, int]:
    return {stat: aura_bonus(state, unit, stat) for stat in ("attack", "armor")}


def hit_castle(state: State, seat: int, source: int, power: int, smash: bool = False,
               momentum: bool = False) -> None:
    dealt = max(0, power - CASTLE_ARMOR)
    state.castle_damage[seat] += dealt
    state.clashes.append(Clash(source=source, target=castle_code(seat), damage=dealt,
                               smash=smash, momentum=momentum))


def fight(state: State, attacker: Unit, *, smash: bool = False, charge_roll: int = 0,
          auras: dict[str, int] | None = None) -> None:
    """``attacker`` engages what is ahead of it; both sides deal damage at once.

    ``smash``: it could have moved further. ``charge_roll``: the die of the Charge that brought
    it here (0 when it was not a Charge). ``auras``: the Aura bonuses it had when its movement
    began, kept through the combat that ends the movement."""
    kind, defender = ahead_of(state, attacker.seat, attacker.lane, attacker.row)
    if kind not in ("unit", "castle"):
        return
    now = auras_now(state, attacker)
    kept = now if not auras else {k: max(v, now[k]) for k, v in auras.items()}
    if defender is not None and card_of(defender).defense:
        smash = False  # Defense: no Smash, hence no Momentum Bonus either
    power = attack_of(state, attacker, kept)
    momentum = False
    if smash:
        power += smash_bonus(state)
    if charge_roll:
        hero = hero_of(state, attacker.seat)
        if is_captain(state, attacker) and charge_roll >= hero.charge_roll:
            power += hero.charge_attack
        if smash and in_smash_area(state, attacker.seat):
            power += 1
            momentum = True
    power = max(0, power)
    enemy = opponent(attacker.seat)
    if defender is None:
        hit_castle(state, enemy, attacker.uid, power, smash, momentum)
        return
    in_castle = defender.row == castle_row(enemy)
    room = health_left(defender)
    dealt = max(0, power - armor_of(state, defender))
    back = max(0, max(0, attack_of(state, defender)) - armor_of(state, attacker, kept))
    defender.damage += dealt
    attacker.damage += back
    clash = Clash(source=attacker.uid, target=defender.uid, damage=dealt, returned=back,
                  smash=smash, momentum=momentum)
    state.clashes.append(clash)
    clash.destroyed = remove_destroyed(state, {defender.uid: attacker.seat,
                                               attacker.uid: defender.seat})
    if defender.uid not in clash.destroyed or attacker.uid in clash.destroyed:
        return
    card = card_of(attacker)
    if card.ram and in_castle and dealt > room:
        hit_castle(state, enemy, attacker.uid, dealt - room)  # Ram: the excess goes on
    if card.consume:
        if in_castle:  # Consume: through the defender and at the castle, no Smash
            hit_castle(state, enemy, attacker.uid, max(0, attack_of(state, attacker)))
        else:
            state.motion = Motion(uid=attacker.uid, left=movement_of(state, attacker),
                                  auras=auras_now(state, attacker))


def remove_destroyed(state: State, killers: dict[int, int] | None = None) -> list[int]:
    """Takes every unit at 0 Health or less off the battlefield; ``killers[uid]`` is the seat
    whose unit destroyed it, which draws a card (only for an opposing unit destroyed). A unit
    with Resurrection destroyed for the first time waits in ``state.returning``."""
    dead = [u for u in state.units if health_left(u) <= 0]
    for unit in dead:
        state.units.remove(unit)
        state.boosts = [b for b in state.boosts if b.uid != unit.uid]
        state.discards[unit.seat].extend(unit.attachments)
        if state.captain[unit.seat] == unit.uid:
            state.captain[unit.seat] = NOBODY
        if state.curse == unit.uid:
            state.curse = NOBODY
            state.curse_holder = unit.seat  # the token passes to the side that suffered it
        if instance_of(unit.uid) == HERO_INSTANCE:
            continue  # a hero destroyed ends the game: it goes to no pile
        if card_of(unit).resurrection and unit.uid not in state.resurrected:
            state.resurrected.append(unit.uid)
            state.returning.append(Unit(uid=unit.uid, seat=unit.seat, card=unit.card,
                                        lane=unit.lane, row=castle_row(unit.seat),
                                        entered=state.turn))
        else:
            state.discards[unit.seat].append(instance_of(unit.uid))
    for unit in dead:
        killer = (killers or {}).get(unit.uid, NOBODY)
        if killer != NOBODY and killer != unit.seat:
            draw(state, killer)
    return [u.uid for u in dead]


def place_returning(state: State) -> None:
    """Resurrection: each unit waiting comes back, unhurt and bare, to a free location of its
    castle area (its own lane first); with none free it stays destroyed."""
    for unit in state.returning:
        lanes = [unit.lane] + [lane for lane in range(LANES) if lane != unit.lane]
        free = [lane for lane in lanes if unit_at(state, lane, unit.row) is None]
        if not free:
            state.discards[unit.seat].append(instance_of(unit.uid))
            continue
        unit.lane = free[0]
        state.units.append(unit)
        if engaged(state, unit) and state.fight is None:
            state.fight = Fight(uid=unit.uid)  # back in front of an enemy: they engage
    state.returning = []


def damage_unit(state: State, unit: Unit, amount: int) -> None:
    """Damage from a card, not a unit: nobody draws for what it destroys."""
    unit.damage += amount
    state.clashes.append(Clash(source=NOBODY, target=unit.uid, damage=amount))
