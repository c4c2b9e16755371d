"""Playing power and Boss cards: the effect vocabulary (gold, magic, draws, army moves, fury,
guard, healing, flipping defenders) implemented once, and remain-in-play income at Collect.

``outcome`` decides every value when the card is played (what was gained, drawn, healed and
flipped); ``resolve`` folds exactly those values, so a replay never re-decides anything.
"""

from __future__ import annotations

from typing import Any

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import KEEP, distance, is_location
from siege.games.storm_castle.power import BOSS_CARDS, Effect, playable, power_card
from siege.games.storm_castle.state import CAP, State

FLIP_REACH = 2  # a flip effect reaches defenders within this many spaces of one of your units


def card_effect(state: State, seat: int, card: int, boss: bool) -> Effect:
    if boss:
        return BOSS_CARDS[card].effect
    found = power_card(state.armies[seat], card)
    assert found is not None
    return found.effect


def play_options(state: State, seat: int) -> list[Any]:
    """Action and common cards in hand, and Boss cards in the Boss hand, on one's own turn."""
    army = state.armies[seat]
    out: list[Any] = [a.PlayPowerCard(card=c) for c in sorted(set(state.hands[seat]))
                      if playable(army, c)]
    out.extend(a.PlayBossCard(card=c) for c in sorted(set(state.boss_hands[seat])))
    return out


def flip_targets(state: State, seat: int, count: int) -> list[int]:
    """Non-flipped defenders (the hero included) within reach of a non-flipped unit of the
    player, nearest the keep first, then lowest id; never the keep's own guard."""
    if count <= 0:
        return []
    mine = [u.space for u in state.units.values()
            if u.owner == seat and not u.flipped and not is_location(u.space)]
    found = [d for d in state.units.values()
             if d.is_defender and not d.flipped and not is_location(d.space) and d.space != KEEP
             and any(distance(s, d.space) <= FLIP_REACH for s in mine)]
    found.sort(key=lambda d: (distance(d.space, KEEP), d.uid))
    return [d.uid for d in found[:count]]


def outcome(state: State, seat: int, card: int, boss: bool) -> dict[str, Any]:
    """The values a card decides now, to be written into its event."""
    effect = card_effect(state, seat, card, boss)
    deck = state.decks[seat]
    return {
        "gold": min(CAP, state.gold[seat] + effect.gold) - state.gold[seat],
        "magic": min(CAP, state.magic[seat] + effect.magic) - state.magic[seat],
        "drawn": min(effect.draw, len(deck)),
        "moves": effect.moves,
        "fury": effect.fury,
        "guard": effect.guard,
        "heal": effect.heal,
        "healed": sorted(u.uid for u in state.units.values()
                         if u.owner == seat and u.damage > 0) if effect.heal else [],
        "flipped": flip_targets(state, seat, effect.flip),
    }


def resolve(state: State, seat: int, event: Any, boss: bool) -> None:
    """Folds a played card: the card leaves the hand, then its decided values apply."""
    if boss:
        state.boss_hands[seat].remove(event.card)
        state.boss_discard.append(event.card)
    else:
        state.hands[seat].remove(event.card)
        state.discards[seat].append(event.card)
    state.gold[seat] += event.gold
    state.magic[seat] += event.magic
    for _ in range(event.drawn):
        state.hands[seat].append(state.decks[seat].pop(0))
    state.army_moves += event.moves
    for unit in state.units.values():
        if unit.owner == seat:
            unit.fury += event.fury
            unit.ward += event.guard
    for uid in event.healed:
        unit = state.units[uid]
        unit.damage = max(0, unit.damage - event.heal)
    for uid in event.flipped:
        state.units[uid].flipped = True


def collect_income(state: State, seat: int) -> tuple[int, int]:
    """Gold and magic from the player's remain-in-play cards at Collect."""
    gold = magic = 0
    for card in state.in_play[seat]:
        found = power_card(state.armies[seat], card)
        if found is not None:
            gold += found.income.gold
            magic += found.income.magic
    return gold, magic
