"""Storm the Castle! reference data: what a client needs to read the views, as plain JSON data.

Everything is built from the game's data modules (``armies``, ``board``, ``cards``, ``decks``,
``power``) and its rules constants, so it cannot drift from what the engine plays. The contract
publishes it as ``docs/contract/games/storm-the-castle.json``; the field descriptions of the
events, actions and view point into it by key (``unit_kinds``, ``spaces``, ``structures``,
``power_cards``, ``boss_cards``, ``event_cards``, ``defender_spells``, ``codes``, ...). The card
texts are generated here from the numbers, in our own words.
"""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

from siege.engine.protocol import Action
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import (
    ARMY_KINDS,
    ARMY_NAMES,
    BUYABLE_KINDS,
    CHAMPION,
    DEFENDER_TOKENS,
    DEFENDERS,
    HERO_KINDS,
    HEROES,
    INTRO_TOKENS,
    MAGIC_ARMIES,
    PEASANTS,
    START_GOLD,
    START_MAGIC,
    UNDEAD,
    UNIT_KINDS,
    UNITS_PER_ARMY,
    UPGRADES,
    UnitKind,
    generates_magic,
)
from siege.games.storm_castle.board import (
    BATTLEFIELD,
    DISTANCE,
    EDGES,
    KEEP,
    LOCATION_MOVE_COST,
    LOCATION_NAMES,
    LOCATIONS,
    NEAR_KEEP,
    NOBODY,
    PATH_MOVE_COST,
    SIDE_NAMES,
    SIDES,
    SPACES,
    START_SPACES,
    STRUCTURES,
    TOWERS,
    UPGRADE_SITES,
    WALLS,
    SpaceKind,
    StructureKind,
    near_keep,
)
from siege.games.storm_castle.cards import (
    DEFENDER_SPELLS,
    EQUIPMENT,
    GEAR_LIMIT,
    LADDER,
    LADDERS_PER_ARMY,
    PUSH_ATTACK,
    PUSH_MOVES,
    PUSHABLE,
    SPELL_DRAWS,
    WAR_DRUMS,
    WAR_DRUMS_MOVES,
    Equipment,
    Spell,
    spell_of,
)
from siege.games.storm_castle.decks import (
    BOSS_DECK_SIZE,
    BOSS_DRAW,
    BOSS_HAND_LIMIT,
    CHAMPION_CARD,
    EVENT_CARDS,
    EVENT_DECK_SIZE,
    HAND_BONUS,
    HAND_LIMIT,
    MAGIC_DECK_SIZE,
    MARCH_MIX,
    POWER_CARD_PRICE,
    POWER_DECK_SIZE,
    START_HAND,
    UPGRADE_CARD,
    DefenderEffect,
    EventCard,
)
from siege.games.storm_castle.engine import MAX_PLAYERS, MIN_PLAYERS
from siege.games.storm_castle.power import BOSS_CARDS, POWER_CARDS, Effect, Income, PowerCard
from siege.games.storm_castle.rules.battle import (
    BATTLE_HITS,
    COLLAPSE_ATTACK,
    CRITICAL_DICE,
    HERO_WALLS,
    battle_hit,
    burst_face,
    structure_health,
)
from siege.games.storm_castle.rules.cards_play import FLIP_REACH
from siege.games.storm_castle.rules.economy import COLLECT_GOLD, DEPLOY_ELSEWHERE, DRAWS
from siege.games.storm_castle.rules.economy import LOCATION_BONUS as ECONOMY_LOCATION_BONUS
from siege.games.storm_castle.rules.equipment import KNOCK_ATTACK, KNOCK_MOVES
from siege.games.storm_castle.rules.scoring import DEFENDERS_PER_POINT, GOLD_PER_POINT
from siege.games.storm_castle.rules.terrain import TOWER_COVER, TOWER_RANGE, WALL_COVER
from siege.games.storm_castle.rules.turns import DOUBLE_REINFORCEMENT_TURNS, slots
from siege.games.storm_castle.state import (
    ARMY_MOVES,
    CAP,
    DEFENDER_SIDE,
    LAST_TURN,
    UNIT_MOVES,
    Asking,
    Phase,
    Step,
    Strike,
    Summon,
    new_state,
)

