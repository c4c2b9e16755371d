"""Storm the Castle!'s actions in words: one line per action type, said to the seat choosing
with its view beside it (the imperative: "buy a Knight for 4 gold on the north gate")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from siege.engine.presentation import Names
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.presentation_names import (
    ARMIES,
    BOSS,
    CONST,
    KEEP,
    KINDS,
    LADDER,
    REF,
    SIDE_NAMES,
    boss_name,
    effect_words,
    kind_name,
    plural,
    power_name,
    power_words,
    seat_name,
    space_name,
    spell_name,
    structure_name,
)
from siege.games.storm_castle.presentation_words import (
    ORDINALS,
    gold_words,
    on_space,
    own_army,
    the_army,
    unit_at,
    unit_named,
    unit_of,
    where_is,
    with_article,
)
from siege.games.storm_castle.views import StormUnitView, StormView

# --- actions ----------------------------------------------------------------------------------


def _choose_army(action: a.ChooseArmy, view: StormView, names: Names) -> str:
    if not 0 <= action.army < len(ARMIES):
        return "take an army"
    info = ARMIES[action.army]
    units = [kind_name(k) for k in info["buyable_kinds"]]
    casting = {"any unit": "; spells through any unit",
               "casters only": "; spells through its casters"}.get(info["casts_through"], "")
    return (f"take {the_army(action.army)}: {', '.join(units)}, champion "
            f"{kind_name(info['champion_kind'])}{casting}")


def _choose_battlefield(action: a.ChooseBattlefield, view: StormView, names: Names) -> str:
    side = action.battlefield
    text = f"start at the {SIDE_NAMES[side]} battlefield" if 0 <= side < 4 else "pick a field"
    beside = [f"{seat_name(names, s)} at {SIDE_NAMES[f]}" for s, f in enumerate(view.battlefields)
              if f >= 0 and (f - side) % 4 in (1, 3)]
    return text + (f" (beside {' and '.join(beside)})" if beside else "")


def _place_defender(action: a.PlaceDefender, view: StormView, names: Names) -> str:
    drawn = kind_name(view.to_place[0]) if view.to_place else "defender drawn"
    if action.keep:
        guard = unit_at(view, KEEP)
        who = f", {unit_named(view, names, guard.uid)}," if guard is not None else ""
        return (f"put the {drawn} into the keep and move its guard{who} out to "
                f"{space_name(action.space)}")
    return f"place the {drawn} {on_space(action.space)}"


def _bid(action: a.BidGold, view: StormView, names: Names) -> str:
    base = view.base_votes[view.seat] if 0 <= view.seat < view.players else 0
    return (f"bid {gold_words(action.gold)} in the Boss vote, sealed: {plural(base, 'vote')} plus "
            f"{action.gold} makes {base + action.gold}")


def _break_tie(action: a.BreakTie, view: StormView, names: Names) -> str:
    who = "yourself" if action.seat == view.seat else seat_name(names, action.seat)
    votes = view.last_votes[action.seat] if 0 <= action.seat < len(view.last_votes) else 0
    return f"make {who} the Boss (tied on {plural(votes, 'vote')})"


def _keep_boss_card(action: a.KeepBossCard, view: StormView, names: Names) -> str:
    if view.asking == "ousted_card":
        return (f"take the {ORDINALS[action.card] if action.card < 4 else 'next'} card of "
                "the ousted Boss's hand, blind")
    card = BOSS.get(action.card)
    effect = f": {effect_words(card['effect'])}" if card is not None else ""
    return f"keep the Boss card {boss_name(action.card)}{effect}"


def _loot(action: a.TakeBossLoot, view: StormView, names: Names) -> str:
    held = view.gold if action.kind == "gold" else view.magic
    have = held[view.seat] if 0 <= view.seat < len(held) else 0
    return f"take 1 {action.kind} from the loot (you have {have}, at most {CONST['cap']})"


def _token(action: a.ChooseToken, view: StormView, names: Names) -> str:
    place = ORDINALS[action.token - 1] if 1 <= action.token <= 4 else "later"
    return f"keep turn-order token {action.token}: play {place} this turn"


def _cost(view: StormView, kind: int, space: int) -> int:
    own = view.battlefields[view.seat] if 0 <= view.seat < view.players else -1
    extra = 0 if REF["spaces"][space]["side"] == own else CONST["deploy_elsewhere"]
    return int(KINDS[kind]["cost"]) + extra


def _stats(kind: int) -> str:
    info = KINDS[kind]
    reach = f", range {info['range']}" if info["range"] else ""
    return f"attack {info['attack']}, health {info['health']}{reach}"


def _deploy_onto(view: StormView, names: Names, space: int) -> str:
    there = unit_at(view, space)
    if there is None:
        return ""
    if there.owner == view.seat:
        return f", replacing your {there.name} there"
    return f", fighting {unit_named(view, names, there.uid)} there in battle rounds"


def _buy_unit(action: a.BuyUnit, view: StormView, names: Names) -> str:
    return (f"buy {with_article(kind_name(action.kind))} ({_stats(action.kind)}) for "
            f"{_cost(view, action.kind, action.space)} gold onto {space_name(action.space)}"
            + _deploy_onto(view, names, action.space))


def _buy_champion(action: a.BuyChampion, view: StormView, names: Names) -> str:
    army = own_army(view)
    kind = int(ARMIES[army]["champion_kind"]) if army >= 0 else -1
    if kind < 0:
        return f"deploy your champion onto {space_name(action.space)}"
    return (f"play your champion card: {kind_name(kind)} ({_stats(kind)}) for "
            f"{_cost(view, kind, action.space)} gold onto {space_name(action.space)}"
            + _deploy_onto(view, names, action.space))


def _buy_upgrade(action: a.BuyUpgrade, view: StormView, names: Names) -> str:
    army = own_army(view)
    if army < 0:
        return "build your battlefield upgrade"
    upgrade = ARMIES[army]["upgrade"]
    side = view.battlefields[view.seat]
    where = f"the {SIDE_NAMES[side]} battlefield" if 0 <= side < 4 else "your battlefield"
    return (f"build {upgrade['name']} at {where} for {upgrade['cost']} gold "
            "(a vote and a vilest point while it stands)")


def _buy_card(action: a.BuyPowerCard, view: StormView, names: Names) -> str:
    deck = view.deck_sizes[view.seat] if 0 <= view.seat < view.players else 0
    return (f"pay {CONST['power_card_price']} gold to draw a power card "
            f"({plural(deck, 'card')} left in your deck)")


def _give(action: a.GiveGold, view: StormView, names: Names) -> str:
    has = view.gold[action.seat] if 0 <= action.seat < view.players else 0
    return f"give 1 gold to {seat_name(names, action.seat)} (who has {has})"


def _end_buying(action: a.EndBuying, view: StormView, names: Names) -> str:
    return "stop buying and deploying for this turn"


def _move(action: a.MoveUnit, view: StormView, names: Names) -> str:
    unit = unit_of(view, action.unit)
    left = f" ({plural(view.army_moves, 'army move')} left)"
    if unit is not None and unit.space == action.to:
        return (f"spend a move to unflip {unit_named(view, names, action.unit)}"
                f"{where_is(view, action.unit)}" + left)
    there = unit_at(view, action.to)
    fight = (f" and fight {unit_named(view, names, there.uid)} there in battle rounds"
             if there is not None and there.owner != view.seat else "")
    return (f"move {unit_named(view, names, action.unit)}{where_is(view, action.unit)} to "
            f"{space_name(action.to)}{fight}" + left)


def _damage(unit: StormUnitView | None) -> str:
    return f" ({unit.damage} of {unit.health} damage)" if unit is not None and unit.damage else ""


def _attack(action: a.AttackTarget, view: StormView, names: Names) -> str:
    by = f" with {unit_named(view, names, action.unit)}"
    if action.target < 0:
        info = view.structures[action.structure] if 0 <= action.structure < len(
            view.structures) else None
        left = f" ({max(0, info.health - info.damage)} of {info.health} left)" if info else ""
        return f"attack {structure_name(action.structure)}{left}{by}"
    target = unit_of(view, action.target)
    return (f"attack {unit_named(view, names, action.target)}{where_is(view, action.target)}"
            f"{_damage(target)}{by}")


def _end_turn(action: a.EndPlayerTurn, view: StormView, names: Names) -> str:
    unused = f" ({plural(view.army_moves, 'army move')} unused)" if view.army_moves else ""
    return "end your turn" + unused


def _march(action: a.BattleMarch, view: StormView, names: Names) -> str:
    offer = view.offer
    if offer is None:
        return "battle march into the emptied space"
    return f"battle march {unit_named(view, names, offer.unit)} into {space_name(offer.to)}"


def _hold(action: a.HoldPosition, view: StormView, names: Names) -> str:
    offer = view.offer
    who = (unit_named(view, names, offer.unit) + where_is(view, offer.unit)
           if offer is not None else "the victor")
    return f"hold position: {who} stays where it is"


def _order(action: a.OrderDefender, view: StormView, names: Names) -> str:
    unit = unit_of(view, action.unit)
    who = unit_named(view, names, action.unit)
    if unit is not None and unit.space == action.to:
        text = f"order {who} to stay {on_space(action.to)}"
    else:
        text = f"order {who}{where_is(view, action.unit)} to {space_name(action.to)}"
    if action.knock >= 0:
        return text + f", then knock down the ladder at {structure_name(action.knock)}"
    if action.target >= 0:
        spell = f" with {spell_name(action.spell)}" if action.spell >= 0 else ""
        return text + f", then attack {unit_named(view, names, action.target)}{spell}"
    return text + " without attacking"


def _draw_spells(action: a.DrawSpells, view: StormView, names: Names) -> str:
    unit = unit_of(view, action.unit)
    count = int(KINDS[unit.kind]["spell_draws"]) if unit is not None else 1
    return (f"activate {unit_named(view, names, action.unit)}{where_is(view, action.unit)} "
            f"next: it first draws "
            f"{plural(count, 'spell')}")


def _cast(action: a.CastSpell, view: StormView, names: Names) -> str:
    army = own_army(view)
    spell = f"{power_name(army, action.card)} ({power_words(army, action.card)})"
    if action.target < 0:
        aim = f"at {structure_name(action.structure)}"
    else:
        target = unit_of(view, action.target)
        word = "on" if target is not None and target.owner == view.seat else "at"
        aim = f"{word} {unit_named(view, names, action.target)}{where_is(view, action.target)}"
    return f"cast {spell} through {unit_named(view, names, action.unit)} {aim}"


def _my_fighter(view: StormView) -> int:
    fight = view.battle
    if fight is None:
        return -1
    for uid in (fight.target, fight.attacker):
        unit = unit_of(view, uid)
        if unit is not None and unit.owner == view.seat:
            return uid
    return fight.target


def _counter(action: a.CounterWithSpell, view: StormView, names: Names) -> str:
    who = unit_named(view, names, _my_fighter(view))
    if action.card < 0:
        return f"strike back with {who}'s own attack"
    army = own_army(view)
    return (f"strike back with {power_name(army, action.card)} "
            f"({power_words(army, action.card)}) through {who}")


def _buy_equipment(action: a.BuyEquipment, view: StormView, names: Names) -> str:
    army = own_army(view)
    return (f"buy {power_name(army, action.card)} ({power_words(army, action.card)}) for "
            f"{unit_named(view, names, action.unit)}")


def _buy_ladder(action: a.BuyLadder, view: StormView, names: Names) -> str:
    used = view.ladders_in_use[view.seat] if 0 <= view.seat < view.players else 0
    return (f"buy a ladder ({REF['ladder']['cost']} gold) for "
            f"{unit_named(view, names, action.unit)}{where_is(view, action.unit)} (ladders in "
            f"use {used} of "
            f"{CONST['ladders_per_army']})")


def _drop(action: a.DropEquipment, view: StormView, names: Names) -> str:
    piece = "ladder" if action.card == LADDER else power_name(own_army(view), action.card)
    return (f"destroy the {piece} that {unit_named(view, names, action.unit)}"
            f"{where_is(view, action.unit)} carries")


def _wall(view: StormView, wall: int) -> str:
    info = view.structures[wall] if 0 <= wall < len(view.structures) else None
    left = f" ({max(0, info.health - info.damage)} health left)" if info else ""
    return structure_name(wall) + left


def _place_ladder(action: a.PlaceLadder, view: StormView, names: Names) -> str:
    return (f"set the ladder of {unit_named(view, names, action.unit)} against "
            f"{_wall(view, action.wall)}")


def _pick_up(action: a.PickUpLadder, view: StormView, names: Names) -> str:
    return (f"pick up the ladder at {structure_name(action.wall)} with "
            f"{unit_named(view, names, action.unit)}")


def _push(action: a.PushUnit, view: StormView, names: Names) -> str:
    return (f"push {unit_named(view, names, action.unit)} on to {space_name(action.to)} (it takes "
            f"an Attack {CONST['push_attack']} first)")


def _play_card(action: a.PlayCard, view: StormView, names: Names) -> str:
    army = own_army(view)
    return f"play {power_name(army, action.card)}: {power_words(army, action.card)}, in play"


def _play_power(action: a.PlayPowerCard, view: StormView, names: Names) -> str:
    army = own_army(view)
    return f"play {power_name(army, action.card)}: {power_words(army, action.card)}"


def _place_hero(action: a.PlaceHero, view: StormView, names: Names) -> str:
    there = unit_at(view, action.space)
    crush = f", destroying {unit_named(view, names, there.uid)}" if there is not None else ""
    return f"place the hero {on_space(action.space)}{crush}"


def _play_boss(action: a.PlayBossCard, view: StormView, names: Names) -> str:
    card = BOSS.get(action.card)
    effect = effect_words(card["effect"]) if card is not None else "its effect"
    return f"play the Boss card {boss_name(action.card)}: {effect}"


def _hand_limit(view: StormView, seat: int) -> int:
    """3 power cards, 2 more while the seat holds the +2 Hand location: an unflipped unit of its
    own there, alone."""
    space = next(p["space"] for p in REF["locations"] if p["name"] == "+2 Hand")
    there = [u for u in view.units if u.space == space]
    held = len(there) == 1 and there[0].owner == seat and not there[0].flipped
    return int(CONST["hand_limit"]) + (int(CONST["hand_bonus"]) if held else 0)


def _discard(action: a.DiscardPowerCard, view: StormView, names: Names) -> str:
    seat = view.seat
    if not 0 <= seat < view.players:
        return "discard a power card"
    where = ("from your hand" if action.card in view.hand
             else "from your exhausted spells" if action.card in view.exhausted[seat]
             else "from play")
    return (f"discard {power_name(own_army(view), action.card)} {where} (you hold "
            f"{view.held_sizes[seat]}, limit {_hand_limit(view, seat)})")


def _discard_boss(action: a.DiscardBossCard, view: StormView, names: Names) -> str:
    return (f"discard the Boss card {boss_name(action.card)} (you hold "
            f"{len(view.boss_hand)}, {CONST['boss_hand_limit']} allowed)")



ACTIONS: dict[type, Callable[[Any, Any, Names], str]] = {
    a.ChooseArmy: _choose_army,
    a.ChooseBattlefield: _choose_battlefield,
    a.PlaceDefender: _place_defender,
    a.BidGold: _bid,
    a.BreakTie: _break_tie,
    a.KeepBossCard: _keep_boss_card,
    a.TakeBossLoot: _loot,
    a.ChooseToken: _token,
    a.BuyUnit: _buy_unit,
    a.BuyChampion: _buy_champion,
    a.BuyUpgrade: _buy_upgrade,
    a.BuyPowerCard: _buy_card,
    a.GiveGold: _give,
    a.EndBuying: _end_buying,
    a.MoveUnit: _move,
    a.AttackTarget: _attack,
    a.EndPlayerTurn: _end_turn,
    a.BattleMarch: _march,
    a.HoldPosition: _hold,
    a.OrderDefender: _order,
    a.DiscardPowerCard: _discard,
    a.DiscardBossCard: _discard_boss,
    a.DrawSpells: _draw_spells,
    a.CastSpell: _cast,
    a.CounterWithSpell: _counter,
    a.BuyEquipment: _buy_equipment,
    a.BuyLadder: _buy_ladder,
    a.DropEquipment: _drop,
    a.PlaceLadder: _place_ladder,
    a.PickUpLadder: _pick_up,
    a.PushUnit: _push,
    a.PlayCard: _play_card,
    a.PlaceHero: _place_hero,
    a.PlayPowerCard: _play_power,
    a.PlayBossCard: _play_boss,
}
