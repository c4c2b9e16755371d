"""Reinforcements, the turn's event cards and their schedule, the players' turns with their
events, and wrap-up.

Event schedule (slot codes: ``2i`` at the start of the i-th player's turn, ``2i + 1`` at its
end): the first player's start and end, then every other player's end, then the other players'
starts, in that order; a turn with k cards uses the first k slots. With fewer than four players
(our design) a turn has at most two cards per player.
"""

from __future__ import annotations

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import NOBODY, WALLS
from siege.games.storm_castle.decks import EVENT_CARDS
from siege.games.storm_castle.rules import defenders, economy, events_play, heroes, magic, policy
from siege.games.storm_castle.rules.movement import begin_turn
from siege.games.storm_castle.rules.nodes import open_decision, shuffle
from siege.games.storm_castle.rules.setup import on_placed
from siege.games.storm_castle.state import LAST_TURN, March, State, current_seat

DOUBLE_REINFORCEMENT_TURNS = (4, 7)


def slots(players: int) -> list[int]:
    out = [0, 1] + [2 * i + 1 for i in range(1, players)] + [2 * i for i in range(1, players)]
    return out


def event_count(state: State) -> int:
    sides = sum(1 for side in range(4)
                if any(state.standing[w] for w in WALLS[3 * side:3 * side + 3]))
    count = sides + 1
    if state.players < 4:
        count = min(count, 2 * state.players)
    return count + (1 if state.hero != NOBODY else 0)  # the hero inspires one more


