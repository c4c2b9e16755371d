"""Storm the Castle!'s events in words: one line per event type, in the past tense, for the
seat told or a spectator (None), never telling a listener what its view hides (see
:mod:`.presentation`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from siege.engine.presentation import Names
from siege.engine.presentation import who as who_is
from siege.games.storm_castle import events as e
from siege.games.storm_castle.presentation_names import (
    CONST,
    LADDER,
    POWER,
    SIDE_NAMES,
    boss_name,
    kind_name,
    plural,
    seat_name,
    space_name,
    spell_name,
    structure_name,
)
from siege.games.storm_castle.presentation_words import (
    TOKENS,
    as_line,
    event_card,
    fits_event,
    gold_words,
    on_space,
    outcome_words,
    the_army,
    their_for,
    with_article,
)

# --- events -----------------------------------------------------------------------------------



class Table:
    """What a match's story has told so far that later events name only by number: each seat's
    army (a power card's id means a different card in each) and each unit's owner and kind.
    A narrator tells every event once and in log order, so the lines of a match (``for_match``)
    note these as they go; the same event noted twice notes the same thing."""

    def __init__(self) -> None:
        self.armies: dict[int, int] = {}
        self.units: dict[int, tuple[int, int]] = {}  # uid -> (owning seat, -1 a defender; kind)

    def note(self, event: Any) -> None:
        if isinstance(event, e.ArmyChosen):
            self.armies[event.seat] = event.army
        elif isinstance(event, e.UnitBought):
            self.units[event.uid] = (event.seat, event.kind)
        elif isinstance(event, e.DefenderPlaced) and 0 <= event.token < len(TOKENS):
            self.units[event.uid] = (-1, TOKENS[event.token]["kind"])
        elif isinstance(event, e.HeroPlaced):
            self.units[event.uid] = (-1, event.kind)


def army_of(table: Table | None, seat: int) -> int | None:
    return None if table is None else table.armies.get(seat)


def unit_ref(table: Table | None, names: Names, uid: int, told: int | None,
             unknown: str = "unit") -> str:
    """A unit by number, with its owner and kind where the story told them: "Blue's Knight
    #12", "your Archer #3", "the Guard #7" (a defender); else "unit #12"."""
    known = None if table is None else table.units.get(uid)
    if known is None:
        return f"{unknown} #{uid}"
    owner, kind = known
    if owner < 0:
        return f"the {kind_name(kind)} #{uid}"
    whose = "your" if told is not None and told == owner else f"{seat_name(names, owner)}'s"
    return f"{whose} {kind_name(kind)} #{uid}"

def _army_chosen(event: e.ArmyChosen, names: Names, seat: int | None,
                 table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} took {the_army(event.army)}")


def _field_chosen(event: e.BattlefieldChosen, names: Names, seat: int | None,
                  table: Table | None = None) -> str:
    side = SIDE_NAMES[event.battlefield] if 0 <= event.battlefield < 4 else "a"
    return as_line(f"{who_is(names, event.seat, seat)} took the {side} battlefield")


def _defender_placed(event: e.DefenderPlaced, names: Names, seat: int | None,
                     table: Table | None = None) -> str:
    kind = (kind_name(TOKENS[event.token]["kind"]) if 0 <= event.token < len(TOKENS)
            else "defender")
    who = who_is(names, event.seat, seat)
    if event.swapped >= 0:
        return as_line(f"{who} put {with_article(kind)} (#{event.uid}) into the keep and moved "
                       f"its guard (#{event.swapped}) out to {space_name(event.space)}")
    return as_line(f"{who} placed {with_article(kind)} (#{event.uid}) {on_space(event.space)}")


def _gold_bid(event: e.GoldBid, names: Names, seat: int | None,
              table: Table | None = None) -> str:
    if seat is not None and seat == event.seat:  # sealed from everybody but the bidder
        return f"You bid {gold_words(event.gold)} in the Boss vote (sealed until all have bid)"
    return f"{seat_name(names, event.seat)} bid in the Boss vote (sealed)"


def _tie_broken(event: e.TieBroken, names: Names, seat: int | None,
                table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)}, as Boss, broke the tie: "
                   f"{who_is(names, event.boss, seat)} became the Boss")


def _boss_card_kept(event: e.BossCardKept, names: Names, seat: int | None,
                    table: Table | None = None) -> str:
    # The card is a Boss card id or a blind position, and the event does not say which, so
    # even the Boss hears no name (the Boss's board shows the Boss hand).
    return as_line(f"{who_is(names, event.seat, seat)} kept a Boss card")


def _loot_taken(event: e.BossLootTaken, names: Names, seat: int | None,
                table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} took 1 {event.kind} from the loot for "
                   "ousting the Boss")


def _token_chosen(event: e.TokenChosen, names: Names, seat: int | None,
                  table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)}, as Boss, kept turn-order token "
                   f"{event.token}")