_GROUP_NAMES: dict[int, str] = {
    **dict(enumerate(ARMY_NAMES)),
    DEFENDERS: "Fantasy Defenders",
    PEASANTS: "Peasants",
    HEROES: "Heroes",
}


def _tags(*types: type[Action]) -> str:
    return ", ".join(f"`{kind.__struct_config__.tag}`" for kind in types)


_PHASE_TEXT: dict[str, str] = {
    "setup": "Before turn 1: set-up tokens, armies, battlefields, the shuffles, the deal and "
             "the first defenders.",
    "collect": "Start of a game turn (from turn 2): gold, magic, power-card draws and "
               "remain-in-play income; exhausted spells return to the hands.",
    "vote": "The Boss vote: every seat bids gold at once, sealed until all have bid.",
    "boss": "The new Boss breaks a tie if asked, keeps one of the Boss cards drawn and, "
            "having ousted the old Boss, takes one of his Boss cards and the loot.",
    "order": "Turn order: the Boss keeps one of two turn-order tokens; the rest are dealt.",
    "buy": "Each player in turn order buys and deploys units, equipment and cards.",
    "reinforce": "New defenders are drawn from the pool and placed in the castle.",
    "events": "This turn's event cards are drawn face down (no decision).",
    "turns": "Each player in turn order takes a player turn; event cards are turned up at "
             "their slots (see `event_schedule`).",
    "wrapup": "End of the game turn: hand-limit discards, defenders unflip, event cards "
              "leave the row and the highest Onward March goes back into the deck.",
    "over": "The game has ended: a unit entered the keep or turn 8 finished.",
}

_ASKING_TEXT: dict[str, str] = {
    "": "Nobody is asked: a chance answer is awaited, or the game is over.",
    "army": f"A seat takes its army at set-up: {_tags(a.ChooseArmy)}.",
    "battlefield": f"A seat takes its battlefield at set-up: {_tags(a.ChooseBattlefield)}.",
    "place": f"A seat places the defender just drawn: {_tags(a.PlaceDefender)}.",
    "bid": f"Every seat at once bids gold in the Boss vote: {_tags(a.BidGold)}.",
    "tie": f"The current Boss picks the new Boss among the tied seats: {_tags(a.BreakTie)}.",
    "boss_card": f"The Boss keeps one of the Boss cards on offer: {_tags(a.KeepBossCard)} "
                 "(a Boss card id).",
    "ousted_card": "The new Boss takes one card, blind, from the ousted Boss's hand: "
                   f"{_tags(a.KeepBossCard)} (a position in that hand, from 0).",
    "loot": f"The new Boss takes 1 gold or 1 magic for ousting the old one: "
            f"{_tags(a.TakeBossLoot)}.",
    "token": f"The Boss keeps one of the two turn-order tokens drawn: {_tags(a.ChooseToken)}.",
    "buy": "A player's buy step: "
           f"{_tags(a.BuyUnit, a.BuyChampion, a.BuyUpgrade, a.BuyPowerCard, a.GiveGold)}, "
           f"{_tags(a.BuyEquipment, a.BuyLadder, a.DropEquipment, a.EndBuying)}.",
    "act": "A player's turn: "
           f"{_tags(a.MoveUnit, a.AttackTarget, a.PushUnit, a.CastSpell, a.PlaceLadder)}, "
           f"{_tags(a.PickUpLadder, a.DropEquipment, a.PlayCard, a.PlayPowerCard)}, "
           f"{_tags(a.PlayBossCard, a.EndPlayerTurn)}.",
    "march": "A unit that destroyed an adjacent unit may battle march: "
             f"{_tags(a.BattleMarch, a.HoldPosition)}.",
    "order": "The reference card's holder activates a defender of the Onward March: "
             f"{_tags(a.OrderDefender, a.DrawSpells)}.",
    "discard": f"A player over the hand limit at wrap-up discards: {_tags(a.DiscardPowerCard)}.",
    "boss_discard": "A player holding more than three Boss cards at wrap-up discards: "
                    f"{_tags(a.DiscardBossCard)}.",
    "counter": "A unit's owner chooses how it strikes back in a battle (own attack or an "
               f"attack spell): {_tags(a.CounterWithSpell)}.",
    "hero": f"The reference card's holder places the summoned hero: {_tags(a.PlaceHero)}.",
}