def plan(players: int, count: int) -> list[int]:
    """Slots for ``count`` cards; beyond every slot (the hero's card with few players) the
    extra cards go to the end of the last player's turn."""
    every = slots(players)
    chosen = every[:count] + [2 * players - 1] * max(0, count - len(every))
    return sorted(chosen, key=lambda code: (code // 2, code % 2))


def _settle_extra(state: State) -> bool:
    """Draws the hero's extra card into its place; True when the deck must be reshuffled."""
    if state.extra_at == NOBODY:
        return False
    if not state.event_deck:
        if state.event_discard:
            shuffle(state, len(state.event_discard), "reevents")
            return True
        del state.event_plan[state.extra_at]  # no card left anywhere: it is lost
    else:
        state.event_row.insert(state.extra_at, state.event_deck.pop(0))
    state.extra_at = NOBODY
    return False


# --- reinforcements ---------------------------------------------------------------------------


def reinforce(state: State) -> bool:
    first = state.order[0]
    if state.sub == "":
        wanted = 2 if state.turn in DOUBLE_REINFORCEMENT_TURNS else 1
        state.place_left = min(wanted, len(state.defender_pool))
        defenders.ready_reference(state, first)
        state.sub = "place"
    if state.place_left > 0:
        state.to_place = [state.defender_pool[0]]
        spaces = defenders.placement_spaces(state, setup=False)
        if not spaces:
            state.place_left = 0
            state.to_place = []
        elif state.ref_holder == NOBODY:
            swaps = defenders.keep_swaps(state)
            guard = defenders.keep_guard(state)
            if swaps and guard is not None:  # the rules always take the stronger guard
                on_placed(state, state.to_place[0], policy.place(state, swaps), state.next_uid,
                          guard.uid)
            else:
                on_placed(state, state.to_place[0], policy.place(state, spaces), state.next_uid)
            return False
        else:
            open_decision(state, [state.ref_holder], "place")
            return True
    defenders.pass_reference(state, first)
    state.sub = ""
    state.phase = "events"
    state.events_owed = event_count(state)
    state.event_row = []
    state.event_plan = plan(state.players, state.events_owed)
    state.event_next = 0
    state.revealed = []
    return False


def draw_events(state: State) -> bool:
    while state.events_owed > 0:
        if not state.event_deck:
            if state.event_discard:
                shuffle(state, len(state.event_discard), "reevents")
                return True
            state.event_plan = state.event_plan[:len(state.event_row)]
            break
        state.event_row.append(state.event_deck.pop(0))
        state.events_owed -= 1
    state.phase = "turns"
    state.current = 0
    state.step = "begin"
    return False


def on_events_reshuffled(state: State, order: list[int]) -> None:
    cards = sorted(state.event_discard)
    state.event_deck = [cards[i] for i in order]
    state.event_discard = []


# --- player turns and their events ------------------------------------------------------------


def _due(state: State, code: int) -> bool:
    nxt = state.event_next
    return nxt < len(state.event_plan) and state.event_plan[nxt] == code


def resolve_event(state: State) -> bool:
    """Resolves the next event card; True when a decision or chance is open."""
    seat = current_seat(state)
    march = state.march
    if march is None:
        defenders.ready_reference(state, seat)
        card = state.event_row[state.event_next]
        state.revealed.append(card)
        if EVENT_CARDS[card].march == 0:
            events_play.resolve(state, card, seat)
            _event_done(state)
            return False
        march = state.march = March(card=card, left=EVENT_CARDS[card].march)
        for unit in state.units.values():
            unit.countered = False
    if march.caster == NOBODY:
        march.active = NOBODY
        magic.discard_drawn(state)  # the last caster's spells are spent
    elif magic.settle_spell_draws(state):
        return True
    options = defenders.orders(state) if march.left > 0 else []
    if not options:
        state.march = None
        magic.discard_drawn(state)
        if march.hero:
            heroes.march_done(state)
        else:
            _event_done(state)
        return False
    if state.ref_holder == NOBODY:
        choice = policy.order(state, options)
        if isinstance(choice, a.DrawSpells):
            defenders.on_spells_drawn(state, choice.unit)
        else:
            defenders.apply_order(state, choice)
        return False
    open_decision(state, [state.ref_holder], "order")
    return True


def _event_done(state: State) -> None:
    defenders.pass_reference(state, current_seat(state))
    state.event_next += 1


def player_turns(state: State) -> bool:
    if _settle_extra(state):
        return True
    if state.march is not None:
        return resolve_event(state)
    seat = current_seat(state)
    if (state.step == "begin" and state.current == 0 and state.hero in state.units
            and state.hero_march_turn < state.turn):
        state.hero_march_turn = state.turn  # the hero marches before the first event card
        defenders.ready_reference(state, seat)
        heroes.start_march(state)
        return resolve_event(state)
    if state.step == "begin":
        if _due(state, 2 * state.current):
            return resolve_event(state)
        state.step = "act"
        begin_turn(state)
    if state.step == "act":
        open_decision(state, [seat], "act")
        return True
    if _due(state, 2 * state.current + 1):
        return resolve_event(state)
    state.current += 1
    state.step = "begin"
    if state.current >= state.players:
        state.current = 0
        state.step = ""
        state.phase = "wrapup"
    return False


# --- wrap-up -------------------------------------------------------------------------------------


def highest_march(state: State) -> int:
    marches = [c for c in state.revealed if EVENT_CARDS[c].march > 0]
    if not marches:
        return NOBODY
    return max(marches, key=lambda c: (EVENT_CARDS[c].march, -state.revealed.index(c)))


def wrapup(state: State) -> bool:
    if state.sub == "":
        for seat in state.order:
            asking = economy.over_limit(state, seat)
            if asking:
                open_decision(state, [seat], asking)  # type: ignore[arg-type]
                return True
        for unit in state.units.values():
            if unit.is_defender:
                unit.flipped = False
        back = highest_march(state)
        state.event_discard.extend(c for c in state.revealed if c != back)
        state.event_discard.extend(state.event_row[len(state.revealed):])
        state.event_row = []
        state.revealed = []
        state.event_plan = []
        state.event_next = 0
        if back != NOBODY:
            state.sub = "return"
            state.returning = back
            shuffle(state, len(state.event_deck) + 1, "return_event")
            return True
    state.sub = ""
    state.returning = NOBODY
    if state.turn >= LAST_TURN:
        state.phase = "over"
        return False
    state.turn += 1
    state.phase = "collect"
    return False


def on_event_returned(state: State, order: list[int]) -> None:
    cards = sorted([*state.event_deck, state.returning])
    state.event_deck = [cards[i] for i in order]
