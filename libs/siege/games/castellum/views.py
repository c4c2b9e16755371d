"""What one seat may know: the table, minus other seats' hands and every deck's order.

Hidden: the angel cards and the dealt enemy cards of other seats (only how many they hold), the
order of every deck and the discard pile's contents (cards discarded over the hand limit go
there unseen). Column and enemy strengths are included as computed by the combat rules, since
they follow from public cards only. Views are built from copies, so a view never changes when
the state moves on.
"""

from __future__ import annotations

import msgspec

from siege.games.castellum.cards import NOBODY
from siege.games.castellum.rewards import REWARD_CARDS
from siege.games.castellum.rules.combat import column_strength, enemy_strength, manned
from siege.games.castellum.rules.scoring import Score, score
from siege.games.castellum.state import Draft, Play, State, columns_open


class ColumnView(msgspec.Struct, frozen=True, kw_only=True):
    fort: int
    troops: list[int]
    enemy: int
    angels: list[int]
    manned: bool  # holds a fortification or troop card (an empty column never wins)
    strength: int
    enemy_strength: int  # NOBODY without an enemy card


class EffectView(msgspec.Struct, frozen=True, kw_only=True):
    """A special effect being targeted (``responders`` empty) or waiting on the stack."""

    seat: int
    card: int
    effect: str
    targets: list[int]
    responders: list[int]


class CastellumView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    players: int
    phase: str
    asking: str  # what the open decision is about (see ``state.Asking``)
    decision: int
    waiting: list[int]
    chance: str  # the purpose of the chance being waited for, "" when none
    year: int  # index into enemies.YEARS
    columns_open: int
    first_player: int
    turn: int
    angel_deck_size: int
    angel_discard_size: int
    fort_deck_size: int
    troop_deck_size: int
    enemy_deck_sizes: list[int]
    offer: list[int]
    resources: list[list[int]]
    workers: list[int]
    spaces: list[list[int]]
    hand: list[int]  # this seat's angel cards
    hand_sizes: list[int]
    enemy_hand: list[int]  # this seat's dealt enemy cards
    enemy_hand_sizes: list[int]
    lines: list[list[ColumnView]]
    defeated: list[list[int]]
    year_defeats: list[int]
    dinghuis: list[int]
    reward_strength: list[int]
    reward_strength_next: list[int]
    pair_type: list[int]
    passed: list[bool]
    draft: EffectView | None
    stack: list[EffectView]
    reward_threshold: int
    reward_chooser: int
    reward_side: int
    results: list[list[int]]
    scores: list[Score]


def _effect(entry: Draft | Play) -> EffectView:
    return EffectView(seat=entry.seat, card=entry.card, effect=entry.effect,
                      targets=list(entry.targets),
                      responders=list(entry.responders) if isinstance(entry, Play) else [])


def _line(state: State, seat: int) -> list[ColumnView]:
    return [
        ColumnView(
            fort=column.fort,
            troops=list(column.troops),
            enemy=column.enemy,
            angels=list(column.angels),
            manned=manned(column),
            strength=column_strength(state, seat, col),
            enemy_strength=(enemy_strength(state, seat, col)
                            if column.enemy != NOBODY else NOBODY),
        )
        for col, column in enumerate(state.lines[seat])
    ]


def view_for(state: State, seat: int) -> CastellumView:
    n = state.players
    return CastellumView(
        seat=seat,
        players=n,
        phase=state.phase,
        asking=state.asking,
        decision=state.decision,
        waiting=list(state.waiting),
        chance=state.chance.purpose if state.chance is not None else "",
        year=state.year,
        columns_open=columns_open(state),
        first_player=state.first,
        turn=state.turn,
        angel_deck_size=len(state.angel_deck),
        angel_discard_size=len(state.angel_discard),
        fort_deck_size=len(state.fort_deck),
        troop_deck_size=len(state.troop_deck),
        enemy_deck_sizes=[len(deck) for deck in state.enemy_decks],
        offer=list(state.offer),
        resources=[list(have) for have in state.resources],
        workers=list(state.workers),
        spaces=[list(on) for on in state.spaces],
        hand=list(state.hands[seat]),
        hand_sizes=[len(h) for h in state.hands],
        enemy_hand=list(state.enemy_hands[seat]),
        enemy_hand_sizes=[len(h) for h in state.enemy_hands],
        lines=[_line(state, owner) for owner in range(n)],
        defeated=[list(cards) for cards in state.defeated],
        year_defeats=list(state.year_defeats),
        dinghuis=list(state.dinghuis),
        reward_strength=list(state.reward_strength),
        reward_strength_next=list(state.reward_strength_next),
        pair_type=list(state.pair_type),
        passed=list(state.passed),
        draft=_effect(state.draft) if state.draft is not None else None,
        stack=[_effect(play) for play in state.stack],
        reward_threshold=REWARD_CARDS[state.year].threshold[n],
        reward_chooser=state.reward_chooser,
        reward_side=state.reward_side,
        results=[list(row) for row in state.results],
        scores=[score(state, p) for p in range(n)],
    )
