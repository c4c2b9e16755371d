"""The reference data a client reads the views with: plain JSON, built from the data modules,
every card and every square there, every code a view can show listed, and the descriptions of
the contract pointing at keys that exist."""

from __future__ import annotations

import re
from typing import Any, get_args

import msgspec
import pytest

from siege.contracts.events import MatchCreated
from siege.dice.fair import BotRng
from siege.engine.codecs import view_type
from siege.engine.local import play_local
from siege.games.castle_assault import actions as a
from siege.games.castle_assault import board, decks
from siege.games.castle_assault.card_model import Effect, EnvKind, Kind, Target, Timing
from siege.games.castle_assault.cards import (
    BY_NAME,
    CARDS,
    ENVIRONMENT_CARDS,
    WARBAND_CARDS,
    WARBAND_NAMES,
    stock_deck,
)
from siege.games.castle_assault.engine import CastleAssault
from siege.games.castle_assault.heroes import HEROES
from siege.games.castle_assault.reference import reference
from siege.games.castle_assault.rules import ending, environment, open_phase, setup, turn
from siege.games.castle_assault.rules.hand import HAND_LIMIT
from siege.games.castle_assault.rules.stats import MOMENTUM_MAX, SMASH_AREA
from siege.games.castle_assault.state import (
    HERO_INSTANCE,
    NOBODY,
    UID_BASE,
    Asking,
    EndReason,
    Phase,
    State,
    Step,
)
from siege.games.castle_assault.views import CastleAssaultView
from siege.testing.playout import FairChance

ENGINE = CastleAssault()
REF = reference()


def codes(key: str) -> list[str]:
    return [entry["code"] for entry in REF[key]]


