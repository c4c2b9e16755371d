"""The Castle Assault engine: the :class:`siege.engine.protocol.Engine` the host drives.

Pure: ``apply`` only reads the state and returns events; ``evolve`` folds one event (mutating
the state it is given, for speed); chance arrives as ``DiceRolled``/``DeckShuffled`` events
answering the :class:`ChanceNeeded` that ``pending`` shows. Nothing here rolls or shuffles.

Match options: ``decks``, every seat's deck list (see ``decks``), checked for legality; or
``warbands``, two comma-separated warband names, seat 0's first (default ``dragons,dwarves``),
each seat playing that warband's stock deck and hero.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from siege.contracts.events import DeckShuffled, DiceRolled, Event, GameEvent, MatchCreated
from siege.engine.protocol import Action, IllegalActionError, Pending, take_chance
from siege.games.castle_assault import actions as a
from siege.games.castle_assault import decks
from siege.games.castle_assault import events as e
from siege.games.castle_assault.cards import WARBAND_CARDS, stock_deck
from siege.games.castle_assault.heroes import HEROES
from siege.games.castle_assault.rules import environment, open_phase, setup, start, turn, windows
from siege.games.castle_assault.rules.ending import FINAL_ROLLOFF_PURPOSE, on_final_rolloff
from siege.games.castle_assault.state import State
from siege.games.castle_assault.views import CastleAssaultView, view_for

PLAYERS = 2
DEFAULT_WARBANDS = "dragons,dwarves"


def warbands_option(options: dict[str, str]) -> list[str]:
    names = [w.strip() for w in options.get("warbands", DEFAULT_WARBANDS).split(",")]
    if len(names) != PLAYERS or any(w not in WARBAND_CARDS for w in names):
        raise ValueError(f"option warbands must name {PLAYERS} of "
                         f"{', '.join(sorted(WARBAND_CARDS))}, not {options.get('warbands')!r}")
    return names


def _hero_key(name: str) -> str:
    return next(key for key, hero in HEROES.items() if hero.name == name)


class CastleAssault:
    name: ClassVar[str] = "castle-assault"
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    event_types: ClassVar[tuple[type[GameEvent], ...]] = e.EVENT_TYPES
    action_types: ClassVar[tuple[type[Action], ...]] = a.ACTION_TYPES

    def initial_state(self, created: MatchCreated) -> State:
        if created.players != PLAYERS:
            raise ValueError(f"Castle Assault is for {PLAYERS} players, not {created.players}")
        if "decks" in created.options:
            chosen = decks.decode(created.options["decks"])
            refused = [f"seat {seat}'s deck: {reason}" for seat, deck in enumerate(chosen)
                       for reason in decks.problems(deck)]
            if len(chosen) != PLAYERS:
                refused.insert(0, f"option decks holds {len(chosen)} decks, not {PLAYERS}")
            if refused:
                raise ValueError("; ".join(refused))
            state = State(warbands=[d.warband for d in chosen],
                          cards=[decks.instances(d) for d in chosen],
                          hero_keys=[_hero_key(d.hero) for d in chosen])
        else:
            warbands = warbands_option(created.options)
            state = State(warbands=warbands, cards=[stock_deck(w) for w in warbands],
                          hero_keys=list(warbands))
        turn.advance(state)
        return state

    def pending(self, state: State) -> Pending:
        if state.chance is not None:
            return Pending(decision=state.decision, chance=state.chance)
        return Pending(decision=state.decision, seats=frozenset(state.waiting))

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if seat not in state.waiting:
            return []
        asking = state.asking
        if asking == "open":
            return open_phase.legal(state, seat)
        if asking == "respond":
            return windows.legal(state, seat)
        if asking == "mulligan":
            return [a.KEEP_HAND, a.MULLIGAN]
        if asking == "first":
            return [a.ChooseFirst(first=s) for s in range(PLAYERS)]
        if asking == "captain":
            return start.captain_legal(state, seat)
        if asking == "curse":
            return start.curse_legal(state, seat)
        if asking == "discard":
            return start.discard_legal(state, seat)
        return []

    def apply(self, state: State, seat: int, action: Any) -> list[GameEvent]:
        # Legality is the host's check (``action in legal_actions``); only the seat is checked.
        if seat not in state.waiting:
            raise IllegalActionError(f"seat {seat} is not asked to act")
        make = _EVENT_FOR.get(type(action))
        if make is None:
            raise IllegalActionError(f"not a Castle Assault action: {action!r}")
        return [make(seat, action)]

    def evolve(self, state: State, event: Event) -> State:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            return state  # core events this game does not need (requests, seeds, the end...)
        handler(state, event)
        turn.advance(state)
        return state

    def is_terminal(self, state: State) -> bool:
        return state.phase == "over"

    def ranks(self, state: State) -> list[int]:
        return list(state.ranks) if state.ranks else [1, 1]

    def view(self, state: State, seat: int) -> CastleAssaultView:
        return view_for(state, seat)


_EVENT_FOR: dict[type, Callable[[int, Any], GameEvent]] = {
    a.KeepHand: lambda s, x: e.HandKept(seat=s),
    a.Mulligan: lambda s, x: e.HandMulliganed(seat=s),
    a.ChooseFirst: lambda s, x: e.FirstPlayerChosen(seat=s, first=x.first),
    a.AssignCaptain: lambda s, x: e.CaptainAssigned(seat=s, unit=x.unit),
    a.SkipCaptain: lambda s, x: e.CaptainSkipped(seat=s),
    a.CurseUnit: lambda s, x: e.UnitCursed(seat=s, unit=x.unit),
    a.SkipCurse: lambda s, x: e.CurseSkipped(seat=s),
    a.PlaceResource: lambda s, x: e.ResourcePlaced(seat=s, card=x.card),
    a.PlayUnit: lambda s, x: e.UnitPlayed(seat=s, card=x.card, lane=x.lane),
    a.PlayCommand: lambda s, x: e.CommandPlayed(seat=s, card=x.card, unit=x.unit, lane=x.lane),
    a.ShiftMomentum: lambda s, x: e.MomentumShifted(seat=s, toward=x.toward),
    a.BuyDraw: lambda s, x: e.DrawBought(seat=s),
    a.Charge: lambda s, x: e.UnitCharged(seat=s, unit=x.unit),
    a.Attack: lambda s, x: e.UnitAttacked(seat=s, unit=x.unit),
    a.UseAbility: lambda s, x: e.AbilityUsed(seat=s, unit=x.unit, target=x.target),
    a.SummonHero: lambda s, x: e.HeroSummoned(seat=s, lane=x.lane),
    a.PassResponse: lambda s, x: e.ResponsePassed(seat=s),
    a.EndTurn: lambda s, x: e.TurnEnded(seat=s),
    a.DiscardCard: lambda s, x: e.CardDiscarded(seat=s, card=x.card),
}


# --- folding chance answers: every answer is checked before anything changes -----------------


def _on_dice(state: State, event: DiceRolled) -> None:
    purpose = take_chance(state, event)
    if purpose == turn.MOMENTUM_PURPOSE:
        turn.on_momentum_roll(state, event.values[0])
    elif purpose == open_phase.CHARGE_PURPOSE:
        turn.on_charge_roll(state, event.values[0])
    elif purpose == setup.ROLLOFF_PURPOSE:
        setup.on_rolloff(state, event.values)
    elif purpose == FINAL_ROLLOFF_PURPOSE:
        on_final_rolloff(state, event.values)


def _on_shuffled(state: State, event: DeckShuffled) -> None:
    purpose = take_chance(state, event)
    if purpose == environment.SHUFFLE_PURPOSE:
        setup.on_environment_shuffled(state, event.order)
    elif purpose == environment.RESHUFFLE_PURPOSE:
        environment.on_reshuffled(state, event.order)
    else:
        setup.on_deck_shuffled(state, int(purpose.removeprefix("deck_")), event.order)


_HANDLERS: dict[type[Event], Callable[[State, Any], None]] = {
    DiceRolled: _on_dice,
    DeckShuffled: _on_shuffled,
    e.HandKept: lambda st, ev: setup.on_kept(st, ev.seat),
    e.HandMulliganed: lambda st, ev: setup.on_mulliganed(st, ev.seat),
    e.FirstPlayerChosen: lambda st, ev: setup.on_first_chosen(st, ev.first),
    e.CaptainAssigned: start.on_captain_assigned,
    e.CaptainSkipped: start.on_captain_skipped,
    e.UnitCursed: start.on_unit_cursed,
    e.CurseSkipped: start.on_curse_skipped,
    e.ResourcePlaced: open_phase.on_resource_placed,
    e.UnitPlayed: open_phase.on_unit_played,
    e.CommandPlayed: open_phase.on_command_played,
    e.MomentumShifted: open_phase.on_momentum_shifted,
    e.DrawBought: open_phase.on_draw_bought,
    e.UnitCharged: open_phase.on_unit_charged,
    e.UnitAttacked: open_phase.on_unit_attacked,
    e.AbilityUsed: open_phase.on_ability_used,
    e.HeroSummoned: open_phase.on_hero_summoned,
    e.ResponsePassed: open_phase.on_response_passed,
    e.TurnEnded: open_phase.on_turn_ended,
    e.CardDiscarded: start.on_card_discarded,
}

assert set(_HANDLERS) >= set(e.EVENT_TYPES)
assert set(_EVENT_FOR) == set(a.ACTION_TYPES)