_STEP_TEXT: dict[str, str] = {
    "": "Outside the player-turns phase.",
    "begin": "The current player's turn is starting: the event cards due at its start "
             "resolve first.",
    "act": "The current player is acting (moves, attacks, spells, cards).",
    "end": "The current player ended the turn: the event cards due at its end resolve.",
}

_STRIKE_TEXT: dict[str, str] = {
    "attack": "The attack roll: the Burst die plus a Battle die per attack point above 1.",
    "critical": f"The Burst die showed a critical: {CRITICAL_DICE} extra Battle dice.",
    "defense": "The victim's armor and cover dice; each hit rolled cancels one hit.",
}

_SUMMON_TEXT: dict[str, str] = {
    "wall": f"The {HERO_WALLS}th wall (castle and keep walls together) fell.",
    "keep": "A Dark Force unit was about to enter the keep.",
    "attack": "A Dark Force unit was about to attack the defender in the keep.",
}

_SPACE_KIND_TEXT: dict[str, str] = {
    "battlefield": "A battlefield space outside the castle (orthogonal neighbours only).",
    "rampart": "A castle space behind a castle wall.",
    "tower": "A castle corner tower; a fighting space, never a structure.",
    "ground": "A castle ground, in front of a keep wall.",
    "keep_ground": "A space just outside the keep, behind a keep wall.",
    "keep": "The keep: the first Dark Force unit to enter it wins the game.",
    "location": "A battlefield location off a corner, reached by 2-move special moves.",
}

_STRUCTURE_KIND_TEXT: dict[str, str] = {
    "wall": "A castle wall between a battlefield front space and its rampart.",
    "keep_wall": "A keep wall between a keep ground and the three castle grounds before it.",
    "building": "A castle building (not a space), attacked from its eight neighbours.",
    "upgrade": "A battlefield upgrade site behind a battlefield's start row; standing only "
               "once its owner built it.",
}

_POWER_KIND_TEXT: dict[str, str] = {
    "champion": "The army's champion card: buys and deploys the champion unit.",
    "upgrade": "The battlefield upgrade card: builds the army's upgrade.",
    "common": "A common card (the same in every army), played for its effect.",
    "action": "An army's own action card, played for its effect.",
    "rip": "A remain-in-play card: stays in front of its player once played.",
    "equipment": "Equipment, bought onto a unit during the buy step.",
    "magic": "A spell of a magic army, cast for magic through a caster.",
    "boss": "A Boss card, played like an action card by whoever holds it.",
}

_CHANCE_TEXT: list[dict[str, str]] = [
    {"purpose": "setup_tokens", "kind": "shuffle", "meaning": "The set-up tokens, one per seat."},
    {"purpose": "power_<seat>", "kind": "shuffle",
     "meaning": f"That seat's power deck of {POWER_DECK_SIZE} at set-up."},
    {"purpose": "defender_pool", "kind": "shuffle",
     "meaning": "The defender tokens (all 22, or 18 in the introductory game)."},
    {"purpose": "events", "kind": "shuffle", "meaning": f"The event deck of {EVENT_DECK_SIZE}."},
    {"purpose": "boss", "kind": "shuffle", "meaning": f"The Boss deck of {BOSS_DECK_SIZE}."},
    {"purpose": "magic", "kind": "shuffle",
     "meaning": f"The defenders' magic deck of {MAGIC_DECK_SIZE}."},
    {"purpose": "turn_tokens", "kind": "shuffle", "meaning": "This turn's turn-order tokens."},
    {"purpose": "turn_tokens_rest", "kind": "shuffle",
     "meaning": "The turn-order tokens left after the Boss kept one."},
    {"purpose": "repower_<seat>", "kind": "shuffle",
     "meaning": "That seat's power discard pile, becoming its deck."},
    {"purpose": "reboss", "kind": "shuffle", "meaning": "The Boss discard pile."},
    {"purpose": "reevents", "kind": "shuffle", "meaning": "The event discard pile."},
    {"purpose": "return_event", "kind": "shuffle",
     "meaning": "The event deck with the returning Onward March."},
    {"purpose": "remagic", "kind": "shuffle", "meaning": "The defenders' magic discard pile."},
    {"purpose": "heroes", "kind": "shuffle", "meaning": "The two heroes, when one is summoned."},
    {"purpose": "attack:<uid>", "kind": "dice",
     "meaning": "The attack roll of unit <uid> (-1: an Attack X outside battle)."},
    {"purpose": "critical:<uid>", "kind": "dice",
     "meaning": f"The {CRITICAL_DICE} extra dice of unit <uid>'s critical."},
    {"purpose": "defense:<uid>", "kind": "dice",
     "meaning": "The victim's armor and cover roll against unit <uid>'s strike."},
]


