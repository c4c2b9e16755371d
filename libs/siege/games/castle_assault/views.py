"""What one seat may know: the whole battlefield, minus the other seat's hand and resources.

Hidden: the cards in the other seat's hand and its face-down resources (only how many), and the
order of every deck, the seat's own included (only sizes). Discard piles are face up. A card with
a different back is told apart face down by everyone: how many such cards each hand and each
resource row holds, and whether each deck's top card is one. Unit
figures are shown as the rules compute them now, since they follow from public cards only.
Views are built from copies, so a view never changes when the state moves on.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.engine.protocol import own
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

_PER_SEAT = "One entry per seat, in seat order: "
_CARD_IDS = "card ids (indexes into `cards` of the reference data)"
_UID = ("a unit's uid (seat * 100 + instance; a hero is seat * 100 + 99), as in "
        "`units[].uid`")


class UnitView(msgspec.Struct, frozen=True, kw_only=True):
    """One unit on the battlefield, seen by everyone alike: where it stands and its figures as
    the rules compute them now (printed values with every modifier in effect)."""

    uid: Annotated[int, msgspec.Meta(description=(
        "The unit's id: seat * 100 + instance (its card's position in the owner's deck list), "
        "or seat * 100 + 99 for a hero. Actions and events name units by it."))]
    seat: Annotated[int, msgspec.Meta(description="The seat (0 or 1) that owns the unit.")]
    card: Annotated[int, msgspec.Meta(description=(
        "Its card id: index into `cards` of the reference data (for a hero, its battlefield "
        "card, kind `hero`)."))]
    lane: Annotated[int, msgspec.Meta(description=(
        "Its lane, 0-2: left, centre, right as seat 0 sees them (`lanes` of the reference "
        "data)."))]
    row: Annotated[int, msgspec.Meta(description=(
        "Its row, 0-9 and absolute: 0 is seat 0's castle area, 9 seat 1's, 1-8 the "
        "battlefield (`rows` and `squares` of the reference data). Seat 0's units move up, "
        "seat 1's down."))]
    health: Annotated[int, msgspec.Meta(description=(
        "Health left: the card's printed Health minus the damage the unit has taken."))]
    attack: Annotated[int, msgspec.Meta(description=(
        "Attack now, never below 0: printed Attack with attachments, this turn's boosts, "
        "Auras, Captain, Curse, the Ongoing Environment card, Momentum Max and keywords. "
        "Charge-only bonuses (Smash, Momentum Bonus, the Captain's Charge skill) are not "
        "included."))]
    armor: Annotated[int, msgspec.Meta(description=(
        "Armor now, never below 0, with every modifier in effect; it is subtracted from the "
        "Attack of units that hit it (damage from cards ignores it)."))]
    movement: Annotated[int, msgspec.Meta(description=(
        "Movement now, never below 0: the squares it moves in Move Units (a Charge moves the "
        "die plus only the bonuses)."))]
    quick: Annotated[bool, msgspec.Meta(description=(
        "Whether it has Quick now (printed or from an attachment; never under the Gale "
        "card): it moves again at its owner's End of Turn unless engaged."))]
    engaged: Annotated[bool, msgspec.Meta(description=(
        "Whether the square straight ahead holds an opposing unit, or is the opposing castle "
        "area with no unit in this lane's location (an undefended castle)."))]
    can_act: Annotated[bool, msgspec.Meta(description=(
        "Whether it may still take a Unit Action this turn: its seat is the active seat, it "
        "was on the battlefield when the turn began (or has Haste) and has not acted yet. "
        "Always false for the other seat's units. It does not say an action is legal now."))]
    captain: Annotated[bool, msgspec.Meta(description=(
        "Whether it carries its seat's Captain token (and so its hero's Captain skill)."))]
    cursed: Annotated[bool, msgspec.Meta(description=(
        "Whether it carries the one Curse token (and suffers the Curse of the hero that "
        "placed it)."))]
    attachments: Annotated[list[int], msgspec.Meta(description=(
        f"The attachment cards on it, in the order attached: {_CARD_IDS}."))]


class CastleAssaultView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat sees of a Castle Assault game: the whole battlefield, both castles, the
    meters and the Environment, and its own hand and resources. Hidden: the cards in the other
    seat's hand and its face-down resources (only their counts, `hand_sizes` and
    `resource_counts`), and the order of every deck, this seat's own included (only sizes).
    Cards with a different back show face down to everyone (`marked_hand`, `marked_resources`,
    `marked_top`). Discard piles are face up."""

    seat: Annotated[int, msgspec.Meta(description=(
        "The seat (0 or 1) this view is for; -1 for a spectator (no seat: nobody's secrets, "
        "`hand`, `hand_cards` and `resources` empty)."))]
    phase: Annotated[str, msgspec.Meta(description=(
        "The game's phase: `setup`, `mulligan`, `rolloff`, `first`, `turn`, `final` or `over` "
        "(`phases` of the reference data)."))]
    step: Annotated[str, msgspec.Meta(description=(
        "Where the turn stands during phase `turn`: `""` (no turn yet), `opening`, `env`, "
        "`reveal`, `begin`, `captain`, `curse`, `move`, `queue`, `resolve`, `open`, `charge`, "
        "`end`, `burn` or `discard` (`steps` of the reference data)."))]
    asking: Annotated[str, msgspec.Meta(description=(
        "What the seats in `waiting` are asked: `""` (nobody), `mulligan`, `first`, `captain`, "
        "`curse`, `open`, `respond` or `discard` (`asking` of the reference data)."))]
    decision: Annotated[int, msgspec.Meta(description=(
        "The decision counter: it rises by one at every decision point and every chance "
        "request, and matches the prompt's decision number."))]
    waiting: Annotated[list[int], msgspec.Meta(description=(
        "The seats asked to act now, ascending: both during the mulligan, one otherwise; "
        "empty while a chance answer is awaited or the game is over."))]
    chance: Annotated[str, msgspec.Meta(description=(
        "The purpose of the chance answer being waited for (`chance_purposes` of the "
        "reference data: `deck_0`, `deck_1`, `environment`, `rolloff`, `momentum`, `charge`, "
        "`environment_reshuffle`, `final_rolloff`), or `""` when none."))]
    warbands: Annotated[list[str], msgspec.Meta(description=(
        f"{_PER_SEAT}the warband key it plays (`dragons`, `dwarves`, `fae`, `war-engine`; "
        "`warbands` of the reference data)."))]
    heroes_played: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}the card id of its hero's battlefield card (index into `cards`; "
        "`heroes[].card` of the reference data gives the hero's skills)."))]
    first: Annotated[int, msgspec.Meta(description=(
        "The seat that took the first turn, or -1 until the roll-off winner chose."))]
    active: Annotated[int, msgspec.Meta(description=(
        "The seat whose turn it is (also while the other seat answers a response window), "
        "or -1 before the first turn."))]
    turn: Annotated[int, msgspec.Meta(description=(
        "Turns begun so far in the whole game, both seats' counted (1 is the first player's "
        "first turn); 0 before play. The game stops at `constants.turn_limit`."))]
    hand: Annotated[list[int], msgspec.Meta(description=(
        "This seat's cards in hand as card instances (positions in its deck list, the "
        "numbers its actions use), in the order they joined the hand."))]
    hand_cards: Annotated[list[int], msgspec.Meta(description=(
        f"The same cards as `hand`, in the same order, as {_CARD_IDS}."))]
    hand_sizes: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}how many cards it holds in hand."))]
    deck_sizes: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}how many cards are left in its deck (order hidden; an empty deck is "
        "never reshuffled)."))]
    discards: Annotated[list[list[int]], msgspec.Meta(description=(
        f"{_PER_SEAT}its discard pile, face up, oldest first, as {_CARD_IDS}."))]
    resources: Annotated[list[int], msgspec.Meta(description=(
        f"This seat's own face-down resources, in the order placed, as {_CARD_IDS}; Ready "
        "and exhausted ones alike (only their number, `ready`, is tracked)."))]
    resource_counts: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}how many resources it has, Ready and exhausted."))]
    ready: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}how many of its resources are Ready (not exhausted) to pay costs."))]
    placed: Annotated[int, msgspec.Meta(description=(
        "Resources the active seat has placed this turn (allowed: "
        "`constants.resources_per_turn`, or `constants.resources_second_player_first_turn`)."))]
    units: Annotated[list[UnitView], msgspec.Meta(description=(
        "Every unit on the battlefield, both seats', in the order they entered it (a "
        "resurrected unit counts from its return)."))]
    castles: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}its castle's Health now, out of `constants.castle_health`: less the "
        "damage taken and `constants.gigantic_castle_health` (2) for each Gigantic enemy "
        "engaged with it; 0 or below means it fell."))]
    momentum: Annotated[int, msgspec.Meta(description=(
        "The Momentum Meter, -4 to 4: 0 is START, positive toward seat 0's side (4: seat 0 at "
        "Max), negative toward seat 1's (`momentum` of the reference data)."))]
    env_meter: Annotated[int, msgspec.Meta(description=(
        "The Environment Meter: 0 is START, 1-4 are T1-T4; moving on from T4 reveals a new "
        "Environment card (`environment_meter` of the reference data)."))]
    ongoing: Annotated[int, msgspec.Meta(description=(
        "Card id of the Ongoing Environment card in effect, or -1 for none."))]
    field: Annotated[int, msgspec.Meta(description=(
        "Card id of the Environment card on the battlefield (one that leaves rubble), or -1 "
        "for none."))]
    rubble: Annotated[list[list[int]], msgspec.Meta(description=(
        "Squares filled with rubble, each [lane, row]; they block every unit. Rubble fills "
        "the squares of the field card's lane (`rubble_lanes` of the reference data) in the "
        "two middle rows, 4 and 5, that were free when it entered, and stays until another "
        "field card enters."))]
    revealed: Annotated[int, msgspec.Meta(description=(
        "Card id of the last Environment card revealed (whatever became of it), or -1 before "
        "the opening card."))]
    env_deck_size: Annotated[int, msgspec.Meta(description=(
        "Cards left in the Environment deck (order hidden)."))]
    env_discard: Annotated[list[int], msgspec.Meta(description=(
        f"The Environment discard pile, face up, oldest first, as {_CARD_IDS}; emptied when "
        "it is reshuffled into a new deck."))]
    captains: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}the uid of its unit carrying its Captain token, or -1 for none."))]
    curse: Annotated[int, msgspec.Meta(description=(
        f"The unit carrying the one Curse token: {_UID}; -1 for none."))]
    curse_holder: Annotated[int, msgspec.Meta(description=(
        "The seat whose hero may place the Curse token next (the side that last suffered "
        "it), or -1: while the token lies on a unit, and at the start or after Eclipse "
        "recalled it, when either hero may place it."))]
    heroes: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}1 once its hero has been summoned to the battlefield, else 0 (a hero "
        "comes once; destroyed, its seat loses)."))]
    window: Annotated[str, msgspec.Meta(description=(
        "The response window open: `movement` (before Move Units), `combat` (before a "
        "combat resolves) or `""` for none (`windows` of the reference data)."))]
    fighting: Annotated[int, msgspec.Meta(description=(
        f"The attacker whose combat waits for the open window: {_UID}; -1 otherwise."))]
    marked_hand: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}how many cards with a different back it holds in hand."))]
    marked_resources: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}how many cards with a different back lie in its resources."))]
    marked_top: Annotated[list[bool], msgspec.Meta(description=(
        f"{_PER_SEAT}whether the top card of its deck has a different back (false for an "
        "empty deck)."))]
    mulligan: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}-1 until it decided, 0 when it kept its opening hand, 1 when it "
        "mulliganed."))]
    rolls: Annotated[list[int], msgspec.Meta(description=(
        "The dice of the last opening roll-off (after a tie, the reroll), seat 0's die "
        "first; empty before it. The final roll-off is not shown here."))]
    clashes: Annotated[list[Clash], msgspec.Meta(description=(
        "Every combat, shot and card damage of this turn so far, in the order they happened; "
        "emptied when the next turn begins (so the damage of an Environment card, revealed "
        "between turns, is gone before a view can show it)."))]
    ended: Annotated[str, msgspec.Meta(description=(
        "Why the game ended: `castle`, `hero`, `castles`, `cards`, `turn_limit`, or `""` while "
        "it goes on (`end_reasons` of the reference data); set already in phase `final`."))]
    ranks: Annotated[list[int], msgspec.Meta(description=(
        f"{_PER_SEAT}1 for the winner, 2 for the loser, once the game is over; empty "
        "before."))]


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
        hand=list(own(state.hands, seat, [])),
        hand_cards=[cards[seat][i] for i in own(state.hands, seat, [])],
        hand_sizes=[len(h) for h in state.hands], deck_sizes=[len(d) for d in state.decks],
        discards=[[cards[s][i] for i in state.discards[s]] for s in (0, 1)],
        resources=[cards[seat][i] for i in own(state.resources, seat, [])],
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
