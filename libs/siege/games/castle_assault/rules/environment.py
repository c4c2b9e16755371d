"""The Environment Meter and deck: the opening card, a new card every fifth turn boundary.

An Immediate card happens once and goes to the Environment discard pile (nobody draws for a
unit it destroys). An Ongoing card lasts
until the next Ongoing card replaces it. A card that enters the battlefield stays until another
one enters, and leaves the Ongoing card in effect. An empty Environment deck is refilled by
shuffling its discard pile (our ruling: the text never runs out of cards).
"""

from __future__ import annotations

from siege.games.castle_assault.board import BATTLEFIELD_ROWS, CASTLE_ROW
from siege.games.castle_assault.cards import CARDS
from siege.games.castle_assault.rules.combat import castle_health, damage_unit, remove_destroyed
from siege.games.castle_assault.rules.hand import draw
from siege.games.castle_assault.rules.nodes import open_chance
from siege.games.castle_assault.rules.stats import MOMENTUM_MAX, armor_of
from siege.games.castle_assault.state import NOBODY, State, unit_at

METER_SPACES = 5  # START, T1, T2, T3, T4
SHUFFLE_PURPOSE = "environment"
RESHUFFLE_PURPOSE = "environment_reshuffle"
MIDDLE_ROWS = (BATTLEFIELD_ROWS // 2, BATTLEFIELD_ROWS // 2 + 1)  # rows 4 and 5
RUBBLE_LANE = 1
RUBBLE_LANES = {"rubble": RUBBLE_LANE, "rubble_left": 0}  # a field card's lane of rubble


def move_meter(state: State) -> bool:
    """Between turns: one space on; True when it passes T4 and a card must be revealed."""
    state.env_meter = (state.env_meter + 1) % METER_SPACES
    return state.env_meter == 0


def reveal(state: State) -> bool:
    """Reveals and resolves the top card; True when the deck must be reshuffled first."""
    if not state.env_deck:
        if state.env_discard:
            open_chance(state, "shuffle", len(state.env_discard), 0, RESHUFFLE_PURPOSE)
            return True
        return False
    card = CARDS[state.env_deck.pop(0)]
    state.revealed = card.id
    if card.env == "ongoing":
        if state.ongoing != NOBODY:
            state.env_discard.append(state.ongoing)
        state.ongoing = card.id
    elif card.env == "field":
        if state.field != NOBODY:
            state.env_discard.append(state.field)
        state.field = card.id
        lane = RUBBLE_LANES[card.env_effect]
        state.rubble = [[lane, row] for row in MIDDLE_ROWS if unit_at(state, lane, row) is None]
    else:
        _immediate(state, card.env_effect, card.amount)
        state.env_discard.append(card.id)
    return False


def on_reshuffled(state: State, order: list[int]) -> None:
    cards = sorted(state.env_discard)
    state.env_deck = [cards[i] for i in order]
    state.env_discard = []


def _immediate(state: State, effect: str, amount: int) -> None:
    if effect == "regain_lowest":
        health = [castle_health(state, seat) for seat in (0, 1)]
        if health[0] != health[1]:
            low = health.index(min(health))
            state.castle_damage[low] -= min(amount, state.castle_damage[low])
    elif effect == "draw_each":
        for seat in (0, 1):
            draw(state, seat, amount)
    elif effect == "damage_castles":
        for seat in (0, 1):
            state.castle_damage[seat] += amount
    elif effect == "momentum_reset":
        state.momentum = 0
    elif effect in ("damage_middle", "damage_castle_areas", "quake"):
        if effect == "quake":
            hit = [u for u in state.units if armor_of(state, u) == 0]
        else:
            rows = MIDDLE_ROWS if effect == "damage_middle" else CASTLE_ROW
            hit = [u for u in state.units if u.row in rows]
        for unit in hit:
            damage_unit(state, unit, amount)
        remove_destroyed(state)
    else:
        _immediate_more(state, effect, amount)


def _immediate_more(state: State, effect: str, amount: int) -> None:
    """The Immediate cards added with the full card pool."""
    if effect == "tokens_return":
        state.captain = [NOBODY, NOBODY]
        state.curse, state.curse_by, state.curse_holder = NOBODY, NOBODY, NOBODY
    elif effect == "resource_each":
        for seat in (0, 1):
            if state.decks[seat]:
                state.resources[seat].append(state.decks[seat].pop(0))
    elif effect == "rust":
        for unit in state.units:
            state.discards[unit.seat].extend(unit.attachments)
            unit.attachments = []
    elif effect == "momentum_underdog":
        health = [castle_health(state, seat) for seat in (0, 1)]
        if health[0] != health[1]:
            step = amount if health[0] < health[1] else -amount
            state.momentum = max(-MOMENTUM_MAX, min(MOMENTUM_MAX, state.momentum + step))
