"""The game as a machine: runs every automatic step until a seat or chance is needed.

Event handlers only record what their event says and close the decision it answered;
:func:`advance` then moves the game on. Before any phase step it settles a battle under way and
a battle march on offer. Phases: setup -> (turns 1-8: collect -> vote -> boss -> order -> buy
-> reinforce -> events -> turns -> wrapup) -> over. Turn 1 has no Collect (set-up gave its
income). The first Dark Force unit into the keep ends the game at once.
"""

from __future__ import annotations

from siege.games.storm_castle.board import NOBODY
from siege.games.storm_castle.rules import battle, economy, heroes, magic, movement, setup, turns
from siege.games.storm_castle.rules.nodes import close_decision, open_decision, shuffle
from siege.games.storm_castle.state import State


def advance(state: State) -> None:
    while not state.waiting and state.chance is None:
        if state.phase == "over":
            return
        if state.winner != NOBODY:
            state.phase = "over"
            state.battle = None
            state.offer = None
            return
        if (state.battle is not None and battle.settle(state)
                and (state.chance is not None or state.waiting)):
            return
        if state.offer is not None:
            offer = state.offer
            if offer.seat == NOBODY:  # the rules decide for the defenders: always march
                movement.on_battle_marched(state, offer.unit, offer.to)
                continue
            open_decision(state, [offer.seat], "march")
            return
        if state.summon is not None:
            if state.summon.step == "march" and state.march is not None:
                if turns.resolve_event(state):  # the hero's own Onward March 1
                    return
            elif heroes.step(state):
                return
            continue
        if _phase_step(state):
            return


def _phase_step(state: State) -> bool:
    phase = state.phase
    if phase == "setup":
        return setup.step(state)
    if phase == "collect":
        return _collect(state)
    if phase == "vote":
        return _vote(state)
    if phase == "boss":
        return _boss(state)
    if phase == "order":
        return _order(state)
    if phase == "buy":
        return _buy(state)
    if phase == "reinforce":
        return turns.reinforce(state)
    if phase == "events":
        return turns.draw_events(state)
    if phase == "turns":
        return turns.player_turns(state)
    if phase == "wrapup":
        return turns.wrapup(state)
    return True


def _collect(state: State) -> bool:
    if not state.collected:
        state.collected = True
        for unit in state.units.values():
            unit.moved = 0
            unit.attacked = False
            unit.done = False
            unit.pushed = False
            unit.ward = 0  # wards and fury last until the end of the game turn
            unit.fury = 0
        state.provoked = [False] * state.players
        if state.turn > 1:
            magic.refresh(state)
            economy.collect(state)
    if economy.settle_draws(state, list(range(state.players))):
        return True
    state.collected = False
    state.phase = "vote"
    return False


def _vote(state: State) -> bool:
    if state.players == 1:
        state.elected = 0
    elif all(bid == NOBODY for bid in state.bids):
        open_decision(state, list(range(state.players)), "bid")
        return True
    else:
        economy.resolve_vote(state)
    state.phase = "boss"
    state.sub = ""
    return False


def _boss(state: State) -> bool:
    if state.sub == "":
        if state.tied:
            open_decision(state, [state.boss], "tie")
            return True
        economy.install_boss(state)
        state.sub = "draw"
    if state.sub == "draw":
        if economy.settle_boss_draw(state):
            return True
        state.sub = "kept"
        if state.boss_offer:
            open_decision(state, [state.boss], "boss_card")
            return True
    if state.sub == "kept":
        state.sub = "took"
        if state.ousted != NOBODY and state.boss_hands[state.ousted]:
            open_decision(state, [state.boss], "ousted_card")
            return True
    if state.sub == "took":
        state.sub = "looted"
        if state.ousted != NOBODY:
            open_decision(state, [state.boss], "loot")
            return True
    state.ousted = NOBODY
    state.sub = ""
    state.phase = "order"
    return False


def _order(state: State) -> bool:
    n = state.players
    if n == 1:
        state.tokens = [1]
        state.order = [0]
    else:
        if state.sub == "":
            state.sub = "offer"
            shuffle(state, n, "turn_tokens")
            return True
        if state.sub == "offer":
            state.sub = "rest"
            state.boss_offer_tokens = state.token_box[:2]
            open_decision(state, [state.boss], "token")
            return True
        if state.sub == "rest":
            state.sub = "deal"
            if len(state.token_box) > 1:
                shuffle(state, len(state.token_box), "turn_tokens_rest")
                return True
        economy.deal_tokens(state)
    state.sub = ""
    state.phase = "buy"
    state.current = 0
    for unit in state.units.values():
        unit.countered = False
    return False


def _buy(state: State) -> bool:
    if state.current >= state.players:
        state.current = 0
        state.phase = "reinforce"
        state.sub = ""
        return False
    seat = state.order[state.current]
    if economy.settle_draws(state, [seat]):
        return True
    open_decision(state, [seat], "buy")
    return True


def on_buying_ended(state: State) -> None:
    close_decision(state)
    state.current += 1
    for unit in state.units.values():
        unit.countered = False