def _unit_bought(event: e.UnitBought, names: Names, seat: int | None,
                 table: Table | None = None) -> str:
    who = who_is(names, event.seat, seat)
    if event.champion:
        return as_line(f"{who} played the champion card: {kind_name(event.kind)} (#{event.uid}) "
                       f"onto {space_name(event.space)} for {event.cost} gold")
    return as_line(f"{who} bought {with_article(kind_name(event.kind))} (#{event.uid}) for "
                   f"{event.cost} gold onto {space_name(event.space)}")


def _upgrade_bought(event: e.UpgradeBought, names: Names, seat: int | None,
                    table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} built {their_for(names, event.seat, seat)} "
                   f"battlefield upgrade for {event.cost} gold")


def _card_bought(event: e.PowerCardBought, names: Names, seat: int | None,
                 table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} paid {CONST['power_card_price']} gold for "
                   "a power card")


def _gold_given(event: e.GoldGiven, names: Names, seat: int | None,
                table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)}, as Boss, gave 1 gold to "
                   f"{who_is(names, event.to, seat)}")


def _buying_ended(event: e.BuyingEnded, names: Names, seat: int | None,
                  table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} finished buying and deploying")


def _moved(event: e.UnitMoved, names: Names, seat: int | None,
           table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} moved "
                   f"{unit_ref(table, names, event.unit, seat)} to {space_name(event.to)} for "
                   f"{plural(event.cost, 'army move')}")


def _attacked(event: e.TargetAttacked, names: Names, seat: int | None,
              table: Table | None = None) -> str:
    what = (unit_ref(table, names, event.target, seat) if event.target >= 0
            else structure_name(event.structure))
    return as_line(f"{who_is(names, event.seat, seat)} attacked {what} with "
                   f"{unit_ref(table, names, event.unit, seat)}")


def _turn_ended(event: e.PlayerTurnEnded, names: Names, seat: int | None,
                table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} ended {their_for(names, event.seat, seat)} "
                   "turn")


def _marched(event: e.BattleMarched, names: Names, seat: int | None,
             table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} battle marched "
                   f"{unit_ref(table, names, event.unit, seat)} into "
                   f"{space_name(event.to)}")


def _held(event: e.PositionHeld, names: Names, seat: int | None,
          table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} held position with "
                   f"{unit_ref(table, names, event.unit, seat)} "
                   "instead of a battle march")


def _ordered(event: e.DefenderOrdered, names: Names, seat: int | None,
             table: Table | None = None) -> str:
    text = (f"{who_is(names, event.seat, seat)} ordered "
            f"{unit_ref(table, names, event.unit, seat, 'defender')} to "
            f"{space_name(event.to)}")
    if event.knock >= 0:
        text += f" and knocked down the ladder at {structure_name(event.knock)}"
    elif event.target >= 0:
        spell = f" with {spell_name(event.spell)}" if event.spell >= 0 else ""
        text += f" and attacked {unit_ref(table, names, event.target, seat)}{spell}"
    return as_line(text)


def _spells_drawn(event: e.SpellsDrawn, names: Names, seat: int | None,
                  table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} activated "
                   f"{unit_ref(table, names, event.unit, seat, 'defender')}, which "
                   f"drew {plural(event.count, 'spell')}")


def _spell_cast(event: e.SpellCast, names: Names, seat: int | None,
                table: Table | None = None) -> str:
    spell = event_card(event.card, kinds=("magic",), army=army_of(table, event.seat))
    spells = [POWER[army][event.card]["spell"] for army in range(len(POWER))
              if "spell" in POWER[army].get(event.card, {})]
    ward = bool(spells) and all(spell["ward"] > 0 for spell in spells)
    aim = (f"{'on' if ward else 'at'} {unit_ref(table, names, event.target, seat)}"
           if event.target >= 0
           else f"at {structure_name(event.structure)}")
    return as_line(f"{who_is(names, event.seat, seat)} cast {spell} for {event.cost} magic from "
                   f"{unit_ref(table, names, event.unit, seat)} {aim}")


def _counter_chosen(event: e.CounterChosen, names: Names, seat: int | None,
                    table: Table | None = None) -> str:
    who = who_is(names, event.seat, seat)
    if event.card < 0:
        return as_line(f"{who} chose to strike back with the unit's own attack")
    spell = event_card(event.card, kinds=("magic",))
    return as_line(f"{who} chose to strike back with {spell} for {event.cost} magic")


def _equipment_bought(event: e.EquipmentBought, names: Names, seat: int | None,
                      table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} bought "
                   f"{event_card(event.card, army=army_of(table, event.seat))} for "
                   f"{unit_ref(table, names, event.unit, seat)} ({event.cost} gold)")


def _ladder_bought(event: e.LadderBought, names: Names, seat: int | None,
                   table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} bought a ladder for "
                   f"{unit_ref(table, names, event.unit, seat)} "
                   f"({event.cost} gold)")