def _plain(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return isinstance(value, str | int | float | bool)



def test_every_card_appears_once_by_id_with_a_name_and_text() -> None:
    assert [c["id"] for c in REF["cards"]] == list(range(len(CARDS)))
    dealt = {c for w in WARBAND_CARDS for c in stock_deck(w)}
    dealt |= {c.id for c in CARDS if c.kind in ("unit", "command")}  # any legal deck
    dealt |= set(ENVIRONMENT_CARDS) | {BY_NAME[h.name].id for h in HEROES.values()}
    assert dealt == set(range(len(CARDS)))
    names = [c["name"] for c in REF["cards"]]
    assert len(set(names)) == len(names)
    for entry in REF["cards"]:
        assert entry["name"].strip() and entry["text"].strip(), entry


def test_card_numbers_are_the_data_modules_numbers() -> None:
    for entry, card in zip(REF["cards"], CARDS, strict=True):
        data = msgspec.to_builtins(card)
        assert entry["name"] == card.name and entry["kind"] == card.kind
        for field, value in data.items():
            if field == "text":
                assert entry["text"] == (card.text or entry["text"])
            elif value is None:
                assert field not in entry
            else:
                assert entry[field] == value, (card.name, field)
        assert set(entry) <= set(data)
        assert set(data) <= set(REF["card_fields"])
    assert BY_NAME["Drake"].id == REF["cards"][BY_NAME["Drake"].id]["id"]
    assert REF["cards"][BY_NAME["Soot"].id]["attack"] == BY_NAME["Soot"].attack


def test_heroes_warbands_and_decks_match_the_data() -> None:
    heroes = {h["key"]: h for h in REF["heroes"]}
    assert set(heroes) == set(HEROES)
    for key, hero in HEROES.items():
        entry = heroes[key]
        assert REF["cards"][entry["card"]]["name"] == hero.name
        assert REF["cards"][entry["card"]]["kind"] == "hero"
        for field, value in msgspec.to_builtins(hero).items():
            assert entry[field] == value
            assert field in REF["hero_fields"]
    warbands = {w["key"]: w for w in REF["warbands"]}
    assert set(warbands) == set(WARBAND_CARDS) == set(WARBAND_NAMES)
    for key, entry in warbands.items():
        assert entry["stock_deck"] == stock_deck(key)
        assert entry["name"] == WARBAND_NAMES[key] and entry["hero"] in HEROES
    assert REF["decks"]["min_cards"] == decks.MIN_CARDS
    assert REF["decks"]["max_cards"] == decks.MAX_CARDS
    assert REF["decks"]["max_copies"] == decks.MAX_COPIES
    assert REF["environment_deck"] == list(ENVIRONMENT_CARDS)
    assert all(REF["cards"][c]["kind"] == "environment" for c in ENVIRONMENT_CARDS)


def test_every_square_lane_and_row_has_an_entry() -> None:
    squares = {(s["lane"], s["row"]): s for s in REF["squares"]}
    assert len(squares) == len(REF["squares"]) == board.LANES * board.ROWS
    for (lane, row), entry in squares.items():
        assert board.on_board(lane, row) and entry["name"]
        assert all(tuple(n) in squares for n in entry["neighbours"])
        for seat in (0, 1):
            ahead = board.ahead(seat, lane, row, 1)
            assert entry["ahead"][seat] == (list(ahead) if board.on_board(*ahead) else [])
    assert [ln["index"] for ln in REF["lanes"]] == list(range(board.LANES))
    assert [ln["name"] for ln in REF["lanes"]] == list(board.LANE_NAMES)
    assert [r["index"] for r in REF["rows"]] == list(range(board.ROWS))
    for seat, row in enumerate(board.CASTLE_ROW):
        assert REF["rows"][row]["area"] == "castle" and REF["rows"][row]["owner"] == seat
    assert REF["board"]["middle_rows"] == list(environment.MIDDLE_ROWS)
    assert REF["rubble_lanes"] == environment.RUBBLE_LANES
    values = [s["value"] for s in REF["momentum"]["spaces"]]
    assert values == list(range(-MOMENTUM_MAX, MOMENTUM_MAX + 1))
    assert len(REF["environment_meter"]["spaces"]) == environment.METER_SPACES


def test_every_code_is_listed() -> None:
    assert codes("phases") == list(get_args(Phase))
    assert codes("steps") == list(get_args(Step))
    assert codes("asking") == list(get_args(Asking))
    assert codes("end_reasons") == list(get_args(EndReason))
    assert codes("windows") == ["", "movement", "combat"]
    assert codes("card_kinds") == list(get_args(Kind))
    assert codes("timings") == list(get_args(Timing))
    assert codes("targets") == list(get_args(Target))
    assert codes("environment_kinds") == list(get_args(EnvKind))
    assert codes("effects") == [e for e in get_args(Effect) if e]
    assert {e["play_command"] for e in REF["effects"]} <= {"unit", "lane", "unit_lane", "none"}
    assert set(codes("chance_purposes")) == {
        setup.deck_purpose(0), setup.deck_purpose(1), environment.SHUFFLE_PURPOSE,
        setup.ROLLOFF_PURPOSE, turn.MOMENTUM_PURPOSE, open_phase.CHARGE_PURPOSE,
        environment.RESHUFFLE_PURPOSE, ending.FINAL_ROLLOFF_PURPOSE}


def test_constants_are_the_rules_constants() -> None:
    c = REF["constants"]
    assert c["castle_health"] == board.CASTLE_HEALTH
    assert c["hand_limit"] == HAND_LIMIT and c["opening_hand"] == setup.OPENING_HAND
    assert c["momentum_max"] == MOMENTUM_MAX and c["smash_area"] == SMASH_AREA
    assert c["turn_limit"] == ending.TURN_LIMIT
    assert c["buy_draw_cost"] == open_phase.GLOBAL_DRAW_COST
    assert c["shift_momentum_spaces"] == open_phase.GLOBAL_MOMENTUM_SPACES
    assert (c["uid_base"], c["hero_instance"]) == (UID_BASE, HERO_INSTANCE)
    assert (c["castle_target"], c["nobody"]) == (a.CASTLE_TARGET, NOBODY)
    assert (c["resources_per_turn"], c["resources_second_player_first_turn"]) == (1, 2)


def _descriptions() -> list[str]:
    types = [*ENGINE.event_types, *ENGINE.action_types, view_type("castle-assault")]
    _, components = msgspec.json.schema_components(types)
    found = []
    for schema in components.values():
        found.append(schema.get("description", ""))
        found += [p.get("description", "") for p in schema.get("properties", {}).values()]
    return found


def test_the_contract_points_at_keys_that_exist() -> None:
    pointers = re.compile(r"`([a-z_]+)(?:\[\]\.([a-z_]+))?` (?:of|in) the reference data")
    seen = set()
    for text in _descriptions():
        for key, sub in pointers.findall(text):
            seen.add(key)
            assert key in REF, (key, text)
            if sub:
                assert sub in REF[key][0], (key, sub, text)
        for name in re.findall(r"`constants\.([a-z_]+)`", text):
            assert name in REF["constants"], text
    assert {"cards", "lanes", "heroes", "steps", "effects", "decks"} <= seen


@pytest.mark.parametrize("warbands", ["dragons,dwarves", "fae,war-engine", "war-engine,fae"])
def test_everything_a_played_view_shows_is_in_the_reference(warbands: str) -> None:
    rng = BotRng(warbands.encode(), "random")
    effects = {e["code"]: e["play_command"] for e in REF["effects"]}
    squares = {(s["lane"], s["row"]) for s in REF["squares"]}
    card_ids = range(len(REF["cards"]))
    shown: dict[str, set[Any]] = {k: set() for k in ("phase", "step", "asking", "window")}

    heroes = {h["key"]: h["card"] for h in REF["heroes"]}

    def check(view: CastleAssaultView, state: State) -> None:
        for key in shown:
            shown[key].add(getattr(view, key))
        assert view.chance in codes("chance_purposes") + [""]
        assert view.ended in codes("end_reasons")
        for unit in view.units:
            assert (unit.lane, unit.row) in squares and unit.card in card_ids
            assert unit.uid // UID_BASE == unit.seat
        assert all(tuple(sq) in squares for sq in view.rubble)
        assert all(c in card_ids for c in view.hand_cards + view.resources + view.env_discard)
        assert view.heroes_played == [heroes[key] for key in state.hero_keys]
        assert -MOMENTUM_MAX <= view.momentum <= MOMENTUM_MAX

    def choose(state: State, seat: int, legal: list[Any]) -> Any:
        for s in (0, 1):
            check(msgspec.msgpack.decode(msgspec.msgpack.encode(ENGINE.view(state, s)),
                                         type=CastleAssaultView), state)
        for action in legal:
            if isinstance(action, a.PlayCommand):
                effect = CARDS[state.cards[seat][action.card]].effect
                pattern = {"unit": (True, False), "lane": (False, True),
                           "unit_lane": (True, True), "none": (False, False)}[effects[effect]]
                assert (action.unit != -1, action.lane != -1) == pattern, (effect, action)
        return legal[rng.randrange(len(legal))]

    created = MatchCreated(game="castle-assault", players=2, seat_names=["a", "b"],
                           options={"warbands": warbands})
    state, _ = play_local(ENGINE, created, choose, FairChance(b"ref", warbands))
    assert ENGINE.is_terminal(state)
    final = ENGINE.view(state, 0)
    check(final, state)
    assert final.phase in codes("phases")
    for key, listed in (("phase", "phases"), ("step", "steps"), ("asking", "asking"),
                        ("window", "windows")):
        assert shown[key] <= set(codes(listed)), key
