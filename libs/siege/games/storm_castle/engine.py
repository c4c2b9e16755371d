"""``StormTheCastle``: the Storm the Castle! rules engine (``siege.engine.protocol.Engine``).

Pure: ``apply`` only reads the state and returns events; ``evolve`` folds one event (mutating
the state it is given, for speed); chance arrives as ``DiceRolled``/``DeckShuffled`` answering
the :class:`ChanceNeeded` that ``pending`` shows. Nothing here rolls or shuffles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from siege.contracts.events import DeckShuffled, DiceRolled, Event, GameEvent, MatchCreated
from siege.engine.protocol import (
    Action,
    ChanceMismatchError,
    IllegalActionError,
    Pending,
    check_chance,
    ranks_from_keys,
)
from siege.games.storm_castle import actions as a
from siege.games.storm_castle import events as e
from siege.games.storm_castle.armies import CHAMPION, UPGRADES
from siege.games.storm_castle.cards import EQUIPMENT, LADDER, PUSH_MOVES, spell_of
from siege.games.storm_castle.rules import (
    battle,
    cards_play,
    defenders,
    economy,
    equipment,
    flow,
    heroes,
    magic,
    movement,
    setup,
    turns,
)
from siege.games.storm_castle.rules.nodes import close_decision
from siege.games.storm_castle.rules.scoring import vilest
from siege.games.storm_castle.state import State, new_state
from siege.games.storm_castle.views import StormView, view_for

MIN_PLAYERS, MAX_PLAYERS = 1, 4


class StormTheCastle:
    name: ClassVar[str] = "storm-the-castle"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    event_types: ClassVar[tuple[type[GameEvent], ...]] = e.EVENT_TYPES
    action_types: ClassVar[tuple[type[Action], ...]] = a.ACTION_TYPES

    def initial_state(self, created: MatchCreated) -> State:
        if not MIN_PLAYERS <= created.players <= MAX_PLAYERS:
            raise ValueError(f"Storm the Castle! seats {MIN_PLAYERS}-{MAX_PLAYERS}, "
                             f"not {created.players}")
        state = new_state(created.players, intro=created.options.get("intro", "0") == "1")
        flow.advance(state)
        return state

    def pending(self, state: State) -> Pending:
        if state.chance is not None:
            return Pending(decision=state.decision, chance=state.chance)
        return Pending(decision=state.decision, seats=frozenset(state.waiting))

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if seat not in state.waiting:
            return []
        return legal(state, seat)

    def apply(self, state: State, seat: int, action: Any) -> list[GameEvent]:
        # Legality is the host's check (``action in legal_actions``); only the seat is checked.
        if seat not in state.waiting:
            raise IllegalActionError(f"seat {seat} is not asked to act")
        make = _EVENT_FOR.get(type(action))
        if make is None:
            raise IllegalActionError(f"not a Storm the Castle! action: {action!r}")
        return [make(state, seat, action)]

    def evolve(self, state: State, event: Event) -> State:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            return state  # core events this game does not need (requests, seeds, the end...)
        handler(state, event)
        if not state.waiting and state.chance is None:
            flow.advance(state)
        return state

    def is_terminal(self, state: State) -> bool:
        return state.phase == "over"

    def ranks(self, state: State) -> list[int]:
        """The player who entered the keep first; the rest (everyone, when the defenders hold)
        by the vilest ranking, equal totals sharing a place."""
        return ranks_from_keys([(int(seat == state.winner), vilest(state, seat).total)
                                for seat in range(state.players)])

    def view(self, state: State, seat: int) -> StormView:
        return view_for(state, seat)


def legal(state: State, seat: int) -> list[Any]:
    asking = state.asking
    if asking == "army":
        taken = set(state.armies)
        return [a.ChooseArmy(army=k) for k in range(4) if k not in taken]
    if asking == "battlefield":
        taken = set(state.battlefields)
        return [a.ChooseBattlefield(battlefield=k) for k in range(4) if k not in taken]
    if asking == "place":
        plain = [a.PlaceDefender(space=s)
                 for s in defenders.placement_spaces(state, setup=state.phase == "setup")]
        if state.phase == "setup":
            return plain
        return plain + [a.PlaceDefender(space=s, keep=True) for s in defenders.keep_swaps(state)]
    if asking == "bid":
        return economy.bid_options(state, seat)
    if asking == "tie":
        return [a.BreakTie(seat=s) for s in state.tied]
    if asking == "boss_card":
        return [a.KeepBossCard(card=c) for c in state.boss_offer]
    if asking == "ousted_card":
        return [a.KeepBossCard(card=i) for i in range(len(state.boss_hands[state.ousted]))]
    if asking == "loot":
        return [a.TakeBossLoot(kind="gold"), a.TakeBossLoot(kind="magic")]
    if asking == "token":
        return [a.ChooseToken(token=t) for t in sorted(set(state.boss_offer_tokens))]
    if asking == "buy":
        return economy.legal(state, seat)
    if asking == "act":
        return movement.legal(state, seat)
    if asking == "march":
        return [a.MARCH, a.HOLD]
    if asking == "counter":
        assert state.battle is not None
        return list(magic.counter_options(state, state.battle))
    if asking == "hero":
        return [a.PlaceHero(space=s) for s in heroes.hero_spaces(state)]
    if asking == "order":
        return list(defenders.orders(state))
    if asking == "discard":
        return [a.DiscardPowerCard(card=c) for c in sorted(set(economy.held(state, seat)))]
    if asking == "boss_discard":
        return [a.DiscardBossCard(card=c) for c in sorted(set(state.boss_hands[seat]))]
    return []


def _unit_bought(state: State, seat: int, x: a.BuyUnit) -> e.UnitBought:
    return e.UnitBought(seat=seat, kind=x.kind, space=x.space,
                        cost=economy.unit_cost(state, seat, x.kind, x.space), uid=state.next_uid)


def _champion_bought(state: State, seat: int, x: a.BuyChampion) -> e.UnitBought:
    kind = CHAMPION[state.armies[seat]]
    return e.UnitBought(seat=seat, kind=kind, space=x.space, champion=True,
                        cost=economy.unit_cost(state, seat, kind, x.space), uid=state.next_uid)


def _moved(state: State, seat: int, x: a.MoveUnit) -> e.UnitMoved:
    cost = movement.move_cost(state, state.units[x.unit], x.to)
    return e.UnitMoved(seat=seat, unit=x.unit, to=x.to, cost=cost)


def _marched(state: State, seat: int, x: a.BattleMarch) -> e.BattleMarched:
    offer = state.offer
    assert offer is not None
    return e.BattleMarched(seat=seat, unit=offer.unit, to=offer.to)


def _spell_cost(state: State, seat: int, card: int) -> int:
    spell = spell_of(state.armies[seat], card)
    return spell.cost if spell is not None else 0


def _pushed(state: State, seat: int, x: a.PushUnit) -> e.UnitPushed:
    return e.UnitPushed(seat=seat, unit=x.unit, to=x.to, cost=PUSH_MOVES)


def _held(state: State, seat: int, x: a.HoldPosition) -> e.PositionHeld:
    offer = state.offer
    assert offer is not None
    return e.PositionHeld(seat=seat, unit=offer.unit)


def _keep_guard_uid(state: State) -> int:
    guard = defenders.keep_guard(state)
    return guard.uid if guard is not None else -1


_EVENT_FOR: dict[type, Callable[[State, int, Any], GameEvent]] = {
    a.ChooseArmy: lambda st, s, x: e.ArmyChosen(seat=s, army=x.army),
    a.ChooseBattlefield: lambda st, s, x: e.BattlefieldChosen(seat=s, battlefield=x.battlefield),
    a.PlaceDefender: lambda st, s, x: e.DefenderPlaced(
        seat=s, token=st.to_place[0], space=x.space, uid=st.next_uid,
        swapped=_keep_guard_uid(st) if x.keep else -1),
    a.BidGold: lambda st, s, x: e.GoldBid(seat=s, gold=x.gold),
    a.BreakTie: lambda st, s, x: e.TieBroken(seat=s, boss=x.seat),
    a.KeepBossCard: lambda st, s, x: e.BossCardKept(seat=s, card=x.card),
    a.TakeBossLoot: lambda st, s, x: e.BossLootTaken(seat=s, kind=x.kind),
    a.ChooseToken: lambda st, s, x: e.TokenChosen(seat=s, token=x.token),
    a.BuyUnit: _unit_bought,
    a.BuyChampion: _champion_bought,
    a.BuyUpgrade: lambda st, s, x: e.UpgradeBought(seat=s, cost=UPGRADES[st.armies[s]].cost),
    a.BuyPowerCard: lambda st, s, x: e.PowerCardBought(seat=s),
    a.GiveGold: lambda st, s, x: e.GoldGiven(seat=s, to=x.seat),
    a.EndBuying: lambda st, s, x: e.BuyingEnded(seat=s),
    a.MoveUnit: _moved,
    a.AttackTarget: lambda st, s, x: e.TargetAttacked(seat=s, unit=x.unit, target=x.target,
                                                      structure=x.structure),
    a.EndPlayerTurn: lambda st, s, x: e.PlayerTurnEnded(seat=s),
    a.BattleMarch: _marched,
    a.HoldPosition: _held,
    a.OrderDefender: lambda st, s, x: e.DefenderOrdered(seat=s, unit=x.unit, to=x.to,
                                                        target=x.target, spell=x.spell,
                                                        knock=x.knock),
    a.DrawSpells: lambda st, s, x: e.SpellsDrawn(
        seat=s, unit=x.unit, count=magic.spell_draws(st.units[x.unit])),
    a.CastSpell: lambda st, s, x: e.SpellCast(seat=s, card=x.card, unit=x.unit, target=x.target,
                                              cost=_spell_cost(st, s, x.card),
                                              structure=x.structure),
    a.CounterWithSpell: lambda st, s, x: e.CounterChosen(
        seat=s, card=x.card, cost=_spell_cost(st, s, x.card) if x.card >= 0 else 0),
    a.BuyEquipment: lambda st, s, x: e.EquipmentBought(seat=s, card=x.card, unit=x.unit,
                                                       cost=EQUIPMENT[x.card].cost),
    a.BuyLadder: lambda st, s, x: e.LadderBought(seat=s, unit=x.unit, cost=EQUIPMENT[LADDER].cost),
    a.DropEquipment: lambda st, s, x: e.EquipmentDropped(seat=s, unit=x.unit, card=x.card),
    a.PlaceLadder: lambda st, s, x: e.LadderPlaced(seat=s, unit=x.unit, wall=x.wall),
    a.PickUpLadder: lambda st, s, x: e.LadderPickedUp(seat=s, unit=x.unit, wall=x.wall),
    a.PushUnit: _pushed,
    a.PlayCard: lambda st, s, x: e.CardPlayed(seat=s, card=x.card),
    a.PlayPowerCard: lambda st, s, x: e.PowerCardPlayed(
        seat=s, card=x.card, **cards_play.outcome(st, s, x.card, boss=False)),
    a.PlayBossCard: lambda st, s, x: e.BossCardPlayed(
        seat=s, card=x.card, **cards_play.outcome(st, s, x.card, boss=True)),
    a.PlaceHero: lambda st, s, x: e.HeroPlaced(seat=s, kind=st.hero_pool[0], space=x.space,
                                               uid=st.next_uid),
    a.DiscardPowerCard: lambda st, s, x: e.PowerCardDiscarded(seat=s, card=x.card),
    a.DiscardBossCard: lambda st, s, x: e.BossCardDiscarded(seat=s, card=x.card),
}


# --- folding ---------------------------------------------------------------------------------


def _on_dice(state: State, event: DiceRolled) -> None:
    check_chance(state.chance, event)
    battle.on_dice(state, event.values)


_RESHUFFLES: dict[str, Callable[[State, list[int]], None]] = {
    "reboss": economy.on_boss_reshuffled,
    "reevents": turns.on_events_reshuffled,
    "return_event": turns.on_event_returned,
    "remagic": magic.on_magic_reshuffled,
    "heroes": heroes.on_shuffled,
}


def _on_shuffled(state: State, event: DeckShuffled) -> None:
    need = check_chance(state.chance, event)
    order = event.order
    purpose = need.purpose
    if not (purpose in _RESHUFFLES or purpose.startswith("repower_")
            or purpose in ("turn_tokens", "turn_tokens_rest") or setup.is_setup_shuffle(purpose)):
        raise ChanceMismatchError(f"no shuffle was asked for {purpose!r}")
    state.chance = None
    if purpose in _RESHUFFLES:
        _RESHUFFLES[purpose](state, list(order))
    elif purpose.startswith("repower_"):
        economy.on_power_reshuffled(state, int(purpose.removeprefix("repower_")), list(order))
    elif purpose == "turn_tokens":
        state.token_box = [k + 1 for k in order]
    elif purpose == "turn_tokens_rest":
        box = sorted(state.token_box)
        state.token_box = [box[i] for i in order]
    else:
        setup.on_shuffled(state, purpose, list(order))


def _closing(handler: Callable[[State, Any], None]) -> Callable[[State, Any], None]:
    def run(state: State, event: Any) -> None:
        asking = state.asking
        close_decision(state)
        state.asking = asking  # handlers may read what was asked; cleared below
        handler(state, event)
        state.asking = ""
    return run


def _on_bid(state: State, event: e.GoldBid) -> None:
    state.bids[event.seat] = event.gold
    state.waiting = [s for s in state.waiting if s != event.seat]
    if not state.waiting:
        state.asking = ""


def _on_token(state: State, event: e.TokenChosen) -> None:
    state.tokens[event.seat] = event.token
    state.token_box.remove(event.token)
    state.boss_offer_tokens = []


def _on_army(state: State, event: e.ArmyChosen) -> None:
    state.armies[event.seat] = event.army


def _on_battlefield(state: State, event: e.BattlefieldChosen) -> None:
    state.battlefields[event.seat] = event.battlefield


def _on_tie(state: State, event: e.TieBroken) -> None:
    state.elected = event.boss
    state.tied = []


def _on_card_played(state: State, event: e.CardPlayed) -> None:
    state.hands[event.seat].remove(event.card)
    state.in_play[event.seat].append(event.card)


def _on_boss_discard(state: State, event: e.BossCardDiscarded) -> None:
    state.boss_hands[event.seat].remove(event.card)
    state.boss_discard.append(event.card)


def _on_turn_ended(state: State, event: e.PlayerTurnEnded) -> None:
    state.step = "end"


def _on_held(state: State, event: e.PositionHeld) -> None:
    state.offer = None


_HANDLERS: dict[type[Event], Callable[[State, Any], None]] = {
    DiceRolled: _on_dice,
    DeckShuffled: _on_shuffled,
    e.ArmyChosen: _closing(_on_army),
    e.BattlefieldChosen: _closing(_on_battlefield),
    e.DefenderPlaced: _closing(lambda st, x: setup.on_placed(st, x.token, x.space, x.uid,
                                                             x.swapped)),
    e.GoldBid: _on_bid,
    e.TieBroken: _closing(_on_tie),
    e.BossCardKept: _closing(lambda st, x: economy.on_boss_card_kept(st, x.seat, x.card,
                                                                     st.asking)),
    e.BossLootTaken: _closing(lambda st, x: economy.on_loot(st, x.seat, x.kind)),
    e.TokenChosen: _closing(_on_token),
    e.UnitBought: _closing(lambda st, x: economy.on_unit_bought(
        st, x.seat, x.kind, x.space, x.cost, x.uid, x.champion)),
    e.UpgradeBought: _closing(lambda st, x: economy.on_upgrade_bought(st, x.seat, x.cost)),
    e.PowerCardBought: _closing(lambda st, x: economy.on_power_card_bought(st, x.seat)),
    e.GoldGiven: _closing(lambda st, x: economy.on_gold_given(st, x.seat, x.to)),
    e.BuyingEnded: _closing(lambda st, x: flow.on_buying_ended(st)),
    e.UnitMoved: _closing(lambda st, x: movement.on_moved(st, x.unit, x.to, x.cost)),
    e.TargetAttacked: _closing(lambda st, x: movement.on_attacked(st, x.seat, x.unit, x.target,
                                                                  x.structure)),
    e.PlayerTurnEnded: _closing(_on_turn_ended),
    e.BattleMarched: _closing(lambda st, x: movement.on_battle_marched(st, x.unit, x.to)),
    e.PositionHeld: _closing(_on_held),
    e.DefenderOrdered: _closing(lambda st, x: defenders.apply_order(
        st, a.OrderDefender(unit=x.unit, to=x.to, target=x.target, spell=x.spell,
                            knock=x.knock))),
    e.SpellsDrawn: _closing(lambda st, x: defenders.on_spells_drawn(st, x.unit)),
    e.SpellCast: _closing(lambda st, x: movement.on_cast(st, x.seat, x.card, x.unit, x.target,
                                                         x.cost, x.structure)),
    e.CounterChosen: _closing(lambda st, x: battle.on_counter_chosen(st, x.seat, x.card,
                                                                     x.cost)),
    e.EquipmentBought: _closing(lambda st, x: equipment.on_equipment_bought(
        st, x.seat, x.card, x.unit, x.cost)),
    e.LadderBought: _closing(lambda st, x: equipment.on_equipment_bought(
        st, x.seat, LADDER, x.unit, x.cost)),
    e.EquipmentDropped: _closing(lambda st, x: equipment.on_dropped(st, x.seat, x.unit,
                                                                    x.card)),
    e.LadderPlaced: _closing(lambda st, x: equipment.on_ladder_placed(st, x.seat, x.unit,
                                                                      x.wall)),
    e.LadderPickedUp: _closing(lambda st, x: equipment.on_ladder_picked_up(st, x.seat, x.unit,
                                                                           x.wall)),
    e.UnitPushed: _closing(lambda st, x: movement.on_pushed(st, x.unit, x.to, x.cost)),
    e.CardPlayed: _closing(_on_card_played),
    e.PowerCardPlayed: _closing(lambda st, x: cards_play.resolve(st, x.seat, x, boss=False)),
    e.BossCardPlayed: _closing(lambda st, x: cards_play.resolve(st, x.seat, x, boss=True)),
    e.HeroPlaced: _closing(lambda st, x: heroes.on_placed(st, x.space, x.uid)),
    e.PowerCardDiscarded: _closing(lambda st, x: economy.on_power_card_discarded(st, x.seat,
                                                                                 x.card)),
    e.BossCardDiscarded: _closing(_on_boss_discard),
}

assert set(_HANDLERS) >= set(e.EVENT_TYPES)
assert set(_EVENT_FOR) == set(a.ACTION_TYPES)
