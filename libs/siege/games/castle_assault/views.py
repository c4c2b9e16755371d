"""What one seat may know: the whole battlefield, minus the other seat's hand and resources.

Hidden: the cards in the other seat's hand and its face-down resources (only how many), and the
order of every deck, the seat's own included (only sizes). Discard piles are face up. A card with
a different back is told apart face down by everyone: how many such cards each hand and each
resource row holds, and whether each deck's top card is one. Unit
figures are shown as the rules compute them now, since they follow from public cards only.
Views are built from copies, so a view never changes when the state moves on.
"""

from __future__ import annotations

import msgspec

from siege.games.castle_assault.cards import BY_NAME, CARDS
from siege.games.castle_assault.rules.combat import castle_health, engaged
from siege.games.castle_assault.rules.open_phase import may_act
from siege.games.castle_assault.rules.stats import (
    armor_of,
    attack_of,
    has_quick,
    health_left,
    hero_of,
    movement_of,
)
from siege.games.castle_assault.state import Clash, State


class UnitView(msgspec.Struct, frozen=True, kw_only=True):
    uid: int
    seat: int
    card: int
    lane: int
    row: int
    health: int  # left
    attack: int
    armor: int
    movement: int
    quick: bool
    engaged: bool
    can_act: bool  # may still take a Unit Action this turn (on its own seat's turn)
    captain: bool
    cursed: bool
    attachments: list[int]  # card ids


class CastleAssaultView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    phase: str
    step: str
    asking: str
    decision: int
    waiting: list[int]
    chance: str  # the purpose of the chance being waited for, "" when none
    warbands: list[str]
    heroes_played: list[int]  # the card id of each seat's hero
    first: int
    active: int
    turn: int
    hand: list[int]  # this seat's card instances
    hand_cards: list[int]  # their card ids, in the same order
    hand_sizes: list[int]
    deck_sizes: list[int]
    discards: list[list[int]]  # card ids, face up
    resources: list[int]  # this seat's face-down resource cards (card ids)
    resource_counts: list[int]
    ready: list[int]
    placed: int
    units: list[UnitView]
    castles: list[int]  # Health now
    momentum: int
    env_meter: int
    ongoing: int
    field: int
    rubble: list[list[int]]
    revealed: int
    env_deck_size: int
    env_discard: list[int]
    captains: list[int]
    curse: int
    curse_holder: int  # the seat that may place the Curse next (-1: either)
    heroes: list[int]  # 1 once that seat's hero was summoned
    window: str  # the response window open ("movement", "combat") or ""
    fighting: int  # the uid whose combat waits for the window, or -1
    marked_hand: list[int]
    marked_resources: list[int]
    marked_top: list[bool]
    mulligan: list[int]
    rolls: list[int]
    clashes: list[Clash]
    ended: str
    ranks: list[int]


def view_for(state: State, seat: int) -> CastleAssaultView:
    cards = state.cards
    units = [UnitView(
        uid=u.uid, seat=u.seat, card=u.card, lane=u.lane, row=u.row, health=health_left(u),
        attack=max(0, attack_of(state, u)), armor=armor_of(state, u),
        movement=movement_of(state, u), quick=has_quick(state, u), engaged=engaged(state, u),
        can_act=u.seat == state.active and may_act(state, u),
        captain=state.captain[u.seat] == u.uid, cursed=state.curse == u.uid,
        attachments=[cards[u.seat][i] for i in u.attachments]) for u in state.units]
    return CastleAssaultView(
        seat=seat, phase=state.phase, step=state.step, asking=state.asking,
        decision=state.decision, waiting=list(state.waiting),
        chance=state.chance.purpose if state.chance is not None else "",
        warbands=list(state.warbands),
        heroes_played=[BY_NAME[hero_of(state, s).name].id for s in (0, 1)],
        first=state.first, active=state.active, turn=state.turn,
        hand=list(state.hands[seat]), hand_cards=[cards[seat][i] for i in state.hands[seat]],
        hand_sizes=[len(h) for h in state.hands], deck_sizes=[len(d) for d in state.decks],
        discards=[[cards[s][i] for i in state.discards[s]] for s in (0, 1)],
        resources=[cards[seat][i] for i in state.resources[seat]],
        resource_counts=[len(r) for r in state.resources],
        ready=[len(state.resources[s]) - state.exhausted[s] for s in (0, 1)],
        placed=state.placed, units=units,
        castles=[castle_health(state, s) for s in (0, 1)], momentum=state.momentum,
        env_meter=state.env_meter, ongoing=state.ongoing, field=state.field,
        rubble=[list(sq) for sq in state.rubble], revealed=state.revealed,
        env_deck_size=len(state.env_deck), env_discard=list(state.env_discard),
        captains=list(state.captain), curse=state.curse, curse_holder=state.curse_holder,
        heroes=list(state.heroes), window=state.window.kind if state.window else "",
        fighting=state.fight.uid if state.fight else -1,
        marked_hand=[_marked(state, s, state.hands[s]) for s in (0, 1)],
        marked_resources=[_marked(state, s, state.resources[s]) for s in (0, 1)],
        marked_top=[bool(state.decks[s]) and _marked(state, s, state.decks[s][:1]) == 1
                    for s in (0, 1)],
        mulligan=list(state.mulligan),
        rolls=list(state.rolls),
        clashes=[msgspec.structs.replace(c, destroyed=list(c.destroyed)) for c in state.clashes],
        ended=state.ended, ranks=list(state.ranks))


def _marked(state: State, seat: int, instances: list[int]) -> int:
    return sum(1 for i in instances if CARDS[state.cards[seat][i]].marked_back)
