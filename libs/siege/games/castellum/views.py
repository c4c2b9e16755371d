"""What one seat may know: the table, minus other seats' hands and every deck's order.

Hidden: the angel cards and the dealt enemy cards of other seats (only how many they hold), the
order of every deck and the discard pile's contents (cards discarded over the hand limit go
there unseen). Column and enemy strengths are included as computed by the combat rules, since
they follow from public cards only. Views are built from copies, so a view never changes when
the state moves on.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from siege.engine.protocol import own
from siege.games.castellum.cards import NOBODY
from siege.games.castellum.rewards import REWARD_CARDS
from siege.games.castellum.rules.combat import column_strength, enemy_strength, manned
from siege.games.castellum.rules.scoring import Score, score
from siege.games.castellum.state import Draft, Play, State, columns_open


def _doc(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


class ColumnView(msgspec.Struct, frozen=True, kw_only=True):
    """One column of a Line. Everything in a Line is public, so every seat sees the same."""

    fort: Annotated[int, _doc(
        "Line card id of the column's fortification (index into `line_cards` of the reference "
        "data), -1 when it has none.")]
    troops: Annotated[list[int], _doc(
        "Line card ids of the column's troops, at most two, in the order they arrived.")]
    enemy: Annotated[int, _doc(
        "Enemy card id facing this column (index into `enemy_cards` of the reference data), -1 "
        "when none.")]
    angels: Annotated[list[int], _doc(
        "Angel card ids placed below this column this year (index into `angel_cards`), in the "
        "order played; each adds its `strength` until the end of the year.")]
    manned: Annotated[bool, _doc(
        "True when the column holds a fortification or a troop card; an unmanned column never "
        "defeats its enemy, whatever its strength.")]
    strength: Annotated[int, _doc(
        "The column's strength as combat counts it now: fortification, troops (each +1 per "
        "card in the Line boosting its type), angel cards below it, the Dinghuis help and last "
        "year's reward strength. Given for unavailable columns too, where only the help "
        "counts.")]
    enemy_strength: Annotated[int, _doc(
        "The enemy card's strength as combat counts it now: its own, plus the `boost` of every "
        "enemy card in the same Line boosting its type (itself included), plus "
        "`constants.enemy_boost` per angel boost on it; -1 without an enemy card.")]


class EffectView(msgspec.Struct, frozen=True, kw_only=True):
    """A special effect being targeted (the view's ``draft``, ``responders`` empty) or played
    and waiting on the stack while other seats may cancel it."""

    seat: Annotated[int, _doc("Seat that played the effect.")]
    card: Annotated[int, _doc(
        "Angel card id (index into `angel_cards` of the reference data) whose effect it is; "
        "revealed, so every seat sees it.")]
    effect: Annotated[str, _doc(
        "The effect: \"boost\", \"switch\", \"take\", \"destroy\", \"resources\" or "
        "\"cancel\" (`effects` of the reference data).")]
    targets: Annotated[list[int], _doc(
        "Targets chosen so far as flat ints, laid out per effect (`effects[].targets` of the "
        "reference data): boost [owner, column]; switch [owner, column, owner, column]; take "
        "[owner or -1 for the offer, troop card id, own column]; destroy [owner, column]; "
        "resources [resource, resource]; cancel [] (it answers the effect below it).")]
    responders: Annotated[list[int], _doc(
        "Seats still to be asked whether they cancel, in asking order (clockwise from the "
        "player's left); while a response decision is open on this effect the first is the "
        "seat asked. Seats holding no angel cards are skipped. Always empty for the draft.")]


class CastellumView(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat may know of a Castellum game. Hidden: the angel cards and dealt enemy
    cards of other seats (only their counts show), the order of every deck and the contents of
    the angel discard pile (only sizes show). Everything on the table is open, including
    effects being played, and column and enemy strengths are computed by the combat rules."""

    seat: Annotated[int, _doc(
        "The seat this view is for. Seats are numbered 0 to players - 1 clockwise: the next "
        "seat clockwise is seat + 1 (mod players); -1 for a spectator (no seat: nobody's "
        "secrets, `hand` and `enemy_hand` empty).")]
    players: Annotated[int, _doc("Number of players, 2 to 4.")]
    phase: Annotated[str, _doc(
        "Part of the game: \"setup\" (first player and shuffles), \"year_start\" (angel "
        "reshuffle and income), \"building\", \"siege\", \"angels\", \"reward\" or "
        "\"over\" (after 1794). Combat has no phase: it runs on its own between \"angels\" "
        "and \"reward\". See `phases` of the reference data.")]
    asking: Annotated[str, _doc(
        "What the open decision is about: \"worker\" (Building turn), \"enemy\" (Siege "
        "turn), \"angel\" (Angel-phase turn), \"target\" (next target of the draft), "
        "\"respond\" (cancel the top of the stack or not), \"discard\" (over the hand "
        "limit), \"reward\" (orient the reward card), or \"\" when no seat is asked. See "
        "`asking` of the reference data.")]
    decision: Annotated[int, _doc(
        "Number of the open decision point; it grows by one whenever a decision or a chance "
        "node opens. A command names the decision it answers.")]
    waiting: Annotated[list[int], _doc(
        "Seats asked to act now: at most one, empty while chance is awaited or the game is "
        "over.")]
    chance: Annotated[str, _doc(
        "Purpose of the chance being awaited, \"\" when none: \"first_player\", the setup "
        "shuffles \"angel_shuffle\", \"fort_shuffle\", \"troop_shuffle\", "
        "\"enemy_shuffle_1579\" (and _1632, _1673, _1794), or \"angel_reshuffle\" at a "
        "year's start. See `chance_purposes` of the reference data.")]
    year: Annotated[int, _doc(
        "The current year as an index into `years` of the reference data (0 is 1579, 3 is "
        "1794); it stays 3 once the game is over.")]
    columns_open: Annotated[int, _doc(
        "Available columns, and workers per seat, this year: year + 2 (2, 3, 4, 5). Only "
        "columns 0 to columns_open - 1 of a Line take cards.")]
    first_player: Annotated[int, _doc(
        "Seat holding the first player card, who starts every phase this year; -1 until the "
        "die chose it. It passes one seat clockwise each year.")]
    turn: Annotated[int, _doc(
        "Seat whose Building, Siege or Angel-phase turn it is, or comes next while another "
        "seat targets, responds or discards; -1 before the first Building phase and once the "
        "game is over. In the other phases it is a leftover with no meaning.")]
    angel_deck_size: Annotated[int, _doc(
        "Angel cards left in the draw deck (order hidden); drawing from an empty deck gives "
        "nothing.")]
    angel_discard_size: Annotated[int, _doc(
        "Angel cards in the discard pile (used, cancelled, discarded, or below columns in past "
        "years; contents hidden). It is shuffled under the deck at each year's start.")]
    fort_deck_size: Annotated[int, _doc(
        "Fortification cards still face down, to be turned up in later years "
        "(`constants.forts_per_year` a year).")]
    troop_deck_size: Annotated[int, _doc(
        "Troop cards still face down, to be turned up in later years "
        "(`constants.troops_per_year` a year).")]
    enemy_deck_sizes: Annotated[list[int], _doc(
        "Enemy cards left in each year's deck, one entry per year in `years` order; with fewer "
        "than four players the cards not dealt stay there unused.")]
    offer: Annotated[list[int], _doc(
        "Face-up Line card ids for sale this year (index into `line_cards` of the reference "
        "data): the fortifications first, then the troops, in the order turned up. Bought or "
        "taken cards leave it; it is replaced, not refilled, at the end of the year.")]
    resources: Annotated[list[list[int]], _doc(
        "Each seat's supply, one entry per seat in seat order, each [wood, stone, gold] (the "
        "`resources` order of the reference data).")]
    workers: Annotated[list[int], _doc(
        "Workers each seat still has to place this year, one entry per seat.")]
    spaces: Annotated[list[list[int]], _doc(
        "One entry per action space, indexed like `spaces` of the reference data: the seats "
        "with a worker there this year, in the order placed (a seat may appear several times "
        "on an unlimited space).")]
    hand: Annotated[list[int], _doc(
        "This seat's angel card ids (index into `angel_cards` of the reference data), in the "
        "order received.")]
    hand_sizes: Annotated[list[int], _doc(
        "How many angel cards each seat holds, one entry per seat; all that shows of other "
        "seats' hands.")]
    enemy_hand: Annotated[list[int], _doc(
        "Enemy card ids dealt to this seat in the Siege and not placed yet (index into "
        "`enemy_cards` of the reference data).")]
    enemy_hand_sizes: Annotated[list[int], _doc(
        "How many dealt enemy cards each seat has still to place, one entry per seat; all that "
        "shows of other seats' dealt cards.")]
    lines: Annotated[list[list[ColumnView]], _doc(
        "Every seat's Line, one entry per seat in seat order, each a list of "
        "`constants.max_columns` (5) columns indexed 0-4; column 0 started with the seat's "
        "start fortification. Only the first `columns_open` are available.")]
    defeated: Annotated[list[list[int]], _doc(
        "Each seat's collection of defeated enemy card ids (destroyed ones included), one "
        "entry per seat, in the order won; their `points` score at the end.")]
    year_defeats: Annotated[list[int], _doc(
        "Enemy cards each seat defeated or destroyed this year, one entry per seat; their sum "
        "is checked against `reward_threshold`, and the most picks the reward side.")]
    dinghuis: Annotated[list[int], _doc(
        "Per seat: strength added to each of its columns this year by its worker on the "
        "Dinghuis (0 or 1).")]
    reward_strength: Annotated[list[int], _doc(
        "Per seat: strength added to each of its columns this year by last year's reward "
        "card.")]
    reward_strength_next: Annotated[list[int], _doc(
        "Per seat: strength on each of its columns that this year's reward card gives for the "
        "next year only.")]
    pair_type: Annotated[list[int], _doc(
        "Per seat: the enemy type (index into `unit_types` of the reference data) whose "
        "defeated pairs score one point each at the end, from the 1794 reward; -1 for none.")]
    passed: Annotated[list[bool], _doc(
        "Angel phase, per seat: true when the seat has passed since the last card was played "
        "on a turn; the phase ends once every seat holding cards has passed.")]
    draft: Annotated[EffectView | None, _doc(
        "The special effect whose targets its player is still choosing, or null.")]
    stack: Annotated[list[EffectView], _doc(
        "Special effects played and waiting to resolve, bottom first: the last entry is the "
        "top, the one being answered now. A cancel lies just above the effect it cancels.")]
    reward_threshold: Annotated[int, _doc(
        "Enemy cards all seats together must defeat this year to earn the reward card: the "
        "`threshold` for this player count in this year's entry of `reward_cards`.")]
    reward_chooser: Annotated[int, _doc(
        "Seat that orients this year's reward card (most defeats, ties to the first met "
        "clockwise from the first player); -1 outside the reward phase or when the threshold "
        "was missed.")]
    reward_side: Annotated[int, _doc(
        "Side (0-3, index into `sides` of this year's reward card) the chooser took; -1 until "
        "chosen.")]
    results: Annotated[list[list[int]], _doc(
        "Outcome of the last combat: one row per seat, one entry per column (5): -1 no enemy "
        "there, 0 the enemy held out, 1 defeated (`combat_results` of the reference data). "
        "Empty before the first combat; kept until the next one.")]
    scores: Annotated[list[Score], _doc(
        "Each seat's score as if the game ended now, one entry per seat in seat order; after "
        "1794 these are the final scores.")]


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
        hand=list(own(state.hands, seat, [])),
        hand_sizes=[len(h) for h in state.hands],
        enemy_hand=list(own(state.enemy_hands, seat, [])),
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
