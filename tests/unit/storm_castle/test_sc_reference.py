"""The reference data (``reference.py``): plain JSON built from the data modules, covering every
card, unit kind, space, structure and code a view can show."""

from __future__ import annotations

import re
from typing import Any, get_args, get_type_hints

import msgspec
import pytest
from storm_support import ENGINE, created

from siege.contracts.events import Event
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import (
    ARMY_KINDS,
    ARMY_NAMES,
    CHAMPION,
    DEFENDER_TOKENS,
    DEFENDERS,
    HERO_KINDS,
    INTRO_TOKENS,
    UNIT_KINDS,
    UPGRADES,
)
from siege.games.storm_castle.board import DISTANCE, EDGES, KEEP, SPACES, STRUCTURES, TOWERS
from siege.games.storm_castle.bots import GreedyBot
from siege.games.storm_castle.cards import DEFENDER_SPELLS, EQUIPMENT, LADDER, spell_of
from siege.games.storm_castle.decks import (
    BOSS_DECK_SIZE,
    EVENT_CARDS,
    EVENT_DECK_SIZE,
    MAGIC_DECK_SIZE,
    MARCH_MIX,
    POWER_DECK_SIZE,
)
from siege.games.storm_castle.power import BOSS_CARDS, POWER_CARDS
from siege.games.storm_castle.reference import reference
from siege.games.storm_castle.rules.turns import slots
from siege.games.storm_castle.state import Asking, Phase, Step, Strike, Summon
from siege.games.storm_castle.views import StormView
from siege.testing.playout import FairChance

REF = reference()


def codes(key: str) -> list[str]:
    return [entry["code"] for entry in REF["codes"][key]]


def nonzero(struct: Any) -> dict[str, Any]:
    return {k: v for k, v in msgspec.structs.asdict(struct).items() if v}



def test_every_power_card_of_every_army_appears_once_with_the_data_modules_numbers() -> None:
    assert len(REF["power_cards"]) == len(ARMY_NAMES)
    for army, cards in enumerate(REF["power_cards"]):
        # The power deck shuffle deals ids 0..POWER_DECK_SIZE-1.
        assert [card["id"] for card in cards] == list(range(POWER_DECK_SIZE))
        assert sorted(POWER_CARDS[army]) == list(range(POWER_DECK_SIZE))
        for entry in cards:
            card = POWER_CARDS[army][entry["id"]]
            assert entry["name"] == card.name and entry["kind"] == card.kind
            assert entry["text"]
            assert entry["effect"] == msgspec.structs.asdict(card.effect)
            assert entry["income"] == msgspec.structs.asdict(card.income)
            for amount in nonzero(card.effect).values():
                assert str(amount) in entry["text"]
            if card.card in EQUIPMENT:
                gear = EQUIPMENT[card.card]
                assert entry["equipment"] == {"cost": gear.cost, "armor": gear.armor,
                                              "attack": gear.attack}
                assert f"{gear.cost} gold" in entry["text"]
            spell = spell_of(army, card.card)
            if spell is not None:
                assert entry["spell"] == {k: v for k, v in msgspec.structs.asdict(spell).items()
                                          if k not in ("card", "name")}
                assert f"{spell.cost} magic" in entry["text"]
            else:
                assert "spell" not in entry
        assert cards[0]["kind"] == "champion"
        assert UNIT_KINDS[CHAMPION[army]].name in cards[0]["text"]
        assert UPGRADES[army].name in cards[1]["text"]


def test_every_boss_card_appears_once_with_its_effect() -> None:
    cards = REF["boss_cards"]
    assert [card["id"] for card in cards] == list(range(BOSS_DECK_SIZE))
    for card, entry in zip(BOSS_CARDS, cards, strict=True):
        assert entry["name"] == card.name and entry["text"]
        assert entry["effect"] == msgspec.structs.asdict(card.effect)
        for amount in nonzero(card.effect).values():
            assert str(amount) in entry["text"]


def test_every_event_card_appears_once_with_its_march_and_effect() -> None:
    cards = REF["event_cards"]
    assert [card["id"] for card in cards] == list(range(EVENT_DECK_SIZE))
    for card, entry in zip(EVENT_CARDS, cards, strict=True):
        assert entry["name"] == card.name and entry["text"]
        assert entry["march"] == card.march
        assert entry["effect"] == msgspec.structs.asdict(card.effect)
        if card.march:
            assert f"activates {card.march} different defender" in entry["text"]
    marches = [entry["march"] for entry in cards if entry["march"]]
    assert {n: marches.count(n) for n in MARCH_MIX} == MARCH_MIX
    assert REF["constants"]["onward_march_mix"] == {str(n): c for n, c in MARCH_MIX.items()}


