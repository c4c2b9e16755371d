"""Collect, the Boss vote and the Boss's privileges, the turn-order tokens, buying and
deploying, and the hand limits at wrap-up."""

from __future__ import annotations

from typing import Any

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import (
    BUYABLE_KINDS,
    CHAMPION,
    MAGIC_ARMIES,
    UNIT_KINDS,
    UPGRADES,
    generates_magic,
)
from siege.games.storm_castle.board import (
    DRAW_LOCATION,
    GOLD_LOCATION,
    HAND_LOCATION,
    MAGIC_LOCATION,
    NOBODY,
    START_SPACES,
    UPGRADE_SITES,
)
from siege.games.storm_castle.decks import (
    BOSS_DRAW,
    BOSS_HAND_LIMIT,
    CHAMPION_CARD,
    HAND_BONUS,
    HAND_LIMIT,
    POWER_CARD_PRICE,
    UPGRADE_CARD,
)
from siege.games.storm_castle.rules import cards_play, equipment, terrain
from siege.games.storm_castle.rules.battle import destroy_unit, start_rounds
from siege.games.storm_castle.rules.movement import may_fight
from siege.games.storm_castle.rules.nodes import shuffle
from siege.games.storm_castle.state import CAP, State, Unit

COLLECT_GOLD = 5
LOCATION_BONUS = 2
DRAWS = 1
DEPLOY_ELSEWHERE = 1  # extra gold per unit deployed outside one's own battlefield


def cap(value: int) -> int:
    return min(CAP, value)


# --- collect ------------------------------------------------------------------------------------


def collect(state: State) -> None:
    """Gold, magic and draws for every player (the draws are owed, then made one by one)."""
    for seat in range(state.players):
        gold = COLLECT_GOLD + (LOCATION_BONUS if terrain.controls(state, seat, GOLD_LOCATION)
                               else 0)
        state.gold[seat] = cap(state.gold[seat] + gold)
        army = state.armies[seat]
        magic = sum(generates_magic(army, u.kind) for u in state.units.values()
                    if u.owner == seat and not u.flipped) if army in MAGIC_ARMIES else 0
        if terrain.controls(state, seat, MAGIC_LOCATION):
            magic += LOCATION_BONUS
        income_gold, income_magic = cards_play.collect_income(state, seat)
        state.gold[seat] = cap(state.gold[seat] + income_gold)
        magic += income_magic
        state.magic[seat] = cap(state.magic[seat] + magic)
        state.owed_draws[seat] += DRAWS + (LOCATION_BONUS if terrain.controls(
            state, seat, DRAW_LOCATION) else 0)


def settle_draws(state: State, seats: list[int]) -> bool:
    """Makes owed power-card draws; True when a reshuffle (chance) must come first."""
    for seat in seats:
        while state.owed_draws[seat] > 0:
            deck = state.decks[seat]
            if not deck:
                if state.discards[seat]:
                    shuffle(state, len(state.discards[seat]), f"repower_{seat}")
                    return True
                state.owed_draws[seat] = 0  # nothing left anywhere: the draw is lost
                break
            state.hands[seat].append(deck.pop(0))
            state.owed_draws[seat] -= 1
    return False


def on_power_reshuffled(state: State, seat: int, order: list[int]) -> None:
    cards = sorted(state.discards[seat])
    state.decks[seat] = [cards[i] for i in order]
    state.discards[seat] = []


# --- the Boss vote ---------------------------------------------------------------------