def _dropped(event: e.EquipmentDropped, names: Names, seat: int | None,
             table: Table | None = None) -> str:
    piece = ("ladder" if event.card == LADDER
             else event_card(event.card, army=army_of(table, event.seat)))
    return as_line(f"{who_is(names, event.seat, seat)} destroyed the {piece} of "
                   f"{unit_ref(table, names, event.unit, seat)}")


def _ladder_placed(event: e.LadderPlaced, names: Names, seat: int | None,
                   table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} set a ladder against "
                   f"{structure_name(event.wall)} with {unit_ref(table, names, event.unit, seat)}")


def _ladder_picked(event: e.LadderPickedUp, names: Names, seat: int | None,
                   table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} picked up the ladder at "
                   f"{structure_name(event.wall)} with {unit_ref(table, names, event.unit, seat)}")


def _pushed(event: e.UnitPushed, names: Names, seat: int | None,
            table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} pushed "
                   f"{unit_ref(table, names, event.unit, seat)} on to "
                   f"{space_name(event.to)} (an Attack {CONST['push_attack']} on it first)")


def _card_played(event: e.CardPlayed, names: Names, seat: int | None,
                 table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} played "
                   f"{event_card(event.card, army=army_of(table, event.seat))}, which "
                   "stays in play")


def _hero_placed(event: e.HeroPlaced, names: Names, seat: int | None,
                 table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} placed the hero, {kind_name(event.kind)} "
                   f"(#{event.uid}), on {space_name(event.space)}")


def _power_played(event: e.PowerCardPlayed, names: Names, seat: int | None,
                  table: Table | None = None) -> str:
    card = event_card(event.card, fits=fits_event(event), kinds=("action", "common"),
                      army=army_of(table, event.seat))
    return as_line(f"{who_is(names, event.seat, seat)} played {card}: {outcome_words(event)}")


def _boss_played(event: e.BossCardPlayed, names: Names, seat: int | None,
                 table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} played the Boss card "
                   f"{boss_name(event.card)}: {outcome_words(event)}")


def _power_discarded(event: e.PowerCardDiscarded, names: Names, seat: int | None,
                     table: Table | None = None) -> str:
    return as_line(f"{who_is(names, event.seat, seat)} discarded "
                   f"{event_card(event.card, army=army_of(table, event.seat))}")


def _boss_discarded(event: e.BossCardDiscarded, names: Names, seat: int | None,
                    table: Table | None = None) -> str:
    if seat is not None and seat == event.seat:  # Boss hands and the Boss discard are secret
        return f"You discarded the Boss card {boss_name(event.card)}"
    return f"{seat_name(names, event.seat)} discarded a Boss card"



EVENTS: dict[type, Callable[[Any, Names, int | None], str]] = {
    e.ArmyChosen: _army_chosen,
    e.BattlefieldChosen: _field_chosen,
    e.DefenderPlaced: _defender_placed,
    e.GoldBid: _gold_bid,
    e.TieBroken: _tie_broken,
    e.BossCardKept: _boss_card_kept,
    e.BossLootTaken: _loot_taken,
    e.TokenChosen: _token_chosen,
    e.UnitBought: _unit_bought,
    e.UpgradeBought: _upgrade_bought,
    e.PowerCardBought: _card_bought,
    e.GoldGiven: _gold_given,
    e.BuyingEnded: _buying_ended,
    e.UnitMoved: _moved,
    e.TargetAttacked: _attacked,
    e.PlayerTurnEnded: _turn_ended,
    e.BattleMarched: _marched,
    e.PositionHeld: _held,
    e.DefenderOrdered: _ordered,
    e.PowerCardDiscarded: _power_discarded,
    e.BossCardDiscarded: _boss_discarded,
    e.SpellsDrawn: _spells_drawn,
    e.SpellCast: _spell_cast,
    e.CounterChosen: _counter_chosen,
    e.EquipmentBought: _equipment_bought,
    e.LadderBought: _ladder_bought,
    e.EquipmentDropped: _dropped,
    e.LadderPlaced: _ladder_placed,
    e.LadderPickedUp: _ladder_picked,
    e.UnitPushed: _pushed,
    e.CardPlayed: _card_played,
    e.HeroPlaced: _hero_placed,
    e.PowerCardPlayed: _power_played,
    e.BossCardPlayed: _boss_played,
}


def for_match(table: Table) -> dict[type, Callable[[Any, Names, int | None], str]]:
    """The event lines of one match, naming what ``table`` has noted of its story so far."""
    def told(line: Callable[..., str]) -> Callable[[Any, Names, int | None], str]:
        def say(event: Any, names: Names, seat: int | None) -> str:
            table.note(event)
            return line(event, names, seat, table=table)
        return say
    return {kind: told(line) for kind, line in EVENTS.items()}