def _codes(values: tuple[str, ...], texts: dict[str, str]) -> list[dict[str, str]]:
    assert set(values) == set(texts), (values, texts)
    return [{"code": value, "meaning": texts[value]} for value in values]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _dice(count: int, what: str) -> str:
    return f"{count} more {what} {'die' if count == 1 else 'dice'}"


def _effect_parts(effect: Effect) -> list[str]:
    parts = []
    if effect.gold:
        parts.append(f"gain {effect.gold} gold (up to {CAP})")
    if effect.magic:
        parts.append(f"gain {effect.magic} magic (up to {CAP})")
    if effect.draw:
        parts.append(f"draw {_plural(effect.draw, 'power card')} from the top of your deck "
                     "(no reshuffle)")
    if effect.moves:
        parts.append(f"add {_plural(effect.moves, 'army move')} to this turn")
    if effect.fury:
        parts.append(f"each of your units rolls {_dice(effect.fury, 'attack')} until the "
                     "next Collect")
    if effect.guard:
        parts.append(f"each of your units rolls {_dice(effect.guard, 'armor')} until the "
                     "next Collect")
    if effect.heal:
        parts.append(f"remove {effect.heal} damage from each of your units")
    if effect.flip:
        parts.append(f"flip up to {_plural(effect.flip, 'defender')} within {FLIP_REACH} "
                     "spaces of your unflipped units, nearest the keep first (never the "
                     "keep's guard)")
    return parts


def _sentence(parts: list[str]) -> str:
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def _effect_data(effect: Effect) -> dict[str, int]:
    return {"gold": effect.gold, "magic": effect.magic, "draw": effect.draw,
            "moves": effect.moves, "fury": effect.fury, "guard": effect.guard,
            "heal": effect.heal, "flip": effect.flip}


def _spell_data(spell: Spell) -> dict[str, Any]:
    return {"cost": spell.cost, "attack": spell.attack, "range": spell.range,
            "fizzle": spell.fizzle, "ward": spell.ward}


def _spell_text(spell: Spell, defender: bool) -> str:
    if defender:
        head = "Defender spell, free"
    else:
        head = f"Spell, {spell.cost} magic, cast through a caster"
    if spell.attack:
        reach = "melee (an adjacent unit)" if spell.range == 0 else f"range {spell.range}"
        body = f"an Attack {spell.attack} at {reach}"
    else:
        body = f"a friendly unit rolls {_dice(spell.ward, 'armor')} until the next Collect"
    after = ("discarded once cast" if spell.fizzle
             else "then exhausted until the next Collect")
    return f"{head}: {body}; {after}."


def _equipment_text(gear: Equipment) -> str:
    bonus = []
    if gear.armor:
        bonus.append(f"+{gear.armor} armor die")
    if gear.attack:
        bonus.append(f"+{gear.attack} attack die")
    return (f"Equipment, {gear.cost} gold in the buy step: one of your units on a battlefield "
            f"gets {' and '.join(bonus)}. At most {GEAR_LIMIT} pieces per unit, never two with "
            "the same name.")