def test_every_defender_spell_appears_once() -> None:
    spells = REF["defender_spells"]
    assert [spell["id"] for spell in spells] == list(range(MAGIC_DECK_SIZE))
    for spell, entry in zip(DEFENDER_SPELLS, spells, strict=True):
        assert entry["name"] == spell.name and entry["text"]
        assert (entry["cost"], entry["attack"], entry["range"], entry["fizzle"]) == (
            spell.cost, spell.attack, spell.range, spell.fizzle)
        assert f"Attack {spell.attack}" in entry["text"]
    assert REF["ladder"]["card"] == LADDER == REF["sentinels"]["ladder_card"]
    assert REF["ladder"]["cost"] == EQUIPMENT[LADDER].cost


def test_unit_kinds_armies_and_defender_tokens_match_the_rosters() -> None:
    kinds = REF["unit_kinds"]
    assert [kind["id"] for kind in kinds] == list(range(len(UNIT_KINDS)))
    for kind, entry in zip(UNIT_KINDS, kinds, strict=True):
        assert entry == {**entry, "name": kind.name, "group": kind.army, "cost": kind.cost,
                         "attack": kind.attack, "health": kind.health, "range": kind.range,
                         "first_strike": kind.first_strike, "caster": kind.caster,
                         "armor": kind.armor, "tokens": kind.tokens, "champion": kind.champion}
    assert [group["id"] for group in REF["unit_groups"]] == sorted(
        {kind.army for kind in UNIT_KINDS})
    for army, entry in enumerate(REF["armies"]):
        assert entry["name"] == ARMY_NAMES[army]
        assert entry["unit_kinds"] == list(ARMY_KINDS[army])
        assert entry["champion_kind"] == CHAMPION[army]
        assert entry["upgrade"]["name"] == UPGRADES[army].name
    tokens = REF["defender_tokens"]
    assert [t["kind"] for t in tokens] == list(DEFENDER_TOKENS)
    assert all(UNIT_KINDS[t["kind"]].army == DEFENDERS for t in tokens)
    assert REF["heroes"] == list(HERO_KINDS)
    assert [(t["space"], t["token"]) for t in REF["intro_towers"]] == list(
        zip(TOWERS, INTRO_TOKENS, strict=True))


def test_spaces_edges_distances_and_structures_match_the_board() -> None:
    spaces = REF["spaces"]
    assert [space["id"] for space in spaces] == list(range(len(SPACES)))
    for space, entry in zip(SPACES, spaces, strict=True):
        assert (entry["kind"], entry["name"], entry["x"], entry["y"], entry["side"],
                entry["row"], entry["col"]) == (space.kind, space.name, space.x, space.y,
                                                space.side, space.row, space.col)
        assert entry["edges"] == [msgspec.structs.asdict(edge) for edge in EDGES[space.id]]
    assert spaces[REF["keep"]]["kind"] == "keep" and REF["keep"] == KEEP
    for row, ref_row in zip(DISTANCE, REF["distances"], strict=True):
        assert ref_row == [d if d < len(SPACES) else -1 for d in row]
    structures = REF["structures"]
    assert [s["id"] for s in structures] == list(range(len(STRUCTURES)))
    for structure, entry in zip(STRUCTURES, structures, strict=True):
        assert (entry["kind"], entry["name"], entry["side"], entry["front"], entry["inner"]) == (
            structure.kind, structure.name, structure.side, list(structure.front),
            list(structure.inner))
    assert {s["intro_health"] for s in structures if s["kind"] == "wall"} == {2}
    for field in REF["battlefields"]:
        assert all(spaces[s]["kind"] == "battlefield" and spaces[s]["row"] == 2
                   for s in field["start_spaces"])
        assert structures[field["upgrade_site"]]["kind"] == "upgrade"


