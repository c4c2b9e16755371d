"""A unit's Attack, Armor and Movement now: printed values and every modifier in effect.

Modifiers: attachments, this turn's Instants and Boosts, friendly Auras and opposing Hex Auras,
the Captain skill, the Curse, the Ongoing Environment card, Momentum Max, and the unit keywords
that depend on where it stands or what it suffered (Gloat, Blooded, Stalwart,
Wallbreaker). Charge-only bonuses (Smash, Momentum, the Captain's Charge skill) are added by
the combat rules, which know how the unit got there.
"""

from __future__ import annotations

import msgspec

from siege.games.castle_assault.board import aura_squares, castle_row, front_row
from siege.games.castle_assault.cards import CARDS, Card, Ranged
from siege.games.castle_assault.heroes import HEROES, Hero
from siege.games.castle_assault.state import NOBODY, State, Unit, seat_of, unit_at

MOMENTUM_MAX = 4  # spaces from START to Max on each side (see the README's derivation)
SMASH_AREA = 2  # the two spaces nearest a seat's side grant the Momentum Bonus


def card_of(unit: Unit) -> Card:
    return CARDS[unit.card]


def hero_of(state: State, seat: int) -> Hero:
    """The hero the seat plays: its deck's choice, else its warband's own."""
    return HEROES[state.hero_keys[seat] if state.hero_keys else state.warbands[seat]]


def in_favor(state: State, seat: int) -> int:
    """How far the Momentum Meter stands toward ``seat``'s castle (negative: away)."""
    return state.momentum if seat == 0 else -state.momentum


def at_max(state: State, seat: int) -> bool:
    return in_favor(state, seat) >= MOMENTUM_MAX


def in_smash_area(state: State, seat: int) -> bool:
    return in_favor(state, seat) > MOMENTUM_MAX - SMASH_AREA


def _ongoing(state: State, effect: str) -> int:
    if state.ongoing == NOBODY:
        return 0
    card = CARDS[state.ongoing]
    return card.amount if card.env_effect == effect else 0


def aura_bonus(state: State, unit: Unit, stat: str) -> int:
    """Friendly Auras and opposing Hex Auras reaching the unit (along their own lane only)."""
    total = 0
    for other in state.units:
        if other.lane != unit.lane or other.uid == unit.uid:
            continue
        aura = CARDS[other.card].aura
        if aura is None or aura.stat != stat or aura.foes != (other.seat != unit.seat):
            continue
        if (unit.lane, unit.row) in aura_squares(other.lane, other.row, aura.size):
            total += aura.amount
    return total


def _boosts(state: State, unit: Unit, stat: str) -> int:
    return sum(b.amount for b in state.boosts if b.uid == unit.uid and b.stat == stat)


def attached_cards(state: State, unit: Unit) -> list[Card]:
    """The cards attached to the unit (attachments are instances of the owner's deck)."""
    return [CARDS[state.cards[unit.seat][i]] for i in unit.attachments]


def _attached(state: State, unit: Unit, effect: str) -> int:
    return sum(c.amount for c in attached_cards(state, unit) if c.effect == effect)


def is_captain(state: State, unit: Unit) -> bool:
    return state.captain[unit.seat] == unit.uid


def is_cursed(state: State, unit: Unit) -> bool:
    return state.curse == unit.uid


def attack_of(state: State, unit: Unit, auras: dict[str, int] | None = None) -> int:
    """Attack before charge bonuses; ``auras`` overrides the aura bonus (a moving unit keeps
    the Auras it had when its movement began)."""
    card = card_of(unit)
    value = card.attack + _attached(state, unit, "attack") + _boosts(state, unit, "attack")
    value += auras["attack"] if auras is not None else aura_bonus(state, unit, "attack")
    value += _ongoing(state, "attack_all")
    if is_cursed(state, unit):
        value += hero_of(state, state.curse_by).curse_attack
    if is_captain(state, unit):
        value += hero_of(state, unit.seat).attack
    if card.max_attack and at_max(state, unit.seat):
        value += card.max_attack
    value += _attached(state, unit, "panoply")
    if card.gloat and state.curse != NOBODY and seat_of(state.curse) != unit.seat:
        value += card.gloat
    if card.blooded and unit.damage > 0:
        value += card.blooded
    if card.wallbreaker and at_the_wall(state, unit):
        value += card.wallbreaker
    return value


def at_the_wall(state: State, unit: Unit) -> bool:
    """Engaged with the opposing castle: at its front row, that lane's location empty."""
    return (unit.row == front_row(unit.seat)
            and unit_at(state, unit.lane, castle_row(1 - unit.seat)) is None)


def armor_of(state: State, unit: Unit, auras: dict[str, int] | None = None) -> int:
    card = card_of(unit)
    value = card.armor + _attached(state, unit, "armor") + _boosts(state, unit, "armor")
    value += auras["armor"] if auras is not None else aura_bonus(state, unit, "armor")
    if is_captain(state, unit):
        value += hero_of(state, unit.seat).armor
    if is_cursed(state, unit):
        value += hero_of(state, state.curse_by).curse_armor
    value += _attached(state, unit, "panoply") + _ongoing(state, "armor_all")
    if unit.row == castle_row(unit.seat):
        value += card.stalwart + _ongoing(state, "home_armor")
    if card.max_armor and at_max(state, unit.seat):
        value += card.max_armor
    return max(0, value)


def movement_bonus(state: State, unit: Unit) -> int:
    """Everything added to the printed Movement (it also lengthens a Charge)."""
    bonus = _boosts(state, unit, "movement") + _ongoing(state, "movement_all")
    bonus += _attached(state, unit, "movement")  # Swift Boots (Instants are Boosts instead)
    if is_cursed(state, unit):
        bonus += hero_of(state, state.curse_by).curse_movement
    return bonus


def movement_of(state: State, unit: Unit) -> int:
    return max(0, card_of(unit).movement + movement_bonus(state, unit))


def health_left(unit: Unit) -> int:
    return card_of(unit).health - unit.damage


def has_quick(state: State, unit: Unit) -> bool:
    if state.ongoing != NOBODY and CARDS[state.ongoing].env_effect == "no_quick":
        return False  # Gale
    return card_of(unit).quick or any(c.effect == "grant_quick"
                                      for c in attached_cards(state, unit))


def ranged_of(state: State, unit: Unit) -> Ranged | None:
    """The unit's Ranged ability as it reaches now (Fog of War shortens it)."""
    ranged = card_of(unit).ranged
    if ranged is None:
        ranged = next((c.grant for c in attached_cards(state, unit) if c.grant is not None),
                      None)
    if ranged is None:
        return None
    change = _ongoing(state, "range_plus") - _ongoing(state, "range_minus")
    return msgspec.structs.replace(ranged, high=ranged.high + change) if change else ranged


def smash_bonus(state: State) -> int:
    return 1 + _ongoing(state, "smash_plus")


def build_available(state: State, seat: int) -> int:
    """Build granted by the seat's units in play minus Build its units in play use."""
    return sum(card_of(u).build - card_of(u).needs_build for u in state.units if u.seat == seat)