def _power_text(army: int, card: PowerCard) -> str:
    if card.kind == "champion":
        kind = UNIT_KINDS[CHAMPION[army]]
        return (f"Pay {kind.cost} gold in the buy step to deploy your champion, {kind.name}, on "
                f"a start space (+{DEPLOY_ELSEWHERE} gold outside your own battlefield).")
    if card.kind == "upgrade":
        upgrade = UPGRADES[army]
        return (f"Pay {upgrade.cost} gold in the buy step to build {upgrade.name} on your "
                "battlefield's upgrade site.")
    if card.kind == "rip":
        if card.card == WAR_DRUMS:
            return (f"Remain in play: +{_plural(WAR_DRUMS_MOVES, 'army move')} on each of your "
                    "turns. Counts towards your hand limit.")
        gains = [f"{amount} {name}" for amount, name in ((card.income.gold, "gold"),
                                                         (card.income.magic, "magic"))
                 if amount]
        return (f"Remain in play: +{' and +'.join(gains)} at every Collect. Counts towards "
                "your hand limit.")
    if card.kind == "equipment":
        return _equipment_text(EQUIPMENT[card.card])
    if card.kind == "magic":
        spell = spell_of(army, card.card)
        assert spell is not None
        return _spell_text(spell, defender=False)
    return "Play on your turn, then discard it: " + _lower_first(_sentence(_effect_parts(
        card.effect)))


def _power_card(army: int, card: PowerCard) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": card.card,
        "name": card.name,
        "kind": card.kind,
        "text": _power_text(army, card),
        "effect": _effect_data(card.effect),
        "income": _income_data(card.income),
    }
    if card.card in EQUIPMENT:
        gear = EQUIPMENT[card.card]
        entry["equipment"] = {"cost": gear.cost, "armor": gear.armor, "attack": gear.attack}
    spell = spell_of(army, card.card)
    if spell is not None:
        entry["spell"] = _spell_data(spell)
    return entry


def _income_data(income: Income) -> dict[str, int]:
    return {"gold": income.gold, "magic": income.magic}


def _boss_card(card: PowerCard) -> dict[str, Any]:
    return {"id": card.card, "name": card.name, "kind": card.kind,
            "text": "Play on your own turn, then it goes to the Boss discard pile: "
                    + _lower_first(_sentence(_effect_parts(card.effect))),
            "effect": _effect_data(card.effect)}


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _defender_effect_parts(effect: DefenderEffect) -> list[str]:
    parts = []
    if effect.mend:
        parts.append(f"remove {effect.mend} damage from every defender (the hero too)")
    if effect.repair:
        parts.append(f"remove {effect.repair} damage from every standing wall, keep wall and "
                     "castle building")
    if effect.tax:
        parts.append(f"the current player loses {effect.tax} gold")
    if effect.drain:
        parts.append(f"the current player loses {effect.drain} magic")
    if effect.stun:
        parts.append(f"flip the current player's {_plural(effect.stun, 'unit')} nearest the "
                     "keep")
    if effect.levy:
        parts.append(f"every player loses {effect.levy} gold")
    if effect.rally:
        parts.append("every flipped defender unflips")
    return parts


def _event_card(card: EventCard) -> dict[str, Any]:
    if card.march:
        text = (f"Onward March: the defenders' controller activates "
                f"{_plural(card.march, 'different defender')}; each may move up to "
                f"{UNIT_MOVES} spaces inside the castle, then attack (a caster with the spells it "
                "draws) or knock down a ladder.")
    else:
        text = ("Resolved by the rules when turned up (the current player is the one whose "
                "slot it is): " + _lower_first(_sentence(_defender_effect_parts(card.effect))))
    effect = card.effect
    return {"id": card.id, "name": card.name, "march": card.march, "text": text,
            "effect": {"mend": effect.mend, "repair": effect.repair, "tax": effect.tax,
                       "drain": effect.drain, "stun": effect.stun, "levy": effect.levy,
                       "rally": effect.rally}}


def _unit_kind(kind: UnitKind) -> dict[str, Any]:
    army = kind.army
    return {
        "id": kind.id,
        "name": kind.name,
        "group": army,
        "group_name": _GROUP_NAMES[army],
        "cost": kind.cost,
        "attack": kind.attack,
        "health": kind.health,
        "range": kind.range,
        "first_strike": kind.first_strike,
        "caster": kind.caster,
        "armor": kind.armor,
        "tokens": kind.tokens,
        "champion": kind.champion,
        "pushable": kind.id in PUSHABLE,
        "spell_draws": SPELL_DRAWS.get(kind.id, 0),
        "magic_at_collect": generates_magic(army, kind.id) if army < DEFENDERS else 0,
    }