def test_codes_list_every_value_the_state_can_hold() -> None:
    assert codes("phases") == list(get_args(Phase))
    assert codes("asking") == list(get_args(Asking))
    assert codes("steps") == list(get_args(Step))
    assert codes("strike_steps") == list(get_args(get_type_hints(Strike)["step"]))
    assert codes("summoning") == list(get_args(get_type_hints(Summon)["reason"]))
    kinds = {card.kind for deck in POWER_CARDS for card in deck.values()}
    assert kinds | {"boss"} == set(codes("power_card_kinds"))
    # Every action is named under the decision that asks for it.
    texts = " ".join(entry["meaning"] for entry in REF["codes"]["asking"])
    for action in a.ACTION_TYPES:
        assert f"`{action.__struct_config__.tag}`" in texts
    for players in range(1, 5):
        assert REF["event_schedule"][str(players)] == slots(players)


def _chance_patterns() -> list[re.Pattern[str]]:
    out = []
    for entry in REF["codes"]["chance"]:
        pattern = re.escape(entry["purpose"]).replace("<seat>", r"\d+").replace(
            "<uid>", r"-?\d+")
        out.append(re.compile(pattern + "$"))
    return out


def _check_view(view: StormView) -> None:
    kinds, spaces, structures = REF["unit_kinds"], REF["spaces"], REF["structures"]
    assert view.phase in codes("phases") and view.asking in codes("asking")
    assert view.step in codes("steps")
    assert view.summoning in ["", *codes("summoning")]
    assert view.chance == "" or any(p.match(view.chance) for p in _chance_patterns())
    for unit in view.units:
        assert kinds[unit.kind]["name"] == unit.name
        assert kinds[unit.kind]["health"] == unit.health
        assert 0 <= unit.space < len(spaces)
        assert unit.on_ladder == -1 or structures[unit.on_ladder]["kind"] in ("wall",
                                                                                "keep_wall")
    for entry, shown in zip(structures, view.structures, strict=True):
        assert (entry["id"], entry["kind"]) == (shown.id, shown.kind)
        assert shown.health == entry["intro_health" if view.intro else "health"]
    for seat in range(view.players):
        army = view.armies[seat]
        piles = [*view.discards[seat], *view.exhausted[seat], *view.in_play[seat]]
        if seat == view.seat:
            piles += view.hand
        for card in piles:
            assert REF["power_cards"][army][card]["id"] == card
    for unit in view.units:
        for card in unit.gear:
            assert card == LADDER or REF["power_cards"][view.armies[unit.owner]][card][
                "kind"] == "equipment"
    for card in (*view.boss_hand, *view.boss_offer):
        assert REF["boss_cards"][card]["id"] == card
    for card in (*view.event_discard, *view.revealed):
        assert REF["event_cards"][card]["id"] == card
    if view.march is not None and view.march.card != -1:
        assert REF["event_cards"][view.march.card]["march"] > 0
    for card in (*view.drawn_spells, *view.magic_discard):
        assert REF["defender_spells"][card]["id"] == card
    for kind in view.to_place:
        assert kinds[kind]["group"] == DEFENDERS
    assert all(0 <= code < 2 * view.players for code in view.event_plan)
    if view.battle is not None:
        assert view.battle.step in ["", *codes("strike_steps")]
        if view.battle.structure != -1:
            assert 0 <= view.battle.structure < len(structures)


_SPACE_FIELDS = ("space", "to")


def _check_actions(legal: list[Any]) -> None:
    for action in legal:
        for field in _SPACE_FIELDS:
            if hasattr(action, field):
                assert 0 <= getattr(action, field) < len(REF["spaces"])
        for field in ("structure", "wall", "knock"):
            value = getattr(action, field, -1)
            assert value == -1 or 0 <= value < len(REF["structures"])


def _play(players: int, intro: bool, seed: str) -> tuple[list[Event], set[str]]:
    rng = BotRng(seed.encode(), "choices")
    bot = GreedyBot()
    purposes: set[str] = set()
    chance = FairChance(seed.encode(), seed)

    def choose(state: Any, seat: int, legal: list[Any]) -> Any:
        for other in range(players):
            _check_view(ENGINE.view(state, other))
        _check_actions(legal)
        return bot.choose(ENGINE.view(state, seat), legal, rng)

    def answer(need: Any, request: int) -> Event:
        purposes.add(need.purpose)
        return chance(need, request)

    _, events = play_local(ENGINE, created(players, intro), choose, answer)
    return events, purposes


@pytest.mark.parametrize(("players", "intro"), [(4, False), (3, False), (1, True)])
def test_every_id_a_view_shows_has_an_entry(players: int, intro: bool) -> None:
    _, purposes = _play(players, intro, f"reference-{players}-{intro}")
    patterns = _chance_patterns()
    for purpose in purposes:
        assert any(p.match(purpose) for p in patterns), purpose
