"""Command cards: who or what each may target, and what it does when it resolves.

Damage from a command ignores Armor (Armor only subtracts Attack) and draws nobody a card.
Attachments stay on their unit and go to the discard pile with it; everything else is discarded
as it resolves. The effects added with the full card pool live in ``effects``.
"""

from __future__ import annotations

from siege.games.castle_assault.cards import CARDS, Card
from siege.games.castle_assault.rules.combat import damage_unit, remove_destroyed
from siege.games.castle_assault.rules.effects import TARGETS, resolve_more
from siege.games.castle_assault.rules.hand import draw
from siege.games.castle_assault.rules.lateral import lateral_lanes, move_sideways
from siege.games.castle_assault.rules.stats import has_quick, ranged_of
from siege.games.castle_assault.state import Boost, State, find_unit


def targets(state: State, seat: int, card: Card) -> list[tuple[int, int]]:
    """Every (unit, lane) the command may resolve on; (-1, -1) for one with no target."""
    mine = [u for u in state.units if u.seat == seat]
    theirs = [u for u in state.units if u.seat != seat]
    effect = card.effect
    if effect in TARGETS:
        return TARGETS[effect](state, seat, card)
    if effect == "damage":
        return [(u.uid, -1) for u in theirs]
    if effect == "damage_lane":
        return [(-1, lane) for lane in sorted({u.lane for u in theirs})]
    if effect == "lateral":
        return [(u.uid, lane) for u in mine for lane in lateral_lanes(state, u, card.amount)]
    if effect == "draw":
        return [(-1, -1)] if state.decks[seat] else []
    if effect == "grant_ranged":
        return [(u.uid, -1) for u in mine if ranged_of(state, u) is None]
    if effect == "grant_quick":
        return [(u.uid, -1) for u in mine if not (card.cannot_stack and has_quick(state, u))]
    return [(u.uid, -1) for u in mine]  # movement, armor, attack


def resolve(state: State, seat: int, instance: int, uid: int, lane: int) -> None:
    card = CARDS[state.cards[seat][instance]]
    unit = find_unit(state, uid)
    if card.timing == "attachment":
        assert unit is not None
        unit.attachments.append(instance)
        return
    state.discards[seat].append(instance)
    effect = card.effect
    if effect == "damage" and unit is not None:
        damage_unit(state, unit, card.amount)
        remove_destroyed(state)
    elif effect == "damage_lane":
        for other in [u for u in state.units if u.seat != seat and u.lane == lane]:
            damage_unit(state, other, card.amount)
        remove_destroyed(state)
    elif effect == "lateral" and unit is not None:
        move_sideways(state, unit, lane)
    elif effect == "draw":
        draw(state, seat, card.amount)
    elif effect in ("movement", "armor", "attack") and unit is not None:
        state.boosts.append(Boost(uid=unit.uid, stat=effect, amount=card.amount))
    elif effect in TARGETS:
        resolve_more(state, seat, card, unit, lane)