def _army(army: int) -> dict[str, Any]:
    upgrade = UPGRADES[army]
    casting = ("any unit" if army == UNDEAD else "casters only") if army in MAGIC_ARMIES else "none"
    return {
        "id": army,
        "name": ARMY_NAMES[army],
        "unit_kinds": list(ARMY_KINDS[army]),
        "buyable_kinds": list(BUYABLE_KINDS[army]),
        "champion_kind": CHAMPION[army],
        "upgrade": {"name": upgrade.name, "cost": upgrade.cost, "health": upgrade.health},
        "start_gold": START_GOLD,
        "start_magic": START_MAGIC if army in MAGIC_ARMIES else 0,
        "casts_through": casting,
    }


def _space(space_id: int) -> dict[str, Any]:
    space = SPACES[space_id]
    return {
        "id": space.id,
        "kind": space.kind,
        "name": space.name,
        "x": space.x,
        "y": space.y,
        "side": space.side,
        "row": space.row,
        "col": space.col,
        "near_keep": near_keep(space.id),
        "edges": [{"to": edge.to, "cost": edge.cost, "wall": edge.wall}
                  for edge in EDGES[space.id]],
    }


def _structure(structure_id: int) -> dict[str, Any]:
    structure = STRUCTURES[structure_id]
    return {
        "id": structure.id,
        "kind": structure.kind,
        "name": structure.name,
        "side": structure.side,
        "front": list(structure.front),
        "inner": list(structure.inner),
        "x": float(structure.x),
        "y": float(structure.y),
        "health": structure_health(new_state(1, intro=False), structure.id),
        "intro_health": structure_health(new_state(1, intro=True), structure.id),
    }


def _unreached(value: int) -> int:
    return value if value < len(SPACES) else NOBODY