def base_votes(state: State, seat: int) -> int:
    """Votes before gold: 1, walls taken, upgrade and champion in play, 3 defenders slain, a
    hero slain."""
    champion = any(u.owner == seat and u.kind == CHAMPION[state.armies[seat]] and not u.flipped
                   for u in state.units.values())
    return (1 + state.walls_taken[seat] + int(upgrade_built(state, seat)) + int(champion)
            + state.defenders_slain[seat] // 3 + int(state.heroes_slain[seat] > 0))


def upgrade_built(state: State, seat: int) -> bool:
    field = state.battlefields[seat]
    return field != NOBODY and state.standing[UPGRADE_SITES[field]]


def bid_options(state: State, seat: int) -> list[a.BidGold]:
    return [a.BidGold(gold=g) for g in range(state.gold[seat] + 1)]


def resolve_vote(state: State) -> None:
    """All bids are in: pay them, count the votes, elect or leave a tie to the Boss."""
    votes = [base_votes(state, s) + state.bids[s] for s in range(state.players)]
    for seat in range(state.players):
        state.gold[seat] -= state.bids[seat]
    state.last_bids = list(state.bids)
    state.last_votes = votes
    state.bids = [NOBODY] * state.players
    top = max(votes)
    tied = [s for s in range(state.players) if votes[s] == top]
    if len(tied) == 1:
        state.elected = tied[0]
    elif state.boss == NOBODY:  # the first vote: the lowest set-up token breaks ties
        state.elected = min(tied, key=lambda s: state.setup_tokens[s])
    else:
        state.tied = tied


def install_boss(state: State) -> None:
    new = state.elected
    old = state.boss
    state.ousted = old if old not in (NOBODY, new) else NOBODY
    state.boss = new
    state.elected = NOBODY


def settle_boss_draw(state: State) -> bool:
    """Draws the Boss's two cards; True when the Boss discards must be reshuffled first."""
    while len(state.boss_offer) < BOSS_DRAW:
        if not state.boss_deck:
            if state.boss_discard:
                shuffle(state, len(state.boss_discard), "reboss")
                return True
            break
        state.boss_offer.append(state.boss_deck.pop(0))
    return False


def on_boss_reshuffled(state: State, order: list[int]) -> None:
    cards = sorted(state.boss_discard)
    state.boss_deck = [cards[i] for i in order]
    state.boss_discard = []


def on_boss_card_kept(state: State, seat: int, card: int, asking: str) -> None:
    if asking == "ousted_card":  # chosen blind, by position in the ousted Boss's hand
        hand = state.boss_hands[state.ousted]
        state.boss_hands[seat].append(hand.pop(card))
        state.boss_discard.extend(hand)
        state.boss_hands[state.ousted] = []
        return
    state.boss_hands[seat].append(card)
    state.boss_discard.extend(c for c in state.boss_offer if c != card)
    state.boss_offer = []


def on_loot(state: State, seat: int, kind: str) -> None:
    if kind == "gold":
        state.gold[seat] = cap(state.gold[seat] + 1)
    else:
        state.magic[seat] = cap(state.magic[seat] + 1)


# --- turn order -----------------------------------------------------------------------------------


def deal_tokens(state: State) -> None:
    """The tokens left go clockwise from the Boss's left; then the turn order is set."""
    n = state.players
    for k, token in enumerate(state.token_box):
        state.tokens[(state.boss + 1 + k) % n] = token
    state.token_box = []
    state.order = sorted(range(n), key=lambda s: state.tokens[s])


# --- buying and deploying ---------------------------------------------------------------


def deploy_spaces(state: State, seat: int) -> list[tuple[int, int]]:
    """(space, extra cost) for every start space a new unit may be deployed on."""
    own = state.battlefields[seat]
    out = []
    for field, spaces in enumerate(START_SPACES):
        extra = 0 if field == own else DEPLOY_ELSEWHERE
        for space in spaces:
            there = [u for u in state.units.values() if u.space == space]
            if all(u.owner == seat or may_fight(state, seat, u.owner) for u in there):
                out.append((space, extra))
    return out


def legal(state: State, seat: int) -> list[Any]:
    gold = state.gold[seat]
    army = state.armies[seat]
    out: list[Any] = []
    spaces = deploy_spaces(state, seat)
    for kind in BUYABLE_KINDS[army]:
        spec = UNIT_KINDS[kind]
        if state.bought[seat][kind] >= spec.tokens:
            continue
        out += [a.BuyUnit(kind=kind, space=s) for s, extra in spaces if spec.cost + extra <= gold]
    champion = CHAMPION[army]
    if CHAMPION_CARD in state.hands[seat] and state.bought[seat][champion] == 0:
        out += [a.BuyChampion(space=s) for s, extra in spaces
                if UNIT_KINDS[champion].cost + extra <= gold]
    if (UPGRADE_CARD in state.hands[seat] and not upgrade_built(state, seat)
            and UPGRADES[army].cost <= gold):
        out.append(a.BUY_UPGRADE)
    if gold >= POWER_CARD_PRICE and (state.decks[seat] or state.discards[seat]):
        out.append(a.BUY_POWER_CARD)
    if seat == state.boss and gold > 0:
        out += [a.GiveGold(seat=s) for s in range(state.players) if s != seat]
    out += equipment.buy_options(state, seat)
    out += equipment.drop_options(state, seat)
    out.append(a.END_BUYING)
    return out


def unit_cost(state: State, seat: int, kind: int, space: int) -> int:
    extra = dict(deploy_spaces(state, seat)).get(space, 0)
    return UNIT_KINDS[kind].cost + extra


def on_unit_bought(state: State, seat: int, kind: int, space: int, cost: int, uid: int,
                   champion: bool) -> None:
    state.gold[seat] -= cost
    state.bought[seat][kind] += 1
    if champion:
        state.hands[seat].remove(CHAMPION_CARD)
        state.discards[seat].append(CHAMPION_CARD)
    there = [u for u in state.units.values() if u.space == space]
    for unit in there:
        if unit.owner == seat:  # one's own unit makes way for the new one
            destroy_unit(state, unit.uid, NOBODY)
    state.units[uid] = Unit(uid=uid, kind=kind, owner=seat, space=space)
    state.next_uid = max(state.next_uid, uid + 1)
    others = [u for u in there if u.owner != seat and u.uid in state.units]
    if others:
        new = state.units[uid]
        new.attacked = new.done = True  # the deploying unit has acted this turn
        new.moved = 2
        start_rounds(state, uid, others[0].uid, "deploy")


def on_upgrade_bought(state: State, seat: int, cost: int) -> None:
    state.gold[seat] -= cost
    state.hands[seat].remove(UPGRADE_CARD)
    state.upgrade_cards[seat] = True
    site = UPGRADE_SITES[state.battlefields[seat]]
    state.standing[site] = True
    state.structure_damage[site] = 0


def on_power_card_bought(state: State, seat: int) -> None:
    state.gold[seat] -= POWER_CARD_PRICE
    state.owed_draws[seat] += 1


def on_gold_given(state: State, seat: int, to: int) -> None:
    state.gold[seat] -= 1
    state.gold[to] = cap(state.gold[to] + 1)


# --- hand limits ----------------------------------------------------------------------------------


def hand_limit(state: State, seat: int) -> int:
    return HAND_LIMIT + (HAND_BONUS if terrain.controls(state, seat, HAND_LOCATION) else 0)


def held(state: State, seat: int) -> list[int]:
    """The cards that count for the hand limit: held, exhausted and remain-in-play."""
    return [*state.hands[seat], *state.exhausted[seat], *state.in_play[seat]]


def on_power_card_discarded(state: State, seat: int, card: int) -> None:
    for pile in (state.hands[seat], state.exhausted[seat], state.in_play[seat]):
        if card in pile:
            pile.remove(card)
            break
    state.discards[seat].append(card)


def over_limit(state: State, seat: int) -> str:
    if len(held(state, seat)) > hand_limit(state, seat):
        return "discard"
    if len(state.boss_hands[seat]) > BOSS_HAND_LIMIT:
        return "boss_discard"
    return ""