def reference() -> dict[str, Any]:
    """The game's reference data as plain JSON values (str keys, lists, str, int, float,
    bool), the same on every call."""
    return {
        "game": "storm-the-castle",
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "sentinels": {
            "none": NOBODY,
            "defender_side": DEFENDER_SIDE,
            "ladder_card": LADDER,
            "no_roll_striker": -2,
        },
        "sides": [{"id": side, "name": SIDE_NAMES[side]} for side in range(SIDES)],
        "armies": [_army(army) for army in range(len(ARMY_NAMES))],
        "unit_groups": [{"id": group, "name": name} for group, name in _GROUP_NAMES.items()],
        "unit_kinds": [_unit_kind(kind) for kind in UNIT_KINDS],
        "defender_tokens": [{"id": token, "kind": kind, "name": UNIT_KINDS[kind].name}
                            for token, kind in enumerate(DEFENDER_TOKENS)],
        "heroes": list(HERO_KINDS),
        "intro_towers": [{"space": tower, "token": token, "kind": DEFENDER_TOKENS[token]}
                         for tower, token in zip(TOWERS, INTRO_TOKENS, strict=True)],
        "spaces": [_space(space.id) for space in SPACES],
        "keep": KEEP,
        "distances": [[_unreached(d) for d in row] for row in DISTANCE],
        "structures": [_structure(structure.id) for structure in STRUCTURES],
        "battlefields": [
            {"side": side, "name": f"{SIDE_NAMES[side]} battlefield",
             "spaces": list(BATTLEFIELD[side]), "start_spaces": list(START_SPACES[side]),
             "walls": list(WALLS[3 * side:3 * side + 3]), "upgrade_site": UPGRADE_SITES[side]}
            for side in range(SIDES)],
        "locations": [
            {"index": index, "name": LOCATION_NAMES[index], "space": LOCATIONS[index],
             "bonus": ECONOMY_LOCATION_BONUS}
            for index in range(len(LOCATIONS))],
        "power_cards": [[_power_card(army, card) for card in POWER_CARDS[army].values()]
                        for army in range(len(ARMY_NAMES))],
        "boss_cards": [_boss_card(card) for card in BOSS_CARDS],
        "event_cards": [_event_card(card) for card in EVENT_CARDS],
        "defender_spells": [{"id": spell.card, "name": spell.name,
                             "text": _spell_text(spell, defender=True), **_spell_data(spell)}
                            for spell in DEFENDER_SPELLS],
        "ladder": {"card": LADDER, "name": EQUIPMENT[LADDER].name, "cost": EQUIPMENT[LADDER].cost,
                   "per_army": LADDERS_PER_ARMY},
        "dice": {
            "sides": 6,
            "burst": [burst_face(value) for value in range(1, 7)],
            "battle": ["hit" if battle_hit(value) else "blank" for value in range(1, 7)],
            "battle_hits": list(BATTLE_HITS),
            "critical_dice": CRITICAL_DICE,
        },
        "event_schedule": {str(players): slots(players)
                           for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
        "codes": {
            "phases": _codes(get_args(Phase), _PHASE_TEXT),
            "asking": _codes(get_args(Asking), _ASKING_TEXT),
            "steps": _codes(get_args(Step), _STEP_TEXT),
            "strike_steps": _codes(get_args(get_type_hints(Strike)["step"]), _STRIKE_TEXT),
            "summoning": _codes(get_args(get_type_hints(Summon)["reason"]), _SUMMON_TEXT),
            "space_kinds": _codes(get_args(SpaceKind), _SPACE_KIND_TEXT),
            "structure_kinds": _codes(get_args(StructureKind), _STRUCTURE_KIND_TEXT),
            "power_card_kinds": _codes(tuple(_POWER_KIND_TEXT), _POWER_KIND_TEXT),
            "loot": [{"code": "gold", "meaning": "1 gold (up to the cap)."},
                     {"code": "magic", "meaning": "1 magic (up to the cap)."}],
            "chance": _CHANCE_TEXT,
            "event_slots": [
                {"code": "2i", "meaning": "At the start of the turn of the i-th player in "
                                          "turn order (i from 0)."},
                {"code": "2i+1", "meaning": "At the end of the turn of the i-th player in "
                                            "turn order."}],
        },
        "constants": {
            "last_turn": LAST_TURN,
            "army_moves": ARMY_MOVES,
            "unit_moves": UNIT_MOVES,
            "cap": CAP,
            "units_per_army": UNITS_PER_ARMY,
            "start_gold": START_GOLD,
            "start_magic": START_MAGIC,
            "start_hand": START_HAND,
            "collect_gold": COLLECT_GOLD,
            "collect_draws": DRAWS,
            "location_bonus": ECONOMY_LOCATION_BONUS,
            "deploy_elsewhere": DEPLOY_ELSEWHERE,
            "power_card_price": POWER_CARD_PRICE,
            "power_deck_size": POWER_DECK_SIZE,
            "boss_deck_size": BOSS_DECK_SIZE,
            "event_deck_size": EVENT_DECK_SIZE,
            "magic_deck_size": MAGIC_DECK_SIZE,
            "onward_march_mix": {str(n): count for n, count in MARCH_MIX.items()},
            "champion_card": CHAMPION_CARD,
            "upgrade_card": UPGRADE_CARD,
            "war_drums_card": WAR_DRUMS,
            "hand_limit": HAND_LIMIT,
            "hand_bonus": HAND_BONUS,
            "boss_hand_limit": BOSS_HAND_LIMIT,
            "boss_draw": BOSS_DRAW,
            "gear_limit": GEAR_LIMIT,
            "ladders_per_army": LADDERS_PER_ARMY,
            "push_moves": PUSH_MOVES,
            "push_attack": PUSH_ATTACK,
            "knock_moves": KNOCK_MOVES,
            "knock_attack": KNOCK_ATTACK,
            "collapse_attack": COLLAPSE_ATTACK,
            "location_move_cost": LOCATION_MOVE_COST,
            "path_move_cost": PATH_MOVE_COST,
            "near_keep": NEAR_KEEP,
            "tower_cover": TOWER_COVER,
            "wall_cover": WALL_COVER,
            "tower_range": TOWER_RANGE,
            "flip_reach": FLIP_REACH,
            "hero_walls": HERO_WALLS,
            "double_reinforcement_turns": list(DOUBLE_REINFORCEMENT_TURNS),
            "gold_per_vilest_point": GOLD_PER_POINT,
            "defenders_per_vilest_point": DEFENDERS_PER_POINT,
        },
    }
